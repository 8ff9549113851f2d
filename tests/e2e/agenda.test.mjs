// End-to-end test of the Agenda panel: two jobs signed off in the SLOs panel
// and admitted by LowCost; hover, a refused and a roomy capacity, a drag with
// live preview, one snapped back, undo/redo, remove and Ctrl+Z, a one-off
// reservation, the comparison with the baselines and the bound, exports (CSV,
// YARN, PNG), the plan kept across a reload; then Optimize on the demo's plan
// (a reservation locked, the certified gap, undo).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  WAIT_MS,
  studioSession,
  screenshot,
  waitForCounts,
  openDemo,
  reloadDemo,
  freshWorkspace,
  waitForCount,
  ink,
  download,
  sloRow,
  decisionIs,
  fitShown,
  openSlos,
} from './helpers.mjs';

let page, baseUrl, pageErrors, demo, demoPlan;
studioSession('agenda', (s) => ({ page, baseUrl, pageErrors, demo } = s), { setup: async () => {
    // The demo's plan, as many rows as the optimize test waits for.
    await page.click('[data-testid=nav-agenda]');
    await page.locator('canvas[data-testid=agenda-canvas][data-drawn="true"]').waitFor();
    await page.locator('[data-testid=agenda-row]').first().waitFor();
    demoPlan = await page.locator('[data-testid=agenda-row]').count();
  } });

/**
 * A reservation row's numbers: its id and start, window and length (plan
 * steps) and where it is drawn (CSS pixels from the canvas's top-left:
 * data-start-px, data-end-px, the grab point data-x-px/data-y-px, and
 * data-step-px per step).
 */
async function agendaRow(name) {
  const row = page.locator(`[data-testid=agenda-row][data-name="${name}"]`);
  await row.waitFor();
  return row.evaluate((r) => {
    const n = (k) => Number(r.dataset[k]);
    return {
      id: r.dataset.id,
      start: n('start'),
      windowStart: n('windowStart'),
      windowEnd: n('windowEnd'),
      len: n('len'),
      startPx: n('startPx'),
      endPx: n('endPx'),
      x: n('xPx'),
      y: n('yPx'),
      stepPx: n('stepPx'),
    };
  });
}

async function agendaPeak() {
  return (await page.locator('[data-testid=agenda-peak]').textContent()).trim();
}

/**
 * Presses on reservation `name`, moves the pointer `steps` plan steps along
 * time in small moves like a hand, and waits until the preview of the last
 * position is drawn. Returns what the drag status says then — the candidate
 * start (a pixel is under two steps, so it may be one off), whether it fits,
 * the preview's round trip and the live peak — with the button still down.
 */
async function dragBy(name, steps) {
  const box = await page.locator('canvas[data-testid=agenda-canvas]').boundingBox();
  const r = await agendaRow(name);
  const x0 = box.x + r.x;
  const y0 = box.y + r.y;
  await page.mouse.move(x0, y0);
  await page.mouse.down();
  const dx = steps * r.stepPx;
  for (let i = 1; i <= 10; i += 1) await page.mouse.move(x0 + (dx * i) / 10, y0 + (i % 2));
  const status = page.locator('[data-testid=drag-status]');
  await page.waitForFunction(
    (from) => {
      const s = document.querySelector('[data-testid=drag-status]');
      return s && s.dataset.fits !== 'unknown' && s.dataset.start !== String(from);
    },
    r.start,
  );
  return {
    start: Number(await status.getAttribute('data-start')),
    fits: await status.getAttribute('data-fits'),
    text: (await status.textContent()).trim(),
    latency: Number(await status.getAttribute('data-latency-ms')),
    peak: await agendaPeak(),
  };
}

async function startOf(name) {
  return Number(
    await page.locator(`[data-testid=agenda-row][data-name="${name}"]`).getAttribute('data-start'),
  );
}

async function startIs(name, start) {
  await page.waitForFunction(
    ({ name, start }) =>
      document.querySelector(`[data-testid=agenda-row][data-name="${name}"]`)?.dataset.start ===
      String(start),
    { name, start },
  );
}

