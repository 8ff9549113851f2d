// End-to-end test of the built studio (dist/ from `trunk build --release`) in
// headless Debian Chromium, driven by playwright-core, run by node's own test
// runner: `node --test app.test.mjs` (from `make test`).
//
// It serves dist/ on 127.0.0.1 (ephemeral port) with a tiny static server and
// walks a planner's path through the Traces panel, using only the selector
// contract of the app (data-testid attributes): demo workspace on first
// visit with every panel at work (decisions, plan, queue), clear and reload
// the demo, upload a real NAB series, drop the SWIM
// workload, draw a chart, refuse a malformed file with file:line:col errors
// while the app keeps working, remove a file, and reload the page with the
// workspace kept (IndexedDB); then the SLOs, Agenda and Pricing panels
// (quote, admit, Gantt, persistence, the §6.3 simulation, a 1,000-job queue
// imported from CSV) and Tuning (queues from YARN XML, candidates, schedule,
// split, export). Screenshots of each stage go to target/e2e/.
//
// Environment: SKYPLAN_DIST (default <repo>/dist), SKYPLAN_DATA (default
// <repo>/../shared/data), CHROMIUM (default /usr/bin/chromium).

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(HERE, '..', '..');
const DIST = path.resolve(process.env.SKYPLAN_DIST ?? path.join(REPO, 'dist'));
const DATA = path.resolve(process.env.SKYPLAN_DATA ?? path.join(REPO, '..', 'shared', 'data'));
const SHOTS = path.join(REPO, 'target', 'e2e');
const CHROME_ARGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

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

const COUNTS = ['files', 'jobs', 'runs', 'series', 'points', 'workload'];
const WAIT_MS = 60_000;

// ------------------------------------------------------------ static server

const MIME = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.wasm': 'application/wasm',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.csv': 'text/csv; charset=utf-8',
  '.log': 'text/plain; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
};

function serve(root) {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://localhost');
    let rel = decodeURIComponent(url.pathname);
    if (rel.endsWith('/')) rel += 'index.html';
    let file = path.join(root, path.normalize(rel));
    if (!file.startsWith(root + path.sep)) {
      res.writeHead(403).end();
      return;
    }
    // An unknown path without an extension is a client-side route.
    if (!fs.existsSync(file) && !path.extname(file)) file = path.join(root, 'index.html');
    fs.readFile(file, (err, body) => {
      if (err) {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
        return;
      }
      res.writeHead(200, {
        'content-type': MIME[path.extname(file)] ?? 'application/octet-stream',
        'cache-control': 'no-store',
      });
      res.end(body);
    });
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => resolve(server));
  });
}

// ------------------------------------------------------------------- helpers

let server;
let context;
let page;
let baseUrl;
let userDataDir;
let tmpDir;
const pageErrors = [];
const consoleErrors = [];
let shot = 0;

async function screenshot(name) {
  shot += 1;
  const file = path.join(SHOTS, `${String(shot).padStart(2, '0')}-${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
}

/** The six workspace counts, as numbers (NaN when a count is missing). */
async function counts() {
  return page.evaluate((names) => {
    const out = {};
    for (const n of names) {
      const el = document.querySelector(`[data-testid=count-${n}]`);
      out[n] = el ? Number(el.textContent.replace(/[^\d-]/g, '')) : NaN;
    }
    return out;
  }, COUNTS);
}

/** Polls the counts until `ok(counts)` holds; fails with the last counts. */
async function waitForCounts(ok, what, timeout = WAIT_MS) {
  const deadline = Date.now() + timeout;
  let last;
  for (;;) {
    last = await counts();
    if (ok(last)) return last;
    if (Date.now() > deadline) {
      const errors = await errorTexts();
      assert.fail(
        `timed out waiting for ${what}; counts ${JSON.stringify(last)}` +
          (errors.length ? `; errors shown: ${errors.join(' | ')}` : ''),
      );
    }
    await page.waitForTimeout(100);
  }
}

async function errorTexts() {
  return page.$$eval('[data-testid=error-line]', (els) => els.map((e) => e.textContent.trim()));
}

async function rowNames() {
  return page.$$eval('[data-testid=file-row]', (rows) => rows.map((r) => r.dataset.name));
}

function row(name) {
  return page.locator(`[data-testid=file-row][data-name="${name}"]`);
}

async function openTraces() {
  await page.waitForSelector('body[data-ready="true"]', { timeout: WAIT_MS });
  const nav = page.locator('[data-testid=nav-traces]');
  if (await nav.count()) await nav.first().click();
  await page.waitForSelector('[data-testid=count-files]', { timeout: WAIT_MS });
}

async function upload(file) {
  await page.setInputFiles('[data-testid=file-input]', file);
}

/** Drops `text` as a file named `name` on the drop zone, as a browser would. */
async function drop(name, text, type) {
  await page.evaluate(
    ({ name, text, type }) => {
      const dt = new DataTransfer();
      dt.items.add(new File([text], name, { type }));
      const zone = document.querySelector('[data-testid=dropzone]');
      for (const kind of ['dragenter', 'dragover', 'drop']) {
        zone.dispatchEvent(
          new DragEvent(kind, { bubbles: true, cancelable: true, dataTransfer: dt }),
        );
      }
    },
    { name, text, type },
  );
}

// --------------------------------------------------------------------- setup

before(async () => {
  assert.ok(
    fs.existsSync(path.join(DIST, 'index.html')),
    `${DIST}/index.html is missing: run \`trunk build --release\` first`,
  );
  assert.ok(fs.existsSync(NAB_FILE), `${NAB_FILE} is missing (shared/data beside the repo)`);
  fs.mkdirSync(SHOTS, { recursive: true });
  for (const f of fs.readdirSync(SHOTS)) if (f.endsWith('.png')) fs.rmSync(path.join(SHOTS, f));
  tmpDir = fs.mkdtempSync(path.join(os.tmpdir(), 'skyplan-e2e-'));
  userDataDir = path.join(tmpDir, 'profile');
  server = await serve(DIST);
  baseUrl = `http://127.0.0.1:${server.address().port}/`;
  context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    args: CHROME_ARGS,
    viewport: { width: 1400, height: 1000 },
  });
  page = context.pages()[0] ?? (await context.newPage());
  page.setDefaultTimeout(WAIT_MS);
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  page.on('console', (m) => {
    if (m.type() === 'error') consoleErrors.push(m.text());
  });
});

