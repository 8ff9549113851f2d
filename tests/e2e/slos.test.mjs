// End-to-end test of the SLOs panel: on runs.csv alone, the inferred windows
// (actionable or not), R* fits redrawn as α and the step change, a sign-off,
// an override and one the engine refuses, decisions kept across a reload and
// exported as CSV and JSON.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import {
  WAIT_MS,
  studioSession,
  screenshot,
  waitForCounts,
  openDemo,
  freshWorkspace,
  waitForCount,
  sloRow,
  decisionIs,
  fitShown,
  openSlos,
} from './helpers.mjs';

let page, pageErrors;
studioSession('slos', (s) => ({ page, pageErrors } = s));

test('SLOs: inferred windows, R* fits, decisions that persist and export', { timeout: 240_000 }, async () => {
  await freshWorkspace('runs.csv');
  await waitForCounts((c) => c.runs > 0, 'job runs loaded');
  await openSlos();
  await waitForCount(page.locator('[data-testid=nonperiodic-row]'), 2, 'non-periodic groups');
  assert.equal(await sloRow('revenue_rollup').getAttribute('data-actionable'), 'true');
  assert.equal(await sloRow('billing_export').getAttribute('data-actionable'), 'false');
  for (const job of ['revenue_rollup', 'clickstream_agg', 'billing_export']) {
    assert.equal(
      (await sloRow(job).locator('[data-testid=slo-decision]').textContent()).trim(),
      'pending',
      `${job} starts undecided`,
    );
  }

  // A job without an actionable deadline cannot be signed off as is.
  await sloRow('billing_export').click();
  await fitShown('billing_export');
  assert.ok(await page.locator('[data-testid=sign-off]').isDisabled(), 'no sign-off for billing_export');
  assert.ok(await page.locator('[data-testid=override]').isEnabled(), 'override is offered');

  // revenue_rollup: fit, change α, see the chart redrawn, sign off.
  await sloRow('revenue_rollup').click();
  let key = await fitShown('revenue_rollup');
  await screenshot('slos-fit');
  const alpha = page.locator('[data-testid=alpha-input]');
  const before = Number(await alpha.inputValue());
  await alpha.fill(String(before + 3));
  key = await fitShown('revenue_rollup', key);
  assert.notEqual(Number(await alpha.inputValue()), before, 'the slider moved');
  // A burst of changes: only the latest answer is shown, then ready again.
  for (const step of ['5', '30', '60']) await page.selectOption('[data-testid=step-select]', step);
  key = await fitShown('revenue_rollup', key);
  assert.match(
    await page.locator('canvas[data-testid=slo-chart]').getAttribute('data-key'),
    /^revenue_rollup#/,
  );
  await page.click('[data-testid=sign-off]');
  await decisionIs('revenue_rollup', 'signed-off');
  await screenshot('slos-signed-off');

  // clickstream_agg: override the window to [0, 50 min].
  await sloRow('clickstream_agg').click();
  await fitShown('clickstream_agg');
  await page.click('[data-testid=override]');
  await page.fill('[data-testid=override-start]', '0');
  await page.fill('[data-testid=override-deadline]', '50');
  assert.match(await page.inputValue('[data-testid=override-skyline]'), /^[\d.]+(;[\d.]+)+$/);
  await page.click('[data-testid=override-save]');
  await decisionIs('clickstream_agg', 'overridden');
  await page.locator('[data-testid=override-form]').waitFor({ state: 'detached' });

  // A deadline before the start is refused by the engine; nothing changes.
  const decisionsBefore = await page.$$eval('[data-testid=decision-row]', (rs) =>
    rs.map((r) => r.textContent),
  );
  await page.click('[data-testid=override]');
  await page.fill('[data-testid=override-start]', '30');
  await page.fill('[data-testid=override-deadline]', '10');
  await page.click('[data-testid=override-save]');
  const error = page.locator('[data-testid=slo-error]');
  await error.waitFor();
  const message = (await error.textContent()).trim();
  assert.match(message, /clickstream_agg/);
  assert.match(message, /window \[1800, 600\] must have 0 ≤ a < d/);
  await decisionIs('clickstream_agg', 'overridden');
  assert.deepEqual(
    await page.$$eval('[data-testid=decision-row]', (rs) => rs.map((r) => r.textContent)),
    decisionsBefore,
    'a refused decision changes nothing',
  );
  await screenshot('slos-override-refused');

  // Decisions survive a reload.
  await page.reload();
  await page.waitForSelector('body[data-ready="true"]', { timeout: WAIT_MS });
  await openSlos();
  await decisionIs('revenue_rollup', 'signed-off');
  await decisionIs('clickstream_agg', 'overridden');
  await waitForCount(page.locator('[data-testid=decision-row]'), 2, 'saved decisions');
  await screenshot('slos-after-reload');

  // Export: CSV from the engine's writer, JSON of the same decisions.
  const [csv] = await Promise.all([
    page.waitForEvent('download'),
    page.click('[data-testid=export-csv]'),
  ]);
  assert.match(csv.suggestedFilename(), /\.csv$/);
  const csvText = fs.readFileSync(await csv.path(), 'utf8');
  assert.match(csvText, /^job,decision,period_secs,/);
  assert.ok(csvText.includes('revenue_rollup,signed-off'), csvText);
  assert.ok(csvText.includes('clickstream_agg,overridden,3600,'), csvText);
  assert.ok(csvText.includes(',0,3000,'), `the overridden window [0, 3000] s in ${csvText}`);
  const [json] = await Promise.all([
    page.waitForEvent('download'),
    page.click('[data-testid=export-json]'),
  ]);
  const decisions = JSON.parse(fs.readFileSync(await json.path(), 'utf8'));
  assert.deepEqual(
    decisions.map((d) => [d.job, d.kind]),
    [
      ['clickstream_agg', 'overridden'],
      ['revenue_rollup', 'signed-off'],
    ],
  );
  assert.deepEqual(decisions[0].window, [0, 3000]);
});

test('no uncaught errors in the page', () => {
  assert.deepEqual(pageErrors, []);
});
