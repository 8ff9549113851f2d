// End-to-end test of the Harvest panel on the demo's tenants: patterns,
// classes and the capacity heat map, a tenant's spectrum, filter and sort,
// class selection (a long job, a history job, a bad hour refused), the §6
// comparison of YARN-PT and YARN-H drawn on open (branch shares and
// thresholds) and run again with other settings, a bad tenants file
// refused; then Alibaba v2018 machine tables read and classified by
// failure domain, a bad one refused with its line.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import {
  studioSession,
  studioTest,
  screenshot,
  reloadDemo,
  ink,
  drawnKey,
  typeInto,
  freshWorkspace,
  waitForCount,
} from './helpers.mjs';

let page, tmpDir, pageErrors, demo;
studioSession('harvest', (s) => ({ page, tmpDir, pageErrors, demo } = s));

/** The comparison shown once it is done and drawn (a key other than
 * `previousKey`), with `levels` rows; its canvas key. */
async function compared(levels, previousKey = null, what = '') {
  await page.waitForFunction(
    (n) => document.querySelector('[data-testid=harvest-sim-status]')?.dataset.running === 'false' &&
      document.querySelectorAll('[data-testid=harvest-sim-row]').length === n,
    levels,
    { timeout: 240_000 },
  );
  const key = await drawnKey('harvest-sim', previousKey);
  console.log(`# BENCH-HARVEST-PANEL ${what}: ${await page.locator('[data-testid=harvest-sim-status]').textContent()}`);
  return key;
}

/** Both systems' rows per level: job time, kills, branch shares summing to 1. */
async function systemsShown(levels) {
  const rows = await page.locator('[data-testid=harvest-system-row]').evaluateAll((rs) => rs.map((r) => ({ ...r.dataset })));
  assert.equal(rows.length, 2 * levels, 'a row per system and level');
  assert.deepEqual([...new Set(rows.map((r) => r.system))].sort(), ['YARN-H', 'YARN-PT']);
  for (const r of rows) {
    const shares = [r.one, r.several, r.none].map(Number);
    assert.ok(shares.every((x) => x >= 0 && x <= 1), `shares in [0, 1]: ${shares}`);
    assert.ok(Math.abs(shares.reduce((a, b) => a + b, 0) - 1) < 1e-9, `shares sum to 1: ${shares}`);
    assert.ok(Number(r.jobSecs) > 0, `job time of ${r.system}: ${r.jobSecs}`);
    assert.ok(Number(r.kills) >= 0, `kills of ${r.system}: ${r.kills}`);
  }
  return rows;
}

/** The thresholds line and its derivation, one row per job type. */
async function thresholdsShown() {
  const t = page.locator('[data-testid=harvest-thresholds]');
  const [short, long] = [Number(await t.getAttribute('data-short')), Number(await t.getAttribute('data-long'))];
  assert.ok(short > 0 && short <= long, `short ${short} s ≤ long ${long} s`);
  assert.match(await t.textContent(), /short below \d+ s, long above \d+ s/);
  const types = await page.locator('[data-testid=harvest-threshold-row]').evaluateAll((rs) => rs.map((r) => r.dataset.type));
  assert.deepEqual(types, ['short', 'medium', 'long']);
}

