// The planet mode's streamed globe (the server's tile pyramid): a scripted
// flight from three planet radii up to 100 m over a mountain, at ten
// waypoints. At each, with the clear colour painted magenta, the globe
// becomes idle (nothing wanted missing, nothing in flight), no magenta
// pixel lies inside the planet's silhouette (the disc of the sea-level
// sphere, computed from the camera; near the ground the whole screen),
// the tile caps hold, and the finest sample spacing drawn shrinks from
// each waypoint to the next. Then the viewer survives tiles answered 503
// with Retry-After: it waits, asks again, and the globe is drawn. Last,
// the geomorph: tiles that split (or merge back) start in the shape drawn
// before them, so the picture does not change at that moment, and only
// then morph into their own.
// MANGEKYO_DOCS=1 also saves the orbit, mid-altitude and ground views
// (under the ordinary sky) to docs/images/planet_globe_*.png.
// The viewport is 640×400 (SwiftShader draws every pixel on the CPU), the
// split threshold twice the default (SSE).

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { assertNoErrors, BASE, canvasShot, colourClasses, launch, openPage, pictureDifference, waitReady } from './harness.mjs';

const DOCS = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'docs', 'images');
const MAGENTA = 'ff00ff';
const VIEW = { width: 640, height: 400 };
/**
 * The split threshold of the flight, pixels: twice the viewer's default,
 * a quarter of the tiles (a debug server makes a fine tile in ~3 s).
 */
const SSE = 6;

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser.close();
});

async function globePage(query) {
  const page = await openPage(browser, `#planet?${query}`);
  await page.setViewportSize(VIEW);
  await waitReady(page, 'planet', 180_000);
  return page;
}

/** Moves the camera and waits until the globe is idle there; its tile statistics. */
async function flyTo(page, place) {
  await page.evaluate((p) => window.__globe.setCamera(p), place);
  await page.evaluate(() => window.__globe.idle());
  return page.evaluate(() => ({ ...window.__globe.stats(), camera: window.__globe.camera() }));
}

/**
 * Magenta pixels of a canvas screenshot inside the planet's silhouette:
 * the camera looks straight down at the planet's centre, so the sea-level
 * sphere's disc is centred, of radius K·tan(asin(R / d)) pixels
 * (K = height / (2 tan(fov / 2))), shrunk by `margin`.
 */
async function magentaInside(page, png, camera, margin = 4) {
  return page.evaluate(async ({ b64, camera, margin }) => {
    const img = new Image();
    img.src = `data:image/png;base64,${b64}`;
    await img.decode();
    const w = img.naturalWidth;
    const h = img.naturalHeight;
    const c = new OffscreenCanvas(w, h);
    const g = c.getContext('2d');
    g.drawImage(img, 0, 0);
    const data = g.getImageData(0, 0, w, h).data;
    const d = camera.radius + camera.altitude;
    const k = h / (2 * Math.tan((camera.fov * Math.PI) / 360));
    const disc = k * Math.tan(Math.asin(Math.min(1, camera.radius / d))) - margin;
    let inside = 0;
    let magenta = 0;
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        if (Math.hypot(x + 0.5 - w / 2, y + 0.5 - h / 2) > disc) continue;
        inside++;
        const i = (y * w + x) * 4;
        if (data[i] > 200 && data[i + 1] < 80 && data[i + 2] > 200) magenta++;
      }
    }
    return { inside, magenta, disc, total: w * h };
  }, { b64: Buffer.from(png).toString('base64'), camera, margin });
}

