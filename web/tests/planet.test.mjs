// Planet mode: with an empty store the viewer creates a planet through
// the API, draws it as a globe (streamed from the server's tile pyramid,
// not blank; the flight over it is globe.test.mjs), a click
// on the globe opens that region (a chunk) as a 3D heightmap, cut from any
// projection (the chunk the server locates under the point, with a pin on
// it); a second planet created from the controls appears in the picker.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { assertNoErrors, canvasShot, colourClasses, launch, openPage, screenshot, waitFor, waitReady } from './harness.mjs';

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

test('a planet created from the controls joins the picker', async () => {
  const before = (await page.evaluate(() => window.mangekyo.debug())).planets;
  await page.fill('#controls input[placeholder="new planet name"]', `test-${Date.now()}`);
  await page.click('#controls button:has-text("create")');
  await page.waitForFunction((n) => window.mangekyo.debug().planets === n + 1 && window.mangekyo.debug().textured, before,
    { timeout: 120_000 });
  assert.equal(await page.locator('#controls label:has-text("planet") select option').count(), before + 1);
  assertNoErrors(assert, page);
});