studioTest('Harvest: the demo tenants classified (patterns, classes, capacity), a spectrum, class selection, the §6 comparison on open and again; bad input refused', { timeout: 300_000 }, 'no uncaught errors in the Harvest panel', async () => {
  await reloadDemo(demo);
  const opened = Date.now();
  await page.click('[data-testid=nav-harvest]');
  await page.locator('[data-testid=harvest-panel]').waitFor();
  await page.waitForFunction(() =>
    /demo\/tenants\.csv \(\d+ tenants\)/.test(document.querySelector('[data-testid=harvest-tenants-file]')?.textContent),
  );

  // The demo's datacenter: every pattern present, classes drawn, the
  // capacity heat map drawn, and the largest tenant's spectrum shown.
  await page.waitForFunction(
    () => document.querySelector('[data-testid=harvest-status]')?.dataset.running === 'false' &&
      document.querySelectorAll('[data-testid=harvest-tenant-row]').length > 0,
  );
  console.log(`# BENCH-HARVEST-PANEL classify: ${await page.locator('[data-testid=harvest-status]').textContent()}`);
  const rows = page.locator('[data-testid=harvest-tenant-row]');
  const patterns = await rows.evaluateAll((rs) => rs.map((r) => r.dataset.pattern));
  for (const p of ['periodic', 'constant', 'unpredictable']) {
    assert.ok(patterns.includes(p), `a ${p} tenant among ${patterns.length}`);
  }
  assert.ok(await page.locator('[data-testid=harvest-class-row]').count() >= 3, 'classes listed');
  await drawnKey('harvest-class-days');
  await drawnKey('harvest-capacity');
  await drawnKey('harvest-series');
  await drawnKey('harvest-spectrum');
  assert.ok((await ink(page.locator('canvas[data-testid=harvest-capacity]'))) > 5_000, 'heat map drawn');
  await screenshot('harvest-tenants');

  // The panel opens at work: YARN-PT against YARN-H at the demo tenants'
  // current utilization, without pressing Run — one level (the form shows
  // it), each system's job time, kills and branch shares, the thresholds
  // and their derivation, the chart drawn.
  let simKey = await compared(1, null, 'on open, at the current utilization');
  console.log(`# BENCH-HARVEST-PANEL open to comparison drawn: ${((Date.now() - opened) / 1000).toFixed(1)} s (wall clock, classification included)`);
  const level = Number(await page.locator('[data-testid=harvest-sim-row]').getAttribute('data-level'));
  const mean = await page.locator('[data-testid=harvest-tenant-row]').evaluateAll((rs) =>
    rs.reduce((a, r) => a + Number(r.cells[4].textContent) * Number(r.cells[6].textContent.replace(/,/g, '')), 0) /
      rs.reduce((a, r) => a + Number(r.cells[6].textContent.replace(/,/g, '')), 0));
  assert.ok(Math.abs(level - mean) < 1, `the current utilization ${level} % is the tenants' ${mean.toFixed(1)} %`);
  assert.equal(await page.locator('[data-testid=harvest-sim-levels]').inputValue(), String(level));
  await systemsShown(1);
  await thresholdsShown();
  assert.ok((await ink(page.locator('canvas[data-testid=harvest-sim]'))) > 3_000, 'comparison charted');
  await screenshot('harvest-comparison');

  // Filter and sort the table; pick a periodic tenant: its spectrum's peak.
  await page.fill('[data-testid=harvest-filter]', 'periodic');
  await page.waitForFunction(() =>
    [...document.querySelectorAll('[data-testid=harvest-tenant-row]')].every((r) => r.dataset.pattern === 'periodic'),
  );
  const periodic = rows.first();
  const name = await periodic.getAttribute('data-name');
  const before = await page.locator('canvas[data-testid=harvest-spectrum]').getAttribute('data-key');
  await periodic.click();
  await drawnKey('harvest-spectrum', name === (before ?? '').split(':')[1] ? null : before);
  await page.waitForFunction(
    (n) => document.querySelector('canvas[data-testid=harvest-spectrum]')?.dataset.key.endsWith(`:${n}`),
    name,
  );
  assert.equal(await page.locator('[data-testid=harvest-verdict]').getAttribute('data-pattern'), 'periodic');
  assert.match(await page.locator('[data-testid=harvest-verdict]').textContent(), /cycles/);
  await page.fill('[data-testid=harvest-filter]', '');
  await page.locator('[data-testid=harvest-sort][data-col="Avg %"]').click();
  const avgs = await rows.evaluateAll((rs) => rs.map((r) => Number(r.cells[4].textContent)));
  const sorted = [...avgs].sort((a, b) => b - a);
  assert.ok(
    JSON.stringify(avgs) === JSON.stringify(sorted) || JSON.stringify(avgs) === JSON.stringify([...sorted].reverse()),
    'sorted by average',
  );

  // Class selection: a long job of 40 containers at 14:00; probabilities
  // sum to 1 over the classes that fit.
  await typeInto('harvest-select-last', '600');
  await typeInto('harvest-select-containers', '40');
  await page.click('[data-testid=harvest-select-run]');
  await page.waitForFunction(() => document.querySelector('[data-testid=harvest-select-result]')?.dataset.type === 'long');
  const probs = await page
    .locator('[data-testid=harvest-option-row]')
    .evaluateAll((rs) => rs.map((r) => Number(r.dataset.probability)));
  const outcome = await page.locator('[data-testid=harvest-select-result]').getAttribute('data-outcome');
  const total = probs.reduce((a, b) => a + b, 0);
  if (outcome === 'none') assert.equal(total, 0);
  else assert.ok(Math.abs(total - 1) < 1e-9, `probabilities sum to 1 (${total}, ${outcome})`);
  // A short job of the history (its map/reduce DAG).
  const job = await page.locator('[data-testid=harvest-select-job] option').nth(1).getAttribute('value');
  await page.selectOption('[data-testid=harvest-select-job]', job);
  await page.click('[data-testid=harvest-select-run]');
  await page.waitForFunction((j) => document.querySelector('[data-testid=harvest-select-result]')?.textContent.includes(j), job);
  // A bad hour is refused, in place.
  await page.selectOption('[data-testid=harvest-select-job]', '');
  await typeInto('harvest-select-hour', '30');
  await page.click('[data-testid=harvest-select-run]');
  await page.locator('[data-testid=harvest-select-error]').waitFor();
  assert.match(await page.locator('[data-testid=harvest-select-error]').textContent(), /Hour of day/);
  await typeInto('harvest-select-hour', '14');
  await screenshot('harvest-select');

  // Run again with other settings (two days, levels 10, 30 and 50 %, two
  // runs), in the worker.
  await typeInto('harvest-sim-levels', '10, 30, 50');
  await typeInto('harvest-sim-runs', '2');
  await page.click('[data-testid=harvest-sim-run]');
  simKey = await compared(3, simKey, 'simulate 3 levels, 2 runs');
  await systemsShown(3);
  await thresholdsShown();
  assert.ok((await ink(page.locator('canvas[data-testid=harvest-sim]'))) > 3_000, 'simulation charted');
  await screenshot('harvest-simulation');
  // Refused settings, with the engine's words.
  await typeInto('harvest-sim-levels', '120');
  await page.click('[data-testid=harvest-sim-run]');
  await page.locator('[data-testid=harvest-sim-error]').waitFor();
  assert.match(await page.locator('[data-testid=harvest-sim-error]').textContent(), /levels/);
  await typeInto('harvest-sim-levels', '10, 30, 50');

  // A tenants file naming a tenant twice is refused with its line; the
  // demo's stays in use.
  const bad = path.join(tmpDir, 'bad-tenants.csv');
  fs.writeFileSync(bad, 'tenant,environment,machine_function,servers,cores_per_server\na,x,y,4,12\na,x,y,-2,12\n');
  await page.setInputFiles('[data-testid=harvest-tenants-input]', bad);
  await page.locator('[data-testid=harvest-error]').waitFor();
  assert.match(await page.locator('[data-testid=harvest-error]').textContent(), /bad-tenants\.csv/);
  assert.match(await page.locator('[data-testid=harvest-tenants-file]').textContent(), /demo\/tenants\.csv/);
});

