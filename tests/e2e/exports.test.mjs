// End-to-end test of what a running cluster exports, read as it is (the
// samples in fixtures/clusters/, written to each schema): each dropped on
// the Traces panel, seen in the files table with its format and notes, and
// in the panels that take it — runs in the chart selector and the SLOs
// panel, series in the chart selector. Then a large import is cancelled and
// the workspace is as it was.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import {
  REPO,
  studioSession,
  screenshot,
  counts,
  waitForCounts,
  openTraces,
  drop,
  row,
  waitForCount,
} from './helpers.mjs';

const SAMPLES = path.join(REPO, 'fixtures', 'clusters');

let page;
let baseUrl;
studioSession('exports', (s) => ({ page, baseUrl } = s), { demo: false });

/** Drops a sample and waits until `ok` holds of the counts. */
async function dropSample(name, ok, what) {
  const before = await counts();
  const bytes = [...fs.readFileSync(path.join(SAMPLES, name))];
  await drop(name, bytes, 'application/octet-stream');
  await row(name).waitFor();
  return waitForCounts((c) => c.files === before.files + 1 && ok(c, before), what);
}

/** The format badge of a loaded file's row. */
async function formatOf(name) {
  return (await row(name).locator('.badge').textContent()).trim();
}

/** The chart selector's options. */
async function options() {
  return page.$$eval('[data-testid=chart-select] option', (os) => os.map((o) => o.value));
}

/** The recurring jobs the SLOs panel lists. */
async function sloJobs() {
  await page.click('[data-testid=nav-slos]');
  await page.locator('[data-testid=slo-row]').first().waitFor();
  const jobs = await page.$$eval('[data-testid=slo-row]', (rows) => rows.map((r) => r.dataset.job));
  await openTraces();
  return jobs;
}

test('an empty workspace to start from', { timeout: 120_000 }, async () => {
  await page.goto(baseUrl);
  await openTraces();
  await waitForCounts((c) => c.files > 0, 'the demo on the first visit');
  await page.click('[data-testid=clear]');
  await waitForCounts((c) => c.files === 0, 'an empty workspace');
});

test('a ResourceManager apps answer: runs grouped into recurring jobs, in the SLOs panel', { timeout: 120_000 }, async () => {
  await dropSample('yarn-rm-apps.json', (c, b) => c.runs === b.runs + 7 && c.jobs === b.jobs + 3, '7 runs of 3 jobs');
  assert.equal(await formatOf('yarn-rm-apps.json'), 'yarn-apps-json');
  const notes = await row('yarn-rm-apps.json').locator('[data-testid=file-notes]').textContent();
  assert.ok(notes.includes('still running'), notes);
  assert.ok((await options()).includes('job:revenue_rollup'));
  assert.ok((await sloJobs()).includes('revenue_rollup'));
  await screenshot('rm-apps');
});

test('JobHistory jobs and tasks: runs and a job history', { timeout: 120_000 }, async () => {
  await dropSample('mapreduce-history.json', (c, b) => c.runs === b.runs + 3 && c.workload === b.workload + 3, '3 runs, 3 history jobs');
  assert.equal(await formatOf('mapreduce-history.json'), 'mapreduce-history-json');
  assert.ok((await options()).includes('job:wordcount'));
});

test('a Spark event log: one run of its executors', { timeout: 120_000 }, async () => {
  const name = 'spark-eventlog-application_1793500000000_0042_1';
  await dropSample(name, (c, b) => c.runs === b.runs + 1, 'one run');
  assert.equal(await formatOf(name), 'spark-event-log');
  assert.ok((await options()).includes('job:daily_sessions'));
});

test('a Prometheus range query: one series per result, charted', { timeout: 120_000 }, async () => {
  await dropSample('prometheus-query-range.json', (c, b) => c.series === b.series + 2 && c.points === b.points + 239, '2 series, 239 points');
  assert.equal(await formatOf('prometheus-query-range.json'), 'prometheus-json');
  const series = (await options()).filter((o) => o.startsWith('series:'));
  await page.selectOption('[data-testid=chart-select]', series[0]);
  await page.locator('canvas[data-testid=chart][data-drawn="true"]').waitFor();
  await screenshot('prometheus');
});

test('a Grafana panel CSV: one series per column', { timeout: 120_000 }, async () => {
  await dropSample('grafana-panel.csv', (c, b) => c.series === b.series + 2, '2 series');
  assert.equal(await formatOf('grafana-panel.csv'), 'grafana-csv');
});

