// Streaming import in headless Chrome, measured: each file given is chosen
// in the Traces panel's file input of the release studio (dist/, as
// `trunk build --release` writes it), as a planner would pick it, and
// streamed by the traces worker from Blob.stream(). One fresh browser per
// file, so each renderer's peak is that import's.
//
//   node tests/e2e/stream-bench.mjs target/bench-data/google-instance_usage-{100M,2G}.csv
//
// (the files are written by `cargo bench -p skyplan-bench --bench stream`;
// not a *.test.mjs, so `make test` never runs it). Per file it prints one
// markdown row: the time from choosing the file to its row in the files
// table with no import under way, MB/s (10⁶ bytes/s), the peak resident
// memory of the tab (the renderer processes' VmHWM from /proc: the page and
// its workers run there, the file itself stays in the browser process as a
// file-backed Blob), and what the panels show then (counts, the reader's
// notes). A screenshot of the chart of the first series is written to
// target/e2e/stream-bench-NN-<file>.png.
//
// `FILE*N` imports FILE's rows N times as one file of N times its size
// (its header once): a File made in the page of slices of FILE, which
// Chrome reads from FILE without copying, dropped on the Traces panel. For
// a size that does not fit on the disk, e.g. 10 GB as `…-2G.csv*5` (the
// same rows five times, so the machine totals are five times as large).
//
// Linux only (/proc). Environment as the e2e tests: SKYPLAN_DIST, CHROMIUM.

import fs from 'node:fs';
import path from 'node:path';
import {
  openStudio,
  closeStudio,
  openTraces,
  waitForCounts,
  counts,
  errorTexts,
  row,
  screenshot,
} from './helpers.mjs';

/** Every process below `root`, with its parent and command line. */
function descendants(root) {
  const parent = new Map();
  for (const pid of fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      parent.set(Number(pid), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // The process ended while the table was read.
    }
  }
  const out = [];
  const todo = [root];
  while (todo.length) {
    const p = todo.pop();
    for (const [pid, pp] of parent) {
      if (pp === p) {
        out.push(pid);
        todo.push(pid);
      }
    }
  }
  return out;
}

/** A process's `VmRSS` and `VmHWM` (peak), MiB; null once it has ended. */
function memory(pid) {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kib = (key) => Number(status.match(new RegExp(`^${key}:\\s+(\\d+)`, 'm'))?.[1] ?? NaN);
    return { rss: kib('VmRSS') / 1024, hwm: kib('VmHWM') / 1024 };
  } catch {
    return null;
  }
}

/** Chromium's renderer processes started by this node process. */
function renderers() {
  return descendants(process.pid).filter((pid) => {
    try {
      return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('--type=renderer');
    } catch {
      return false;
    }
  });
}