after(async () => {
  if (consoleErrors.length) console.log(`# console errors:\n#   ${consoleErrors.join('\n#   ')}`);
  await context?.close();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve()));
  if (tmpDir) fs.rmSync(tmpDir, { recursive: true, force: true });
});

// --------------------------------------------------------------------- tests

let demo;

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

/** Pixels of a canvas that differ from its corner (background) colour. */
async function ink(canvas) {
  return canvas.evaluate((c) => {
    const { width, height } = c;
    if (!width || !height) return 0;
    const px = c.getContext('2d').getImageData(0, 0, width, height).data;
    let n = 0;
    for (let i = 0; i < px.length; i += 4) {
      if (px[i] !== px[0] || px[i + 1] !== px[1] || px[i + 2] !== px[2] || px[i + 3] !== px[3])
        n += 1;
    }
    return n;
  });
}

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

// ------------------------------------------------------------------- SLOs

/** Polls `locator.count()` until it is `n`. */
async function waitForCount(locator, n, what, timeout = WAIT_MS) {
  const deadline = Date.now() + timeout;
  for (;;) {
    const now = await locator.count();
    if (now === n) return;
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${n} ${what}; there are ${now}`);
    await page.waitForTimeout(100);
  }
}

/**
 * Clears everything (files, decisions, plan, queue) and uploads the demo's
 * files listed, by themselves: a workspace without the demo's decisions,
 * plan and queue, for the tests that make those by hand.
 */
async function freshWorkspace(...names) {
  await openTraces();
  await page.click('[data-testid=clear]');
  await waitForCounts((c) => c.files === 0, 'an empty workspace');
  for (const name of names) {
    await upload(path.join(REPO, 'fixtures', 'demo', name));
    await row(name).waitFor();
  }
}

function sloRow(job) {
  return page.locator(`[data-testid=slo-row][data-job="${job}"]`);
}

/** Waits until the job's decision cell reads `status`. */
async function decisionIs(job, status) {
  await page.waitForFunction(
    ({ job, status }) =>
      document
        .querySelector(`[data-testid=slo-row][data-job="${job}"] [data-testid=slo-decision]`)
        ?.textContent.trim() === status,
    { job, status },
  );
}

/**
 * Waits for the latest fit of `job` on the SLO chart: fit-status `ready` and
 * a drawn canvas whose data-key names the job and differs from `previous`.
 * Returns the key.
 */
async function fitShown(job, previous = null) {
  await page.waitForFunction(
    ({ job, previous }) => {
      const status = document.querySelector('[data-testid=fit-status]');
      const canvas = document.querySelector('canvas[data-testid=slo-chart][data-drawn="true"]');
      const key = canvas?.dataset.key ?? '';
      return (
        status?.textContent.trim() === 'ready' && key.startsWith(`${job}#`) && key !== previous
      );
    },
    { job, previous },
  );
  const canvas = page.locator('canvas[data-testid=slo-chart][data-drawn="true"]');
  const inked = await ink(canvas);
  assert.ok(inked > 500, `the fit chart of ${job} has ink (${inked} pixels)`);
  await page.locator('[data-testid=quality-table] tbody tr').first().waitFor();
  return canvas.getAttribute('data-key');
}

async function openSlos() {
  await page.click('[data-testid=nav-slos]');
  await waitForCount(page.locator('[data-testid=slo-row]'), 12, 'recurring-job rows');
}

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

// ------------------------------------------------------------------ Agenda

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

