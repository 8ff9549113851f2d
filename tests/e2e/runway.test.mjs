// End-to-end test of the Runway panel: the studio opens on it with the
// demo workspace and plans it by itself; it shows the binding limit,
// P10/P50/P90 dates, the purchase schedules, the chart and the lever
// table, each lever measured in turn; a slider dragged redraws from the
// worker's kept planner and the levers are measured again once it is let
// go; a run's dates and chart show before its purchase plans (its
// outlook), and are those of the plan that follows; the panel's figures
// are those `skyplan runway` prints and the plan report shows for the
// studio's own saved bundle; a bad target shows the engine's line and
// keeps the last answer; the setting planned survives a reload and a
// round trip through a workspace bundle.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import {
  WAIT_MS,
  studioSession,
  studioTest,
  screenshot,
  waitForCount,
  drawnKey,
  typeInto,
  download,
  openTraces,
  skyplan,
} from './helpers.mjs';

let page;
let tmpDir;
// The demo's first visit, then back to the page as it opens.
studioSession('runway', (s) => ({ page, tmpDir } = s), {
  setup: async (s) => {
    await s.page.reload();
    await s.page.waitForSelector('body[data-ready="true"]', { timeout: WAIT_MS });
  },
});

/** The runway is answered (planned, or redrawn from the kept planner). */
async function answered(how, previousKey = null) {
  await page.waitForFunction((how) =>
    document.querySelector('[data-testid=runway-status]')?.dataset.running === 'false' &&
    new RegExp(`${how} in`).test(document.querySelector('[data-testid=runway-status]')?.textContent),
  how, { timeout: 300_000 });
  return drawnKey('runway-chart', previousKey);
}

/** Every lever measured, the table read. */
async function levers() {
  await page.waitForFunction(() => {
    const rows = [...document.querySelectorAll('[data-testid=runway-lever]')];
    return rows.length === 4 && rows.every((r) => r.dataset.state === 'measured');
  }, undefined, { timeout: 600_000 });
  return page.locator('[data-testid=runway-lever]').evaluateAll((rows) => rows.map((r) => ({
    name: r.dataset.lever,
    machines: r.dataset.machines === '' ? null : Number(r.dataset.machines),
    days: r.dataset.days === '' ? null : Number(r.dataset.days),
    pays: r.dataset.pays === 'true',
    detail: r.lastElementChild.textContent,
  })));
}

/** Each limit's `name: P10 P50 P90`. */
async function dates() {
  return page.locator('[data-testid=runway-limit]').evaluateAll((rows) =>
    rows.map((r) => `${r.dataset.limit}: ${r.dataset.p10} ${r.dataset.p50} ${r.dataset.p90}`));
}

/** The P50 and P90 purchase lines. */
async function purchases() {
  return page.locator('[data-testid=runway-plan]').evaluateAll((plans) =>
    plans.map((p) => [...p.querySelectorAll('[data-testid=runway-purchase-row]')].map((r) => r.textContent)));
}

/** Sets the slider `testid` to `value` as a drag does: an input event, and a change when `release`. */
async function slide(testid, value, release) {
  await page.locator(`[data-testid=${testid}]`).evaluate((s, { value, release }) => {
    s.value = value;
    s.dispatchEvent(new Event('input', { bubbles: true }));
    if (release) s.dispatchEvent(new Event('change', { bubbles: true }));
  }, { value, release });
}

