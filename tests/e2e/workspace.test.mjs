// End-to-end test of the workspace bundle: state changed in every panel (an
// SLO override, a one-off admitted to the agenda, one reservation locked and
// the rest moved by Optimize, a pricing job admitted, tuning, forecast and shaping settings),
// "Save workspace" downloaded, the workspace cleared (and the page-held
// settings changed), the bundle opened — every panel as it was. Then a
// truncated, a corrupt and two foreign files (a PNG and a CSV renamed
// .skyplan), through the Open button, the drop zone and a drop anywhere on
// the page: each refused with its reason, the workspace unchanged. Logs the
// demo bundle's size and the save and open times (# BENCH-WORKSPACE).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import {
  REPO,
  WAIT_MS,
  studioSession,
  screenshot,
  counts,
  waitForCounts,
  openTraces,
  waitForCount,
  typeInto,
  drawnKey,
  download,
  drop,
  sloRow,
  decisionIs,
  fitShown,
  openSlos,
} from './helpers.mjs';

let page, tmpDir, pageErrors, demo;
studioSession('workspace', (s) => ({ page, tmpDir, pageErrors, demo } = s));

/** The bundle saved by the first test, for the second. */
let saved = null;

/** Waits for the Shaping run to end with results. */
async function shaped() {
  await page.waitForFunction(
    () => document.querySelector('[data-testid=shaping-status]')?.dataset.running === 'false' &&
      document.querySelector('[data-testid=shaping-speedup]'),
    null,
    { timeout: 180_000 },
  );
}

/** The value of the input or select `testid`. */
function valueOf(testid) {
  return page.inputValue(`[data-testid=${testid}]`);
}

/** What each panel shows of the state the bundle keeps. */
async function snapshot() {
  const out = {};
  await openTraces();
  out.counts = await counts();
  out.files = await page.$$eval('[data-testid=file-row]', (rs) => rs.map((r) => r.dataset.name));
  out.chart = await valueOf('chart-select');
  // The Forecast card shows under a series only.
  if (out.chart.startsWith('series:')) {
    await page.locator('[data-testid=forecast-card]').waitFor();
    out.forecast = [await valueOf('forecast-window'), await valueOf('forecast-horizon'), await valueOf('forecast-method')];
  }

  await openSlos();
  out.decisions = await page.$$eval('[data-testid=decision-row]', (rs) =>
    rs.map((r) => `${r.dataset.job}: ${r.textContent.trim()}`),
  );

  await page.click('[data-testid=nav-agenda]');
  await page.locator('[data-testid=agenda-row]').first().waitFor();
  out.agenda = await page.$$eval('[data-testid=agenda-row]', (rs) =>
    rs
      .map((r) => `${r.dataset.name}@${r.dataset.start}${r.querySelector('[data-testid=agenda-lock]')?.checked ? ' locked' : ''}`)
      .sort(),
  );

  await page.click('[data-testid=nav-pricing]');
  await page.locator('[data-testid=queue-row]').first().waitFor();
  out.queue = await page.$$eval('[data-testid=queue-row]', (rs) => rs.map((r) => r.dataset.name));

  await page.click('[data-testid=nav-tuning]');
  await page.locator('[data-testid=tuning-panel]').waitFor();
  out.tuning = [
    await valueOf('tuning-containers'),
    await valueOf('tuning-jobs'),
    await valueOf('tuning-scheduler'),
    await page.locator('[data-testid=tuning-queue-row]').count(),
  ];

  await page.click('[data-testid=nav-shaping]');
  await page.locator('[data-testid=shaping-panel]').waitFor();
  await shaped();
  out.shaping = [await valueOf('shaping-apps'), await valueOf('shaping-k1')];

  await page.click('[data-testid=nav-harvest]');
  await page.locator('[data-testid=harvest-panel]').waitFor();
  out.tenants = (await page.locator('[data-testid=harvest-tenants-file]').textContent()).trim();
  return out;
}

/** Opens `file` with the Open button; waits for the reloaded studio. */
async function openBundle(file) {
  const t0 = Date.now();
  await Promise.all([page.waitForEvent('load', { timeout: WAIT_MS }), page.setInputFiles('[data-testid=workspace-open]', file)]);
  await page.waitForSelector('body[data-ready="true"]', { timeout: WAIT_MS });
  return Date.now() - t0;
}