async function download(testid) {
  const [file] = await Promise.all([
    page.waitForEvent('download'),
    page.click(`[data-testid=${testid}]`),
  ]);
  return { name: file.suggestedFilename(), bytes: fs.readFileSync(await file.path()) };
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

// ---------------------------------------------------------------- Pricing

/** The drawn canvas `testid` whose data-key differs from `previous`; its key. */
async function drawnKey(testid, previous = null) {
  await page.waitForFunction(
    ({ testid, previous }) => {
      const c = document.querySelector(`canvas[data-testid=${testid}][data-drawn="true"]`);
      return c && c.dataset.key !== previous;
    },
    { testid, previous },
  );
  return page.locator(`canvas[data-testid=${testid}]`).getAttribute('data-key');
}

/** Types `value` into the input `testid` and commits it (change event). */
async function typeInto(testid, value) {
  await page.fill(`[data-testid=${testid}]`, value);
  await page.locator(`[data-testid=${testid}]`).dispatchEvent('change');
}

/** Clicks the price curve at `share` of its width; returns the deadline set. */
async function clickCurve(share) {
  const box = await page.locator('canvas[data-testid=price-curve]').boundingBox();
  await page.mouse.click(box.x + box.width * share, box.y + box.height / 2);
  await page.waitForFunction(
    () => document.querySelector('[data-testid=deadline-input]').value !== '',
  );
  return Number(await page.inputValue('[data-testid=deadline-input]'));
}

test('Pricing: estimate a history job, quote, choose a deadline, admit, Gantt, persist; bad input is refused', { timeout: 300_000 }, async () => {
  const errorsBefore = pageErrors.length;
  if (!page.url().startsWith(baseUrl)) await page.goto(baseUrl);
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
  assert.deepEqual(pageErrors.slice(errorsBefore), [], 'no uncaught errors in the Pricing panel');
});

test('Pricing: the §6.3 simulation runs in the worker, compares MRM, FCFS and priority across loads, refuses bad settings', { timeout: 300_000 }, async () => {
  const errorsBefore = pageErrors.length;
  if (!page.url().startsWith(baseUrl)) await page.goto(baseUrl);
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
  assert.deepEqual(pageErrors.slice(errorsBefore), [], 'no uncaught errors in the simulation view');
});

/**
 * A feasible queue of `n` jobs on 64 map and 32 reduce slots, as CSV: the
 * shape of `bench_data::pricing_queue` (map work 200–6,000 slot-seconds,
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

test('Pricing: a 1,000-job queue imported from CSV, quotes against it (round trip logged), a bad file refused', { timeout: 300_000 }, async () => {
  const errorsBefore = pageErrors.length;
  if (!page.url().startsWith(baseUrl)) await page.goto(baseUrl);
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
  shot += 1;
  await page.locator('canvas[data-testid=gantt]').screenshot({
    path: path.join(SHOTS, `${String(shot).padStart(2, '0')}-pricing-gantt-1000.png`),
  });
  await page.click('[data-testid=queue-clear]');
  await waitForCount(page.locator('[data-testid=queue-row]'), 0, 'queue rows after clear');
  assert.deepEqual(pageErrors.slice(errorsBefore), [], 'no uncaught errors with a 1,000-job queue');
});

// ------------------------------------------------------------------ Tuning

/** A capacity-scheduler.xml with a tuning group `root.a`/`root.b`. */
function capacityXml(a, b) {
  return `<?xml version="1.0"?>
<configuration>
  <property>
    <name>yarn.scheduler.capacity.maximum-applications</name>
    <value>10000</value>
  </property>
  <property>
    <name>yarn.scheduler.capacity.root.queues</name>
    <value>a,b</value>
  </property>
  <property>
    <name>yarn.scheduler.capacity.root.a.capacity</name>
    <value>${a}</value>
  </property>
  <property>
    <name>yarn.scheduler.capacity.root.b.capacity</name>
    <value>${b}</value>
  </property>
</configuration>
`;
}

async function tuned(previousKey = null, what = '') {
  await page.waitForFunction(
    () => document.querySelector('[data-testid=tuning-status]')?.dataset.running === 'false' &&
      document.querySelectorAll('[data-testid=tuning-candidate-row]').length > 0,
  );
  const key = await drawnKey('tuning-candidates', previousKey);
  const status = await page.locator('[data-testid=tuning-status]').textContent();
  console.log(`# BENCH-TUNING-PANEL ${what}: ${status}`);
  return key;
}

test('Tuning: queues read from capacity-scheduler.xml, candidates by Algorithm 1, schedule, split, XML export; bad input refused', { timeout: 300_000 }, async () => {
  const errorsBefore = pageErrors.length;
  if (!page.url().startsWith(baseUrl)) await page.goto(baseUrl);
  await freshWorkspace('history.csv');
  await page.click('[data-testid=nav-tuning]');
  await page.locator('[data-testid=tuning-panel]').waitFor();
  // Our own two equal Capacity queues to start with.
  await waitForCount(page.locator('[data-testid=tuning-queue-row]'), 2, 'queue rows');
  assert.match(await page.locator('[data-testid=tuning-capacity-sum]').textContent(), /sum to 100 %/);

  // A file whose capacities do not sum to 100 is refused with its place;
  // the queues stay as they were.
  const bad = path.join(tmpDir, 'bad-capacity-scheduler.xml');
  fs.writeFileSync(bad, capacityXml(30, 60));
  await page.setInputFiles('[data-testid=tuning-xml-input]', bad);
  await page.locator('[data-testid=tuning-error]').waitFor();
  assert.match(
    await page.locator('[data-testid=tuning-error]').textContent(),
    /bad-capacity-scheduler\.xml: line \d+, column \d+: .*100/,
  );
  assert.equal(await page.locator('[data-testid=tuning-source]').textContent(), 'our own');

  // The cluster's file: its queues become the current configuration.
  const good = path.join(tmpDir, 'capacity-scheduler.xml');
  fs.writeFileSync(good, capacityXml(30, 70));
  await page.setInputFiles('[data-testid=tuning-xml-input]', good);
  await page.locator('[data-testid=tuning-queue-row][data-queue="a"]').waitFor();
  assert.equal(await page.locator('[data-testid=tuning-source]').textContent(), 'from capacity-scheduler.xml');
  assert.equal(await page.locator('[data-testid=tuning-share]').first().inputValue(), '30');
  assert.equal(await page.locator('[data-testid=tuning-error]').count(), 0);

  // Tune the first 20 jobs of the history on 8 containers.
  await page.click('[data-testid=tuning-run]');
  let key = await tuned(null, 'capacity, 2 queues, 20 jobs, 8 containers');
  const rows = page.locator('[data-testid=tuning-candidate-row]');
  const latencies = await rows.evaluateAll((rs) => rs.map((r) => Number(r.dataset.latency)));
  const best = Number(await page.locator('[data-testid=tuning-candidate-row][data-best="true"]').getAttribute('data-latency'));
  assert.ok(latencies.length >= 5, `candidates listed (${latencies.length})`);
  assert.equal(best, Math.min(...latencies), 'the best is the lowest estimate');
  assert.equal(latencies[0], best, 'listed best first');
  assert.equal(Number(await page.locator('[data-testid=tuning-best]').getAttribute('data-latency')), best);
  assert.ok(Number(await page.locator('[data-testid=tuning-current]').getAttribute('data-latency')) > 0);
  assert.match(await page.locator('[data-testid=tuning-simulated]').textContent(), /\d s vs \d/);
  assert.ok((await ink(page.locator('canvas[data-testid=tuning-candidates]'))) > 2_000, 'candidate bars drawn');
  let schedule = await drawnKey('tuning-schedule');
  assert.ok((await ink(page.locator('canvas[data-testid=tuning-schedule]'))) > 2_000, 'schedule drawn');
  await waitForCount(page.locator('[data-testid=tuning-mix-row]'), 2, 'mix rows (one per queue)');
  await screenshot('tuning-candidates');

  // Another candidate's schedule.
  const worst = rows.last();
  await worst.click();
  schedule = await drawnKey('tuning-schedule', schedule);
  assert.ok(schedule.endsWith(`:${await worst.getAttribute('data-index')}`), `schedule of the clicked row (${schedule})`);

  // The chosen configuration, written into the file read: other
  // properties kept, the two capacities replaced and summing to 100.
  await rows.first().click();
  await drawnKey('tuning-schedule', schedule);
  const xml = await download('tuning-export');
  assert.equal(xml.name, 'capacity-scheduler.xml');
  const text = xml.bytes.toString();
  assert.match(text, /yarn\.scheduler\.capacity\.maximum-applications/);
  const caps = [...text.matchAll(/root\.[ab]\.capacity<\/name>\s*<value>([\d.]+)</g)].map((m) => Number(m[1]));
  assert.equal(caps.length, 2, `two capacities in ${text}`);
  assert.ok(Math.abs(caps[0] + caps[1] - 100) < 1e-6, `capacities sum to 100 (${caps})`);

  // Three groups of 10 jobs share 24 containers: Algorithm 3's split.
  await typeInto('tuning-groups', '3');
  await typeInto('tuning-jobs', '10');
  await typeInto('tuning-containers', '24');
  await page.click('[data-testid=tuning-run]');
  key = await tuned(key, '3 groups of 10 jobs, 24 containers');
  await waitForCount(page.locator('[data-testid=tuning-split-row]'), 3, 'split rows');
  const split = await page
    .locator('[data-testid=tuning-split-row]')
    .evaluateAll((rs) => rs.map((r) => Number(r.dataset.containers)));
  assert.equal(split.reduce((a, b) => a + b, 0), 24, `the split uses the 24 containers (${split})`);
  await drawnKey('tuning-curves');
  await screenshot('tuning-split');

  // Fair with four queues: the grid tries fifo, fair and drf.
  await page.selectOption('[data-testid=tuning-scheduler]', 'fair');
  await page.selectOption('[data-testid=tuning-queue-count]', '4');
  await waitForCount(page.locator('[data-testid=tuning-queue-row]'), 4, 'four queues');
  await typeInto('tuning-groups', '1');
  await typeInto('tuning-jobs', '20');
  await typeInto('tuning-containers', '8');
  await page.click('[data-testid=tuning-run]');
  key = await tuned(key, 'fair, 4 queues, 20 jobs, 8 containers');
  const labels = await rows.evaluateAll((rs) => rs.map((r) => r.cells[1].textContent));
  assert.ok(labels.every((l) => l.startsWith('fair')), 'Fair configurations');
  for (const p of ['fifo', 'fair', 'drf']) {
    assert.ok(labels.some((l) => l.includes(` ${p}`)), `a ${p} candidate`);
  }

  // Bad settings are refused inline and the last results stay.
  await typeInto('tuning-first-job', '999999');
  await page.click('[data-testid=tuning-run]');
  await page.locator('[data-testid=tuning-error]').waitFor();
  assert.match(await page.locator('[data-testid=tuning-error]').textContent(), /history holds \d+ jobs/);
  assert.ok((await rows.count()) > 0, 'the last results are kept');
  await typeInto('tuning-first-job', '1');
  await typeInto('tuning-containers', 'many');
  await page.click('[data-testid=tuning-run]');
  await page.waitForFunction(() =>
    /Containers: a whole number/.test(document.querySelector('[data-testid=tuning-error]')?.textContent),
  );
  await typeInto('tuning-containers', '8');
  assert.deepEqual(pageErrors.slice(errorsBefore), [], 'no uncaught errors in the Tuning panel');
});

// ----------------------------------------------------------------- Harvest

test('Harvest: the demo tenants classified (patterns, classes, capacity), a spectrum, class selection, the §6 simulation; bad input refused', { timeout: 300_000 }, async () => {
  const errorsBefore = pageErrors.length;
  if (!page.url().startsWith(baseUrl)) await page.goto(baseUrl);
  await openTraces();
  await page.click('[data-testid=clear]');
  await waitForCounts((c) => c.files === 0, 'an empty workspace');
  await page.click('[data-testid=load-demo]');
  await waitForCounts((c) => c.files === demo.files, 'the demo again');
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
  assert.deepEqual(pageErrors.slice(errorsBefore), [], 'no uncaught errors in the Harvest panel');
});

// --------------------------------------------------------- Harvest storage

test('Harvest storage: the demo reimages, the 3 × 3 grid, a block explained, durability and availability in the worker; a bad reimages file refused', { timeout: 300_000 }, async () => {
  const errorsBefore = pageErrors.length;
  if (!page.url().startsWith(baseUrl)) await page.goto(baseUrl);
  await openTraces();
  await page.click('[data-testid=clear]');
  await waitForCounts((c) => c.files === 0, 'an empty workspace');
  await page.click('[data-testid=load-demo]');
  await waitForCounts((c) => c.files === demo.files, 'the demo again');
  await page.click('[data-testid=nav-harvest]');
  await page.locator('[data-testid=storage-card]').waitFor();
  await page.waitForFunction(() =>
    /demo\/reimages\.csv \([\d\u2009,]+ server reimages\)/.test(document.querySelector('[data-testid=storage-reimages-file]')?.textContent),
  );

  // The grid: nine cells, every tenant in one, the fill run's replicas
  // within each cell's room.
  await page.waitForFunction(
    () => document.querySelector('[data-testid=storage-status]')?.dataset.running === 'false' &&
      document.querySelectorAll('[data-testid=storage-cell]').length === 9,
    null,
    { timeout: 120_000 },
  );
  console.log(`# BENCH-STORAGE-PANEL grid: ${await page.locator('[data-testid=storage-status]').textContent()}`);
  const cells = await page
    .locator('[data-testid=storage-cell]')
    .evaluateAll((cs) => cs.map((c) => ({ tenants: Number(c.dataset.tenants), space: Number(c.dataset.space), used: Number(c.dataset.used) })));
  const tenants = await page.locator('[data-testid=harvest-tenant-row]').count();
  assert.equal(cells.reduce((a, c) => a + c.tenants, 0), tenants, 'every tenant in one cell');
  for (const c of cells) assert.ok(c.used <= c.space, `used ${c.used} within room ${c.space}`);
  assert.ok(cells.reduce((a, c) => a + c.used, 0) > 0, 'the fill run placed replicas');
  assert.match(await page.locator('[data-testid=storage-balance]').textContent(), /0 with two replicas in one environment, 0 servers over their room/);
  await drawnKey('storage-cdfs');
  assert.ok((await ink(page.locator('canvas[data-testid=storage-cdfs]'))) > 3_000, 'CDFs drawn');
  await screenshot('storage-grid');

  // One block from the first tenant's first server: the writer first, then
  // cells of other rows and columns; the writer's row marked as used.
  const writer = await page.locator('[data-testid=storage-writer-tenant] option').first().getAttribute('value');
  await page.selectOption('[data-testid=storage-writer-tenant]', writer);
  await typeInto('storage-writer-server', '1');
  await page.click('[data-testid=storage-place]');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=storage-replica]').length === 3);
  const replicas = await page
    .locator('[data-testid=storage-replica]')
    .evaluateAll((rs) => rs.map((r) => ({ cell: Number(r.dataset.cell), tenant: r.dataset.tenant, relaxed: r.dataset.relaxed === 'true' })));
  assert.equal(replicas[0].tenant, writer, 'first replica on the writer');
  assert.equal(new Set(replicas.map((r) => r.tenant)).size, 3, 'three tenants');
  if (!replicas.some((r) => r.relaxed)) {
    const rowsUsed = new Set(replicas.map((r) => Math.floor(r.cell / 3)));
    const colsUsed = new Set(replicas.map((r) => r.cell % 3));
    assert.equal(rowsUsed.size, 3, 'three rows');
    assert.equal(colsUsed.size, 3, 'three columns');
  }
  assert.ok((await page.locator('[data-testid=storage-cell-verdict][data-verdict="row used"]').count()) > 0, 'reasons shown');
  // An unknown server is refused in place.
  await typeInto('storage-writer-server', '9999');
  await page.click('[data-testid=storage-place]');
  await page.locator('[data-testid=storage-place-error]').waitFor();
  assert.match(await page.locator('[data-testid=storage-place-error]').textContent(), /unknown server/);
  await typeInto('storage-writer-server', '1');
  await screenshot('storage-explorer');

  // Figure 15 at the panel's defaults (100,000 blocks, R = 3 and 4, five runs).
  await page.click('[data-testid=storage-durability-run]');
  await page.waitForFunction(
    () => document.querySelector('[data-testid=storage-durability-status]')?.dataset.running === 'false' &&
      document.querySelectorAll('[data-testid=storage-durability-row]').length === 4,
    null,
    { timeout: 240_000 },
  );
  console.log(`# BENCH-STORAGE-PANEL durability: ${await page.locator('[data-testid=storage-durability-status]').textContent()}`);
  const lost = await page
    .locator('[data-testid=storage-durability-row]')
    .evaluateAll((rs) => rs.map((r) => ({ policy: r.dataset.policy, r: r.dataset.r, lost: Number(r.dataset.lost) })));
  for (const r of ['3', '4']) {
    const h = lost.find((x) => x.policy === 'HDFS-H' && x.r === r).lost;
    const st = lost.find((x) => x.policy === 'HDFS-Stock' && x.r === r).lost;
    assert.ok(h <= st, `R = ${r}: HDFS-H loses no more than stock (${h} vs ${st})`);
  }
  await drawnKey('storage-durability');

  // Figure 16 at the panel's defaults.
  await page.click('[data-testid=storage-availability-run]');
  await page.waitForFunction(
    () => document.querySelector('[data-testid=storage-availability-status]')?.dataset.running === 'false' &&
      document.querySelectorAll('[data-testid=storage-availability-row]').length === 12,
    null,
    { timeout: 240_000 },
  );
  console.log(`# BENCH-STORAGE-PANEL availability: ${await page.locator('[data-testid=storage-availability-status]').textContent()}`);
  const avail = await page
    .locator('[data-testid=storage-availability-row]')
    .evaluateAll((rs) => rs.map((r) => ({ level: Number(r.dataset.level), h: Number(r.dataset.h), stock: Number(r.dataset.stock) })));
  assert.equal(avail[0].stock, 0, 'no failed access at the lowest level');
  const top = avail.filter((a) => a.level === Math.max(...avail.map((x) => x.level)));
  for (const a of top) assert.ok(a.h <= a.stock, `HDFS-H fails no more than stock at the top level (${a.h} vs ${a.stock})`);
  await drawnKey('storage-availability');
  await screenshot('storage-simulations');

  // A reimages file naming an unknown server is refused with its line; the
  // demo's stays in use.
  const bad = path.join(tmpDir, 'bad-reimages.csv');
  fs.writeFileSync(bad, 'timestamp,server\n2026-01-01 00:00,ghost/s1\n');
  await page.setInputFiles('[data-testid=storage-reimages-input]', bad);
  await page.locator('[data-testid=storage-error]').waitFor();
  assert.match(await page.locator('[data-testid=storage-error]').textContent(), /bad-reimages\.csv:2:18: unknown server/);
  assert.match(await page.locator('[data-testid=storage-reimages-file]').textContent(), /demo\/reimages\.csv/);
  assert.deepEqual(pageErrors.slice(errorsBefore), [], 'no uncaught errors in the storage view');
});

