// End-to-end test of the Runway panel: the studio opens on it with the
// demo workspace; planned in the worker, it shows the binding limit,
// P10/P50/P90 dates, the purchase schedules, the lever table and the
// chart; a headroom target changed is planned again with other dates, a
// bad one shows the engine's line and keeps the last answer; the setting
// planned survives a reload. A runway of the demo is about 11 s of the
// worker (docs/runway.md), so the test plans it twice, no more.

import assert from 'node:assert/strict';
import {
  WAIT_MS,
  studioSession,
  studioTest,
  screenshot,
  waitForCount,
  drawnKey,
  typeInto,
} from './helpers.mjs';

let page;
// The demo's first visit, then back to the page as it opens.
studioSession('runway', (s) => ({ page } = s), {
  setup: async (s) => {
    await s.page.reload();
    await s.page.waitForSelector('body[data-ready="true"]', { timeout: WAIT_MS });
  },
});

/** A runway is planned (the worker's answer, not a run out). */
async function planned(previousKey = null) {
  await page.waitForFunction(() =>
    document.querySelector('[data-testid=runway-status]')?.dataset.running === 'false' &&
    /planned in/.test(document.querySelector('[data-testid=runway-status]')?.textContent),
  undefined, { timeout: 300_000 });
  return drawnKey('runway-chart', previousKey);
}

/** Each limit's `name: P10 P50 P90`. */
async function dates() {
  return page.locator('[data-testid=runway-limit]').evaluateAll((rows) =>
    rows.map((r) => `${r.dataset.limit}: ${r.dataset.p10} ${r.dataset.p50} ${r.dataset.p90}`));
}

studioTest('Runway: opens first on the demo; planned; a target changed re-plans; a bad one is refused; kept across reload', { timeout: 1_200_000 }, 'no uncaught errors in the Runway panel', async () => {
  // First in the navigation, and the panel the studio opens on.
  const navs = await page.locator('nav.nav button').evaluateAll((bs) => bs.map((b) => b.dataset.testid));
  assert.equal(navs[0], 'nav-runway');
  await page.locator('[data-testid=runway-panel]').waitFor();
  await page.locator('[data-testid=runway-idle]').waitFor();
  await page.click('[data-testid=runway-run]');
  let key = await planned();

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
  assert.deepEqual(
    await page.locator('[data-testid=runway-lever]').evaluateAll((rs) => rs.map((r) => r.dataset.lever)),
    ['reservations', 'shaping', 'harvesting', 'tuning'],
  );
  await screenshot('demo');

  // A lower CPU target is reached sooner: the CPU limit's dates change.
  const cpu = (rows) => rows.find((r) => r.startsWith('cpu'));
  await typeInto('runway-cpu', '45');
  key = await planned(key);
  const lower = await dates();
  assert.notEqual(cpu(lower), cpu(before), `the CPU dates move with its target (${cpu(before)} → ${cpu(lower)})`);

  // A target above 100 % is the engine's refusal; the last answer stays.
  await typeInto('runway-cpu', '150');
  await page.locator('[data-testid=runway-error]').waitFor();
  assert.match(await page.locator('[data-testid=runway-error]').textContent(), /target of cpu: a fraction of capacity in \(0, 1\]/);
  assert.deepEqual(await dates(), lower, 'the last runway is kept');
  await screenshot('refused');

  // The setting planned (not the one refused) is kept across a reload.
  await page.reload();
  await page.waitForSelector('body[data-ready="true"]', { timeout: WAIT_MS });
  await page.locator('[data-testid=runway-panel]').waitFor();
  await page.waitForFunction(() => document.querySelector('[data-testid=runway-cpu]')?.value === '45');
  await page.locator('[data-testid=runway-idle]').waitFor();
});
