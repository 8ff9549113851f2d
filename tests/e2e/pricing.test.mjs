// End-to-end test of the Pricing panel: a job of the demo history estimated,
// quoted, a deadline chosen on the curve and admitted, the Gantt chart, the
// queue kept across a reload, bad input refused; the §6.3 simulation in the
// worker (MRM, FCFS, priority across loads); a 1,000-job queue imported from
// CSV and quoted against (round trip logged), a bad queue file refused.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import {
  WAIT_MS,
  studioSession,
  studioTest,
  screenshot,
  freshWorkspace,
  waitForCount,
  ink,
  drawnKey,
  typeInto,
} from './helpers.mjs';

let page, tmpDir, pageErrors;
studioSession('pricing', (s) => ({ page, tmpDir, pageErrors } = s));

/** Clicks the price curve at `share` of its width; returns the deadline set. */
async function clickCurve(share) {
  const box = await page.locator('canvas[data-testid=price-curve]').boundingBox();
  await page.mouse.click(box.x + box.width * share, box.y + box.height / 2);
  await page.waitForFunction(
    () => document.querySelector('[data-testid=deadline-input]').value !== '',
  );
  return Number(await page.inputValue('[data-testid=deadline-input]'));
}

studioTest('Pricing: estimate a history job, quote, choose a deadline, admit, Gantt, persist; bad input is refused', { timeout: 300_000 }, 'no uncaught errors in the Pricing panel', async () => {
  await freshWorkspace('history.csv');
  await page.click('[data-testid=nav-pricing]');

  // Pick a job of the demo history: every method estimates both phases, GP
  // is the one planned with, and the curve is drawn.
  await page.waitForFunction(
    () => document.querySelectorAll('[data-testid=history-select] option').length > 300,
  );
  const before = await drawnKey('price-curve');
  const value = await page.locator('[data-testid=history-select] option').nth(41).getAttribute('value');
  await page.selectOption('[data-testid=history-select]', value);
  const name = await page.inputValue('[data-testid=job-name]');
  assert.match(name, /^job\d+$/);
  let key = await drawnKey('price-curve', before);
  await waitForCount(page.locator('[data-testid=estimate-row]'), 6, 'estimate rows');
  const used = page.locator('[data-testid=estimate-row][data-used="true"]');
  assert.equal(await used.count(), 2, 'one method used per phase');
  assert.deepEqual(
    await used.evaluateAll((rs) => rs.map((r) => `${r.dataset.phase}/${r.dataset.method}`)),
    ['map/gp', 'reduce/gp'],
  );
  const finish = Number(await page.locator('[data-testid=earliest-finish]').getAttribute('data-secs'));
  assert.ok(finish > 0, `an earliest finish (${finish} s)`);
  const inked = await ink(page.locator('canvas[data-testid=price-curve]'));
  assert.ok(inked > 2_000, `the curve has ink (${inked} pixels)`);

  // κ < 1 is refused by the engine, inline; the panel keeps working.
  await typeInto('kappa-input', '0.5');
  await page.locator('[data-testid=quote-error]').waitFor();
  assert.match(await page.locator('[data-testid=quote-error]').textContent(), /κ must be ≥ 1/);
  await typeInto('kappa-input', '2');
  await page.locator('[data-testid=quote-error]').waitFor({ state: 'detached' });
  key = await drawnKey('price-curve', key);

  // A deadline before the earliest finish cannot be admitted.
  await typeInto('deadline-input', String(Math.max(0, Math.floor(finish) - 1)));
  await page.locator('[data-testid=deadline-error]').waitFor();
  await page.click('[data-testid=admit]');
  await page.locator('[data-testid=pricing-error]').waitFor();
  assert.match(
    await page.locator('[data-testid=pricing-error]').textContent(),
    /before the earliest feasible finish/,
  );
  assert.equal(await page.locator('[data-testid=queue-row]').count(), 0);

  // A deadline chosen on the curve is priced and admitted: the queue row,
  // the Gantt chart and the price charged appear.
  const deadline = await clickCurve(0.7);
  assert.ok(deadline >= finish, `deadline ${deadline} ≥ earliest finish ${finish}`);
  await page.waitForFunction(
    () => document.querySelector('[data-testid=chosen-price]')?.dataset.price,
  );
  const price = Number(await page.locator('[data-testid=chosen-price]').getAttribute('data-price'));
  assert.ok(price > 0, `a price (${price})`);
  await page.click('[data-testid=admit]');
  const queued = page.locator(`[data-testid=queue-row][data-name="${name}"]`);
  await queued.waitFor();
  await page.locator('[data-testid=admitted]').waitFor();
  assert.match(await page.locator('[data-testid=admitted]').textContent(), new RegExp(`Admitted ${name}`));
  await drawnKey('gantt');
  assert.ok((await ink(page.locator('canvas[data-testid=gantt]'))) > 2_000, 'the Gantt chart has ink');
  await screenshot('pricing-admitted');

  // The same job again: a second row, quoted against a queue of one.
  await drawnKey('price-curve', key);
  await clickCurve(0.9);
  await page.click('[data-testid=admit]');
  await page.locator(`[data-testid=queue-row][data-name="${name}#2"]`).waitFor();

  // The queue survives a reload; remove and clear work.
  await page.reload();
  await page.waitForSelector('body[data-ready="true"]', { timeout: WAIT_MS });
  await page.click('[data-testid=nav-pricing]');
  await queued.waitFor();
  await waitForCount(page.locator('[data-testid=queue-row]'), 2, 'queue rows after reload');
  assert.equal(await page.inputValue('[data-testid=kappa-input]'), '2', 'settings restored');
  await drawnKey('gantt');
  await screenshot('pricing-after-reload');
  await queued.locator('[data-testid=queue-remove]').click();
  await waitForCount(page.locator('[data-testid=queue-row]'), 1, 'queue rows after remove');
  await page.click('[data-testid=queue-clear]');
  await waitForCount(page.locator('[data-testid=queue-row]'), 0, 'queue rows after clear');
});

