// Dungeon mode: a level and a cavern load from the server and are drawn
// (a grid picture with contrast, a legend naming real features), and the
// seed field regenerates.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { assertNoErrors, imageStats, launch, openPage, screenshot, waitReady } from './harness.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser.close();
});

test('a dungeon level is drawn on a grid with its legend', async () => {
  const page = await openPage(browser, '#dungeon?kind=levels&seed=42');
  await waitReady(page, 'dungeon');
  const state = await page.evaluate(() => window.mangekyo.debug());
  assert.equal(state.kind, 'levels');
  assert.ok(state.width >= 16 && state.height >= 16, `grid ${state.width}×${state.height}`);
  const legend = await page.locator('.legend li').allTextContents();
  assert.ok(legend.some((t) => t.includes('granite')), `legend: ${legend}`);
  assert.ok(legend.some((t) => /floor/.test(t)), `legend: ${legend}`);
  const png = await screenshot(page, 'dungeon_level', '.figure canvas');
  const stats = await imageStats(page, png);
  assert.ok(stats.variance > 100, `grid picture has contrast (variance ${stats.variance.toFixed(1)})`);
  await screenshot(page, 'dungeon');
  assertNoErrors(assert, page);
  await page.context().close();
});

test('the seed field and kind regenerate the dungeon', async () => {
  const page = await openPage(browser, '#dungeon?kind=caverns&seed=7');
  await waitReady(page, 'dungeon');
  const first = await screenshot(page, 'dungeon_cavern', '.figure canvas');
  await page.evaluate(() => {
    window.mangekyo.ready = false;
  });
  await page.fill('#controls input[type=text]', '8');
  await page.press('#controls input[type=text]', 'Enter');
  await page.waitForFunction(() => window.mangekyo.debug().seed === '8' && window.mangekyo.ready);
  const second = await page.locator('.figure canvas').screenshot();
  assert.notDeepEqual(Buffer.from(first), Buffer.from(second), 'a new seed draws a different cavern');
  assert.match(page.url(), /seed=8/);
  assertNoErrors(assert, page);
  await page.context().close();
});
