// The README's first command: `mangekyo serve` over a checkout where
// scripts/build-wasm has not run, so web/ has no pkg/. A server of the
// test's own serves a copy of web/ without pkg/ (its own SQLite file).
// Caves mode asks nothing of the missing package (no 404, no console
// error), generates on the server, and says so in a small note in the
// header that covers nothing: not the status line, the HUD, the help or
// the view (and the status line and the HUD do not cover each other). The
// caves still draw.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  assertNoErrors, canvasShot, colourClasses, launch, openPage, overlaps, ROOT, screenshot, startServer, waitFor, waitReady,
} from './harness.mjs';

let browser;
let server;
let tmp;

before(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'mangekyo-first-run-'));
  // The viewer as a checkout has it before scripts/build-wasm: no pkg/.
  const web = join(tmp, 'web');
  for (const part of ['index.html', 'style.css', 'src', 'vendor']) cpSync(join(ROOT, 'web', part), join(web, part), { recursive: true });
  server = await startServer(['--web', web, '--db', join(tmp, 'viewer.db')]);
  browser = await launch();
});
after(async () => {
  if (browser) await browser.close();
  if (server) await server.stop();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

test('without web/pkg the caves come from the server, with a quiet note that covers nothing', async () => {
  const page = await openPage(browser, '#caves?seed=42', server.base);
  await waitReady(page, 'caves', 120_000);
  const chunks = await waitFor(page, () => {
    const c = window.mangekyo.debug().chunks;
    return c && c.meshed >= 12 && c.pending === 0 ? c : null;
  }, undefined, 120_000);
  assert.equal(chunks.errors, 0, `chunk errors: ${chunks.lastError}`);
  const state = await page.evaluate(() => window.mangekyo.debug());
  assert.equal(state.source, 'server');
  assert.match(state.note, /WebAssembly package \(web\/pkg\) is not built/);
  // Every resource the page fetched, from its first request on.
  const asked = await page.evaluate(() => performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname));
  assert.ok(asked.includes('/src/modes/caves/source.js') && asked.some((p) => p.startsWith('/v1/caves/42')), `resources: ${asked}`);
  assert.ok(!asked.some((p) => p.startsWith('/pkg/')), `the missing package is not asked for: ${asked.filter((p) => p.startsWith('/pkg'))}`);

  const note = page.locator('#note');
  assert.ok(await note.isVisible(), 'the note is shown');
  assert.match(await note.textContent(), /scripts\/build-wasm/, 'and says how to build the package');
  assert.match(await note.locator('code').first().textContent(), /^scripts\/build-wasm$/);
  // The status line says nothing is wrong (it is empty once the world is open).
  const status = (await page.locator('#status').textContent()).trim();
  assert.doesNotMatch(status, /did not load|error/i, `status: ${status}`);
  // The note sits in the header: it covers nothing over the view.
  const boxes = await page.evaluate(() => Object.fromEntries(['#note', 'header', '#view', '#status', '#hud', '.overlay-help'].map((sel) => {
    const el = document.querySelector(sel);
    const r = el.getBoundingClientRect();
    const shown = getComputedStyle(el).display !== 'none' && r.width > 0 && r.height > 0;
    return [sel, shown ? { x: r.x, y: r.y, width: r.width, height: r.height } : null];
  })));
  assert.ok(boxes['#hud'], 'the HUD is shown');
  for (const other of ['#view', '#status', '#hud', '.overlay-help']) {
    if (boxes[other]) assert.ok(!overlaps(boxes['#note'], boxes[other]), `the note ${JSON.stringify(boxes['#note'])} overlaps ${other} ${JSON.stringify(boxes[other])}`);
  }
  const header = boxes.header;
  assert.ok(boxes['#note'].y >= header.y && boxes['#note'].y + boxes['#note'].height <= header.y + header.height, 'inside the header');
  // Put a message on the status line: the note does not cover it either.
  await page.evaluate(() => {
    const s = document.getElementById('status');
    s.textContent = 'a status message as long as the longest the viewer writes, to see it is not covered by anything';
  });
  const statusBox = await page.locator('#status').boundingBox();
  assert.ok(!overlaps(boxes['#note'], statusBox), 'the note and a status message do not overlap');
  // Nor do the status line and the HUD (a whole line of numbers) cover each other.
  assert.ok(!overlaps(statusBox, await page.locator('#hud').boundingBox()), 'the status line stacks over the HUD');
  await page.evaluate(() => {
    document.getElementById('status').textContent = '';
  });

  await page.waitForTimeout(500);
  const stats = await colourClasses(page, await canvasShot(page, 'caves_no_wasm_view', '#view canvas'));
  assert.ok(stats.variance > 50, `the caves are drawn (variance ${stats.variance.toFixed(1)})`);
  assert.ok(stats.green + stats.earth > 0.1, `terrain colours drawn: ${JSON.stringify(stats)}`);
  await screenshot(page, 'caves_no_wasm');
  assertNoErrors(assert, page);
  await page.context().close();
});