studioTest('Pricing: the §6.3 simulation runs in the worker, compares MRM, FCFS and priority across loads, refuses bad settings', { timeout: 300_000 }, 'no uncaught errors in the simulation view', async () => {
  await page.waitForSelector('body[data-ready="true"]', { timeout: WAIT_MS });
  await page.click('[data-testid=nav-pricing]');
  const status = page.locator('[data-testid=sim-status]');
  await page.click('[data-testid=sim-run]');
  // The default sweep: five loads, three policies each.
  await waitForCount(page.locator('[data-testid=sim-row]'), 15, 'simulation rows', 240_000);
  assert.equal(await status.getAttribute('data-running'), 'false');
  assert.match(await status.textContent(), /^100.?000 jobs at 5 loads/);
  for (const testid of ['sim-waiting', 'sim-tardy', 'sim-earliness']) {
    await drawnKey(testid);
    assert.ok((await ink(page.locator(`canvas[data-testid=${testid}]`))) > 2_000, `${testid} has ink`);
  }
  // MRM keeps its deadlines better than FCFS at the highest load here: at
  // most as many tardy jobs (the paper's Table 5 shape).
  const tardy = async (policy) =>
    Number(
      await page
        .locator(`[data-testid=sim-row][data-interarrival="40"][data-policy="${policy}"] td`)
        .nth(3)
        .textContent(),
    );
  assert.ok((await tardy('MRM')) <= (await tardy('FCFS')), 'MRM no more tardy than FCFS at ρ = 0.9');
  await screenshot('pricing-simulation');

  // A bad setting is refused by the engine; the view keeps the last results.
  await typeInto('sim-kappa', '0.5');
  await page.locator('[data-testid=sim-error]').waitFor({ timeout: 240_000 });
  assert.equal(await page.locator('[data-testid=sim-row]').count(), 15);
  // A smaller sweep reruns.
  await typeInto('sim-kappa', '2');
  await typeInto('sim-interarrivals', '50, 200');
  await typeInto('sim-jobs', '20000');
  await waitForCount(page.locator('[data-testid=sim-row]'), 6, 'simulation rows of two loads', 240_000);
  await page.locator('[data-testid=sim-error]').waitFor({ state: 'detached' });
});

