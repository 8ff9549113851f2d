// How fast the studio's first visit becomes useful, for BENCHMARKS.md: not
// a test (nothing here passes or fails on a time), a measurement.
//
//   node tests/e2e/page-load.mjs [--runs N] NAME=DIST [NAME=DIST ...]
//
// Each run opens every DIST in turn (interleaved, so a busy machine weighs
// on all of them alike) on a fresh Chromium profile — a first visit: empty
// cache, empty IndexedDB, so the demo workspace loads — with the flags of
// the end-to-end tests, served by their static server, and records, in
// milliseconds from the navigation's start (performance.now() in the page):
//
//   shell   the studio's navigation is in the DOM: the page's wasm is
//           loaded, compiled and has mounted the UI;
//   ready   <body data-ready="true">: the worker has loaded, seeded the demo
//           workspace and its summary has reached the page;
//   dates   the Runway panel (the studio opens on it) shows the demo's
//           limits with their dates and its chart is drawn: the first
//           meaningful paint — the run's outlook, before its purchase
//           plans (on a build without outlooks, the whole runway);
//   answer  the Runway panel has planned the demo: its status is no longer
//           running and names a plan's time;
//   chart   the whole runway's chart is drawn (its canvas has
//           data-drawn="true" after the answer): every figure on screen.
//
// (Before the Runway panel led the navigation, the studio opened on Traces
// and these were `files`, its file list, and its chart.)
//
// "interactive" is `dates`: the page's own work is done (the engine runs in
// the worker, so the UI thread is free) and the demo's answer is on screen;
// `chart` is when the purchase plans have joined it.
// `longtask` is the main thread's time in long tasks (over 50 ms) until then
// — compiling and starting the page's wasm, building the UI.
//
// Prints a Markdown table of the milestones (median, min–max over the
// runs), the bytes each DIST served until `chart` (raw, as read from disk),
// and a table of each DIST's wasm and JS glue, raw and gzip -9 (what a
// server compressing them sends).

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { chromium } from 'playwright-core';
import { CHROME_ARGS, serve } from './helpers.mjs';

const MILESTONES = ['shell', 'ready', 'dates', 'answer', 'chart', 'longtask'];
const TIMEOUT_MS = 120_000;

// Runs in the page before its scripts: notes when each milestone first holds.
function watchMilestones() {
  const seen = (window.__load = { longtask: 0 });
  try {
    new PerformanceObserver((list) => {
      if (seen.chart !== undefined) return;
      for (const e of list.getEntries()) seen.longtask += e.duration;
    }).observe({ type: 'longtask', buffered: true });
  } catch {
    seen.longtask = NaN;
  }
  const check = () => {
    const now = performance.now();
    const mark = (name, holds) => {
      if (seen[name] === undefined && holds()) seen[name] = now;
    };
    mark('shell', () => document.querySelector('[data-testid=nav-traces]'));
    mark('ready', () => document.body?.dataset.ready === 'true');
    mark('dates', () =>
      document.querySelector('[data-testid=runway-limit]') &&
      document.querySelector('canvas[data-testid=runway-chart][data-drawn="true"]'),
    );
    mark('answer', () => {
      const status = document.querySelector('[data-testid=runway-status]');
      return status?.dataset.running === 'false' && /(planned|redrawn) in/.test(status.textContent);
    });
    mark('chart', () =>
      seen.answer !== undefined && document.querySelector('canvas[data-testid=runway-chart][data-drawn="true"]'),
    );
  };
  new MutationObserver(check).observe(document, {
    subtree: true,
    childList: true,
    attributes: true,
    characterData: true,
  });
}