// ------------------------------------------------------- Agenda optimize

// After the Harvest test's "Load demo": the demo's plan is back.
test('Agenda: optimize re-places the plan, the peak falls or stays, the gap is shown, undo restores', { timeout: 300_000 }, async () => {
  const errorsBefore = pageErrors.length;
  if (!page.url().startsWith(baseUrl)) await page.goto(baseUrl);
  await page.click('[data-testid=nav-agenda]');
  await page.locator('canvas[data-testid=agenda-canvas][data-drawn="true"]').waitFor();
  await page.locator('[data-testid=agenda-row]').first().waitFor();
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

// ----------------------------------------------------------------- Shaping

/** Waits for the Shaping run to end with results; logs its worker time. */
async function shaped(previousKey = null, what = '') {
  await page.waitForFunction(
    () => document.querySelector('[data-testid=shaping-status]')?.dataset.running === 'false' &&
      document.querySelector('[data-testid=shaping-speedup]'),
    null,
    { timeout: 120_000 },
  );
  const key = await drawnKey('shaping-app-shaped', previousKey);
  console.log(`# BENCH-SHAPING-PANEL ${what}: ${await page.locator('[data-testid=shaping-status]').textContent()}`);
  return key;
}

/** A summary row's baseline and shaped numbers. */
async function summaryRow(metric) {
  const row = page.locator(`[data-testid=shaping-summary-row][data-metric="${metric}"]`);
  return {
    baseline: Number(await row.getAttribute('data-baseline')),
    shaped: Number(await row.getAttribute('data-shaped')),
  };
}

/** Three small applications (one elastic) and their usage, as CSV. */
function shapingCsv(badLine = false) {
  const apps = [
    'app,arrival,runtime,kind,count,cpu,mem',
    'a,0,3600,core,1,2,8',
    badLine ? 'a,0,3600,elastic,-4,1,4' : 'a,0,3600,elastic,4,1,4',
    'b,60,1800,core,2,4,16',
    'c,120,2400,core,1,1,2',
  ].join('\n');
  const usage = ['app,minute,cpu,mem'];
  for (const [app, minutes] of [['a', 60], ['b', 30], ['c', 40]]) {
    for (let m = 0; m < minutes; m += 1) {
      const wave = 0.35 + 0.25 * Math.sin(m / 6);
      usage.push(`${app},${m},${wave.toFixed(3)},${(wave * 0.9).toFixed(3)}`);
    }
  }
  return { apps: `${apps}\n`, usage: `${usage.join('\n')}\n` };
}

test('Shaping: baseline vs shaped timelines side by side, another application, the summary, Figure 2, the K1 × K2 heat maps; exports; bad input refused', { timeout: 420_000 }, async () => {
  const errorsBefore = pageErrors.length;
  if (!page.url().startsWith(baseUrl)) await page.goto(baseUrl);
  await openTraces();
  await page.click('[data-testid=nav-shaping]');
  await page.locator('[data-testid=shaping-panel]').waitFor();

  // The panel's default: the generated workload, GP, pessimistic.
  await page.click('[data-testid=shaping-run]');
  let key = await shaped(null, 'default (400 applications, 50 hosts, GP, pessimistic)');
  for (const id of ['shaping-app-baseline', 'shaping-app-shaped', 'shaping-host-baseline', 'shaping-host-shaped']) {
    await drawnKey(id);
    const inked = await ink(page.locator(`canvas[data-testid=${id}]`));
    assert.ok(inked > 3_000, `${id} has ink (${inked} pixels)`);
  }
  const speedup = Number(await page.locator('[data-testid=shaping-speedup]').getAttribute('data-value'));
  assert.ok(Number.isFinite(speedup) && speedup > 1, `shaping beats reservations (${speedup}×)`);
  const turnaround = await summaryRow('mean-turnaround');
  assert.ok(turnaround.baseline > turnaround.shaped && turnaround.shaped > 0, `mean turnaround ${JSON.stringify(turnaround)}`);
  assert.ok(Math.abs(turnaround.baseline / turnaround.shaped - speedup) < 1e-9, 'the ratio is the turnarounds\'');
  const slack = await summaryRow('slack-mem');
  assert.ok(slack.shaped < slack.baseline, `memory slack falls ${JSON.stringify(slack)}`);
  assert.equal((await summaryRow('failed-apps')).baseline, 0, 'reservations never fail');
  assert.equal((await summaryRow('preempted-apps')).baseline, 0, 'reservations never preempt');
  for (const m of ['slack-cpu', 'failures', 'component-preemptions', 'wasted', 'completed']) {
    const r = await summaryRow(m);
    assert.ok(Number.isFinite(r.baseline) && Number.isFinite(r.shaped), `summary row ${m}`);
  }
  assert.match(await page.locator('[data-testid=shaping-workload]').textContent(), /400 applications .* 50 hosts/);
  await screenshot('shaping-default');

  // Another application: both of its charts change (same axes, its name).
  const ticket = key.split(':')[0];
  const current = await page.locator('[data-testid=shaping-app]').inputValue();
  const options = await page.$$eval('[data-testid=shaping-app] option', (os) =>
    os.map((o) => ({ value: o.value, label: o.textContent })),
  );
  assert.equal(options.length, 400, 'one option per application');
  const other = options.filter((o) => o.value !== current && o.label.includes('elastic')).at(-40);
  const picked = Date.now();
  await page.selectOption('[data-testid=shaping-app]', other.value);
  key = await drawnKey('shaping-app-shaped', key);
  console.log(`# BENCH-SHAPING-PANEL another application's timelines (two runs on the kept forecasts, page round trip): ${Date.now() - picked} ms`);
  assert.equal(key, `${ticket}:${other.value}:true:Mem`, 'the shaped chart shows the picked application');
  await page.waitForFunction(
    (v) => document.querySelector('canvas[data-testid=shaping-app-baseline][data-drawn="true"]')?.dataset.key.split(':')[1] === v,
    other.value,
  );
  assert.ok((await ink(page.locator('canvas[data-testid=shaping-app-shaped]'))) > 3_000, 'the picked application is drawn');
  // Another host, and CPU instead of memory.
  const hostKey = await page.locator('canvas[data-testid=shaping-host-shaped]').getAttribute('data-key');
  await page.selectOption('[data-testid=shaping-host]', '3');
  await drawnKey('shaping-host-shaped', hostKey);
  assert.equal((await page.locator('canvas[data-testid=shaping-host-shaped]').getAttribute('data-key')).split(':')[1], '3');
  await page.selectOption('[data-testid=shaping-resource]', 'cpu');
  key = await drawnKey('shaping-app-shaped', key);
  assert.ok(key.endsWith(':Cpu'), key);
  await screenshot('shaping-other-app');

  // Figure 2: the three policies on the run's workload and forecasts.
  await page.click('[data-testid=shaping-compare]');
  await drawnKey('shaping-boxes');
  assert.ok((await ink(page.locator('canvas[data-testid=shaping-boxes]'))) > 3_000, 'box plots drawn');
  console.log(`# BENCH-SHAPING-PANEL compare policies: ${await page.locator('[data-testid=shaping-compare-status]').textContent()}`);
  await screenshot('shaping-policies');

  // Exports: per-application outcomes (both runs) and the timelines as PNG.
  const csv = await download('shaping-export-run');
  assert.equal(csv.name, 'skyplan-shaping-apps.csv');
  const lines = csv.bytes.toString().trim().split('\n');
  assert.match(lines[0], /^run,policy,app,arrival_s,runtime_s,finish_s,turnaround_s,/);
  assert.equal(lines.length, 1 + 2 * 400, 'a row per application and run');
  assert.ok(lines.slice(1).every((l) => /^(baseline,reservation|shaped,pessimistic),/.test(l)));
  const png = await download('shaping-png-timelines');
  assert.equal(png.name, 'skyplan-shaping-timelines.png');
  assert.deepEqual([...png.bytes.subarray(0, 4)], [0x89, 0x50, 0x4e, 0x47], 'a PNG');

  // A bad K1 is refused inline; the last results stay.
  await typeInto('shaping-k1', '-1');
  await page.click('[data-testid=shaping-run]');
  await page.locator('[data-testid=shaping-error]').waitFor();
  assert.match(await page.locator('[data-testid=shaping-error]').textContent(), /K1.*≥ 0, got -1/);
  assert.equal(Number(await page.locator('[data-testid=shaping-speedup]').getAttribute('data-value')), speedup);
  assert.equal(await page.locator('canvas[data-testid=shaping-app-shaped]').getAttribute('data-key'), key);
  await typeInto('shaping-k1', '5');
  // A grace shorter than the forecasters' history: the engine's words.
  await typeInto('shaping-grace', '3');
  await page.click('[data-testid=shaping-run]');
  await page.waitForFunction(() =>
    /grace_minutes/.test(document.querySelector('[data-testid=shaping-error]')?.textContent),
  );
  assert.equal(Number(await page.locator('[data-testid=shaping-speedup]').getAttribute('data-value')), speedup);
  await typeInto('shaping-grace', '10');

  // A bad applications CSV is refused with its line; nothing is loaded.
  const bad = shapingCsv(true);
  fs.writeFileSync(path.join(tmpDir, 'bad-apps.csv'), bad.apps);
  fs.writeFileSync(path.join(tmpDir, 'usage.csv'), bad.usage);
  await page.setInputFiles('[data-testid=shaping-files-input]', [
    path.join(tmpDir, 'bad-apps.csv'),
    path.join(tmpDir, 'usage.csv'),
  ]);
  await page.locator('[data-testid=shaping-read-error]').waitFor();
  assert.match(await page.locator('[data-testid=shaping-read-error]').textContent(), /bad-apps\.csv:3:\d+: .*count/);
  assert.equal(await page.locator('[data-testid=shaping-loaded]').textContent(), 'no file read');
  // Good files: read, chosen as the source, run with the oracle.
  const good = shapingCsv(false);
  fs.writeFileSync(path.join(tmpDir, 'apps.csv'), good.apps);
  await page.setInputFiles('[data-testid=shaping-files-input]', [
    path.join(tmpDir, 'apps.csv'),
    path.join(tmpDir, 'usage.csv'),
  ]);
  await page.waitForFunction(() =>
    /^apps\.csv \+ usage\.csv: 3 applications/.test(document.querySelector('[data-testid=shaping-loaded]')?.textContent),
  );
  assert.equal(await page.locator('[data-testid=shaping-read-error]').count(), 0);
  assert.equal(await page.locator('[data-testid=shaping-source]').inputValue(), 'files');
  await page.selectOption('[data-testid=shaping-predictor]', 'oracle');
  await page.click('[data-testid=shaping-run]');
  key = await shaped(key, 'three applications from CSV, oracle');
  await waitForCount(page.locator('[data-testid=shaping-app] option'), 3, 'application options');
  // A bad file again: refused, the good workload stays loaded.
  await page.setInputFiles('[data-testid=shaping-files-input]', [
    path.join(tmpDir, 'bad-apps.csv'),
    path.join(tmpDir, 'usage.csv'),
  ]);
  await page.locator('[data-testid=shaping-read-error]').waitFor();
  assert.match(await page.locator('[data-testid=shaping-loaded]').textContent(), /^apps\.csv \+ usage\.csv: 3 applications/);

  // The grid at the panel's default size (one seed of 300 generated
  // applications) with GP: 24 cells, one recommended.
  await page.selectOption('[data-testid=shaping-source]', 'generated');
  await page.selectOption('[data-testid=shaping-predictor]', 'gp');
  await page.click('[data-testid=shaping-grid-run]');
  await page.waitForFunction(
    () => document.querySelector('[data-testid=shaping-grid-status]')?.dataset.running === 'false' &&
      document.querySelectorAll('[data-testid=shaping-grid-cell]').length > 0,
    null,
    { timeout: 240_000 },
  );
  console.log(`# BENCH-SHAPING-PANEL grid (300 applications, 50 hosts, GP, one seed): ${await page.locator('[data-testid=shaping-grid-status]').textContent()}`);
  await waitForCount(page.locator('[data-testid=shaping-grid-cell]'), 24, 'grid cells');
  await waitForCount(page.locator('[data-testid=shaping-grid-cell][data-recommended="true"]'), 1, 'recommended cells');
  for (const id of ['shaping-heat-ratio', 'shaping-heat-slack', 'shaping-heat-failed']) {
    await drawnKey(id);
    assert.ok((await ink(page.locator(`canvas[data-testid=${id}]`))) > 5_000, `${id} drawn`);
  }
  const rec = page.locator('[data-testid=shaping-grid-cell][data-recommended="true"]');
  const failed = Number(await rec.locator('td').nth(4).textContent());
  assert.match(await page.locator('[data-testid=shaping-recommended]').textContent(), /K1 = [\d.]+ %, K2 = [\d.]+/);
  if (/^Recommended/.test(await page.locator('[data-testid=shaping-recommended]').textContent())) {
    assert.ok(failed <= 1, `the recommended cell meets the 1 % target (${failed} %)`);
  }
  // Another target: the recommendation is read off the same grid again.
  await typeInto('shaping-target', '20');
  await page.click('[data-testid=shaping-retarget]');
  await page.waitForFunction(() =>
    /≤ 20 % failures/.test(document.querySelector('[data-testid=shaping-recommended]')?.textContent),
  );
  await waitForCount(page.locator('[data-testid=shaping-grid-cell][data-recommended="true"]'), 1, 'recommended cells');
  const loose = Number(await page.locator('[data-testid=shaping-grid-cell][data-recommended="true"] td').nth(4).textContent());
  assert.ok(loose <= 20, `the recommended cell meets 20 % (${loose} %)`);
  await typeInto('shaping-target', '1');
  await page.click('[data-testid=shaping-retarget]');
  await page.waitForFunction(() =>
    /1 % failures/.test(document.querySelector('[data-testid=shaping-recommended]')?.textContent),
  );
  const gridCsv = await download('shaping-export-grid');
  const gridLines = gridCsv.bytes.toString().trim().split('\n');
  assert.equal(gridLines.length, 25, 'a row per cell');
  assert.equal(gridLines.filter((l) => l.endsWith(',true')).length, 1, 'one recommended row');
  await screenshot('shaping-grid');
  assert.deepEqual(pageErrors.slice(errorsBefore), [], 'no uncaught errors in the Shaping panel');
});
