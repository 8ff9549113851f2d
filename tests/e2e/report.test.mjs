// End-to-end test of the plan report: on the demo workspace, with a job
// whose name a browser would run signed off, "Download report" gives one
// HTML page; opened in the browser it has every section, its charts drawn,
// no script, no reference to anything outside it (the session's request
// recorder fails the test on any request that leaves the page), and the
// hostile name shown as text. Logs the report's size and time
// (# BENCH-REPORT).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  WAIT_MS,
  studioSession,
  studioTest,
  screenshot,
  freshWorkspace,
  drop,
} from './helpers.mjs';

let page;
studioSession('report', (s) => ({ page } = s));

/** The report's sections, as the page's anchors name them. */
const SECTIONS = ['sources', 'slos', 'agenda', 'pricing', 'harvest', 'shaping', 'tuning'];

/** Waits for the status line to say the report was downloaded. */
async function reported() {
  await page.waitForFunction(
    () => ['reported', 'failed'].includes(document.querySelector('[data-testid=workspace-status]')?.dataset.state),
    null,
    { timeout: 300_000 },
  );
  const state = await page.getAttribute('[data-testid=workspace-status]', 'data-state');
  const text = await page.textContent('[data-testid=workspace-status]');
  assert.equal(state, 'reported', text);
  return text;
}

studioTest('Plan report: every section of the demo, charts drawn, nothing run, nothing fetched', { timeout: 600_000 }, 'no uncaught errors while reporting', async () => {
  // The panels that keep their state once opened: visit them so the saved
  // workspace holds what a planner would have.
  for (const [nav, shown] of [
    ['nav-agenda', '[data-testid=agenda-row]'],
    ['nav-pricing', '[data-testid=queue-row]'],
    ['nav-harvest', '[data-testid=harvest-panel]'],
    ['nav-shaping', '[data-testid=shaping-panel]'],
    ['nav-tuning', '[data-testid=tuning-panel]'],
  ]) {
    await page.click(`[data-testid=${nav}]`);
    await page.locator(shown).first().waitFor({ timeout: WAIT_MS });
  }
  const t0 = Date.now();
  const [file] = await Promise.all([
    page.waitForEvent('download', { timeout: 300_000 }),
    page.click('[data-testid=workspace-report]'),
  ]);
  const status = await reported();
  const took = Date.now() - t0;
  const html = (await import('node:fs')).readFileSync(await file.path(), 'utf8');
  assert.match(file.suggestedFilename(), /^skyplan-report-\d{4}-\d{2}-\d{2}\.html$/);
  console.log(`# BENCH-REPORT demo: ${html.length} bytes, ${took} ms click to download; ${status}`);

  // Self-contained: no script, nothing outside the page.
  assert.doesNotMatch(html, /<script/i, 'no script in the report');
  for (const m of html.matchAll(/\b(?:src|href)\s*=\s*"([^"]*)"/gi)) {
    assert.doesNotMatch(m[1], /^(https?:)?\/\//i, `an external reference: ${m[0]}`);
  }

  // Opened in the browser: every section, each with its charts drawn.
  const report = await page.context().newPage();
  await report.setContent(html, { waitUntil: 'load' });
  for (const id of SECTIONS) {
    const section = report.locator(`section#${id}`);
    assert.equal(await section.count(), 1, `section ${id}`);
    assert.doesNotMatch(await section.textContent(), /in this workspace\./, `${id} has its input`);
  }
  const charts = await report.$$eval('svg', (svgs) =>
    svgs.map((s) => {
      const b = s.getBoundingClientRect();
      return { w: b.width, h: b.height, marks: s.querySelectorAll('path, polyline, rect, line, circle').length };
    }),
  );
  assert.ok(charts.length >= SECTIONS.length - 2, `${charts.length} charts`);
  for (const c of charts) {
    assert.ok(c.w > 50 && c.h > 30 && c.marks > 3, `a chart drawn: ${JSON.stringify(c)}`);
  }
  for (const id of ['slos', 'agenda', 'harvest', 'shaping']) {
    assert.ok((await report.locator(`section#${id} svg`).count()) > 0, `${id} has a chart`);
  }
  await screenshot('report-page', report.locator('body'));
  await report.close();
});

studioTest('Plan report: a file whose name a browser would run is shown, not run', { timeout: 600_000 }, 'no uncaught errors while reporting a hostile name', async () => {
  // Names come from whoever wrote the traces: a file name with markup in
  // it, loaded as a job history, is listed in the report's sources.
  const hostile = '<img src=x onerror=alert(1)>=HYPERLINK("x")<script>alert(2)</script>.csv';
  const fs = await import('node:fs');
  const path = await import('node:path');
  const { REPO } = await import('./helpers.mjs');
  const text = fs.readFileSync(path.join(REPO, 'fixtures', 'demo', 'history.csv'), 'utf8');
  await freshWorkspace();
  await drop(hostile, text, 'text/csv');
  await page.waitForFunction(
    (n) => [...document.querySelectorAll('[data-testid=file-row]')].some((r) => r.dataset.name === n),
    hostile,
    { timeout: WAIT_MS },
  );
  const [file] = await Promise.all([
    page.waitForEvent('download', { timeout: 300_000 }),
    page.click('[data-testid=workspace-report]'),
  ]);
  await reported();
  const html = fs.readFileSync(await file.path(), 'utf8');
  assert.doesNotMatch(html, /<script/i);
  assert.doesNotMatch(html, /<img/i);
  let alerted = false;
  const report = await page.context().newPage();
  report.on('dialog', async (d) => {
    alerted = true;
    await d.dismiss();
  });
  await report.setContent(html, { waitUntil: 'load' });
  assert.equal(await report.locator('script, img').count(), 0, 'no element from the name');
  assert.ok((await report.locator('section#sources').textContent()).includes(hostile), 'the name shown as text');
  assert.equal(alerted, false, 'nothing in the report ran');
  await report.close();
});