/**
 * A feasible queue of `n` jobs on 64 map and 32 reduce slots, as CSV: the
 * shape of `skyplan_bench::data::pricing_queue` (map work 200–6,000 slot-seconds,
 * reduce 50–2,000, deadlines back to back with 30 % slack), from a seeded
 * LCG.
 */
function queueCsv(n) {
  let state = 12345;
  const uniform = (lo, hi) => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return lo + ((state >>> 8) / 2 ** 24) * (hi - lo);
  };
  let t = 0;
  const lines = ['name,map_work,reduce_work,deadline'];
  for (let i = 0; i < n; i += 1) {
    const m = uniform(200, 6000);
    const r = uniform(50, 2000);
    t += (m / 64 + r / 32) * 1.3;
    lines.push(`q${i},${m.toFixed(1)},${r.toFixed(1)},${Math.ceil(t)}`);
  }
  return `${lines.join('\n')}\n`;
}

studioTest('Pricing: a 1,000-job queue imported from CSV, quotes against it (round trip logged), a bad file refused', { timeout: 300_000 }, 'no uncaught errors with a 1,000-job queue', async () => {
  await page.waitForSelector('body[data-ready="true"]', { timeout: WAIT_MS });
  await page.click('[data-testid=nav-pricing]');
  await typeInto('map-slots', '64');
  await typeInto('reduce-slots', '32');

  // A bad line refuses the file, with its location; the queue is unchanged.
  const before = await page.locator('[data-testid=queue-row]').count();
  const bad = path.join(tmpDir, 'bad-queue.csv');
  fs.writeFileSync(bad, 'name,map_work,reduce_work,deadline\na,10,x,60\n');
  await page.setInputFiles('[data-testid=queue-import]', bad);
  await page.locator('[data-testid=pricing-error]').waitFor();
  assert.match(
    await page.locator('[data-testid=pricing-error]').textContent(),
    /bad-queue\.csv:2:6: reduce_work: `x` is not a finite number/,
  );
  assert.equal(await page.locator('[data-testid=queue-row]').count(), before);

  const file = path.join(tmpDir, 'queue-1000.csv');
  fs.writeFileSync(file, queueCsv(1000));
  await page.setInputFiles('[data-testid=queue-import]', file);
  await waitForCount(page.locator('[data-testid=queue-row]'), before + 1000, 'imported queue rows');
  await drawnKey('gantt');
  // Quotes against the 1,000 jobs: one per deadline typed.
  const status = page.locator('[data-testid=quote-status]');
  await page.waitForFunction(() =>
    /against 1000 queued/.test(document.querySelector('[data-testid=quote-status]')?.textContent),
  );
  const finish = Number(await page.locator('[data-testid=earliest-finish]').getAttribute('data-secs'));
  const trips = [];
  const inWorker = [];
  for (let k = 1; k <= 15; k += 1) {
    await typeInto('deadline-input', String(Math.ceil(finish + 60 * k)));
    await page.waitForFunction(
      (d) => document.querySelector('[data-testid=chosen-price]')?.dataset.price &&
        !document.querySelector('[data-testid=quote-status]').textContent.includes('estimating'),
      k,
    );
    await page.waitForFunction(
      (d) => Number(document.querySelector('[data-testid=deadline-input]').value) === d,
      Math.ceil(finish + 60 * k),
    );
    trips.push(Number(await status.getAttribute('data-round-trip-ms')));
    inWorker.push(Number(await status.getAttribute('data-quote-ms')));
  }
  const median = (v) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)];
  console.log(
    `# BENCH-PRICING-PANEL queue 1000: quote in the worker median ${median(inWorker).toFixed(1)} ms, ` +
      `ask → answer median ${median(trips).toFixed(1)} ms (max ${Math.max(...trips).toFixed(1)})`,
  );
  await screenshot('pricing-queue-1000');
  await screenshot('pricing-gantt-1000', page.locator('canvas[data-testid=gantt]'));
  await page.click('[data-testid=queue-clear]');
  await waitForCount(page.locator('[data-testid=queue-row]'), 0, 'queue rows after clear');
});

test('no uncaught errors in the page', () => {
  assert.deepEqual(pageErrors, []);
});
