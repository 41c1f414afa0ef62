// Planet mode: with an empty store the viewer creates a planet through
// the API, draws it as a globe (streamed from the server's tile pyramid,
// not blank; the flight over it is globe.test.mjs), a click
// on the globe opens that region (a chunk) as a 3D heightmap, cut from any
// projection (the chunk the server locates under the point, with a pin on
// it); a second planet created from the controls (a text seed) shows its
// coarse tier's progress while it computes, keeps its 64-bit seed to the
// last digit, and appears in the picker.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { assertNoErrors, BASE, canvasShot, colourClasses, launch, openPage, screenshot, waitFor, waitReady } from './harness.mjs';

let browser;
let page;
before(async () => {
  browser = await launch();
  page = await openPage(browser, '#planet');
  await waitReady(page, 'planet', 120_000);
});
after(async () => {
  await browser.close();
});

test('a stored planet is drawn as a globe', async () => {
  const state = await page.evaluate(() => window.mangekyo.debug());
  assert.ok(state.planet, 'a planet is open');
  assert.ok(state.textured, 'the planet preview is loaded (the plate overlay draws on it)');
  assert.ok(state.tiles.pyramid && state.tiles.drawn > 0 && state.tiles.idle, `the globe is streamed from the pyramid: ${JSON.stringify(state.tiles)}`);
  assert.ok(state.tiles.inMemory <= state.tiles.maxInMemory && state.tiles.inFlight <= state.tiles.maxInFlight);
  await page.waitForTimeout(500);
  const png = await canvasShot(page, 'planet_globe', '#view canvas');
  const stats = await colourClasses(page, png);
  assert.ok(stats.variance > 100, `the globe is not blank (variance ${stats.variance.toFixed(1)})`);
  // A planet: ocean and land both on the visible side, around the globe's middle.
  const middle = await colourClasses(page, png, [440, 160, 400, 400]);
  assert.ok(middle.water + middle.sky > 0.1, `ocean drawn: ${JSON.stringify(middle)}`);
  assert.ok(middle.green + middle.earth + middle.white > 0.05, `land drawn: ${JSON.stringify(middle)}`);
  await screenshot(page, 'planet');
  assertNoErrors(assert, page);
});

test('clicking the globe opens the region as a heightmap', async () => {
  await page.mouse.click(640, 390);
  const region = await waitFor(page, () => window.mangekyo.debug().region, undefined, 60_000);
  assert.ok(region.width >= 256, `a ${region.width}-sample chunk`);
  assert.ok(Object.keys(region.biomes).length >= 1);
  await page.click('#controls button:has-text("back to globe")');
  await page.waitForFunction(() => window.mangekyo.debug().region === null);
  // A mountain belt of the default planet (seed 42, generator version 3:
  // a convergent boundary on land), for relief.
  await page.evaluate(() => window.mangekyo.api.openRegion(4.5, 36));
  const mountains = await waitFor(page, () => window.mangekyo.debug().region, undefined, 60_000);
  assert.ok(mountains.relief[1] - mountains.relief[0] > 300, `relief ${mountains.relief}`);
  await page.waitForTimeout(800);
  const png = await canvasShot(page, 'planet_region', '#view canvas');
  const stats = await colourClasses(page, png);
  assert.ok(stats.variance > 50, `the region is not blank (variance ${stats.variance.toFixed(1)})`);
  assert.ok(stats.green + stats.earth + stats.white > 0.1, `the mountains' land colours are drawn: ${JSON.stringify(stats)}`);
  assertNoErrors(assert, page);
});

