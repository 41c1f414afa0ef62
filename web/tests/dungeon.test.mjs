// Dungeon mode: a level and a cavern load from the server and are drawn
// (a grid picture with contrast, a legend naming real features), and the
// seed field, the kind selector and the "new seed" button regenerate it.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  assertNoErrors, colourClasses, imageStats, launch, openPage, pictureDifference, screenshot, waitReady,
} from './harness.mjs';

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

test('the seed field, the kind and "new seed" regenerate the dungeon', async () => {
  const page = await openPage(browser, '#dungeon?kind=caverns&seed=7');
  await waitReady(page, 'dungeon');
  const first = await screenshot(page, 'dungeon_cavern', '.figure canvas');
  const legendOf = () => page.locator('.legend li').allTextContents();

  // The seed field: the cavern of seed 8 is drawn, and it is another picture.
  await page.fill('#controls input[type=text]', '8');
  await page.press('#controls input[type=text]', 'Enter');
  await page.waitForFunction(() => {
    const d = window.mangekyo.debug().drawn;
    return d && d.kind === 'caverns' && d.seed === '8';
  });
  const second = await page.locator('.figure canvas').screenshot();
  const changed = await pictureDifference(page, first, second);
  assert.ok(changed > 2, `a new seed draws a different cavern (difference ${changed.toFixed(2)})`);
  assert.match(page.url(), /seed=8/);

  // The kind: a lake of the same seed, with water in its legend.
  await page.selectOption('#controls select', 'lakes');
  await page.waitForFunction(() => {
    const d = window.mangekyo.debug().drawn;
    return d && d.kind === 'lakes' && d.seed === '8';
  });
  const lake = await legendOf();
  assert.ok(lake.some((t) => /water|lava/.test(t)), `a lake's legend names its liquid: ${lake}`);
  assert.match(page.url(), /kind=lakes/);
  const lakePng = await screenshot(page, 'dungeon_lake', '.figure canvas');
  const lakeStats = await colourClasses(page, lakePng);
  assert.ok(lakeStats.water + lakeStats.sky > 0.002 || /lava/.test(lake.join(' ')),
    `water is drawn: ${JSON.stringify(lakeStats)}`);

  // "new seed": another seed, drawn.
  await page.click('#controls button:has-text("new seed")');
  await page.waitForFunction(() => {
    const d = window.mangekyo.debug().drawn;
    return d && d.kind === 'lakes' && d.seed !== '8' && d.seed === window.mangekyo.debug().seed;
  });
  const fresh = (await page.evaluate(() => window.mangekyo.debug())).drawn.seed;
  assert.equal(await page.inputValue('#controls input[type=text]'), fresh, 'the field shows the new seed');
  assert.match(page.url(), new RegExp(`seed=${encodeURIComponent(fresh)}`));
  assertNoErrors(assert, page);
  await page.context().close();
});
