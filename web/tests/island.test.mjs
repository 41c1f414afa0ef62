// Island mode: the example world's island is drawn from the server's SVG
// with a legend from its JSON (every type present, with counts that add
// up to the sites), names switch language, and the seed field
// regenerates.

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

test('an island map with its type legend', async () => {
  const page = await openPage(browser, '#island?seed=42');
  await waitReady(page, 'island');
  const state = await page.evaluate(() => window.mangekyo.debug());
  assert.ok(state.sites >= 18 && state.sites <= 24, `${state.sites} sites`);
  const rows = await page.locator('.legend ul').first().locator('li').allTextContents();
  assert.equal(rows.length, state.types.length, `one legend row per type: ${rows}`);
  const total = rows.map((r) => Number(/× (\d+)/.exec(r)[1])).reduce((a, b) => a + b, 0);
  assert.equal(total, state.sites, 'the legend counts every site once');
  assert.equal(await page.locator('.figure svg #sites circle').count(), state.sites);
  const png = await screenshot(page, 'island_map', '.figure svg');
  const stats = await imageStats(page, png);
  assert.ok(stats.variance > 100, `the map has contrast (variance ${stats.variance.toFixed(1)})`);
  await screenshot(page, 'island');
  assertNoErrors(assert, page);
  await page.context().close();
});

test('names switch language and the seed field regenerates', async () => {
  const page = await openPage(browser, '#island?seed=42');
  await waitReady(page, 'island');
  const english = await page.locator('.figure svg #sites text').first().textContent();
  await page.selectOption('#controls select', 'ja');
  await page.waitForFunction(() => window.mangekyo.debug().lang === 'ja' && document.querySelector('.figure svg'));
  await page.waitForFunction((en) => document.querySelector('.figure svg #sites text').textContent !== en, english);
  const japanese = await page.locator('.figure svg #sites text').first().textContent();
  assert.match(japanese, /[\u3040-\u30ff\u4e00-\u9fff]/, `a Japanese name: ${japanese}`);
  await screenshot(page, 'island_ja', '.figure svg');
  const sitesOf = () => page.evaluate(() => [...document.querySelectorAll('.figure svg #sites circle')]
    .map((c) => `${c.getAttribute('cx')},${c.getAttribute('cy')}`).join(' '));
  const before = await sitesOf();
  await page.fill('#controls input[type=text]', '7');
  await page.press('#controls input[type=text]', 'Enter');
  // Wait for the new map itself, not the field's value.
  await page.waitForFunction(() => window.mangekyo.debug().drawn?.seed === '7');
  await page.waitForFunction(() => new URL(location.href).hash.includes('seed=7'));
  const after = await sitesOf();
  assert.notEqual(after, before, 'seed 7 places its sites elsewhere');
  const state = await page.evaluate(() => window.mangekyo.debug());
  assert.equal(await page.locator('.figure svg #sites circle').count(), state.sites, 'the drawn map is the loaded one');
  assertNoErrors(assert, page);
  await page.context().close();
});
