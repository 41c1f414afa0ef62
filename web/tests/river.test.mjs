// The planet mode over a river of the next version (issue 36's "see it"):
// a flight from orbit down to 100 m above the
// longest meandering river of a few hundred metres' width. The river's
// course comes from the server's rivers GeoJSON (next's lines follow the
// meanders of rivers this wide), not from the picture.
// At each waypoint below orbit, once the globe is idle:
// - water along the channel: the course's points on screen (projected
//   through the viewer's own camera onto the drawn surface) are water
//   pixels (blue, as the viewer colours water) in most places;
// - no seam lines: the shading step across the drawn tiles' borders is
//   no larger than across their inner grid lines (the same mesh away from
//   any border), where a seam (one-sided normals, a level's detail step,
//   a crack) would show as a line;
// - straight down, no background pixel (magenta) anywhere on screen.
// The last waypoint looks along the river from 100 m above its water.
// MANGEKYO_DOCS=1 also saves three of the views (under the ordinary sky)
// to docs/images/planet_river_*.png.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { assertNoErrors, BASE, canvasShot, definePixels, launch, openPage, waitReady } from './harness.mjs';

const DOCS = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'docs', 'images');
const MAGENTA = 'ff00ff';
const VIEW = { width: 640, height: 400 };
/** The split threshold, pixels (as globe.test.mjs: a quarter of the default's tiles). */
const SSE = 6;

let browser;
let planet;
before(async () => {
  browser = await launch();
  planet = await api('/v1/planets', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: `river-next-${Date.now()}`, params: { generator_version: 'next' } }),
  });
  const deadline = Date.now() + 420_000;
  for (;;) {
    const status = await api(planet.links.status);
    if (status.state === 'ready') break;
    assert.notEqual(status.state, 'failed', JSON.stringify(status));
    assert.ok(Date.now() < deadline, `the coarse tier is still ${status.state}`);
    await new Promise((ok) => setTimeout(ok, 1000));
  }
});
after(async () => {
  await browser?.close();
  if (planet) await fetch(new URL(planet.links.self, BASE), { method: 'DELETE' }).catch(() => {});
});

/** JSON from the server. */
async function api(path, init = {}) {
  const res = await fetch(new URL(path, BASE), init);
  assert.ok(res.ok, `${init.method || 'GET'} ${path}: ${res.status} ${await res.clone().text()}`);
  return res.json();
}

/** Initial bearing from a to b ({lat, lon}, degrees), degrees clockwise from north. */
function bearing(a, b) {
  const r = Math.PI / 180;
  const y = Math.sin((b.lon - a.lon) * r) * Math.cos(b.lat * r);
  const x = Math.cos(a.lat * r) * Math.sin(b.lat * r) - Math.sin(a.lat * r) * Math.cos(b.lat * r) * Math.cos((b.lon - a.lon) * r);
  return ((Math.atan2(y, x) / r) + 360) % 360;
}

/**
 * A river to fly over: away from the poles, a link whose line follows its
 * meanders (points well under 1.5 km apart, where a curve's are ~3 km) and whose channel
 * (250–800 m wide) shows its banks from a kilometre up, the longest such;
 * its course densified, and a point in the middle of it with the heading
 * downstream there.
 */
async function river() {
  const doc = await api(`${planet.links.self}/rivers.geojson?kind=river&v=${planet.generator_version}&p=${planet.params_hash}`);
  let best = null;
  for (const f of doc.features) {
    const parts = f.geometry.type === 'MultiLineString' ? f.geometry.coordinates : [f.geometry.coordinates];
    const line = parts.reduce((a, b) => (b.length > a.length ? b : a));
    const mid = line[Math.floor(line.length / 2)];
    const { width_m: width, length_km: km } = f.properties;
    if (Math.abs(mid[1]) > 55 || width < 250 || width > 800 || line.length < 24) continue;
    if ((km * 1000) / (line.length - 1) > 1500) continue; // its curve's points, 3 km apart: not along its meanders
    if (!best || km > best.properties.length_km) best = { ...f, line };
  }
  assert.ok(best, 'a meandering river away from the poles');
  const points = best.line.map(([lon, lat]) => ({ lat, lon }));
  const m = Math.floor(points.length / 2);
  return { points: densify(points, 8), centre: points[m], heading: bearing(points[m], points[m + 1]), properties: best.properties };
}

