// End-to-end test of what a running cluster exports, read as it is (the
// samples in fixtures/clusters/, written to each schema): each dropped on
// the Traces panel, seen in the files table with its format and notes, and
// in the panels that take it — runs in the chart selector and the SLOs
// panel, series in the chart selector. Spark's own logs, compressed by each
// of its codecs, read as the plain log; a corrupt or cut one is refused with
// the byte where it breaks. Then a large import is cancelled and the
// workspace is as it was. The Google 2019 instance tables are also chosen
// in the Shaping panel, as a workload.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import {
  REPO,
  DATA,
  studioSession,
  screenshot,
  counts,
  waitForCounts,
  openTraces,
  drop,
  row,
  rowNames,
  ink,
  waitForCount,
  typeInto,
} from './helpers.mjs';

const SAMPLES = path.join(REPO, 'fixtures', 'clusters');

let page;
let baseUrl;
studioSession('exports', (s) => ({ page, baseUrl } = s), { demo: false });

/** Drops a sample and waits until `ok` holds of the counts. */
async function dropSample(name, ok, what) {
  return dropFrom(SAMPLES, name, ok, what);
}

/** Drops the file `name` of `dir` and waits until `ok` holds of the counts. */
async function dropFrom(dir, name, ok, what) {
  const before = await counts();
  const bytes = [...fs.readFileSync(path.join(dir, name))];
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
  // The Pricing panel learns from it: the job whose tasks are there has
  // its phases (the others have no times to learn from).
  await page.click('[data-testid=nav-pricing]');
  const history = page.locator('[data-testid=history-select] option');
  await waitForCount(history, 2, 'history options (a heading and the job with its tasks)');
  const jobs = await history.allTextContents();
  assert.ok(jobs.some((o) => o.startsWith('wordcount · 4 maps')), JSON.stringify(jobs));
  assert.match(await page.locator('.hint', { hasText: 'Learned from' }).first().textContent(), /mapreduce-history\.json/);
  await openTraces();
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
  // A series is what the Forecast card under the chart takes.
  await page.locator('[data-testid=forecast-card]').waitFor();
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

test('Google 2019 instance_events + instance_usage: a workload in the Shaping panel, simulated', { timeout: 180_000 }, async () => {
  await page.click('[data-testid=nav-shaping]');
  await page.locator('[data-testid=shaping-panel]').waitFor();
  // The panel's own default run (generated workload) ends first.
  const ended = () => page.waitForFunction(
    () => document.querySelector('[data-testid=shaping-status]')?.dataset.running === 'false' &&
      document.querySelector('[data-testid=shaping-speedup]'),
    null,
    { timeout: 120_000 },
  );
  await ended();
  // The pair chosen together, usage first: told apart by their fields (a
  // JSON-lines table is not a workload JSON), one application per
  // collection.
  await page.setInputFiles('[data-testid=shaping-files-input]', [
    path.join(SAMPLES, 'google-2019-shaping-instance_usage.json'),
    path.join(SAMPLES, 'google-2019-shaping-instance_events.csv'),
  ]);
  await page.waitForFunction(() =>
    /^google-2019-shaping-instance_usage\.json \+ google-2019-shaping-instance_events\.csv: 4 applications/
      .test(document.querySelector('[data-testid=shaping-loaded]')?.textContent),
  );
  assert.equal(await page.locator('[data-testid=shaping-read-error]').count(), 0);
  assert.equal(await page.locator('[data-testid=shaping-source]').inputValue(), 'files');
  // One 32-core host, the oracle: reservations queue the last collection,
  // shaping starts it at once (as `skyplan shape simulate` says).
  await typeInto('shaping-hosts', '1');
  await page.selectOption('[data-testid=shaping-predictor]', 'oracle');
  await page.click('[data-testid=shaping-run]');
  await page.waitForFunction(
    () => document.querySelector('[data-testid=shaping-status]')?.dataset.running === 'false' &&
      document.querySelector('[data-testid=shaping-summary-row][data-metric="mean-turnaround"]')?.dataset.baseline === '2790.5',
    null,
    { timeout: 120_000 },
  );
  await waitForCount(page.locator('[data-testid=shaping-app] option'), 4, 'the four collections');
  const apps = await page.$$eval('[data-testid=shaping-app] option', (os) => os.map((o) => o.textContent));
  assert.ok(apps.some((a) => a.includes('collection-700000004')), JSON.stringify(apps));
  const turnaround = page.locator('[data-testid=shaping-summary-row][data-metric="mean-turnaround"]');
  const shapedMean = Number(await turnaround.getAttribute('data-shaped'));
  assert.ok(shapedMean > 0 && shapedMean < 2790.5, `shaped mean turnaround ${shapedMean} s`);
  const speedup = Number(await page.locator('[data-testid=shaping-speedup]').getAttribute('data-value'));
  assert.ok(speedup > 1.05, `speed-up ${speedup}`);
  await screenshot('google-shaping');
  await page.click('[data-testid=shaping-forget]');
  await openTraces();
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

// Spark's own event logs (fixtures/real/spark-eventlogs/: one application
// logged plain and through each codec Spark compresses with), dropped as
// bytes: the worker undoes the codec as the file streams through the same
// Importer::push as the CLI's.
const SPARK_LOGS = path.join(DATA, 'spark-eventlogs');

/** A file row's cells from its line count on (lines, jobs, runs, series,
 * points, workload, skipped, span): what the log read to, not its size. */
async function readTo(name) {
  return (await row(name).locator('td').allTextContents()).slice(3, 11).map((t) => t.trim());
}

test('Spark event logs compressed by Spark (zstd, lz4, lzf, snappy) read as the plain log', { timeout: 180_000 }, async () => {
  const plainOptions = new Set(await options());
  await dropFrom(SPARK_LOGS, 'app.plain', (c, b) => c.runs === b.runs + 1, 'the plain log\'s run');
  assert.equal(await formatOf('app.plain'), 'spark-event-log');
  const plain = await readTo('app.plain');
  assert.equal(plain[2], '1', 'one run in the plain log');
  const job = (await options()).find((o) => o.startsWith('job:') && !plainOptions.has(o));
  assert.ok(job, 'the application is a job in the chart selector');
  const withPlain = await counts();
  for (const name of ['app.zstd', 'app.lz4', 'app.lzf', 'app.snappy']) {
    await dropFrom(SPARK_LOGS, name, (c, b) => c.runs === b.runs + 1, `${name}'s run`);
    assert.equal(await formatOf(name), 'spark-event-log', name);
    assert.deepEqual(await readTo(name), plain, `${name} reads to what the plain log reads to`);
  }
  // The same application five times: one job, its five runs charted.
  const now = await counts();
  assert.equal(now.jobs, withPlain.jobs, 'the compressed logs are runs of the same job');
  assert.equal(now.runs, withPlain.runs + 4);
  await page.selectOption('[data-testid=chart-select]', job);
  await page.locator('canvas[data-testid=chart][data-drawn="true"]').waitFor();
  assert.ok((await ink(page.locator('canvas[data-testid=chart]'))) > 0, 'the skyline is drawn');
  await screenshot('spark-codecs');
});

test('a corrupt or cut compressed log is refused where it breaks; what was loaded stays', { timeout: 120_000 }, async () => {
  const before = await counts();
  const lz4 = fs.readFileSync(path.join(SPARK_LOGS, 'app.lz4'));
  lz4[17] ^= 0x01; // the first block's checksum
  const zstd = fs.readFileSync(path.join(SPARK_LOGS, 'app.zstd'));
  const cut = zstd.subarray(0, Math.floor((zstd.length * 9) / 10));
  for (const [name, bytes, reason] of [
    ['damaged.lz4', lz4, /^byte 0: lz4 stream: .*checksum mismatch/],
    ['cut.zstd', cut, /^byte \d+: zstd stream: truncated/],
  ]) {
    await drop(name, [...bytes], 'application/octet-stream');
    const failed = page.locator('[data-testid=import-failed]').filter({ hasText: name });
    await failed.first().waitFor();
    const detail = (await failed.first().locator('.problem-detail').textContent()).trim();
    assert.match(detail, reason, `${name}: ${detail}`);
    assert.ok(!(await rowNames()).includes(name), `${name} is not in the files table`);
  }
  assert.deepEqual(await counts(), before, 'the logs loaded before are all still there');
  await screenshot('spark-codec-refused');
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

test('a large import is saved as its records with its source, and reopened says so', { timeout: 240_000 }, async () => {
  const before = await counts();
  const name = 'big-prometheus.json';
  // 84 MB of a Prometheus range query, made in the page: two series of
  // 2.1 M minutely samples. Above 64 MiB (and past 4 M samples, so
  // aggregated), the workspace keeps its records — the two series as
  // window means — not its bytes.
  const size = await page.evaluate((name) => {
    const parts = ['{"status":"success","data":{"resultType":"matrix","result":['];
    for (const [s, instance] of ['a:9100', 'b:9100'].entries()) {
      parts.push(`${s ? ',' : ''}{"metric":{"__name__":"node_load1","instance":"${instance}"},"values":[`);
      const per = 2_100_000;
      for (let from = 0; from < per; from += 50_000) {
        const block = [];
        for (let i = from; i < from + 50_000; i++) {
          block.push(`[${1700000000 + i * 60},"${(((i * 7) % 400) / 100).toFixed(2)}"]`);
        }
        parts.push((from ? ',' : '') + block.join(','));
      }
      parts.push(']}');
    }
    parts.push(']}}');
    const file = new File(parts, name, { type: 'application/json' });
    const dt = new DataTransfer();
    dt.items.add(file);
    const zone = document.querySelector('[data-testid=dropzone]');
    for (const kind of ['dragenter', 'dragover', 'drop']) {
      zone.dispatchEvent(new DragEvent(kind, { bubbles: true, cancelable: true, dataTransfer: dt }));
    }
    return file.size;
  }, name);
  assert.ok(size > 64 * 1024 * 1024, `${size} bytes: above the 64 MiB the workspace keeps as bytes`);
  await row(name).waitFor({ timeout: 180_000 });
  const loaded = await waitForCounts(
    (c) => c.files === before.files + 1 && c.series === before.series + 2,
    'the two series of the large import',
    180_000,
  );
  const shown = await readTo(name);
  // Reopened (a reload): the same records, and the row says they are kept
  // as records of that source, with its size and content hash.
  await page.reload();
  await openTraces();
  await waitForCounts((c) => JSON.stringify(c) === JSON.stringify(loaded), 'the same workspace after a reload');
  assert.deepEqual(await readTo(name), shown, 'the large import reads the same reopened');
  const notes = await row(name).locator('[data-testid=file-notes]').textContent();
  const mib = (size / 1024 / 1024).toFixed(1);
  assert.match(
    notes,
    new RegExp(`kept as its records, not its bytes: ${name.replace('.', '\\.')} \\(${mib} MiB, xxh3-128 [0-9a-f]{32}\\)`),
    notes,
  );
  // What the browser's storage holds for it: the records, no bytes.
  const stored = await page.evaluate(
    (name) =>
      new Promise((resolve, reject) => {
        const open = indexedDB.open('skyplan');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const all = open.result.transaction('files').objectStore('files').getAll();
          all.onerror = () => reject(all.error);
          all.onsuccess = () => {
            const r = all.result.find((x) => x.name === name);
            open.result.close();
            resolve(r && { kept: r.kept, blob: 'blob' in r, records: r.records?.size ?? null });
          };
        };
      }),
    name,
  );
  assert.equal(stored?.kept, true, 'stored as a kept import');
  assert.equal(stored.blob, false, 'without the file itself');
  assert.ok(stored.records > 0 && stored.records < size / 2, `its records (${stored.records} bytes) are not its ${size} bytes`);
  await screenshot('kept-import');
});
