// End-to-end test of the Traces panel, the workspace and the demo (helpers.mjs
// has the session: dist/ served, headless Chromium on a fresh profile).
// First visit: the demo workspace with every panel at work (decisions, plan,
// queue); clear and reload the demo; upload a real NAB series, drop the SWIM
// workload, draw a chart, forecast the NAB series in the worker; refuse a
// malformed file with file:line:col errors while the app keeps working;
// remove a file; reload the page with the workspace kept (IndexedDB).

import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import {
  DATA,
  COUNTS,
  studioSession,
  screenshot,
  counts,
  waitForCounts,
  errorTexts,
  rowNames,
  row,
  openTraces,
  upload,
  drop,
  waitForCount,
  ink,
  drawnKey,
  typeInto,
  takeOffOriginRequests,
} from './helpers.mjs';

const NAB_NAME = 'ec2_cpu_utilization_24ae8d.csv';
const NAB_FILE = path.join(DATA, 'nab', NAB_NAME);
const NAB_POINTS = 4032;
const NAB2_NAME = 'ec2_cpu_utilization_53ea38.csv';
const SWIM_NAME = 'FB-2009_samples_24_times_1hr_0.tsv';
const SWIM_FILE = path.join(DATA, 'swim', SWIM_NAME);
const SWIM_JOBS = 5894;
const BAD_NAME = 'bad_utilization.csv';
// Line 3: the value is not a number (column 21); line 5: not a timestamp
// (column 1). Strict mode refuses the whole file.
const BAD_TEXT = [
  'timestamp,value',
  '2014-02-14 14:30:00,0.5',
  '2014-02-14 14:35:00,abc',
  '2014-02-14 14:40:00,0.7',
  'yesterday,0.1',
  '',
].join('\n');
const BAD_AT = [`${BAD_NAME}:3:21`, `${BAD_NAME}:5:1`];

let page, baseUrl, tmpDir, pageErrors, demo;
before(() => {
  assert.ok(fs.existsSync(NAB_FILE), `${NAB_FILE} is missing (fixtures/real in the repository)`);
  assert.ok(fs.existsSync(SWIM_FILE), `${SWIM_FILE} is missing (fixtures/real in the repository)`);
});
studioSession('traces', (s) => ({ page, baseUrl, tmpDir, pageErrors } = s), { demo: false });

test('first visit opens with the demo workspace', { timeout: 120_000 }, async () => {
  await page.goto(baseUrl);
  await openTraces();
  demo = await waitForCounts(
    (c) => c.files > 0 && c.runs > 0 && c.jobs > 0 && c.series > 0 && c.points > 0,
    'the demo workspace',
  );
  assert.ok((await rowNames()).length === demo.files, 'one row per loaded file');
  await screenshot('first-visit-demo');
});

test('clear empties the workspace and load-demo brings it back', { timeout: 120_000 }, async () => {
  await page.click('[data-testid=clear]');
  await waitForCounts((c) => COUNTS.every((k) => c[k] === 0), 'an empty workspace');
  assert.deepEqual(await rowNames(), []);
  await screenshot('cleared');
  await page.click('[data-testid=load-demo]');
  const again = await waitForCounts((c) => c.files === demo.files, 'the demo again');
  await waitForCounts((c) => JSON.stringify(c) === JSON.stringify(demo), 'the same demo counts');
  assert.equal(again.files, demo.files);
  await screenshot('demo-reloaded');
});

