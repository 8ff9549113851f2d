// End-to-end test of cancelling a run (the toolkit's RunButton and the
// Agenda's optimizer): the engine runs synchronously in its worker, so
// Cancel ends the worker and a fresh one restores the saved workspace. A
// long §6.3 simulation is cancelled: its panel says so, a file uploaded while
// it ran is imported by the new worker, the files loaded before are still
// listed, a second run completes, and nothing throws. Then the Shaping
// panel, whose run only the old worker held, says to run again when asked
// for other timelines, and a new run completes.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import {
  DATA,
  WAIT_MS,
  studioSession,
  screenshot,
  openTraces,
  rowNames,
  row,
  upload,
  waitForCount,
  typeInto,
} from './helpers.mjs';

let page, pageErrors;
studioSession('cancel', (s) => ({ page, pageErrors } = s));

const NAB_NAME = 'ec2_cpu_utilization_24ae8d.csv';

test('Cancel: a long simulation is cancelled, the engine restarts from the saved workspace, the studio still works', { timeout: 300_000 }, async () => {
  const errorsBefore = pageErrors.length;
  await openTraces();
  const files = await rowNames();
  assert.ok(files.length > 0, 'the demo files are listed');
  assert.ok(!files.includes(NAB_NAME), 'the NAB series is not loaded yet');

  // A sweep far too long to wait for: a million jobs at each of five loads.
  await page.click('[data-testid=nav-pricing]');
  await typeInto('sim-jobs', '1000000');
  const status = page.locator('[data-testid=sim-status]');
  await page.click('[data-testid=sim-run]');
  await page.waitForFunction(
    () => document.querySelector('[data-testid=sim-status]')?.dataset.running === 'true',
  );

  // While it runs, a file is uploaded: its import waits in the worker's
  // queue behind the simulation.
  await page.click('[data-testid=nav-traces]');
  await upload(path.join(DATA, 'nab', NAB_NAME));
  await page.click('[data-testid=nav-pricing]');

  await page.locator('[data-testid=sim-cancel]').click();
  const error = page.locator('[data-testid=sim-error]');
  await error.waitFor();
  assert.match(await error.textContent(), /^Cancelled — the engine restarted from the saved workspace/);
  assert.equal(await status.getAttribute('data-running'), 'false');
  await page.locator('[data-testid=sim-cancel]').waitFor({ state: 'detached' });
  assert.equal(await page.locator('[data-testid=sim-row]').count(), 0, 'no results of the cancelled run');
  await screenshot('cancelled');

  // The new worker restored the workspace and took the queued import: the
  // files listed before, and the uploaded one.
  await page.click('[data-testid=nav-traces]');
  await row(NAB_NAME).waitFor({ timeout: WAIT_MS });
  assert.deepEqual((await rowNames()).filter((n) => n !== NAB_NAME).sort(), [...files].sort());
  await page.waitForFunction(() => /Engine ready/.test(document.querySelector('.status')?.textContent ?? ''));

  // A second, small run completes on the new worker (once run, the
  // simulation runs again whenever a setting changes).
  await page.click('[data-testid=nav-pricing]');
  await typeInto('sim-interarrivals', '50, 200');
  await typeInto('sim-jobs', '20000');
  await waitForCount(page.locator('[data-testid=sim-row]'), 6, 'simulation rows of two loads', 240_000);
  await error.waitFor({ state: 'detached' });
  assert.match(await status.textContent(), /^20.?000 jobs at 2 loads/);
  await screenshot('second-run');
  assert.deepEqual(pageErrors.slice(errorsBefore), [], 'no uncaught errors');
});

test('Cancel: after a restart, the Shaping panel asks for its run again instead of waiting for an answer', { timeout: 300_000 }, async () => {
  const errorsBefore = pageErrors.length;
  // The Shaping panel opens at work: its default run completes first.
  await page.click('[data-testid=nav-shaping]');
  await page.locator('[data-testid=shaping-panel]').waitFor();
  await page.waitForFunction(
    () => document.querySelector('[data-testid=shaping-status]')?.dataset.running === 'false' &&
      document.querySelector('[data-testid=shaping-speedup]'),
    null,
    { timeout: 240_000 },
  );

  // A long pricing simulation, cancelled: the worker restarts and no longer
  // holds the Shaping run.
  await page.click('[data-testid=nav-pricing]');
  await typeInto('sim-jobs', '1000000');
  await page.click('[data-testid=sim-run]');
  await page.waitForFunction(
    () => document.querySelector('[data-testid=sim-status]')?.dataset.running === 'true',
  );
  await page.locator('[data-testid=sim-cancel]').click();
  await page.locator('[data-testid=sim-error]').waitFor();
  await page.waitForFunction(() => /Engine ready/.test(document.querySelector('.status')?.textContent ?? ''));

  // Another application's timelines: the run is gone from the engine, and
  // the panel says so rather than waiting.
  await page.click('[data-testid=nav-shaping]');
  const current = await page.locator('[data-testid=shaping-app]').inputValue();
  const other = await page.$$eval('[data-testid=shaping-app] option', (os, cur) =>
    os.map((o) => o.value).find((v) => v !== cur), current);
  assert.ok(other !== undefined, 'the run has a second application to pick');
  await page.selectOption('[data-testid=shaping-app]', other);
  const error = page.locator('[data-testid=shaping-error]');
  await error.waitFor({ timeout: WAIT_MS });
  assert.match(await error.textContent(), /no longer in the engine/);

  // Running again works on the new worker, and the line goes.
  await page.click('[data-testid=shaping-run]');
  await error.waitFor({ state: 'detached', timeout: 240_000 });
  await page.waitForFunction(
    () => document.querySelector('[data-testid=shaping-status]')?.dataset.running === 'false',
    null,
    { timeout: 240_000 },
  );
  await screenshot('shaping-after-restart');
  assert.deepEqual(pageErrors.slice(errorsBefore), [], 'no uncaught errors');
});