test('a flight from orbit to 100 m over a mountain streams the globe without holes', async () => {
  const page = await globePage(`bg=${MAGENTA}&sse=${SSE}`);
  const radius = (await page.evaluate(() => window.__globe.camera())).radius;
  // A mountain: the highest dry sample in view from orbit, then again in
  // view on the way down (finer tiles know it better).
  await flyTo(page, { altitude: 3 * radius, pitch: -90, heading: 0 });
  let target = await page.evaluate(() => window.__globe.peak({ maxLat: 60 }));
  assert.ok(target && target.height > 0, `a mountain in view: ${JSON.stringify(target)}`);
  // Heights over the mountain's ground, metres: each waypoint ≥ ~3× lower
  // than the last, so the finest level drawn steps down at each.
  const above = [3 * radius, radius, 0.3 * radius, 600e3, 200e3, 60e3, 20e3, 6e3, 2.5e3, 100];
  let previous = Infinity;
  const log = [];
  for (const [n, over] of above.entries()) {
    const ground = Math.max(0, target.height);
    let stats = await flyTo(page, { lat: target.lat, lon: target.lon, altitude: ground + over, pitch: -90, heading: 0 });
    if (over > 5000 && over < radius) {
      // Re-aim at the highest point now in view, and settle there.
      const better = await page.evaluate(() => window.__globe.peak({ maxLat: 60 }));
      if (better && better.height > 0) target = better;
      stats = await flyTo(page, { lat: target.lat, lon: target.lon, altitude: Math.max(0, target.height) + over });
    }
    if (over === 100) {
      // The last waypoint: 100 m over the ground the finest tiles know.
      const here = await page.evaluate(({ lat, lon }) => window.__globe.heightAt(lat, lon), target);
      stats = await flyTo(page, { altitude: here.height + 100 });
      assert.ok(Math.abs(stats.camera.altitude - stats.camera.ground - 100) < 5, `100 m up: ${JSON.stringify(stats.camera)}`);
    }
    const png = await canvasShot(page, `globe_flight_${n}`, '#view canvas');
    const seen = await magentaInside(page, png, stats.camera);
    log.push(`${n}: ${(over / 1000).toFixed(1)} km up, levels ${stats.levels}, finest ${stats.finestSpacingInView.toFixed(2)} m, ${stats.drawn} drawn, ${stats.inMemory} held, ${stats.fetched} fetched`);
    assert.ok(seen.inside > 0.25 * seen.total || n === 0, `the planet fills the view (${seen.inside} of ${seen.total})`);
    assert.equal(seen.magenta, 0, `waypoint ${n}: ${seen.magenta} background pixels inside the planet (${log.at(-1)})`);
    assert.ok(stats.inFlight <= stats.maxInFlight && stats.inFlight === 0, `in flight ${stats.inFlight}/${stats.maxInFlight}`);
    assert.ok(stats.inMemory <= stats.maxInMemory, `held ${stats.inMemory}/${stats.maxInMemory}`);
    assert.ok(stats.finestSpacingInView < previous, `waypoint ${n}: finest spacing ${stats.finestSpacingInView} m, before ${previous} m\n${log.join('\n')}`);
    previous = stats.finestSpacingInView;
    const doc = { 1: ['orbit', -90], 4: ['mid', -25], 9: ['ground', -12] }[n];
    if (doc) {
      // The pictures for the docs: the same place under the ordinary sky,
      // looking ahead (but from orbit).
      const [name, pitch] = doc;
      await page.evaluate((p) => window.__globe.setBackground(null) || window.__globe.setCamera({ pitch: p }), pitch);
      await page.evaluate(() => window.__globe.idle());
      const pretty = await canvasShot(page, `planet_globe_${name}`, '#view canvas');
      const stats2 = await colourClasses(page, pretty);
      assert.ok(stats2.variance > 30, `not blank (variance ${stats2.variance.toFixed(1)})`);
      if (process.env.MANGEKYO_DOCS) {
        mkdirSync(DOCS, { recursive: true });
        writeFileSync(join(DOCS, `planet_globe_${name}.png`), pretty);
      }
      await page.evaluate(() => window.__globe.setCamera({ pitch: -90 }));
      await page.evaluate((bg) => window.__globe.setBackground(bg), MAGENTA);
    }
  }
  console.log(log.join('\n'));
  assertNoErrors(assert, page);
  await page.close();
});

test('tiles answered 503 with Retry-After are asked again and drawn', async () => {
  const context = await browser.newContext({ viewport: VIEW });
  let refused = 0;
  await context.route(/\/pyramid\/\d\/\d+\/\d+\/\d+/, (route) => {
    if (refused < 4) {
      refused++;
      return route.fulfill({ status: 503, headers: { 'retry-after': '1', 'content-type': 'application/json' },
        body: JSON.stringify({ error: { message: 'the coarse tier is computing' } }) });
    }
    return route.continue();
  });
  const page = await context.newPage();
  page.errors = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error' && !/status of 503/.test(msg.text())) page.errors.push(msg.text());
  });
  page.on('pageerror', (err) => page.errors.push(err.message));
  await page.goto(`${BASE}/#planet`);
  await waitReady(page, 'planet', 180_000);
  await page.evaluate(() => window.__globe.idle());
  const stats = await page.evaluate(() => window.__globe.stats());
  assert.equal(refused, 4, 'the first tile requests were refused');
  assert.ok(stats.drawn > 0 && stats.failed === 0 && stats.idle, `tiles drawn after the waits: ${JSON.stringify(stats)}`);
  const png = await canvasShot(page, 'globe_after_503', '#view canvas');
  const shown = await colourClasses(page, png);
  assert.ok(shown.variance > 100, `the globe is drawn (variance ${shown.variance.toFixed(1)})`);
  assertNoErrors(assert, page);
  await context.close();
});

