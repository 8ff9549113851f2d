// End-to-end test of the Harvest panel on the demo's tenants: patterns,
// classes and the capacity heat map, a tenant's spectrum, filter and sort,
// class selection (a long job, a history job, a bad hour refused), the §6
// simulation in the worker, a bad tenants file refused.

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
} from './helpers.mjs';

let page, tmpDir, pageErrors, demo;
studioSession('harvest', (s) => ({ page, tmpDir, pageErrors, demo } = s));

studioTest('Harvest: the demo tenants classified (patterns, classes, capacity), a spectrum, class selection, the §6 simulation; bad input refused', { timeout: 300_000 }, 'no uncaught errors in the Harvest panel', async () => {
  await reloadDemo(demo);
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

  // The simulation at the panel's defaults (two days, levels 10, 30 and
  // 50 %, two runs), in the worker.
  await page.click('[data-testid=harvest-sim-run]');
  await page.waitForFunction(
    () => document.querySelector('[data-testid=harvest-sim-status]')?.dataset.running === 'false' &&
      document.querySelectorAll('[data-testid=harvest-sim-row]').length === 3,
    null,
    { timeout: 240_000 },
  );
  console.log(`# BENCH-HARVEST-PANEL simulate: ${await page.locator('[data-testid=harvest-sim-status]').textContent()}`);
  await drawnKey('harvest-sim');
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

test('no uncaught errors in the page', () => {
  assert.deepEqual(pageErrors, []);
});