test('a region can be cut from every projection', async () => {
  const seen = [];
  for (const projection of ['cube', 'tangent_cube', 'octahedral', 'equirectangular']) {
    await page.selectOption('#controls label:has-text("region projection") select', projection);
    // Changing the projection of an open region cuts it again around the same point.
    const region = await waitFor(page, (p) => {
      const r = window.mangekyo.debug().region;
      return r && r.projection === p ? r : null;
    }, projection, 60_000);
    assert.ok(Math.abs(region.lat - 4.5) < 1e-9 && Math.abs(region.lon - 36) < 1e-9, 'the same point');
    assert.equal(region.face !== null, projection.includes('cube'), `${projection}: face ${region.face}`);
    assert.ok(region.i >= 0 && region.i <= 256 && region.j >= 0 && region.j <= 256, `${projection}: (${region.i}, ${region.j})`);
    assert.ok(region.relief[1] - region.relief[0] > 300, `${projection}: the mountains are there too (${region.relief})`);
    assert.ok(region.pinned, `${projection}: a pin marks the point`);
    seen.push(`${region.cx},${region.cy}`);
    if (projection === 'octahedral') {
      await page.waitForTimeout(500);
      await screenshot(page, 'planet_region_octahedral', '#view canvas');
    }
  }
  assert.ok(new Set(seen).size >= 2, `projections address the point differently: ${seen}`);
  await page.click('#controls button:has-text("back to globe")');
  await page.waitForFunction(() => window.mangekyo.debug().region === null);
  assertNoErrors(assert, page);
});

/** Shares of the globe texture's pixels in each of `colours` ({ name: [r, g, b] }), exactly. */
async function colourShares(page, colours) {
  return page.evaluate((colours) => {
    const image = window.mangekyo.api.globeImage();
    const canvas = document.createElement('canvas');
    canvas.width = image.width;
    canvas.height = image.height;
    const g = canvas.getContext('2d');
    g.drawImage(image, 0, 0);
    const { data } = g.getImageData(0, 0, image.width, image.height);
    const counts = Object.fromEntries(Object.keys(colours).map((k) => [k, 0]));
    for (let i = 0; i < data.length; i += 4) {
      for (const [kind, [r, gg, b]] of Object.entries(colours)) {
        if (data[i] === r && data[i + 1] === gg && data[i + 2] === b) counts[kind]++;
      }
    }
    const n = data.length / 4;
    return Object.fromEntries(Object.entries(counts).map(([k, c]) => [k, c / n]));
  }, colours);
}

/** Shares of the globe texture's pixels in each plate-boundary colour. */
function boundaryShares(page) {
  return colourShares(page, { convergent: [235, 40, 40], divergent: [40, 215, 255], transform: [255, 225, 50] });
}

test('rivers are drawn on a version-3 globe', async () => {
  // Rivers are narrower than a globe pixel, so the preview draws them as
  // lines in the fresh-water colour (planet view.rs FRESH_WATER).
  const { river: share } = await colourShares(page, { river: [52, 104, 196] });
  assert.ok(share > 0.001, `river pixels: ${share}`);
  assertNoErrors(assert, page);
});

test('plate boundaries are drawn over the globe, coloured by type', async () => {
  const state = await page.evaluate(() => window.mangekyo.debug());
  assert.equal(state.globe.overlay, 'none');
  const plain = await boundaryShares(page);
  const box = page.locator('#controls label:has-text("plate boundaries") input');
  assert.equal(await box.isDisabled(), false, 'the default planet is version 3: it has plates');
  await box.check();
  await waitFor(page, () => {
    const d = window.mangekyo.debug();
    return d.globe && d.globe.overlay === 'plates' && d.textured ? d : null;
  }, undefined, 60_000);
  const shares = await boundaryShares(page);
  const total = shares.convergent + shares.divergent + shares.transform;
  assert.ok(total > 0.004, `boundaries drawn: ${JSON.stringify(shares)}`);
  assert.ok(plain.convergent + plain.divergent + plain.transform < total / 20, `not without the overlay: ${JSON.stringify(plain)}`);
  for (const kind of ['convergent', 'divergent']) assert.ok(shares[kind] > 0, `${kind} boundaries: ${JSON.stringify(shares)}`);
  await page.waitForTimeout(500);
  await screenshot(page, 'planet_plates', '#view canvas');
  await box.uncheck();
  await waitFor(page, () => {
    const d = window.mangekyo.debug();
    return d.globe && d.globe.overlay === 'none' && d.textured ? d : null;
  }, undefined, 60_000);
  assertNoErrors(assert, page);
});