test('tiles that split or merge start in the shape drawn before them (geomorph)', async () => {
  const page = await globePage(`bg=${MAGENTA}&sse=${SSE}`);
  await flyTo(page, { altitude: 1.5e6, pitch: -90, heading: 0 });
  const mountain = await page.evaluate(() => window.__globe.peak({ maxLat: 60 }));
  assert.ok(mountain && mountain.height > 0, `a mountain in view: ${JSON.stringify(mountain)}`);
  // 30 km over the mountain, the light from the side: relief shows.
  const before = await flyTo(page, { lat: mountain.lat, lon: mountain.lon, altitude: mountain.height + 30e3 });
  const shot = (name) => canvasShot(page, `globe_morph_${name}`, '#view canvas');
  const frames = () => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  /** Holds every morph at `progress` (null: lets them run) and waits two frames. */
  const hold = async (progress) => {
    await page.evaluate((p) => window.__globe.holdMorph(p), progress);
    await frames();
  };
  await page.evaluate(() => window.__globe.setMorph(0)); // the flight's morphs ended
  await frames();
  const coarse = await shot('coarse');
  /**
   * Changes the split threshold with morphs held at their start, then at
   * `late`, then with morphs turned off: the three pictures.
   */
  async function change(px, late) {
    await page.evaluate(() => window.__globe.setMorph(700));
    await page.evaluate(() => window.__globe.holdMorph(0));
    await page.evaluate((p) => window.__globe.setPixelError(p), px);
    const stats = await page.evaluate(() => window.__globe.idle().then(() => window.__globe.stats()));
    const start = await shot(`${px}_start`);
    await hold(late);
    const later = await shot(`${px}_${late}`);
    await page.evaluate(() => window.__globe.setMorph(0));
    await hold(null);
    const own = await shot(`${px}_own`);
    return { stats, start, later, own };
  }
  // Splits: half-way, a tile is between its parent's shape and its own.
  const split = await change(SSE / 2, 0.5);
  // Merges: the finer tiles, held just short of their end, are in the
  // coarser tile's shape, which is then drawn in their place.
  const merged = await change(SSE, 0.9999);
  const maxLevel = (stats) => Math.max(...stats.levels);
  const log = `levels ${before.levels} → ${split.stats.levels} → ${merged.stats.levels}, morphing ${split.stats.morphing} then ${merged.stats.morphing}`;
  assert.ok(split.stats.morphing > 0 && merged.stats.morphing > 0, `tiles morphed: ${log}`);
  assert.ok(maxLevel(split.stats) > maxLevel(before), `the finer threshold split tiles: ${log}`);
  assert.ok(maxLevel(merged.stats) > maxLevel(before), `the finer tiles stay while they merge: ${log}`);
  // Mean differences per pixel and channel (0–255).
  const d = (a, b) => pictureDifference(page, a, b);
  const popped = await d(coarse, split.own);
  const numbers = {
    popped,
    splitStart: await d(coarse, split.start),
    halfFromCoarse: await d(coarse, split.later),
    halfFromOwn: await d(split.own, split.later),
    mergeStart: await d(split.own, merged.start),
    mergeEnd: await d(merged.later, merged.own),
    back: await d(split.own, merged.own),
    home: await d(coarse, merged.own),
  };
  const told = `${JSON.stringify(Object.fromEntries(Object.entries(numbers).map(([k, v]) => [k, Number(v.toFixed(3))])))} (${log})`;
  console.log(`geomorph: ${told}`);
  assert.ok(popped > 0.5, `the finer tiles differ from the coarser: ${told}`);
  assert.ok(numbers.splitStart < 0.15 * popped, `no pop when tiles split: ${told}`);
  assert.ok(numbers.halfFromCoarse > 0.2 * popped && numbers.halfFromOwn > 0.2 * popped, `half-way is a blend: ${told}`);
  assert.ok(numbers.mergeStart < 0.15 * numbers.back, `no pop when a merge starts: ${told}`);
  assert.ok(numbers.mergeEnd < 0.15 * numbers.back, `the finer tiles end in the coarser one's shape: ${told}`);
  assert.ok(numbers.home < 0.15 * popped, `the merge ends on the coarser tiles again: ${told}`);
  assertNoErrors(assert, page);
  await page.close();
});