/** Alibaba v2018 machine tables as published (headerless, unsorted
 * timestamps, empty columns): three failure domains of 4, 3 and 3
 * machines — daily cycles, flat, a random walk — two days every 5 min. */
function machineTables() {
  const domains = [
    [11, 4, (t, m) => 35 + 25 * Math.sin((2 * Math.PI * t) / 86_400 + m / 10)],
    [12, 3, () => 40],
    [13, 3, null],
  ];
  const meta = [];
  const usage = [];
  let seed = 7;
  const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  for (const [fd, n, shape] of domains) {
    for (let i = 0; i < n; i++) {
      const id = `m_${fd}${i}`;
      meta.push(`${id},0,${fd},${fd * 10 + i},${i === 0 ? '' : 96},100,USING`);
      if (i === 1) meta.push(`${id},86400,${fd},${fd * 10 + i},96,100,USING`);
      let walk = 30;
      for (let t = 0; t < 2 * 86_400; t += 300) {
        walk = Math.min(95, Math.max(5, walk + (rand() - 0.5) * 8));
        const base = shape ? shape(t, i) : walk;
        const cpu = t === 600 && i === 0 ? '' : Math.round(Math.min(99, Math.max(1, base + (rand() - 0.5) * 4)));
        usage.push(`${id},${t},${cpu},${Math.round(50 + rand() * 20)},,,${(rand() * 50).toFixed(2)},${(rand() * 50).toFixed(2)},${Math.round(rand() * 10)}`);
      }
    }
  }
  // Unsorted, as the trace is.
  for (let i = usage.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [usage[i], usage[j]] = [usage[j], usage[i]];
  }
  return { meta: meta.join('\n') + '\n', usage: usage.join('\n') + '\n' };
}