test('the demo opens every panel at work: decisions signed off, the plan drawn, a queue', { timeout: 180_000 }, async () => {
  await openTraces();
  // Calendar dates only: the job history's trace-relative times stay out of the span.
  const span = await page.locator('[data-testid=workspace-span]').textContent();
  assert.ok(!span.includes('1970'), `the workspace span is in calendar time: ${span}`);

  await page.click('[data-testid=nav-slos]');
  await waitForCount(page.locator('[data-testid=slo-row]'), 12, 'recurring-job rows');
  const decided = await page.$$eval('[data-testid=slo-row]', (rows) =>
    rows.map((r) => [
      r.dataset.job,
      r.dataset.actionable,
      r.querySelector('[data-testid=slo-decision]').textContent.trim(),
    ]),
  );
  // The demo signs off its actionable jobs (those whose skyline fits the
  // window: fixtures/demo/decisions.csv); the others stay pending.
  const signed = decided.filter(([, , status]) => status === 'signed-off');
  assert.ok(signed.length >= 5, `the demo signs jobs off (${signed.length})`);
  for (const [job, a] of signed) assert.equal(a, 'true', `${job}, signed off, is actionable`);
  for (const [job, a, status] of decided) {
    if (a !== 'true') assert.equal(status, 'pending', `${job} (not actionable) is left pending`);
  }
  await screenshot('demo-slos');

  // The Agenda opens with the signed-off jobs admitted by LowCost.
  await page.click('[data-testid=nav-agenda]');
  const canvas = page.locator('canvas[data-testid=agenda-canvas][data-drawn="true"]');
  await canvas.waitFor();
  const planned = await page.locator('[data-testid=agenda-row]').count();
  assert.ok(planned >= 3 && planned <= signed.length, `the demo plan has reservations (${planned})`);
  assert.ok((await ink(canvas)) > 5_000, 'the demo plan is drawn');
  await screenshot('demo-agenda');

  await page.click('[data-testid=nav-pricing]');
  await page.locator('[data-testid=queue-row]').first().waitFor();
  const queued = await page.locator('[data-testid=queue-row]').count();
  assert.ok(queued >= 3, `the demo queue has admitted jobs (${queued})`);
  // Admitted at a quoted price by an estimator, as the panel would have.
  const first = await page.locator('[data-testid=queue-row]').first().textContent();
  assert.ok(!first.includes('imported') && !first.includes('—'), `a priced admission: ${first}`);
  await page.locator('canvas[data-testid=gantt][data-drawn="true"]').waitFor();
  await screenshot('demo-pricing');

  // "Clear" empties everything; "Load demo" brings all of it back.
  await openTraces();
  await page.click('[data-testid=clear]');
  await waitForCounts((c) => c.files === 0, 'an empty workspace');
  await page.click('[data-testid=nav-pricing]');
  await waitForCount(page.locator('[data-testid=queue-row]'), 0, 'no queue after clear');
  await page.click('[data-testid=nav-agenda]');
  await waitForCount(page.locator('[data-testid=agenda-row]'), 0, 'no plan after clear');
  await openTraces();
  await page.click('[data-testid=load-demo]');
  await waitForCounts((c) => c.files === demo.files, 'the demo again');
  await page.click('[data-testid=nav-agenda]');
  await waitForCount(page.locator('[data-testid=agenda-row]'), planned, 'the demo plan again');
  await page.click('[data-testid=nav-pricing]');
  await waitForCount(page.locator('[data-testid=queue-row]'), queued, 'the demo queue again');
  await openTraces();
});

test('uploading a NAB series adds one series of 4032 points', { timeout: 120_000 }, async () => {
  const before = await counts();
  await upload(NAB_FILE);
  const now = await waitForCounts(
    (c) => c.series === before.series + 1 && c.points === before.points + NAB_POINTS,
    `series +1 and points +${NAB_POINTS}`,
  );
  assert.equal(now.files, before.files + 1);
  assert.equal(now.runs, before.runs);
  await row(NAB_NAME).waitFor();
  await screenshot('nab-uploaded');
});

test('dropping the SWIM workload loads 5894 jobs', { timeout: 120_000 }, async () => {
  const before = await counts();
  await drop(SWIM_NAME, fs.readFileSync(SWIM_FILE, 'utf8'), 'text/tab-separated-values');
  const now = await waitForCounts(
    (c) => c.workload === before.workload + SWIM_JOBS,
    `count-workload = ${before.workload} + ${SWIM_JOBS}`,
  );
  assert.equal(now.files, before.files + 1);
  assert.equal(now.series, before.series);
  await row(SWIM_NAME).waitFor();
  await screenshot('swim-dropped');
});

async function drawn(value) {
  await page.selectOption('[data-testid=chart-select]', value);
  const canvas = page.locator('canvas[data-testid=chart][data-drawn="true"]');
  await canvas.waitFor();
  const kind = await canvas.getAttribute('data-kind');
  assert.equal(kind, value.split(':')[0], `data-kind of the chart for ${value}`);
  const inked = await ink(canvas);
  assert.ok(inked > 200, `the chart for ${value} has ink (${inked} pixels off the background)`);
  return kind;
}

test('selecting a job draws its chart on the canvas', { timeout: 120_000 }, async () => {
  const options = await page.$$eval('[data-testid=chart-select] option', (os) =>
    os.map((o) => o.value),
  );
  // A job other than the one shown, so that selecting it redraws.
  const current = await page.inputValue('[data-testid=chart-select]');
  const job = options.find((v) => v.startsWith('job:') && v !== current);
  assert.ok(job, `a job:<name> option among ${options.slice(0, 5).join(', ')}…`);
  await drawn(job);
  await screenshot('chart-job');
  const series = options.find((v) => v.startsWith('series:'));
  assert.ok(series, 'a series:<index> option');
  await drawn(series);
  await screenshot('chart-series');
});

