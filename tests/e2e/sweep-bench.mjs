// The studio's sweep pool against one worker, on the same sweep: not a test
// (make test never runs it; its name does not end in .test.mjs), the
// measurement BENCHMARKS.md quotes. Run after `trunk build --release`:
//
//   node tests/e2e/sweep-bench.mjs [LOADS] [APPS] [PREDICTOR]
//
// It opens the studio, sets the Shaping panel's cluster to 50 hosts and the
// forecaster, and runs the "where it pays" sweep three times with the
// browser reporting 1 core, then three times with its own count (the pool
// takes one worker per core reported, at most four); it prints the median
// wall time of each and their ratio. The same sweep natively: `skyplan
// sweep shaping --apps APPS --hosts 50 --predictor P --loads LOADS
// --configs oracle/pessimistic,oracle/optimistic,P/pessimistic/0.05/3
// --threads 1|2`.

import os from 'node:os';
import { openStudio, closeStudio, openDemo, typeInto } from './helpers.mjs';

const loads = process.argv[2] ?? '0.5,1,1.5,2';
const apps = process.argv[3] ?? '300';
const predictor = process.argv[4] ?? 'gp';

async function run(app, cores) {
  const { page } = app;
  if (cores !== null) {
    await page.addInitScript((n) => {
      Object.defineProperty(Navigator.prototype, 'hardwareConcurrency', { get: () => n });
    }, cores);
  }
  await page.reload();
  await page.click('[data-testid=nav-shaping]');
  await page.locator('[data-testid=shaping-panel]').waitFor();
  await page.waitForFunction(
    () => document.querySelector('[data-testid=shaping-status]')?.dataset.running === 'false',
    null,
    { timeout: 300_000 },
  );
  await typeInto('shaping-hosts', '50');
  await page.selectOption('[data-testid=shaping-predictor]', predictor);
  await typeInto('shaping-pays-loads', loads);
  await typeInto('shaping-pays-apps', apps);
  const times = [];
  let workers = 0;
  for (let i = 0; i < 3; i++) {
    const t0 = Date.now();
    await page.click('[data-testid=shaping-pays-run]');
    const progress = page.locator('[data-testid=shaping-pays-progress]');
    await progress.waitFor();
    workers = Number(await progress.getAttribute('data-workers'));
    await page.waitForFunction(
      () => document.querySelector('[data-testid=shaping-pays-status]')?.dataset.running === 'false',
      null,
      { timeout: 1_800_000 },
    );
    times.push(Date.now() - t0);
  }
  const cells = await page.locator('[data-testid=shaping-pays-row]').count();
  times.sort((a, b) => a - b);
  return { workers, cells, median: times[1], times };
}

const app = await openStudio('sweep-bench');
try {
  await openDemo();
  const one = await run(app, 1);
  const many = await run(app, os.cpus().length);
  console.log(`loads ${loads}, ${apps} applications, ${predictor}: ${one.cells} cells`);
  console.log(`1 worker: median ${one.median} ms ${JSON.stringify(one.times)}`);
  console.log(`${many.workers} workers: median ${many.median} ms ${JSON.stringify(many.times)}`);
  console.log(`speed-up ${(one.median / many.median).toFixed(2)}×`);
} finally {
  await closeStudio(app);
}