test('Workspace: save, clear, open — every panel restored', { timeout: 600_000 }, async () => {
  const bundleLogs = [];
  page.on('console', (m) => {
    if (m.text().startsWith('skyplan bundle:')) bundleLogs.push(m.text());
  });
  await openTraces();

  // SLOs: override clickstream_agg's window (the demo signed it off).
  await openSlos();
  await sloRow('clickstream_agg').click();
  await fitShown('clickstream_agg');
  await page.click('[data-testid=override]');
  await page.fill('[data-testid=override-start]', '0');
  await page.fill('[data-testid=override-deadline]', '50');
  await page.click('[data-testid=override-save]');
  await decisionIs('clickstream_agg', 'overridden');

  // Agenda: a one-off admitted, one reservation locked, the rest optimized.
  await page.click('[data-testid=nav-agenda]');
  await page.locator('canvas[data-testid=agenda-canvas][data-drawn="true"]').waitFor();
  await page.fill('[data-testid=oneoff-name]', 'adhoc_backfill');
  await page.fill('[data-testid=oneoff-start]', '09:00');
  await page.fill('[data-testid=oneoff-deadline]', '21:00');
  await page.fill('[data-testid=oneoff-containers]', '20');
  await page.fill('[data-testid=oneoff-minutes]', '60');
  await page.click('[data-testid=oneoff-add]');
  await page.locator('[data-testid=agenda-row][data-name="adhoc_backfill"]').waitFor();
  await page.locator('[data-testid=agenda-row]').first().locator('[data-testid=agenda-lock]').check();
  await page.waitForFunction(() => !document.querySelector('[data-testid=optimize]')?.disabled);
  await page.click('[data-testid=optimize]');
  await page.waitForFunction(() =>
    /Optimized: .*1 locked\./.test(document.querySelector('[data-testid=agenda-outcome]')?.textContent),
  );

  // Pricing: a job of the demo history admitted at three times its earliest finish.
  await page.click('[data-testid=nav-pricing]');
  await page.waitForFunction(
    () => document.querySelectorAll('[data-testid=history-select] option').length > 300,
  );
  const queued = await page.locator('[data-testid=queue-row]').count();
  const before = await drawnKey('price-curve');
  const job = await page.locator('[data-testid=history-select] option').nth(41).getAttribute('value');
  await page.selectOption('[data-testid=history-select]', job);
  await drawnKey('price-curve', before);
  const finish = Number(await page.locator('[data-testid=earliest-finish]').getAttribute('data-secs'));
  await typeInto('deadline-input', String(Math.ceil(finish * 3)));
  await page.click('[data-testid=admit]');
  await waitForCount(page.locator('[data-testid=queue-row]'), queued + 1, 'queue rows after the admission');

  // Tuning: Fair, 24 containers, 10 jobs a group.
  await page.click('[data-testid=nav-tuning]');
  await page.locator('[data-testid=tuning-panel]').waitFor();
  await page.selectOption('[data-testid=tuning-scheduler]', 'fair');
  await typeInto('tuning-containers', '24');
  await typeInto('tuning-jobs', '10');

  // Forecast: the third series, window 12, horizon 6, the ARIMA band.
  await openTraces();
  const series = await page.$$eval('[data-testid=chart-select] option', (os) =>
    os.filter((o) => o.value.startsWith('series:')).map((o) => o.value),
  );
  assert.ok(series.length > 3, 'the demo has series');
  await page.selectOption('[data-testid=chart-select]', series[2]);
  await page.locator('[data-testid=forecast-card]').waitFor();
  await typeInto('forecast-window', '12');
  await typeInto('forecast-horizon', '6');
  await page.selectOption('[data-testid=forecast-method]', 'ARIMA');

  // Shaping: 150 applications, K1 = 7 %, run.
  await page.click('[data-testid=nav-shaping]');
  await page.locator('[data-testid=shaping-panel]').waitFor();
  await shaped();
  await typeInto('shaping-apps', '150');
  await typeInto('shaping-k1', '7');
  await page.click('[data-testid=shaping-run]');
  await page.waitForFunction(() => document.querySelector('[data-testid=shaping-status]')?.dataset.running === 'true');
  await shaped();

  const state = await snapshot();
  assert.deepEqual(state.forecast, ['12', '6', 'ARIMA']);
  assert.deepEqual(state.tuning.slice(0, 3), ['24', '10', 'fair']);
  assert.deepEqual(state.shaping, ['150', '7']);
  assert.ok(state.agenda.some((r) => r.endsWith(' locked')), `a lock in ${state.agenda}`);
  assert.ok(state.decisions.some((d) => d.startsWith('clickstream_agg') && d.includes('overridden')), `${state.decisions}`);
  await screenshot('before-save');

  // Save: the download is a gzip bundle named by the date.
  const t0 = Date.now();
  const file = await download('workspace-save');
  const saveMs = Date.now() - t0;
  assert.match(file.name, /^skyplan-workspace-\d{4}-\d\d-\d\d\.skyplan$/);
  assert.deepEqual([...file.bytes.subarray(0, 2)], [0x1f, 0x8b], 'gzip');
  const status = page.locator('[data-testid=workspace-status]');
  assert.equal(await status.getAttribute('data-state'), 'saved');
  assert.match(await status.textContent(), new RegExp(`Saved ${file.name.replace(/\./g, '\\.')} \\(\\d+ kB\\): ${demo.files} files, ${state.decisions.length} SLO decisions, a plan of`));
  saved = path.join(tmpDir, file.name);
  fs.writeFileSync(saved, file.bytes);

  // Clear, and the settings the page holds changed: nothing of the state
  // left. (The Forecast card shows only under a series: changed on the demo
  // loaded again, then cleared once more.)
  await openTraces();
  await page.click('[data-testid=clear]');
  await waitForCounts((c) => c.files === 0, 'an empty workspace');
  await page.click('[data-testid=load-demo]');
  await waitForCounts((c) => c.files === demo.files, 'the demo again');
  await page.selectOption('[data-testid=chart-select]', series[1]);
  await page.locator('[data-testid=forecast-card]').waitFor();
  await typeInto('forecast-window', '10');
  await typeInto('forecast-horizon', '12');
  await page.selectOption('[data-testid=forecast-method]', 'GP');
  await page.click('[data-testid=clear]');
  await waitForCounts((c) => c.files === 0, 'an empty workspace');
  await page.click('[data-testid=nav-tuning]');
  await page.selectOption('[data-testid=tuning-scheduler]', 'capacity');
  await typeInto('tuning-containers', '8');
  await page.click('[data-testid=nav-shaping]');
  await typeInto('shaping-apps', '400');
  await openSlos().catch(() => {});
  await waitForCount(page.locator('[data-testid=decision-row]'), 0, 'decisions after Clear');
  await page.click('[data-testid=nav-pricing]');
  await waitForCount(page.locator('[data-testid=queue-row]'), 0, 'queue rows after Clear');
  await screenshot('cleared');

  // Open: the page reloads on the bundle's workspace; every panel as saved.
  const openMs = await openBundle(saved);
  const notice = page.locator('[data-testid=notice]', { hasText: 'Opened ' });
  await notice.waitFor();
  assert.match(
    await notice.textContent(),
    new RegExp(`Opened ${file.name.replace(/\./g, '\\.')}: ${demo.files} files, ${state.decisions.length} SLO decisions`),
  );
  const restored = await snapshot();
  assert.deepEqual(restored, state, 'every panel as it was saved');
  await screenshot('opened');
  console.log(
    `# BENCH-WORKSPACE demo bundle ${file.bytes.length} bytes; save ${saveMs} ms (click to download), ` +
      `open ${openMs} ms (file chosen to the reloaded studio ready)`,
  );
  for (const line of bundleLogs) console.log(`# BENCH-WORKSPACE ${line}`);
});