test('forecasting the NAB series: rolling one-step bands and the coverage/width table, from the worker', { timeout: 180_000 }, async () => {
  const nab = await page.$$eval('[data-testid=chart-select] option', (os) =>
    // The uploaded file's series, not the demo tenant `nab-24ae8d` made from it.
    os
      .filter(
        (o) => o.value.startsWith('series:') && o.textContent.includes('24ae8d') && !o.textContent.includes('nab-24ae8d'),
      )
      .map((o) => o.value),
  );
  assert.equal(nab.length, 1, 'the NAB series is offered');
  await drawn(nab[0]);
  await page.locator('[data-testid=forecast-card]').waitFor();
  await page.click('[data-testid=forecast-run]');
  await waitForCount(page.locator('[data-testid=forecast-row]'), 5, 'one row per method');
  const key = await drawnKey('forecast-chart');
  assert.ok(key.endsWith(':GP'), `the GP band is drawn first (${key})`);
  assert.ok((await ink(page.locator('canvas[data-testid=forecast-chart]'))) > 2_000, 'the forecast chart has ink');
  const rows = await page.$$eval('[data-testid=forecast-row]', (rs) =>
    rs.map((r) => [r.dataset.method, Number(r.dataset.coverage)]),
  );
  for (const [method, coverage] of rows) {
    if (method === 'seasonal naive' && Number.isNaN(coverage)) continue;
    assert.ok(coverage >= 0 && coverage <= 1, `${method} coverage ${coverage}`);
  }
  const gp = rows.find(([m]) => m === 'GP');
  assert.ok(gp && gp[1] > 0.5, `the GP's intervals cover most observations (${gp?.[1]})`);
  const status = await page.locator('[data-testid=forecast-status]').textContent();
  assert.match(status, /5 methods in \d+ ms/);
  console.log(`# forecast of ${NAB_NAME} in the worker: ${status.trim()}`);
  await screenshot('forecast-nab');

  // Another method's band; a bad setting is refused with the engine's reason.
  await page.locator('[data-testid=forecast-row][data-method=ARIMA]').click();
  await drawnKey('forecast-chart', key);
  await typeInto('forecast-window', '0');
  await page.click('[data-testid=forecast-run]');
  await page.locator('[data-testid=forecast-error]').waitFor();
  assert.match(await page.locator('[data-testid=forecast-error]').textContent(), /window/);
  await typeInto('forecast-window', '10');
});

test('a malformed file is refused with file:line:col errors; the app keeps working', { timeout: 120_000 }, async () => {
  const before = await counts();
  const bad = path.join(tmpDir, BAD_NAME);
  fs.writeFileSync(bad, BAD_TEXT);
  await upload(bad);
  const failed = page.locator('[data-testid=import-failed]').filter({ hasText: BAD_NAME });
  await failed.first().waitFor();
  await page.waitForSelector('[data-testid=error-line]');
  const lines = await errorTexts();
  for (const at of BAD_AT) {
    assert.ok(
      lines.some((l) => l.includes(at)),
      `an error line with ${at} among ${JSON.stringify(lines)}`,
    );
  }
  assert.ok(
    (await page.locator('[data-testid=error-list]').count()) > 0,
    'errors are listed in the error list',
  );
  assert.deepEqual(await counts(), before, 'a refused file changes nothing');
  assert.ok(!(await rowNames()).includes(BAD_NAME));
  await screenshot('malformed-refused');
  // Another upload still works.
  await upload(path.join(DATA, 'nab', NAB2_NAME));
  await waitForCounts(
    (c) => c.series === before.series + 1 && c.points > before.points,
    'a second NAB series after the refused file',
  );
  await row(NAB2_NAME).waitFor();
  await screenshot('upload-after-error');
});

test('removing a file takes its records out', { timeout: 120_000 }, async () => {
  const before = await counts();
  await row(NAB_NAME).locator('[data-testid=remove-file]').click();
  const now = await waitForCounts(
    (c) => c.files === before.files - 1,
    'one file fewer',
  );
  assert.equal(now.series, before.series - 1);
  assert.equal(now.points, before.points - NAB_POINTS);
  assert.equal(await row(NAB_NAME).count(), 0);
  await screenshot('file-removed');
});

test('reloading the page keeps the workspace', { timeout: 120_000 }, async () => {
  const before = await counts();
  const names = (await rowNames()).sort();
  await page.reload();
  await openTraces();
  await waitForCounts(
    (c) => JSON.stringify(c) === JSON.stringify(before),
    `the same counts after reload (${JSON.stringify(before)})`,
  );
  assert.deepEqual((await rowNames()).sort(), names);
  await screenshot('after-reload');
});

test('no uncaught errors in the page', () => {
  assert.deepEqual(pageErrors, []);
});

test('the request recorder catches a request that leaves the page\'s origin', { timeout: 60_000 }, async () => {
  // The suite fails if the studio sends anything anywhere but its own
  // origin; this checks that the recorder would see it.
  takeOffOriginRequests();
  const probe = 'http://example.invalid/skyplan-probe';
  await page.evaluate((url) => fetch(url).catch(() => null), probe);
  const seen = takeOffOriginRequests();
  assert.ok(seen.includes(probe), `the probe was recorded (${seen})`);
});