async function once(dist) {
  const served = {};
  const server = await serve(dist);
  server.on('request', (req) => {
    const file = path.join(dist, new URL(req.url, 'http://x').pathname);
    const ext = path.extname(file) || '.html';
    try {
      served[ext] = (served[ext] ?? 0) + fs.statSync(file).size;
    } catch {
      // a client-side route: index.html, counted as .html below
      served['.html'] = (served['.html'] ?? 0) + fs.statSync(path.join(dist, 'index.html')).size;
    }
  });
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'skyplan-load-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    args: CHROME_ARGS,
    viewport: { width: 1400, height: 1000 },
  });
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    await page.addInitScript(watchMilestones);
    await page.goto(`http://127.0.0.1:${server.address().port}/`);
    await page.waitForFunction(() => window.__load?.chart !== undefined, null, { timeout: TIMEOUT_MS });
    const times = await page.evaluate(() => ({ ...window.__load }));
    return { times, served: { ...served } };
  } finally {
    await context.close();
    await new Promise((resolve) => server.close(resolve));
    fs.rmSync(profile, { recursive: true, force: true });
  }
}

// The DIST's wasm and JS files: [name, raw bytes, gzip -9 bytes], the page's
// (app) first.
function sizes(dist) {
  return fs
    .readdirSync(dist)
    .filter((f) => /\.(wasm|js)$/.test(f))
    .sort((a, b) => (a.startsWith('app') ? -1 : 0) - (b.startsWith('app') ? -1 : 0) || a.localeCompare(b))
    .map((f) => {
      const bytes = fs.readFileSync(path.join(dist, f));
      return [f, bytes.length, zlib.gzipSync(bytes, { level: 9 }).length];
    });
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

async function main(argv) {
  let runs = 5;
  const dists = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--runs') runs = Number(argv[++i]);
    else {
      const [name, dir] = argv[i].split('=');
      if (!dir) throw new Error(`expected NAME=DIST, got ${argv[i]}`);
      dists.push({ name, dir: path.resolve(dir), results: [] });
    }
  }
  if (!dists.length || !(runs > 0)) {
    console.error('usage: node tests/e2e/page-load.mjs [--runs N] NAME=DIST [NAME=DIST ...]');
    process.exit(2);
  }
  const load = [];
  for (let r = 0; r < runs; r++) {
    for (const d of dists) {
      load.push(os.loadavg()[0]);
      const result = await once(d.dir);
      d.results.push(result);
      const t = result.times;
      console.error(
        `run ${r + 1} ${d.name}: ${MILESTONES.map((m) => `${m} ${Math.round(t[m])}`).join(', ')}`,
      );
    }
  }
  console.log(`\n${runs} first visits each, ${os.cpus().length} cores, load average ${Math.min(...load).toFixed(1)}–${Math.max(...load).toFixed(1)} during the runs\n`);
  console.log(`| build | ${MILESTONES.map((m) => `${m} (ms)`).join(' | ')} |`);
  console.log(`| --- | ${MILESTONES.map(() => '---:').join(' | ')} |`);
  for (const d of dists) {
    const cells = MILESTONES.map((m) => {
      const xs = d.results.map((r) => r.times[m]);
      return `${Math.round(median(xs))} (${Math.round(Math.min(...xs))}–${Math.round(Math.max(...xs))})`;
    });
    console.log(`| ${d.name} | ${cells.join(' | ')} |`);
  }
  console.log('\nmedian (min–max); bytes served until `chart` (first run):\n');
  for (const d of dists) {
    const s = d.results[0].served;
    const parts = Object.entries(s)
      .sort()
      .map(([ext, n]) => `${ext} ${n}`);
    console.log(`- ${d.name}: ${parts.join(', ')}`);
  }
  console.log('\n| build | file | raw (B) | gzip -9 (B) |');
  console.log('| --- | --- | ---: | ---: |');
  for (const d of dists) {
    for (const [file, raw, gz] of sizes(d.dir)) console.log(`| ${d.name} | ${file} | ${raw} | ${gz} |`);
  }
}

main(process.argv.slice(2)).catch((e) => {
  console.error(e);
  process.exit(1);
});
