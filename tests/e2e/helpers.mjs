// What the end-to-end tests (tests/e2e/*.test.mjs) share: the paths, a tiny
// static server for dist/, one studio session per test file (openStudio in the
// file's `before`, closeStudio in its `after`) and the helpers that drive the
// page through the app's selector contract (data-testid attributes).
//
// Each test file is a session of its own: a static server on 127.0.0.1
// (ephemeral port), a persistent Chromium context on a fresh profile (so the
// first visit loads the demo workspace), its own temporary directory and its
// own screenshots, target/e2e/<part>-NN-<name>.png. node --test runs every
// file in a process of its own, so the helpers below drive the session the
// last openStudio opened.
//
// Environment: SKYPLAN_DIST (default <repo>/dist), SKYPLAN_DATA (default
// <repo>/fixtures/real), CHROMIUM (default /usr/bin/chromium).

import { before, after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const HERE = path.dirname(fileURLToPath(import.meta.url));
export const REPO = path.resolve(HERE, '..', '..');
export const DIST = path.resolve(process.env.SKYPLAN_DIST ?? path.join(REPO, 'dist'));
export const DATA = path.resolve(process.env.SKYPLAN_DATA ?? path.join(REPO, 'fixtures', 'real'));
export const SHOTS = path.join(REPO, 'target', 'e2e');
export const CHROME_ARGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export const COUNTS = ['files', 'jobs', 'runs', 'series', 'points', 'workload'];
export const WAIT_MS = 60_000;

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

export function serve(root) {
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

// ------------------------------------------------------------------ session

/** The session the helpers drive: the one the last openStudio opened. */
let studio = null;

/**
 * Serves dist/ and opens a persistent Chromium context on a fresh profile,
 * on a blank page (the test navigates; see openDemo). `part` names the test
 * file: it prefixes the screenshots, and only that part's screenshots from a
 * previous run are removed. Returns { part, page, baseUrl, tmpDir,
 * pageErrors, consoleErrors, … }; pass it to closeStudio in `after`.
 */
export async function openStudio(part) {
  assert.ok(
    fs.existsSync(path.join(DIST, 'index.html')),
    `${DIST}/index.html is missing: run \`trunk build --release\` first`,
  );
  fs.mkdirSync(SHOTS, { recursive: true });
  const mine = new RegExp(`^${part.replace(/[^\w]/g, '\\$&')}-\\d+-.*\\.png$`);
  for (const f of fs.readdirSync(SHOTS)) if (mine.test(f)) fs.rmSync(path.join(SHOTS, f));
  const tmpDir = fs.mkdtempSync(path.join(os.tmpdir(), `skyplan-e2e-${part}-`));
  const app = { part, tmpDir, pageErrors: [], consoleErrors: [], offOrigin: [], shot: 0 };
  studio = app;
  app.server = await serve(DIST);
  app.baseUrl = `http://127.0.0.1:${app.server.address().port}/`;
  app.context = await chromium.launchPersistentContext(path.join(tmpDir, 'profile'), {
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    args: CHROME_ARGS,
    viewport: { width: 1400, height: 1000 },
  });
  // The studio promises that data stays in the browser: every request the
  // page or its worker makes is recorded, and anything not to the page's
  // own origin (or a data:/blob: URL it made itself) fails the test.
  app.context.on('request', (r) => {
    if (!sameOrigin(r.url(), app.baseUrl)) app.offOrigin.push(r.url());
  });
  const page = app.context.pages()[0] ?? (await app.context.newPage());
  app.page = page;
  page.setDefaultTimeout(WAIT_MS);
  page.on('pageerror', (e) => app.pageErrors.push(String(e)));
  page.on('console', (m) => {
    if (m.type() === 'error') app.consoleErrors.push(m.text());
  });
  return app;
}

/**
 * A test file's whole session, registered as its `before` and `after`
 * hooks: openStudio, then (unless `demo` is false) the demo's first visit,
 * then `bind` with the session's fields — page, baseUrl, tmpDir, pageErrors,
 * demo (the demo's counts) — and `setup`, if any; closeStudio at the end.
 */
export function studioSession(part, bind, { demo = true, setup = null } = {}) {
  let app;
  before(async () => {
    app = await openStudio(part);
    const session = { ...app };
    if (demo) session.demo = await openDemo();
    bind(session);
    if (setup) await setup(session);
  });
  after(async () => {
    const offOrigin = [...(app?.offOrigin ?? [])];
    await closeStudio(app);
    assert.deepEqual(offOrigin, [], `every request of the ${part} session went to the page's own origin`);
  });
}

/**
 * A test of the session's studio, registered with node:test: back on the
 * studio's page, then `body`, then no uncaught page error since the test
 * began (`noErrors` is the assertion's message).
 */
export function studioTest(title, options, noErrors, body) {
  test(title, options, async () => {
    const app = current();
    const errorsBefore = app.pageErrors.length;
    const requestsBefore = app.offOrigin.length;
    if (!app.page.url().startsWith(app.baseUrl)) await app.page.goto(app.baseUrl);
    await body();
    assert.deepEqual(app.pageErrors.slice(errorsBefore), [], noErrors);
    assert.deepEqual(
      app.offOrigin.slice(requestsBefore),
      [],
      'every request went to the page\'s own origin',
    );
  });
}

/** Whether `url` is the studio's own: its origin, or data:, blob:, about:. */
export function sameOrigin(url, baseUrl) {
  if (/^(data|blob|about):/.test(url)) return true;
  try {
    return new URL(url).origin === new URL(baseUrl).origin;
  } catch {
    return false;
  }
}

/**
 * The requests recorded so far that left the page's origin, taken out of
 * the record (for the test that checks the recorder itself).
 */
export function takeOffOriginRequests() {
  const app = current();
  return app.offOrigin.splice(0, app.offOrigin.length);
}

/** Closes what openStudio opened; logs the console errors seen. */
export async function closeStudio(app) {
  if (!app) return;
  if (app.consoleErrors.length) {
    console.log(`# console errors (${app.part}):\n#   ${app.consoleErrors.join('\n#   ')}`);
  }
  await app.context?.close();
  await new Promise((resolve) => (app.server ? app.server.close(resolve) : resolve()));
  fs.rmSync(app.tmpDir, { recursive: true, force: true });
  if (studio === app) studio = null;
}

function current() {
  assert.ok(studio, 'no studio open: call openStudio() in before()');
  return studio;
}

/**
 * A full-page screenshot (or of `locator` alone), numbered in the order
 * taken: target/e2e/<part>-NN-<name>.png.
 */
export async function screenshot(name, locator = null) {
  const app = current();
  app.shot += 1;
  const file = path.join(SHOTS, `${app.part}-${String(app.shot).padStart(2, '0')}-${name}.png`);
  if (locator) await locator.screenshot({ path: file });
  else await app.page.screenshot({ path: file, fullPage: true });
}

// ------------------------------------------------------------- workspace

/** The six workspace counts, as numbers (NaN when a count is missing). */
export async function counts() {
  return current().page.evaluate((names) => {
    const out = {};
    for (const n of names) {
      const el = document.querySelector(`[data-testid=count-${n}]`);
      out[n] = el ? Number(el.textContent.replace(/[^\d-]/g, '')) : NaN;
    }
    return out;
  }, COUNTS);
}

/** Polls the counts until `ok(counts)` holds; fails with the last counts. */
export async function waitForCounts(ok, what, timeout = WAIT_MS) {
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
    await current().page.waitForTimeout(100);
  }
}

export async function errorTexts() {
  return current().page.$$eval('[data-testid=error-line]', (els) => els.map((e) => e.textContent.trim()));
}

export async function rowNames() {
  return current().page.$$eval('[data-testid=file-row]', (rows) => rows.map((r) => r.dataset.name));
}

export function row(name) {
  return current().page.locator(`[data-testid=file-row][data-name="${name}"]`);
}

export async function openTraces() {
  const { page } = current();
  await page.waitForSelector('body[data-ready="true"]', { timeout: WAIT_MS });
  const nav = page.locator('[data-testid=nav-traces]');
  if (await nav.count()) await nav.first().click();
  await page.waitForSelector('[data-testid=count-files]', { timeout: WAIT_MS });
}

/**
 * Opens the studio on the first visit of the session's fresh profile and
 * waits for the demo workspace it loads; returns its counts.
 */
export async function openDemo() {
  const { page, baseUrl } = current();
  await page.goto(baseUrl);
  await openTraces();
  return waitForCounts(
    (c) => c.files > 0 && c.runs > 0 && c.jobs > 0 && c.series > 0 && c.points > 0,
    'the demo workspace',
  );
}

/** "Clear", then "Load demo": the demo's `demo.files` files (and its plan, queue, …) again. */
export async function reloadDemo(demo) {
  const { page } = current();
  await openTraces();
  await page.click('[data-testid=clear]');
  await waitForCounts((c) => c.files === 0, 'an empty workspace');
  await page.click('[data-testid=load-demo]');
  await waitForCounts((c) => c.files === demo.files, 'the demo again');
}

/**
 * Clears everything (files, decisions, plan, queue) and uploads the demo's
 * files listed, by themselves: a workspace without the demo's decisions,
 * plan and queue, for the tests that make those by hand.
 */
export async function freshWorkspace(...names) {
  const { page } = current();
  await openTraces();
  await page.click('[data-testid=clear]');
  await waitForCounts((c) => c.files === 0, 'an empty workspace');
  for (const name of names) {
    await upload(path.join(REPO, 'fixtures', 'demo', name));
    await row(name).waitFor();
  }
}

export async function upload(file) {
  await current().page.setInputFiles('[data-testid=file-input]', file);
}

/**
 * Drops `content` (text, or bytes as an array of numbers) as a file named
 * `name` on the drop zone — or on `target`, another selector — as a browser
 * would.
 */
export async function drop(name, content, type, target = '[data-testid=dropzone]') {
  await current().page.evaluate(
    ({ name, content, type, target }) => {
      const body = typeof content === 'string' ? content : new Uint8Array(content);
      const dt = new DataTransfer();
      dt.items.add(new File([body], name, { type }));
      const zone = document.querySelector(target);
      for (const kind of ['dragenter', 'dragover', 'drop']) {
        zone.dispatchEvent(
          new DragEvent(kind, { bubbles: true, cancelable: true, dataTransfer: dt }),
        );
      }
    },
    { name, content, type, target },
  );
}

// ------------------------------------------------------------------ page

/** Polls `locator.count()` until it is `n`. */
export async function waitForCount(locator, n, what, timeout = WAIT_MS) {
  const deadline = Date.now() + timeout;
  for (;;) {
    const now = await locator.count();
    if (now === n) return;
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${n} ${what}; there are ${now}`);
    await current().page.waitForTimeout(100);
  }
}

/** Pixels of a canvas that differ from its corner (background) colour. */
export async function ink(canvas) {
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

/** The drawn canvas `testid` whose data-key differs from `previous`; its key. */
export async function drawnKey(testid, previous = null) {
  const { page } = current();
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
export async function typeInto(testid, value) {
  const { page } = current();
  await page.fill(`[data-testid=${testid}]`, value);
  await page.locator(`[data-testid=${testid}]`).dispatchEvent('change');
}

/** Clicks the button `testid` and reads the file it downloads. */
export async function download(testid) {
  const { page } = current();
  const [file] = await Promise.all([
    page.waitForEvent('download'),
    page.click(`[data-testid=${testid}]`),
  ]);
  return { name: file.suggestedFilename(), bytes: fs.readFileSync(await file.path()) };
}

// ------------------------------------------------------------------- SLOs

export function sloRow(job) {
  return current().page.locator(`[data-testid=slo-row][data-job="${job}"]`);
}

/** Waits until the job's decision cell reads `status`. */
export async function decisionIs(job, status) {
  await current().page.waitForFunction(
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
export async function fitShown(job, previous = null) {
  const { page } = current();
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

export async function openSlos() {
  const { page } = current();
  await page.click('[data-testid=nav-slos]');
  await waitForCount(page.locator('[data-testid=slo-row]'), 12, 'recurring-job rows');
}

/** The `skyplan` CLI built by `cargo test` (make test builds it before the e2e tests); built here if missing. */
export function skyplan(args) {
  const bin = path.join(REPO, 'target', 'debug', 'skyplan');
  if (!fs.existsSync(bin)) execFileSync('cargo', ['build', '-p', 'skyplan-cli'], { cwd: REPO, stdio: 'inherit' });
  return execFileSync(bin, args, { cwd: REPO, encoding: 'utf8' });
}

// ------------------------------------------------------------------ sweeps

/**
 * Runs a "where it pays" card's sweep (its `{card}-pays-…` test ids) on the
 * pool of sweep workers and waits up to `timeout` for it to end, running
 * `meanwhile` while it sweeps. The workers its progress line names, and
 * the milliseconds the sweep took.
 */
export async function paysSweep(card, { timeout = 300_000, meanwhile = async () => {} } = {}) {
  const { page } = current();
  const t0 = Date.now();
  await page.click(`[data-testid=${card}-pays-run]`);
  const progress = page.locator(`[data-testid=${card}-pays-progress]`);
  await progress.waitFor();
  const workers = Number(await progress.getAttribute('data-workers'));
  await meanwhile();
  await page.waitForFunction(
    (card) => document.querySelector(`[data-testid=${card}-pays-status]`)?.dataset.running === 'false',
    card,
    { timeout },
  );
  return { workers, ms: Date.now() - t0 };
}

/**
 * The same sweep natively, `skyplan sweep …args --json`: as many rows as
 * the studio's `shown`, and `same(native row, shown row)` asserted for
 * each row shown, by its cell.
 */
export function sweepLikeCli(args, shown, same) {
  const native = JSON.parse(skyplan(['sweep', ...args, '--json']));
  assert.equal(native.rows.length, shown.length, 'as many cells as the CLI');
  for (const r of shown) same(native.rows[r.cell], r);
}