/**
 * A line's points with `k` more along each piece (Catmull-Rom in latitude
 * and longitude): the GeoJSON holds a meander at four points a half-wave,
 * whose straight chords would cut across the bends' banks.
 */
function densify(points, k) {
  const out = [];
  const at = (i) => points[Math.max(0, Math.min(points.length - 1, i))];
  for (let i = 0; i + 1 < points.length; i++) {
    const [p0, p1, p2, p3] = [at(i - 1), at(i), at(i + 1), at(i + 2)];
    for (let s = 0; s < k; s++) {
      const t = s / k;
      const cr = (a, b, c, d) => 0.5 * ((2 * b) + (-a + c) * t + (2 * a - 5 * b + 4 * c - d) * t * t + (-a + 3 * b - 3 * c + d) * t * t * t);
      out.push({ lat: cr(p0.lat, p1.lat, p2.lat, p3.lat), lon: cr(p0.lon, p1.lon, p2.lon, p3.lon) });
    }
  }
  out.push(points[points.length - 1]);
  return out;
}

/** Moves the camera and waits until the globe is idle there. */
async function flyTo(page, place) {
  await page.evaluate((p) => window.__globe.setCamera(p), place);
  await page.evaluate(() => window.__globe.idle());
  return page.evaluate(() => ({ ...window.__globe.stats(), camera: window.__globe.camera() }));
}

/**
 * What a screenshot shows along the river and across the mesh lines,
 * decoded by the browser: for each on-screen course point (the course
 * densified to ~2 px steps), whether a water pixel lies within 1 px; the
 * mean luminance step across border and inner mesh lines (pixels 2 px
 * either side of each segment's middle, along its normal); magenta pixels.
 */
async function measure(page, png, course) {
  await definePixels(page);
  return page.evaluate(async ({ b64, course }) => {
    const { data: d, width: w } = await window.testPixels(b64);
    const h = d.length / (4 * w);
    const scale = w / document.querySelector('#view canvas').clientWidth;
    const px = (x, y) => {
      const i = (Math.round(y * scale) * w + Math.round(x * scale)) * 4;
      return [d[i], d[i + 1], d[i + 2]];
    };
    const inside = (x, y) => x >= 2 && y >= 2 && x < w / scale - 2 && y < h / scale - 2;
    const water = ([r, gr, b]) => b > r + 25 && b >= gr;
    const lum = ([r, gr, b]) => 0.2126 * r + 0.7152 * gr + 0.0722 * b;
    // The course on screen, densified.
    const points = course.map((p) => window.__globe.project(p.lat, p.lon)).filter((p) => p && p.onScreen);
    let onScreen = 0;
    let wet = 0;
    for (let k = 1; k < points.length; k++) {
      const [a, b] = [points[k - 1], points[k]];
      const steps = Math.max(1, Math.ceil(Math.hypot(b.x - a.x, b.y - a.y) / 2));
      for (let s = 0; s < steps; s++) {
        const x = a.x + ((b.x - a.x) * s) / steps;
        const y = a.y + ((b.y - a.y) * s) / steps;
        if (!inside(x, y)) continue;
        onScreen++;
        let any = false;
        for (let dy = -1; dy <= 1 && !any; dy++) for (let dx = -1; dx <= 1 && !any; dx++) any = water(px(x + dx, y + dy));
        if (any) wet++;
      }
    }
    const lines = window.__globe.meshLines();
    const step = (segments) => {
      let sum = 0;
      let n = 0;
      for (const [x0, y0, x1, y1] of segments) {
        const len = Math.hypot(x1 - x0, y1 - y0);
        if (len < 1) continue;
        const [mx, my] = [(x0 + x1) / 2, (y0 + y1) / 2];
        const [nx, ny] = [-(y1 - y0) / len, (x1 - x0) / len];
        if (!inside(mx + 2 * nx, my + 2 * ny) || !inside(mx - 2 * nx, my - 2 * ny)) continue;
        sum += Math.abs(lum(px(mx + 2 * nx, my + 2 * ny)) - lum(px(mx - 2 * nx, my - 2 * ny)));
        n++;
      }
      return { mean: n ? sum / n : 0, n };
    };
    let magenta = 0;
    for (let i = 0; i < d.length; i += 4) if (d[i] > 200 && d[i + 1] < 80 && d[i + 2] > 200) magenta++;
    return { onScreen, wet, border: step(lines.border), inner: step(lines.inner), magenta, pixels: w * h };
  }, { b64: Buffer.from(png).toString('base64'), course });
}

