// End-to-end test of a sweep in the studio: the Shaping panel's "where it
// pays" card runs a load sweep on the pool of sweep workers (more than one),
// shows each cell as it finishes, draws the speed-up against the load with
// the workload's load marked, and its rows equal `skyplan sweep shaping`'s
// natively, cell by cell. A cancelled sweep keeps the cells it finished,
// and the engine worker keeps answering meanwhile. The Harvest panel's
// "where it pays" card runs a small harvest sweep on the same pool: its
// rows appear, the chart is drawn with the demo tenants' level marked, and
// each cell equals `skyplan sweep harvest`'s.

import assert from 'node:assert/strict';
import {
  paysSweep,
  sweepLikeCli,
  studioSession,
  studioTest,
  screenshot,
  drawnKey,
  typeInto,
} from './helpers.mjs';

let page;
studioSession('sweep', (s) => ({ page } = s));

/** The sweep's rows as shown: cell, load, configuration and speed-up. */
async function rows() {
  return page.$$eval('[data-testid=shaping-pays-row]', (rs) =>
    rs.map((r) => ({
      cell: Number(r.dataset.cell),
      load: Number(r.dataset.load),
      config: r.dataset.config,
      speedup: Number(r.dataset.speedup),
    })),
  );
}

/** Opens the Shaping panel with a small cluster: 4 hosts, the oracle. */
async function openShaping() {
  await page.click('[data-testid=nav-shaping]');
  await page.locator('[data-testid=shaping-panel]').waitFor();
  // The panel opens at work on its default run; wait for it, then shrink the
  // cluster the sweep starts from.
  await page.waitForFunction(
    () => document.querySelector('[data-testid=shaping-status]')?.dataset.running === 'false',
    null,
    { timeout: 120_000 },
  );
  await typeInto('shaping-hosts', '4');
  await page.selectOption('[data-testid=shaping-predictor]', 'oracle');
}

studioTest('Sweep: where shaping pays, on a pool of workers, equal to the CLI cell by cell', { timeout: 600_000 }, 'no uncaught page errors', async () => {
  await openShaping();
  await typeInto('shaping-pays-loads', '0.6,1.3,2');
  await typeInto('shaping-pays-apps', '60');
  const { workers, ms } = await paysSweep('shaping', {
    // The engine worker still answers while the pool sweeps.
    meanwhile: async () => {
      await page.click('[data-testid=nav-traces]');
      await page.locator('[data-testid=file-row]').first().waitFor();
      await page.click('[data-testid=nav-shaping]');
    },
  });
  assert.ok(workers > 1, `the sweep runs on more than one worker (${workers})`);
  console.log(`# BENCH-SWEEP studio: 6 cells of 60 applications on ${workers} workers in ${ms} ms`);
  const shown = await rows();
  assert.equal(shown.length, 6, 'two oracle configurations × three loads');
  assert.deepEqual(shown.map((r) => r.cell), [0, 1, 2, 3, 4, 5]);
  await drawnKey('shaping-pays-chart');
  await screenshot('where-it-pays', page.locator('[data-testid=shaping-pays-chart]'));
  // The same sweep natively: every cell's speed-up equal.
  sweepLikeCli([
    'shaping', '--apps', '60', '--hosts', '4', '--loads', '0.6,1.3,2',
    '--configs', 'oracle/pessimistic,oracle/optimistic',
  ], shown, (n, r) => {
    assert.equal(n.load, r.load, `cell ${r.cell}: load`);
    assert.equal(`${n.predictor}/${n.policy}/${n.k1}/${n.k2}`, r.config, `cell ${r.cell}: configuration`);
    assert.equal(n.turnaround_speedup, r.speedup, `cell ${r.cell}: the worker pool's speed-up is the CLI's`);
  });
});

