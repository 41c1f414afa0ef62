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

test('the island game plays ten moves: the clock, stamina and discovered paths change', async () => {
  const page = await openPage(browser, '#island?seed=42');
  await waitReady(page, 'island');
  await page.click('#controls button:has-text("play")');
  await page.waitForFunction(() => window.mangekyo.debug().game?.time);
  const seen = [await page.evaluate(() => window.mangekyo.debug().game)];
  const clockText = await page.locator('.play-clock').textContent();
  for (let move = 1; move <= 10; move++) {
    // A new place when a path leads to one, else explore, else whatever is open.
    const command = await page.evaluate(() => {
      const g = window.mangekyo.debug().game;
      const fresh = g.paths.find((p) => !p.visited && p.actions.length);
      if (fresh && g.here.explored_pct >= 40) return `${fresh.actions[0]} ${fresh.n}`;
      if (g.actions.includes('explore')) return 'explore';
      if (g.actions.includes('rest')) return 'rest';
      const any = g.paths.find((p) => p.actions.length);
      return any ? `${any.actions[0]} ${any.n}` : g.actions[0];
    });
    assert.ok(command, `move ${move}: something to do`);
    await page.click(`.play button[data-command="${command}"]`);
    await page.waitForFunction((n) => window.mangekyo.debug().game.moves === n, move);
    seen.push(await page.evaluate(() => window.mangekyo.debug().game));
  }
  const [first, last] = [seen[0], seen[seen.length - 1]];
  assert.ok(last.clock_minutes > first.clock_minutes, `the clock ran: ${first.time} → ${last.time}`);
  assert.notEqual(await page.locator('.play-clock').textContent(), clockText, 'the clock on screen changed');
  const stamina = new Set(seen.map((g) => g.agent.stamina));
  assert.ok(stamina.size > 1, `stamina changed: ${[...stamina]}`);
  assert.ok(seen.some((g) => g.paths.length > first.paths.length), 'paths were discovered');
  assert.ok(new Set(seen.map((g) => g.here.site)).size > 1, 'the explorer travelled');
  assert.ok(last.visited_sites.length > 1);
  // The map rings the explorer's site.
  const ringed = await page.evaluate((site) => [...document.querySelectorAll('.figure svg #sites circle')]
    .filter((c) => c.getAttribute('stroke') === '#ffffff')
    .map((c) => /site (\d+)/.exec(c.querySelector('title')?.textContent || '')?.[1]), last.here.site);
  assert.deepEqual(ringed, [String(last.here.site)]);
  assert.ok(await page.locator('.play-log pre').count() >= 11, 'every answer is in the log');
  await screenshot(page, 'island_play');
  assertNoErrors(assert, page);
  await page.context().close();
});