test('a flight to 100 m above a river shows its water along the channel and no seams', async () => {
  const course = await river();
  // Morphs off: each picture shows the tiles as they are, not on their way.
  const page = await openPage(browser, `#planet?planet=${planet.id}&bg=${MAGENTA}&sse=${SSE}&morph=0`);
  await page.setViewportSize(VIEW);
  await waitReady(page, 'planet', 180_000);
  const { centre, heading } = course;
  const log = [`river: ${JSON.stringify(course.properties)} at ${centre.lat.toFixed(3)}°, ${centre.lon.toFixed(3)}°, heading ${heading.toFixed(0)}°`];
  // Straight down from orbit to 1.2 km, then along the river from 100 m.
  const waypoints = [
    { over: 3 * 6371e3, pitch: -90 },
    { over: 30e3, pitch: -90, doc: ['high', -90] },
    { over: 5e3, pitch: -90 },
    { over: 1.2e3, pitch: -90, doc: ['mid', -40] },
    { over: 100, pitch: -30, doc: ['ground', -8] },
  ];
  for (const [n, { over, pitch, doc }] of waypoints.entries()) {
    // Heights over the river's surface as the finest tiles drawn know it.
    const here = await page.evaluate(({ lat, lon }) => window.__globe.heightAt(lat, lon), centre);
    const surface = here ? here.height : 0;
    let stats = await flyTo(page, { ...centre, altitude: surface + over, heading, pitch });
    const settled = await page.evaluate(({ lat, lon }) => window.__globe.heightAt(lat, lon), centre);
    if (settled && Math.abs(settled.height - surface) > 1) {
      stats = await flyTo(page, { altitude: settled.height + over });
    }
    const png = await canvasShot(page, `river_flight_${n}`, '#view canvas');
    const seen = await measure(page, png, course.points);
    log.push(`${n}: ${over} m up (pitch ${pitch}), levels ${stats.levels}, finest ${stats.finestSpacingInView.toFixed(2)} m: `
      + `course ${seen.wet}/${seen.onScreen} on water, shading step across borders ${seen.border.mean.toFixed(2)} (${seen.border.n}), `
      + `inner ${seen.inner.mean.toFixed(2)} (${seen.inner.n}), magenta ${seen.magenta}`);
    assert.ok(stats.idle && stats.failed === 0, `waypoint ${n}: ${JSON.stringify(stats)}`);
    if (n === 0) continue; // the river is a hair from orbit
    if (pitch === -90) assert.equal(seen.magenta, 0, `waypoint ${n}: the background shows through\n${log.join('\n')}`);
    assert.ok(seen.onScreen >= 20, `waypoint ${n}: the river's course on screen\n${log.join('\n')}`);
    assert.ok(seen.wet >= 0.8 * seen.onScreen, `waypoint ${n}: water along the channel\n${log.join('\n')}`);
    assert.ok(seen.border.n >= 20 && seen.inner.n >= 20, `waypoint ${n}: mesh lines on screen\n${log.join('\n')}`);
    assert.ok(seen.border.mean <= 1.5 * seen.inner.mean + 2, `waypoint ${n}: a seam along tile borders\n${log.join('\n')}`);
    if (doc) {
      // The pictures for the docs: under the ordinary sky, looking ahead
      // along the river (but from high up).
      const [name, look] = doc;
      await page.evaluate((p) => window.__globe.setBackground(null) || window.__globe.setCamera({ pitch: p }), look);
      await page.evaluate(() => window.__globe.idle());
      const pretty = await canvasShot(page, `planet_river_${name}`, '#view canvas');
      if (process.env.MANGEKYO_DOCS) {
        mkdirSync(DOCS, { recursive: true });
        writeFileSync(join(DOCS, `planet_river_${name}.png`), pretty);
      }
      await page.evaluate(([bg, p]) => window.__globe.setBackground(bg) || window.__globe.setCamera({ pitch: p }), [MAGENTA, pitch]);
    }
  }
  console.log(log.join('\n'));
  assertNoErrors(assert, page);
  await page.close();
});