studioTest('Sweep: a cancelled sweep keeps the cells it finished', { timeout: 600_000 }, 'no uncaught page errors', async () => {
  await typeInto('shaping-pays-loads', '0.4,0.6,0.8,1,1.2,1.4,1.6,1.8,2,2.2');
  await typeInto('shaping-pays-apps', '150');
  await page.click('[data-testid=shaping-pays-run]');
  await page.waitForFunction(
    () => document.querySelectorAll('[data-testid=shaping-pays-row]').length >= 2,
    null,
    { timeout: 300_000 },
  );
  await page.click('[data-testid=shaping-pays-cancel]');
  await page.waitForFunction(
    () => document.querySelector('[data-testid=shaping-pays-status]')?.dataset.running === 'false',
  );
  const error = await page.locator('[data-testid=shaping-pays-error]').textContent();
  const m = error.match(/Cancelled: (\d+) of 20 cells finished and kept/);
  assert.ok(m, error);
  const kept = await rows();
  assert.equal(kept.length, Number(m[1]), 'the rows shown are the cells kept');
  assert.ok(kept.length >= 2 && kept.length < 20);
  await screenshot('cancelled');
  // A new sweep runs after a cancel.
  await typeInto('shaping-pays-loads', '1');
  await typeInto('shaping-pays-apps', '40');
  await page.click('[data-testid=shaping-pays-run]');
  await page.waitForFunction(
    () => document.querySelector('[data-testid=shaping-pays-status]')?.dataset.running === 'false' &&
      document.querySelectorAll('[data-testid=shaping-pays-row]').length === 2,
    null,
    { timeout: 300_000 },
  );
});

/** The harvest sweep's rows as shown. */
async function harvestRows() {
  return page.$$eval('[data-testid=harvest-pays-row]', (rs) =>
    rs.map((r) => ({
      cell: Number(r.dataset.cell),
      servers: Number(r.dataset.servers),
      level: Number(r.dataset.level),
      scaling: r.dataset.scaling,
      improvement: Number(r.dataset.improvement),
      ptKills: Number(r.dataset.ptKills),
      hKills: Number(r.dataset.hKills),
    })),
  );
}

studioTest('Sweep: where harvesting pays, on a pool of workers, equal to the CLI cell by cell', { timeout: 600_000 }, 'no uncaught page errors', async () => {
  await page.click('[data-testid=nav-harvest]');
  await page.locator('[data-testid=harvest-panel]').waitFor();
  // The demo's tenants classified: their level is the chart's mark.
  await page.waitForFunction(
    () => document.querySelector('[data-testid=harvest-status]')?.dataset.running === 'false' &&
      document.querySelectorAll('[data-testid=harvest-tenant-row]').length > 0,
    null,
    { timeout: 120_000 },
  );
  // A small grid: two sizes × two levels, half a day.
  await typeInto('harvest-pays-servers', '200,400');
  await typeInto('harvest-pays-levels', '10,30');
  await typeInto('harvest-pays-days', '0.5');
  const { workers, ms } = await paysSweep('harvest');
  assert.ok(workers > 1, `the sweep runs on more than one worker (${workers})`);
  console.log(`# BENCH-SWEEP studio: harvest, 4 cells (200/400 servers, levels 10/30 %, half a day) on ${workers} workers in ${ms} ms`);
  assert.equal(await page.locator('[data-testid=harvest-pays-error]').count(), 0, 'no error line');
  const shown = await harvestRows();
  assert.deepEqual(shown.map((r) => [r.cell, r.servers, r.level, r.scaling]), [
    [0, 200, 10, 'linear'], [1, 200, 30, 'linear'], [2, 400, 10, 'linear'], [3, 400, 30, 'linear'],
  ], 'servers outermost, then levels');
  await drawnKey('harvest-pays-chart');
  await screenshot('where-harvesting-pays', page.locator('[data-testid=harvest-pays-chart]'));
  // The same sweep natively: every cell's improvement and kills equal.
  sweepLikeCli([
    'harvest', '--servers', '200,400', '--levels', '10,30', '--scaling', 'linear', '--days', '0.5',
  ], shown, (n, r) => {
    assert.equal(n.servers, r.servers, `cell ${r.cell}: servers`);
    assert.equal(n.level, r.level, `cell ${r.cell}: level`);
    assert.equal(n.pt_kills, r.ptKills, `cell ${r.cell}: YARN-PT's kills`);
    assert.equal(n.h_kills, r.hKills, `cell ${r.cell}: YARN-H's kills`);
    assert.equal(n.improvement, r.improvement, `cell ${r.cell}: the worker pool's improvement is the CLI's`);
  });
});