/** A text seed as the server maps it (crates/core seed.rs): mix64(fnv1a64(utf8)), as a BigInt. */
function textSeed(text) {
  const M = (1n << 64n) - 1n;
  let h = 0xcbf29ce484222325n;
  for (const b of Buffer.from(text, 'utf8')) h = ((h ^ BigInt(b)) * 0x100000001b3n) & M;
  h = ((h ^ (h >> 30n)) * 0xbf58476d1ce4e5b9n) & M;
  h = ((h ^ (h >> 27n)) * 0x94d049bb133111ebn) & M;
  return h ^ (h >> 31n);
}

test('a planet created from the controls shows its coarse tier\'s progress, keeps its 64-bit seed, and joins the picker', async () => {
  const before = (await page.evaluate(() => window.mangekyo.debug())).planets;
  // A text seed never used before: its coarse tier is not stored, and it
  // hashes above 2^53 (a JavaScript number would round it).
  let seedText;
  for (let k = 0; !seedText || textSeed(seedText) < 2n ** 53n; k++) seedText = `my world ${Date.now()}-${k}`;
  const expected = textSeed(seedText).toString();
  // Every text the status line shows, from now on.
  await page.evaluate(() => {
    window.__statusLog = [];
    const status = document.getElementById('status');
    new MutationObserver(() => window.__statusLog.push(status.textContent)).observe(status, { childList: true, characterData: true, subtree: true });
  });
  const name = `test-${Date.now()}`;
  await page.fill('#controls input[placeholder="new planet name"]', name);
  await page.fill('#controls label:has-text("seed") input', seedText);
  await page.click('#controls button:has-text("create")');
  await page.waitForFunction((n) => window.mangekyo.debug().planets === n + 1 && window.mangekyo.debug().textured, before,
    { timeout: 180_000 });
  // Opened: the globe streamed and the status line cleared.
  await page.waitForFunction((n) => window.mangekyo.debug().planet.name === n && window.__globe.stats().drawn > 0
    && document.getElementById('status').textContent === '', name, { timeout: 120_000 });
  assert.equal(await page.locator('#controls label:has-text("planet") select option').count(), before + 1);

  // The tier computed while the status line counted up, not "retrying".
  const log = await page.evaluate(() => window.__statusLog);
  const percents = log.map((t) => /coarse tier[^:]*: (\d+) %/.exec(t)).filter(Boolean).map((m) => Number(m[1]));
  assert.ok(percents.length > 0, `the status line showed a percentage: ${JSON.stringify(log)}`);
  assert.ok(percents.every((p, i) => p >= 0 && p <= 100 && (i === 0 || p >= percents[i - 1])), `progress only grows: ${percents}`);
  assert.ok(!log.some((t) => /retrying/.test(t)), `no "retrying": ${JSON.stringify(log)}`);

  // The seed shown is the server's, to the last digit.
  const state = await page.evaluate(() => window.mangekyo.debug());
  assert.equal(state.planet.name, name);
  assert.equal(state.planet.seed, expected);
  assert.match(await page.locator('#hud').textContent(), new RegExp(`seed ${expected} `));
  // Posted back as it is shown, it names the same planet (the same
  // parameters hash); as a rounded number it would not.
  const again = await fetch(`${BASE}/v1/planets`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: `${name}-again`, params: { seed: state.planet.seed } }),
  });
  const text = await again.text();
  assert.ok(again.status === 201 || again.status === 202, `${again.status}: ${text}`);
  const copy = JSON.parse(text);
  assert.equal(copy.params_hash, state.planet.paramsHash, 'the same planet');
  assert.match(text, new RegExp(`"seed":${expected}[,}]`), 'the same seed');
  assert.notEqual(String(Number(expected)), expected, 'the seed is one a JavaScript number cannot hold');
  await fetch(`${BASE}/v1/planets/${copy.id}`, { method: 'DELETE' });
  assertNoErrors(assert, page);
});
