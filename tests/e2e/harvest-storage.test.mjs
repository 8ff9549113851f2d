// End-to-end test of the Harvest panel's storage view on the demo's reimages:
// the 3 × 3 grid, one block's replicas explained, durability (Figure 15) and
// availability (Figure 16) in the worker, a bad reimages file refused.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import {
  studioSession,
  studioTest,
  screenshot,
  reloadDemo,
  ink,
  drawnKey,
  typeInto,
} from './helpers.mjs';

let page, tmpDir, pageErrors, demo;
studioSession('harvest-storage', (s) => ({ page, tmpDir, pageErrors, demo } = s));

studioTest('Harvest storage: the demo reimages, the 3 × 3 grid, a block explained, durability and availability in the worker; a bad reimages file refused', { timeout: 300_000 }, 'no uncaught errors in the storage view', async () => {
  await reloadDemo(demo);
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
});

test('no uncaught errors in the page', () => {
  assert.deepEqual(pageErrors, []);
});