test('Agenda: admit signed-off jobs, drag with live preview, snap back, undo/redo, compare, export, persist', { timeout: 300_000 }, async () => {
  const errorsBefore = pageErrors.length;
  if (!page.url().startsWith(baseUrl)) await page.goto(baseUrl);
  await freshWorkspace('runs.csv');
  await waitForCounts((c) => c.runs > 0, 'job runs loaded');

  // Two daily jobs signed off in the SLOs panel.
  const jobs = ['revenue_rollup', 'fraud_features'];
  await openSlos();
  for (const job of jobs) {
    await sloRow(job).click();
    await fitShown(job);
    await page.click('[data-testid=sign-off]');
    await decisionIs(job, 'signed-off');
  }

  // Admitted by LowCost: one row each, a drawn timeline, a derived capacity.
  await page.click('[data-testid=nav-agenda]');
  await page.selectOption('[data-testid=method-select]', 'low-cost');
  // Skylines kept as they are, so that they have room to move in their windows.
  await page.uncheck('[data-testid=stretch-toggle]');
  const admit = page.locator('[data-testid=admit-decisions]');
  await page.waitForFunction(
    () => !document.querySelector('[data-testid=admit-decisions]')?.disabled,
  );
  await admit.click();
  for (const job of jobs) await agendaRow(job);
  const canvas = page.locator('canvas[data-testid=agenda-canvas][data-drawn="true"]');
  await canvas.waitFor();
  const inked = await ink(canvas);
  assert.ok(inked > 5_000, `the timeline has ink (${inked} pixels)`);
  assert.match(await agendaPeak(), /^\d+\.\d{3}$/);
  assert.match(await page.locator('[data-testid=capacity-note]').textContent(), /lower bound/);
  for (const job of jobs) {
    const r = await agendaRow(job);
    assert.ok(r.start >= r.windowStart && r.start + r.len <= r.windowEnd, `${job} within its window`);
    assert.ok(r.endPx > r.startPx && r.stepPx > 0, `${job} has pixels`);
    assert.equal(
      await page.locator(`[data-testid=agenda-row][data-name="${job}"] [data-testid=agenda-remove]`).count(),
      1,
    );
  }
  await screenshot('agenda-admitted');

  // Hovering a reservation names it.
  const box = await canvas.boundingBox();
  const rr = await agendaRow('revenue_rollup');
  await page.mouse.move(box.x + rr.x, box.y + rr.y);
  await page.locator('[data-testid=agenda-tooltip]').filter({ hasText: 'revenue_rollup' }).waitFor();
  await screenshot('agenda-hover');

  // A capacity below the load is refused; a roomy one is taken.
  await page.fill('[data-testid=capacity-cores]', '1');
  await page.click('[data-testid=capacity-apply]');
  await page.locator('[data-testid=agenda-error]').filter({ hasText: 'refused' }).waitFor();
  await page.fill('[data-testid=capacity-cores]', '400');
  await page.fill('[data-testid=capacity-memory]', String(400 * 4096));
  await page.click('[data-testid=capacity-apply]');
  await page.locator('[data-testid=capacity-note]').filter({ hasText: 'Set by you' }).waitFor();

  // A valid drag: half-way to the far end of revenue_rollup's window. The
  // live preview's peak is what the plan has after the drop.
  const before = await agendaRow('revenue_rollup');
  const room = [before.windowStart - before.start, before.windowEnd - before.len - before.start];
  const k = Math.abs(room[0]) > Math.abs(room[1]) ? Math.ceil(room[0] / 2) : Math.floor(room[1] / 2);
  assert.ok(k !== 0, `revenue_rollup has room to move in its window (${JSON.stringify(room)})`);
  const valid = await dragBy('revenue_rollup', k);
  assert.ok(Math.abs(valid.start - (before.start + k)) <= 1, `dragged ${k} steps: ${valid.text}`);
  assert.equal(valid.fits, 'true', `the move by ${k} steps fits: ${valid.text}`);
  assert.ok(valid.latency > 0, 'the preview round trip is measured');
  await screenshot('agenda-dragging');
  await page.mouse.up();
  const moved = valid.start;
  await startIs('revenue_rollup', moved);
  assert.equal(await agendaPeak(), valid.peak, 'the peak after the drop is the previewed one');
  const movedPeak = valid.peak;

  // An invalid drag: fraud_features past its deadline is shown as such and
  // snaps back with the reason.
  const ff = await agendaRow('fraud_features');
  const invalid = await dragBy('fraud_features', ff.windowEnd - ff.start + 20);
  assert.equal(invalid.fits, 'false', invalid.text);
  assert.match(invalid.text, /outside the window/);
  await screenshot('agenda-invalid-drag');
  await page.mouse.up();
  const reason = page.locator('[data-testid=drag-reason]');
  await reason.waitFor();
  assert.match(await reason.textContent(), /fraud_features snapped back: outside the window/);
  assert.equal(await startOf('fraud_features'), ff.start, 'fraud_features did not move');
  assert.equal(await agendaPeak(), movedPeak);
  await screenshot('agenda-snapped-back');

  // Undo takes the move back, redo applies it again.
  await page.click('[data-testid=undo]');
  await startIs('revenue_rollup', before.start);
  await page.click('[data-testid=redo]');
  await startIs('revenue_rollup', moved);
  assert.equal(await agendaPeak(), movedPeak);

  // Remove one, and bring it back with Ctrl+Z.
  await page
    .locator('[data-testid=agenda-row][data-name="fraud_features"] [data-testid=agenda-remove]')
    .click();
  await waitForCount(page.locator('[data-testid=agenda-row][data-name="fraud_features"]'), 0, 'fraud_features rows');
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('Control+z');
  await agendaRow('fraud_features');

  // A one-off reservation from the form, placed on the residual capacity.
  await page.fill('[data-testid=oneoff-name]', 'adhoc_backfill');
  await page.fill('[data-testid=oneoff-start]', '13:00');
  await page.fill('[data-testid=oneoff-deadline]', '17:00');
  await page.fill('[data-testid=oneoff-containers]', '20');
  await page.fill('[data-testid=oneoff-minutes]', '60');
  await page.click('[data-testid=oneoff-add]');
  const adhoc = await agendaRow('adhoc_backfill');
  assert.ok(adhoc.start >= 13 * 60 && adhoc.start + adhoc.len <= 17 * 60, 'the one-off within 13:00–17:00');
  assert.equal(adhoc.len, 60);

  // LowCost against the baselines, the batch optimizer and the lower bound.
  await page.click('[data-testid=compare-run]');
  const table = page.locator('[data-testid=compare-table]');
  await table.waitFor();
  const rows = await page.$$eval('[data-testid=compare-row]', (rs) =>
    rs.map((r) => ({ method: r.dataset.method, cells: [...r.cells].map((c) => c.textContent.trim()) })),
  );
  assert.deepEqual(rows.map((r) => r.method), ['low-cost', 'greedy', 'earliest-first', 'optimized']);
  const peakOf = (m) => Number(rows.find((r) => r.method === m).cells[2]);
  assert.ok(peakOf('optimized') <= peakOf('low-cost') + 1e-9, 'the optimizer never does worse than LowCost');
  const bound = Number((await page.locator('[data-testid=compare-bound] td').nth(2).textContent()).trim());
  for (const r of rows) assert.ok(Number(r.cells[2]) >= bound - 1e-9, `${r.method} peak ≥ bound`);
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot('agenda-compare');

  // Exports: CSV rows, YARN submissions, the timeline as PNG.
  const csv = await download('export-csv-plan');
  assert.match(csv.name, /\.csv$/);
  const text = csv.bytes.toString('utf8');
  assert.match(text, /^name,instance,method,start,end,containers\n/);
  for (const job of jobs) assert.ok(text.includes(`\n${job},0,low-cost,`), `${job} in ${text.slice(0, 300)}`);
  const yarn = await download('export-yarn');
  const submissions = JSON.parse(yarn.bytes.toString('utf8'));
  const count = await page.locator('[data-testid=agenda-row]').count();
  assert.equal(submissions.length, count);
  assert.ok(submissions.some((s) => s['reservation-definition']['reservation-name'] === 'revenue_rollup'));
  const png = await download('export-png');
  assert.match(png.name, /\.png$/);
  assert.deepEqual([...png.bytes.subarray(0, 4)], [0x89, 0x50, 0x4e, 0x47]);

  // The plan survives a reload.
  const peak = await agendaPeak();
  await page.reload();
  await page.waitForSelector('body[data-ready="true"]', { timeout: WAIT_MS });
  await page.click('[data-testid=nav-agenda]');
  await startIs('revenue_rollup', moved);
  await agendaRow('fraud_features');
  assert.equal(await page.locator('[data-testid=agenda-row]').count(), count);
  await page.locator('canvas[data-testid=agenda-canvas][data-drawn="true"]').waitFor();
  assert.equal(await agendaPeak(), peak);
  await screenshot('agenda-after-reload');
  assert.deepEqual(pageErrors.slice(errorsBefore), [], 'no uncaught errors in the Agenda panel');
});
// On the demo's plan: "Clear" and "Load demo" bring it back after the test
// above.
test('Agenda: optimize re-places the plan, the peak falls or stays, the gap is shown, undo restores', { timeout: 300_000 }, async () => {
  const errorsBefore = pageErrors.length;
  if (!page.url().startsWith(baseUrl)) await page.goto(baseUrl);
  await reloadDemo(demo);
  await page.click('[data-testid=nav-agenda]');
  await page.locator('canvas[data-testid=agenda-canvas][data-drawn="true"]').waitFor();
  await page.locator('[data-testid=agenda-row]').first().waitFor();
  await waitForCount(page.locator('[data-testid=agenda-row]'), demoPlan, 'rows of the demo plan');
  const starts = () =>
    page.$$eval('[data-testid=agenda-row]', (rows) =>
      rows.map((r) => [r.dataset.name, r.dataset.start]).sort((a, b) => a[0].localeCompare(b[0])),
    );
  const before = await starts();
  const peakBefore = Number(await agendaPeak());
  // Lock the first reservation: Optimize must leave it where it is.
  const lockedRow = page.locator('[data-testid=agenda-row]').first();
  const lockedName = await lockedRow.getAttribute('data-name');
  const lockedStart = await lockedRow.getAttribute('data-start');
  await lockedRow.locator('[data-testid=agenda-lock]').check();
  await page.waitForFunction(() => !document.querySelector('[data-testid=optimize]')?.disabled);
  await page.click('[data-testid=optimize]');
  const outcome = page.locator('[data-testid=agenda-outcome]');
  await page.waitForFunction(() =>
    document.querySelector('[data-testid=agenda-outcome]')?.textContent.includes('Optimized:'),
  );
  const text = await outcome.textContent();
  const m = text.match(/peak (\d+\.\d+) \(was (\d+\.\d+)\), at most (\d+\.\d) % above the optimum/);
  assert.ok(m, `the outcome states the peak and the certified gap: ${text}`);
  const peakAfter = Number(await agendaPeak());
  assert.ok(peakAfter <= peakBefore + 1e-3, `the peak falls or stays: ${peakBefore} → ${peakAfter}`);
  assert.ok(Math.abs(Number(m[1]) - peakAfter) < 1e-3, 'the outcome and the figure agree');
  assert.ok(Number(m[3]) >= 0, 'a gap');
  assert.match(text, /reservations moved, 1 locked\./, `the optimizer was told of the lock: ${text}`);
  assert.equal(
    await page.locator('[data-testid=optimize-progress]').count(),
    0,
    'the progress bar goes when the optimized plan arrives',
  );
  assert.equal(
    await page.locator(`[data-testid=agenda-row][data-name="${lockedName}"]`).getAttribute('data-start'),
    lockedStart,
    `the locked ${lockedName} stays where it was`,
  );
  await screenshot('agenda-optimized');

  await page.click('[data-testid=undo]');
  await page.waitForFunction(() =>
    document.querySelector('[data-testid=agenda-outcome]')?.textContent.includes('Undone'),
  );
  assert.equal(Number(await agendaPeak()), peakBefore, 'undo restores the peak');
  assert.deepEqual(await starts(), before, 'undo restores every reservation');
  assert.equal(pageErrors.length, errorsBefore, pageErrors.join('\n'));
});

test('no uncaught errors in the page', () => {
  assert.deepEqual(pageErrors, []);
});