test('Workspace: truncated, corrupt and foreign files are refused; the workspace is kept', { timeout: 300_000 }, async () => {
  assert.ok(saved, 'the first test saved a bundle');
  await openTraces();
  const kept = await counts();
  await openSlos();
  const decisions = await page.$$eval('[data-testid=decision-row]', (rs) => rs.map((r) => r.textContent));
  // A reload would lose this: the page must not reload on a refused file.
  await page.evaluate(() => (window.__sameDocument = true));
  const bytes = fs.readFileSync(saved);
  const corrupt = Buffer.from(bytes);
  corrupt[corrupt.length >> 1] ^= 0xff;
  const png = await page.screenshot();
  const cases = [
    { name: 'cut.skyplan', body: bytes.subarray(0, bytes.length >> 1), how: 'button', reason: /^cut\.skyplan is truncated \(its compressed data ends after \d+ bytes\); ask for the bundle again\. The workspace is unchanged\.$/ },
    { name: 'damaged.skyplan', body: corrupt, how: 'dropzone', reason: /^damaged\.skyplan is (corrupt|truncated)\b.*The workspace is unchanged\.$/ },
    { name: 'picture.skyplan', body: png, how: 'page', reason: /^picture\.skyplan is not a skyplan workspace bundle: it does not start with gzip's signature\. The workspace is unchanged\.$/ },
    { name: 'runs.skyplan', body: fs.readFileSync(path.join(REPO, 'fixtures', 'demo', 'runs.csv')), how: 'button', reason: /^runs\.skyplan is not a skyplan workspace bundle: it is text \(first line `[^`]*`\), not a compressed bundle\. The workspace is unchanged\.$/ },
  ];
  for (const c of cases) {
    await openTraces();
    const file = path.join(tmpDir, c.name);
    fs.writeFileSync(file, c.body);
    if (c.how === 'button') await page.setInputFiles('[data-testid=workspace-open]', file);
    else if (c.how === 'dropzone') await drop(c.name, [...c.body], 'application/gzip');
    else await drop(c.name, [...c.body], 'image/png', 'main.page');
    const status = page.locator('[data-testid=workspace-status][data-state=failed]');
    await page.waitForFunction(
      (name) => {
        const s = document.querySelector('[data-testid=workspace-status]');
        return s?.dataset.state === 'failed' && s.textContent.startsWith(name);
      },
      c.name,
    );
    const text = (await status.textContent()).trim();
    assert.match(text, c.reason, `${c.name} (${c.how})`);
    console.log(`# ${c.name} via ${c.how}: ${text}`);
    assert.ok(await page.evaluate(() => window.__sameDocument === true), `${c.name}: the page did not reload`);
    assert.deepEqual(await counts(), kept, `${c.name}: the files are kept`);
    await screenshot(`refused-${c.how}`);
  }
  await openSlos();
  assert.deepEqual(
    await page.$$eval('[data-testid=decision-row]', (rs) => rs.map((r) => r.textContent)),
    decisions,
    'the decisions are kept',
  );
  // And after a reload too: nothing was written.
  await page.reload();
  await openTraces();
  assert.deepEqual(await counts(), kept, 'the saved workspace is kept');
});

/** The `skyplan` CLI built by `cargo test` (make test builds it before this test); built here if missing. */
function cli() {
  const bin = path.join(REPO, 'target', 'debug', 'skyplan');
  if (!fs.existsSync(bin)) execFileSync('cargo', ['build', '-p', 'skyplan-cli'], { cwd: REPO, stdio: 'inherit' });
  return (args) => execFileSync(bin, args, { cwd: REPO, encoding: 'utf8' });
}

test('Workspace: the studio opens what skyplan bundle writes, and skyplan reads what the studio saves', { timeout: 600_000 }, async () => {
  assert.ok(saved, 'the first test saved a bundle');
  const skyplan = cli();
  // The studio's own bundle, read by the CLI: what it lists is what was saved.
  const listed = skyplan(['bundle', '--list', saved]);
  assert.match(listed, /SLO decisions: 7\n/);
  assert.match(listed, /agenda: 6 reservations/);
  assert.match(listed, /tuning: 24 containers/);
  const page1 = skyplan(['report', saved, '-o', '-']);
  assert.match(page1, /id="tuning"/);
  assert.doesNotMatch(page1, /No scheduler tuning in this workspace/);

  // A bundle the CLI writes (the demo's), opened in the studio.
  const written = path.join(tmpDir, 'cli-demo.skyplan');
  skyplan(['bundle', '-o', written]);
  await openTraces();
  await openBundle(written);
  const notice = page.locator('[data-testid=notice]', { hasText: 'Opened cli-demo.skyplan' });
  await notice.waitFor();
  await openTraces();
  await waitForCounts((c) => c.files === 4, 'the four demo trace files');
  assert.deepEqual(
    await page.$$eval('[data-testid=file-row]', (rs) => rs.map((r) => r.dataset.name)),
    ['demo/runs.csv', 'demo/utilization.csv', 'demo/history.csv', 'demo/tenant_utilization.csv'],
  );
  // The agenda the CLI admitted, and its refusals, as the CLI listed them.
  const cliList = skyplan(['bundle', '--list', written]);
  const [, placed] = cliList.match(/agenda: (\d+) reservations/);
  await page.click('[data-testid=nav-agenda]');
  await waitForCount(page.locator('[data-testid=agenda-row]'), Number(placed), 'the CLI\'s reservations');
  const [, queued] = cliList.match(/pricing queue: (\d+) jobs/);
  await page.click('[data-testid=nav-pricing]');
  await waitForCount(page.locator('[data-testid=queue-row]'), Number(queued), 'the CLI\'s queue');
  await screenshot('cli-bundle-opened');
});

test('no uncaught errors in the page', () => {
  assert.deepEqual(pageErrors, []);
});