studioTest('Runway: opens at work on the demo; a slider redraws and the levers follow its release; the CLI prints the same figures; a bad target is refused; kept across reload and a bundle', { timeout: 1_800_000 }, 'no uncaught errors in the Runway panel', async () => {
  // First in the navigation, the panel the studio opens on, planned by itself.
  const navs = await page.locator('nav.nav button').evaluateAll((bs) => bs.map((b) => b.dataset.testid));
  assert.equal(navs[0], 'nav-runway');
  await page.locator('[data-testid=runway-panel]').waitFor();
  let key = await answered('planned');

  const binding = (await page.locator('[data-testid=runway-binding]').textContent()).trim();
  assert.ok(binding !== '' && binding !== '—', `a binding limit (${binding})`);
  const before = await dates();
  assert.ok(before.length >= 3, `every limit (${before.join(' | ')})`);
  const day = /^(\d{4}-\d{2}-\d{2}|beyond the horizon)$/;
  for (const row of before) {
    for (const d of row.split(': ')[1].split(/ (?=\d{4}-|beyond)/)) assert.match(d, day, row);
  }
  assert.match(await page.locator('[data-testid=runway-evidence]').textContent(), /days of daily peaks/);
  await waitForCount(page.locator('[data-testid=runway-plan]'), 2, 'the P50 and P90 plans');
  assert.deepEqual(
    await page.locator('[data-testid=runway-plan]').evaluateAll((ps) => ps.map((p) => p.dataset.plan)),
    ['P50', 'P90'],
  );
  assert.match(await page.locator('[data-testid=runway-purchase-row]').first().textContent(), /^(add \d+ by \d{4}-\d{2}-\d{2}|nothing to add)$/);
  const first = await levers();
  assert.deepEqual(first.map((l) => l.name), ['reservations', 'shaping', 'harvesting', 'tuning']);
  await screenshot('demo');

  // Dragging the CPU target: redrawn from the kept planner, the levers
  // waiting for the release; a lower target is reached sooner.
  const cpu = (rows) => rows.find((r) => r.startsWith('cpu'));
  await slide('runway-cpu-slider', '45', false);
  key = await answered('redrawn', key);
  assert.equal(await page.locator('[data-testid=runway-cpu]').inputValue(), '45', 'the text field follows the slider');
  const lower = await dates();
  assert.notEqual(cpu(lower), cpu(before), `the CPU dates move with its target (${cpu(before)} → ${cpu(lower)})`);
  assert.deepEqual(
    await page.locator('[data-testid=runway-lever]').evaluateAll((rs) => rs.map((r) => r.dataset.state)),
    ['measuring', 'measuring', 'measuring', 'measuring'],
    'held, the levers wait (the figures before greyed)',
  );
  await screenshot('dragging');
  await slide('runway-cpu-slider', '45', true);
  const afterDrag = await levers();
  assert.equal(afterDrag.length, 4);

  // The panel's figures are the CLI's on the studio's own bundle (which
  // carries the panel's setting: CPU 45 %).
  await openTraces();
  const file = await download('workspace-save');
  const saved = path.join(tmpDir, file.name);
  fs.writeFileSync(saved, file.bytes);
  const cli = JSON.parse(skyplan(['runway', saved, '--json']));
  await page.click('[data-testid=nav-runway]');
  await answered('(planned|redrawn)');
  assert.equal((await page.locator('[data-testid=runway-binding]').textContent()).trim(), cli.binding ?? 'none within the horizon');
  assert.deepEqual(await dates(), cli.limits.map((l) => `${l.name}: ${l.p10 ?? 'beyond the horizon'} ${l.p50 ?? 'beyond the horizon'} ${l.p90 ?? 'beyond the horizon'}`));
  const lines = (plan) => (plan.length === 0 ? ['nothing to add'] : plan.map((p) => `add ${p.machines} by ${p.date}`));
  assert.deepEqual(await purchases(), [lines(cli.purchases), lines(cli.purchases_p90)]);
  const shown = await levers();
  assert.deepEqual(
    shown,
    cli.levers.map((l) => ({ name: l.name, machines: l.machines, days: l.days, pays: l.pays, detail: l.detail })),
    'every lever as the CLI measures it',
  );
  // And the plan report of the same bundle opens with the same runway.
  const entities = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", '#x27': "'" };
  const report = skyplan(['report', saved, '-o', '-'])
    .replace(/<[^>]+>/g, ' ')
    .replace(/&(amp|lt|gt|quot|#39|#x27);/g, (_, e) => entities[e])
    .replace(/\s+/g, ' ');
  for (const row of await dates()) {
    const [name, rest] = row.split(': ');
    assert.ok(report.includes(`${name} ${rest}`), `the report's runway has ${row}`);
  }
  for (const l of shown) {
    assert.ok(report.includes(l.detail.replace(/\s+/g, ' ').trim()), `the report's ${l.name} lever: ${l.detail}`);
  }

  // A target above 100 % is the engine's refusal; the last answer stays.
  await typeInto('runway-cpu', '150');
  await page.locator('[data-testid=runway-error]').waitFor();
  assert.match(await page.locator('[data-testid=runway-error]').textContent(), /target of cpu: a fraction of capacity in \(0, 1\]/);
  assert.deepEqual(await dates(), lower, 'the last runway is kept');
  await screenshot('refused');

  // The setting planned (not the one refused) is kept across a reload.
  // The reloaded page notes what it shows when the chart of a run's
  // outlook is first drawn, before the purchase plans.
  await page.addInitScript(() => {
    new MutationObserver((_, watch) => {
      const chart = document.querySelector('canvas[data-testid=runway-chart][data-drawn="true"]');
      if (!chart?.dataset.key?.endsWith('-dates')) return;
      watch.disconnect();
      window.__outlook = {
        running: document.querySelector('[data-testid=runway-status]')?.dataset.running,
        pending: document.querySelector('[data-testid=runway-plans-pending]') !== null,
        plans: document.querySelectorAll('[data-testid=runway-plan]').length,
        dates: [...document.querySelectorAll('[data-testid=runway-limit]')].map((r) =>
          `${r.dataset.limit}: ${r.dataset.p10} ${r.dataset.p50} ${r.dataset.p90}`),
      };
    }).observe(document, { subtree: true, childList: true, attributes: true });
  });
  await page.reload();
  await page.waitForSelector('body[data-ready="true"]', { timeout: WAIT_MS });
  await page.locator('[data-testid=runway-panel]').waitFor();
  await page.waitForFunction(() => document.querySelector('[data-testid=runway-cpu]')?.value === '45');
  key = await answered('planned');
  assert.deepEqual(await dates(), lower, 'planned again on open, the same dates');
  const outlook = await page.evaluate(() => window.__outlook);
  assert.ok(outlook, 'the outlook\'s chart was drawn before the plan');
  assert.deepEqual(outlook, { running: 'true', pending: true, plans: 0, dates: lower },
    'the outlook: the plan\'s dates while its purchases are planned');
  assert.ok(!key.endsWith('-dates') && await page.locator('[data-testid=runway-plans-pending]').count() === 0, 'then the plan');

  // Another target, then the saved bundle opened: its setting is back.
  await typeInto('runway-cpu', '70');
  key = await answered('(planned|redrawn)', key);
  await openTraces();
  await Promise.all([
    page.waitForEvent('load', { timeout: WAIT_MS }),
    page.setInputFiles('[data-testid=workspace-open]', saved),
  ]);
  await page.waitForSelector('body[data-ready="true"]', { timeout: WAIT_MS });
  await page.locator('[data-testid=runway-panel]').waitFor();
  await page.waitForFunction(() => document.querySelector('[data-testid=runway-cpu]')?.value === '45');
  await answered('planned');
  assert.deepEqual(await dates(), lower, 'the bundle\'s setting planned');

  // The fitted growth's scale and season, set in the panel: the evidence
  // line names the model asked for, and the dates are the CLI's with
  // `--scale log --season none` on the same bundle.
  await typeInto('runway-season', 'none');
  await page.selectOption('[data-testid=runway-scale]', 'log');
  await page.waitForFunction(() =>
    /log scale \(asked for\)/.test(document.querySelector('[data-testid=runway-evidence]')?.textContent) &&
    document.querySelector('[data-testid=runway-status]')?.dataset.running === 'false',
  undefined, { timeout: 300_000 });
  const log = JSON.parse(skyplan(['runway', saved, '--scale', 'log', '--season', 'none', '--json']));
  assert.deepEqual(await dates(), log.limits.map((l) => `${l.name}: ${l.p10 ?? 'beyond the horizon'} ${l.p50 ?? 'beyond the horizon'} ${l.p90 ?? 'beyond the horizon'}`));
  await screenshot('log-scale');
});
