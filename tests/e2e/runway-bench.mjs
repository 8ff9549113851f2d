// The Runway panel's sliders in headless Chrome, measured: the release
// studio (dist/) on the demo, planned by itself on open; then the CPU
// headroom slider dragged 80 → 40 % a step at a time and the growth by hand
// 0 → 10 % a month, each step an input event as a drag sends. Per step,
// in the page: from the input event to the chart drawn again with the
// answer and the next animation frame (the redraw a planner sees), and
// the worker's own time (the status line's "redrawn in … ms"). Then the
// growth slider let go: the four levers measured, then the sizes a growth up
// to the slider's largest value needs planned ahead (`data-warm="done"` on
// the panel), and the growth dragged 10.5 → 20 % a month, values not seen
// before (its first pass after the warm-up). Last, the page reloaded (a
// fresh worker) and timed to the warm-up done from scratch.
//
//   node tests/e2e/runway-bench.mjs
//
// Not a *.test.mjs: `make test` never runs it. The native side of the
// same work: `cargo bench -p skyplan-bench --bench runway`.
// Environment as the e2e tests: SKYPLAN_DIST, CHROMIUM.

import { openStudio, openDemo, closeStudio, WAIT_MS } from './helpers.mjs';

const app = await openStudio('runway-bench');
const { page } = app;
try {
  await openDemo();
  const t0 = Date.now();
  await page.reload();
  await page.waitForSelector('body[data-ready="true"]', { timeout: WAIT_MS });
  await page.waitForFunction(() => /planned in/.test(document.querySelector('[data-testid=runway-status]')?.textContent ?? ''), undefined, { timeout: 300_000 });
  const openMs = Date.now() - t0;
  const planMs = await page.evaluate(() => Number(document.querySelector('[data-testid=runway-status]').textContent.match(/planned in ([\d.]+) ms/)[1]));
  const leversT0 = Date.now();
  await page.waitForFunction(() => {
    const rows = [...document.querySelectorAll('[data-testid=runway-lever]')];
    return rows.length === 4 && rows.every((r) => r.dataset.state === 'measured');
  }, undefined, { timeout: 600_000 });
  const leversMs = Date.now() - leversT0;

  /** One drag step: the slider `testid` set to `value`; the page's ms to the redrawn chart's next frame, and the worker's. */
  async function step(testid, value) {
    return page.evaluate(({ testid, value }) => new Promise((resolve) => {
      const canvas = document.querySelector('canvas[data-testid=runway-chart]');
      const status = document.querySelector('[data-testid=runway-status]');
      const key = canvas.dataset.key;
      const slider = document.querySelector(`[data-testid=${testid}]`);
      const t = performance.now();
      const done = () => requestAnimationFrame(() => {
        const m = status.textContent.match(/redrawn in ([\d.]+) ms/);
        resolve({ page: performance.now() - t, worker: m ? Number(m[1]) : NaN });
      });
      const watch = new MutationObserver(() => {
        if (canvas.dataset.key !== key && canvas.dataset.drawn === 'true' && status.dataset.running === 'false') {
          watch.disconnect();
          done();
        }
      });
      watch.observe(document.body, { attributes: true, subtree: true, childList: true, characterData: true });
      slider.value = value;
      slider.dispatchEvent(new Event('input', { bubbles: true }));
    }), { testid, value });
  }
  const spread = (xs) => {
    const s = [...xs].sort((a, b) => a - b);
    const at = (q) => s[Math.round((s.length - 1) * q)];
    return [at(0.5), at(0.9), s[s.length - 1]].map((x) => x.toFixed(1));
  };
  const rows = [];
  const cpu = [];
  for (let v = 79; v >= 40; v -= 1) cpu.push(await step('runway-cpu-slider', String(v)));
  rows.push(['CPU target dragged 80 → 40 %', cpu]);
  await page.locator('[data-testid=runway-cpu-slider]').evaluate((s) => s.dispatchEvent(new Event('change', { bubbles: true })));
  await page.selectOption('[data-testid=runway-growth]', 'monthly');
  await page.waitForSelector('[data-testid=runway-percent-slider]');
  await page.waitForFunction(() => document.querySelector('[data-testid=runway-status]')?.dataset.running === 'false');
  const growth = [];
  for (let v = 0.5; v <= 10; v += 0.5) growth.push(await step('runway-percent-slider', String(v)));
  rows.push(['growth dragged 0.5 → 10 % a month (first pass, right after opening)', growth]);
  const warmDone = () => page.waitForFunction(() => document.querySelector('[data-testid=runway-panel]')?.dataset.warm === 'done', undefined, { timeout: 600_000 });
  const warmFigures = () => page.evaluate(() => {
    const d = document.querySelector('[data-testid=runway-panel]').dataset;
    return { sizes: Number(d.warmSizes), ms: Number(d.warmMs) };
  });
  const releaseT0 = Date.now();
  await page.locator('[data-testid=runway-percent-slider]').evaluate((s) => s.dispatchEvent(new Event('change', { bubbles: true })));
  await warmDone();
  const afterRelease = { wall: Date.now() - releaseT0, ...(await warmFigures()) };
  const warmed = [];
  for (let v = 10.5; v <= 20; v += 0.5) warmed.push(await step('runway-percent-slider', String(v)));
  rows.push(['growth dragged 10.5 → 20 % a month (first pass, after the warm-up)', warmed]);
  await page.locator('[data-testid=runway-percent-slider]').evaluate((s) => s.dispatchEvent(new Event('change', { bubbles: true })));
  await page.waitForFunction(() => document.querySelector('[data-testid=runway-status]')?.dataset.running === 'false');
  const reloadT0 = Date.now();
  await page.reload();
  await page.waitForSelector('body[data-ready="true"]', { timeout: WAIT_MS });
  await warmDone();
  const fresh = { wall: Date.now() - reloadT0, ...(await warmFigures()) };
  console.log(`opened and planned: ${openMs} ms from reload (worker ${planMs.toFixed(0)} ms); the four levers then ${leversMs} ms`);
  console.log(`warm-up after the growth slider's release (0.5 … 10 % already seen): done ${afterRelease.wall} ms after the release (levers first), ${afterRelease.sizes} sizes re-planned in ${afterRelease.ms.toFixed(0)} ms of worker time`);
  console.log(`warm-up from a fresh worker (page reloaded at 20 % a month): done ${fresh.wall} ms after the reload (plan and levers first), ${fresh.sizes} sizes re-planned in ${fresh.ms.toFixed(0)} ms of worker time`);
  console.log('| drag | steps | page median ms | p90 | max | worker median ms | p90 | max |');
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
  for (const [name, xs] of rows) {
    console.log(`| ${name} | ${xs.length} | ${spread(xs.map((x) => x.page)).join(' | ')} | ${spread(xs.map((x) => x.worker)).join(' | ')} |`);
  }
} finally {
  await closeStudio(app);
}