test('Google 2019 instance_usage (JSON lines): machine series', { timeout: 120_000 }, async () => {
  await dropSample('google-2019-instance_usage.json', (c, b) => c.series === b.series + 6, '6 machine series');
  assert.equal(await formatOf('google-2019-instance_usage.json'), 'google-instance-usage');
  assert.ok((await options()).length > 0);
});

test('Google 2019 instance_usage (CSV): machine series, charted', { timeout: 120_000 }, async () => {
  await dropSample('google-2019-instance_usage.csv', (c, b) => c.series === b.series + 6 && c.points === b.points + 72, '6 machine series, 72 points');
  assert.equal(await formatOf('google-2019-instance_usage.csv'), 'google-instance-usage');
  const machines = await page.$$eval('[data-testid=chart-select] option', (os) =>
    os.filter((o) => o.value.startsWith('series:') && o.textContent.startsWith('machine-')).map((o) => o.value),
  );
  assert.ok(machines.length >= 6, 'the machine series in the chart selector');
  const machine = machines[machines.length - 1];
  await page.selectOption('[data-testid=chart-select]', machine);
  await page.locator('canvas[data-testid=chart][data-drawn="true"]').waitFor();
});

test('Google 2019 instance events (CSV): runs of one collection', { timeout: 120_000 }, async () => {
  await dropSample('google-2019-instance_events.csv', (c, b) => c.runs === b.runs + 2, '2 runs');
  assert.equal(await formatOf('google-2019-instance_events.csv'), 'google-events');
});

test('Google 2019 collection events: runs of one program', { timeout: 120_000 }, async () => {
  await dropSample('google-2019-collection_events.json', (c, b) => c.runs === b.runs + 3, '3 runs');
  assert.equal(await formatOf('google-2019-collection_events.json'), 'google-events');
});

test('Alibaba v2018 batch_task: recurring runs by plan, in the SLOs panel', { timeout: 120_000 }, async () => {
  await dropSample('alibaba-batch_task.csv', (c, b) => c.runs === b.runs + 4, '4 runs');
  assert.equal(await formatOf('alibaba-batch_task.csv'), 'alibaba-batch-csv');
  const dag = (await options()).find((o) => o.startsWith('job:dag3_'));
  assert.ok(dag, 'the recurring plan is a job');
});

test('Alibaba v2018 batch_instance: runs of its jobs', { timeout: 120_000 }, async () => {
  await dropSample('alibaba-batch_instance.csv', (c, b) => c.runs === b.runs + 2, '2 runs');
  assert.equal(await formatOf('alibaba-batch_instance.csv'), 'alibaba-batch-csv');
  await screenshot('all-exports');
});

test('cancelling a large import leaves the workspace as it was', { timeout: 180_000 }, async () => {
  const before = await counts();
  // 200 MB of Prometheus samples, made in the page: long enough to cancel.
  await page.evaluate(() => {
    const head = '{"status":"success","data":{"resultType":"matrix","result":[{"metric":{"__name__":"x_cpu"},"values":[';
    const sample = '[1793577600,"1"],';
    const block = sample.repeat(1 << 16);
    const parts = [head];
    for (let i = 0; i < 180; i++) parts.push(block);
    parts.push('[1793577601,"1"]]}]}}');
    const dt = new DataTransfer();
    dt.items.add(new File(parts, 'big.json', { type: 'application/json' }));
    const zone = document.querySelector('[data-testid=dropzone]');
    for (const kind of ['dragenter', 'dragover', 'drop']) {
      zone.dispatchEvent(new DragEvent(kind, { bubbles: true, cancelable: true, dataTransfer: dt }));
    }
  });
  await page.locator('[data-testid=import-cancel]').first().waitFor();
  await page.click('[data-testid=import-cancel]');
  await waitForCount(page.locator('[data-testid=progress]'), 0, 'no import under way');
  await page.locator('text=Cancelled — nothing was loaded').first().waitFor();
  await waitForCounts((c) => JSON.stringify(c) === JSON.stringify(before), 'the same workspace');
  // And after a reload, still the same: the cancelled file was never saved.
  await page.reload();
  await openTraces();
  await waitForCounts((c) => JSON.stringify(c) === JSON.stringify(before), 'the same workspace after a reload');
  await screenshot('cancelled');
});