studioTest('Harvest: nothing runs without tenants; Alibaba v2018 machine tables read, grouped by failure_domain_1, classified and compared; a bad one refused with its line', { timeout: 300_000 }, 'no uncaught errors reading machine tables', async () => {
  // A workspace without CPU series, the page fresh: no tenants, so no
  // comparison starts by itself.
  await freshWorkspace('history.csv');
  await page.reload();
  await page.click('[data-testid=nav-harvest]');
  await page.locator('[data-testid=harvest-error]').waitFor();
  assert.match(await page.locator('[data-testid=harvest-error]').textContent(), /machine_meta\.csv with machine_usage\.csv/);
  await page.waitForTimeout(1_000);
  assert.equal(await page.locator('[data-testid=harvest-sim-status]').getAttribute('data-running'), 'false');
  assert.equal(await page.locator('[data-testid=harvest-sim-row]').count(), 0, 'no comparison without tenants');

  // Both tables chosen together (in either order): machines grouped by
  // failure_domain_1, classified, the heat map drawn from them, and the
  // comparison run at their current utilization.
  const { meta, usage } = machineTables();
  const metaFile = path.join(tmpDir, 'machine_meta.csv');
  const usageFile = path.join(tmpDir, 'machine_usage.csv');
  fs.writeFileSync(metaFile, meta);
  fs.writeFileSync(usageFile, usage);
  await page.setInputFiles('[data-testid=harvest-machines-input]', [usageFile, metaFile]);
  await page.waitForFunction(() =>
    /10 machines, 3 failure domains/.test(document.querySelector('[data-testid=harvest-machines-file]')?.textContent),
  );
  const rows = page.locator('[data-testid=harvest-tenant-row]');
  await waitForCount(rows, 3, 'failure domains as tenants');
  const names = await rows.evaluateAll((rs) => rs.map((r) => r.dataset.name).sort());
  assert.deepEqual(names, ['fd1-11', 'fd1-12', 'fd1-13']);
  const servers = await rows.evaluateAll((rs) => Object.fromEntries(rs.map((r) => [r.dataset.name, r.cells[6].textContent])));
  assert.deepEqual(servers, { 'fd1-11': '4', 'fd1-12': '3', 'fd1-13': '3' });
  const patterns = await rows.evaluateAll((rs) => Object.fromEntries(rs.map((r) => [r.dataset.name, r.dataset.pattern])));
  assert.equal(patterns['fd1-11'], 'periodic', JSON.stringify(patterns));
  assert.equal(patterns['fd1-12'], 'constant', JSON.stringify(patterns));
  assert.match(await page.locator('.harvest-page').textContent(), /From Alibaba v2018 machine_meta\.csv \+ machine_usage\.csv: 10 machines grouped by failure_domain_1/);
  await drawnKey('harvest-capacity');
  assert.ok((await ink(page.locator('canvas[data-testid=harvest-capacity]'))) > 2_000, 'heat map of the machines drawn');
  await compared(1, null, 'on the Alibaba machines');
  // The storage view says why it has nothing for them (no reimages).
  await page.waitForFunction(() => /forget the machine files/.test(document.querySelector('[data-testid=storage-error]')?.textContent));
  await systemsShown(1);
  await thresholdsShown();
  await screenshot('harvest-machines');

  // Kept across a reload: the same failure domains classified again.
  await page.reload();
  await page.click('[data-testid=nav-harvest]');
  await page.waitForFunction(() =>
    /10 machines, 3 failure domains/.test(document.querySelector('[data-testid=harvest-machines-file]')?.textContent),
  );
  await waitForCount(rows, 3, 'failure domains after a reload');
  assert.deepEqual(await rows.evaluateAll((rs) => rs.map((r) => r.dataset.name).sort()), names);

  // A machine_usage table with a bad line is refused with its file, line
  // and reason; the tables in use and their tenants stay.
  const bad = path.join(tmpDir, 'bad_usage.csv');
  fs.writeFileSync(bad, 'm_110,0,12,50,,,1.0,1.0,2\nm_110,300,13,50,,,1.0,1.0,2\nm_110,600,lots,50,,,1.0,1.0,2\n');
  await page.setInputFiles('[data-testid=harvest-machines-input]', bad);
  await page.locator('[data-testid=harvest-error]').waitFor();
  assert.match(await page.locator('[data-testid=harvest-error]').textContent(), /bad_usage\.csv:3:\d+: cpu_util_percent `lots` is not a number/);
  assert.match(await page.locator('[data-testid=harvest-machines-file]').textContent(), /machine_meta\.csv \+ machine_usage\.csv \(10 machines/);
  assert.equal(await rows.count(), 3, 'the machines\' tenants stay');

  // Forgetting them goes back to the workspace's series (none here).
  await page.click('[data-testid=harvest-machines-forget]');
  await page.waitForFunction(() => /Or Alibaba/.test(document.querySelector('[data-testid=harvest-machines-file]')?.textContent));
});

test('no uncaught errors in the page', () => {
  assert.deepEqual(pageErrors, []);
});