/** The length of `file`'s first line, with its newline. */
function headerBytes(file) {
  const fd = fs.openSync(file, 'r');
  try {
    const buf = Buffer.alloc(64 << 10);
    const n = fs.readSync(fd, buf, 0, buf.length, 0);
    const nl = buf.subarray(0, n).indexOf(10);
    if (nl < 0) throw new Error(`${file}: no line in its first 64 KiB`);
    return nl + 1;
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Chooses `file` in the Traces panel; with `times` > 1, drops instead a File
 * of its header and `times` copies of its rows, made in the page.
 */
async function choose(page, file, times, name) {
  if (times === 1) {
    await page.setInputFiles('[data-testid=file-input]', file);
    return;
  }
  await page.evaluate(() => {
    const input = document.createElement('input');
    input.type = 'file';
    input.id = 'stream-bench-source';
    input.hidden = true;
    document.body.append(input);
  });
  await page.setInputFiles('#stream-bench-source', file);
  await page.evaluate(
    ({ times, name, header }) => {
      const source = document.getElementById('stream-bench-source').files[0];
      const parts = [source];
      for (let i = 1; i < times; i++) parts.push(source.slice(header));
      const dt = new DataTransfer();
      dt.items.add(new File(parts, name, { type: 'text/csv' }));
      const zone = document.querySelector('[data-testid=dropzone]');
      for (const kind of ['dragenter', 'dragover', 'drop']) {
        zone.dispatchEvent(new DragEvent(kind, { bubbles: true, cancelable: true, dataTransfer: dt }));
      }
    },
    { times, name, header: headerBytes(file) },
  );
}

/** Imports `file` (its rows `times` times) in a fresh studio; returns what was measured. */
async function measure(file, times) {
  const size = fs.statSync(file).size;
  const bytes = size + (times - 1) * (size - (times > 1 ? headerBytes(file) : 0));
  const name = times === 1 ? path.basename(file) : `${path.basename(file, '.csv')}-x${times}.csv`;
  const app = await openStudio('stream-bench');
  const { page, baseUrl } = app;
  try {
    page.setDefaultTimeout(3_600_000);
    await page.goto(baseUrl);
    await openTraces();
    await waitForCounts((c) => c.files > 0, 'the demo on the first visit');
    await page.click('[data-testid=clear]');
    await waitForCounts((c) => c.files === 0, 'an empty workspace');
    const before = Math.max(0, ...renderers().map((p) => memory(p)?.rss ?? 0));
    // Sampled as well as VmHWM, so the peak of a renderer that ends is kept.
    let sampledPeak = 0;
    const sampler = setInterval(() => {
      const sum = renderers().reduce((s, p) => s + (memory(p)?.rss ?? 0), 0);
      sampledPeak = Math.max(sampledPeak, sum);
    }, 250);
    const t0 = performance.now();
    await choose(page, file, times, name);
    let lastLog = t0;
    for (;;) {
      const done =
        (await row(name).count()) > 0 && (await page.locator('[data-testid=progress]').count()) === 0;
      if (done) break;
      const errors = await errorTexts();
      if (errors.length && (await page.locator('[data-testid=progress]').count()) === 0) {
        throw new Error(`${name}: ${errors.join(' | ')}`);
      }
      if (performance.now() - lastLog > 10_000) {
        lastLog = performance.now();
        const detail = await page.locator('[data-testid=progress]').first().textContent().catch(() => '');
        console.error(`# ${name}: ${((lastLog - t0) / 1000).toFixed(0)} s, ${detail.trim().replace(/\s+/g, ' ')}`);
      }
      await page.waitForTimeout(100);
    }
    const secs = (performance.now() - t0) / 1000;
    // The workspace is saved (IndexedDB, the records) after the row shows:
    // a few more seconds of sampling take that in.
    await page.waitForTimeout(3000);
    clearInterval(sampler);
    const mems = renderers().map((p) => memory(p)).filter(Boolean);
    const peak = Math.max(sampledPeak, ...mems.map((m) => m.hwm));
    const after = mems.reduce((s, m) => s + m.rss, 0);
    const c = await counts();
    const notes = await row(name)
      .locator('[data-testid=file-notes] li')
      .allTextContents()
      .catch(() => []);
    const options = await page.$$eval('[data-testid=chart-select] option', (os) => os.map((o) => o.value));
    const series = options.filter((o) => o.startsWith('series:'));
    if (series.length) {
      await page.selectOption('[data-testid=chart-select]', series[0]);
      await page.locator('canvas[data-testid=chart][data-drawn="true"]').waitFor();
    }
    await screenshot(name.replace(/[^\w.-]/g, '_'));
    return { name, bytes, secs, before, peak, after, counts: c, notes, series: series.length };
  } finally {
    await closeStudio(app);
  }
}

const files = process.argv.slice(2);
if (!files.length) {
  console.error('usage: node tests/e2e/stream-bench.mjs FILE[*N]...');
  process.exit(2);
}
const load = () => fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
console.log(`load average (1, 5, 15 min) before: ${load()}`);
console.log('| file | size | time to imported | MB/s | tab peak RSS | tab RSS before / after | what the panels show |');
console.log('| --- | ---: | ---: | ---: | ---: | ---: | --- |');
for (const arg of files) {
  const [file, times] = arg.includes('*') ? [arg.slice(0, arg.lastIndexOf('*')), Number(arg.slice(arg.lastIndexOf('*') + 1))] : [arg, 1];
  const m = await measure(file, times);
  const c = m.counts;
  console.log(
    `| ${m.name} | ${m.bytes} bytes | ${m.secs.toFixed(1)} s | ${(m.bytes / 1e6 / m.secs).toFixed(0)} | ` +
      `${m.peak.toFixed(0)} MiB | ${m.before.toFixed(0)} / ${m.after.toFixed(0)} MiB | ` +
      `${c.files} file, ${c.series} series, ${c.points} points, ${m.series} series in the chart selector; ` +
      `${m.notes.join('; ')} |`,
  );
}
console.log(`load average (1, 5, 15 min) after: ${load()}`);
