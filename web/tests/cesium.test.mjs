// CesiumJS over a planet's quantized-mesh terrain: a planet created through
// the API, its `terrain/layer.json` handed to CesiumJS's own
// CesiumTerrainProvider (vertex normals requested) on a globe of the
// planet's radius, the camera over the planet's highest mountains, until
// every wanted tile is loaded. The test checks what Cesium asked for and
// got (every tile 200, 65 × 65 vertices with the normals extension), that
// Cesium's own terrain sampling lands inside the tile's height range, and
// that the lit terrain is drawn (not blank), with no console error.
//
// Cesium's built files (node_modules/cesium/Build/Cesium) and the page are
// served by a small Node server started here; terrain comes straight from
// the Mangekyo server (it answers CORS for any origin). Nothing reaches the
// internet: no imagery layer, no Ion.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, extname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BASE, assertNoErrors, colourClasses, launch, openPage, screenshot } from './harness.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const CESIUM = join(HERE, 'node_modules', 'cesium', 'Build', 'Cesium');
// SwiftShader draws every pixel on the CPU: a small view keeps frames quick.
const VIEW = { width: 640, height: 400 };
// A server tile: 65 × 65 vertices, two triangles per cell, 16-bit indices.
const SAMPLES = 65;
const VERTICES = SAMPLES * SAMPLES;
const PLAIN_BYTES = 88 + 4 + 6 * VERTICES + 4 + 6 * 2 * (SAMPLES - 1) ** 2 + 4 * (4 + 2 * SAMPLES);
const NORMALS_BYTES = PLAIN_BYTES + 5 + 2 * VERTICES;

const TYPES = {
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
  '.wasm': 'application/wasm',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.svg': 'image/svg+xml',
  '.xml': 'application/xml',
  '.ktx2': 'image/ktx2',
};

const PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><title>Mangekyo in CesiumJS</title>
<link rel="icon" href="data:,">
<script>window.CESIUM_BASE_URL = '/cesium/';</script>
<script src="/cesium/Cesium.js"></script>
<link rel="stylesheet" href="/cesium/Widgets/widgets.css">
<style>html, body, #globe { margin: 0; width: 100%; height: 100%; overflow: hidden; background: #000; }</style>
</head><body><div id="globe"></div><div id="credits" hidden></div>
<script>
// Starts Cesium when the test says so (after it listens for responses).
window.startCesium = async ({ terrain, radius, lon, lat, height, range, level }) => {
  const ellipsoid = new Cesium.Ellipsoid(radius, radius, radius);
  Cesium.Ellipsoid.default = ellipsoid;
  const terrainProvider = await Cesium.CesiumTerrainProvider.fromUrl(terrain, { requestVertexNormals: true, ellipsoid });
  const terrainErrors = [];
  terrainProvider.errorEvent.addEventListener((e) => terrainErrors.push(e.message || String(e)));
  const widget = new Cesium.CesiumWidget('globe', {
    ellipsoid,
    globe: new Cesium.Globe(ellipsoid),
    terrainProvider,
    baseLayer: false,
    skyBox: false,
    skyAtmosphere: false,
    msaaSamples: 1,
    creditContainer: 'credits',
  });
  const { scene, camera } = widget;
  const globe = scene.globe;
  // No imagery: a rock colour lit by a low fixed sun from the north-west, so
  // the picture is the terrain's shape (its vertex normals) alone.
  globe.baseColor = Cesium.Color.fromCssColorString('#9c8f74');
  globe.enableLighting = true;
  globe.showGroundAtmosphere = false;
  scene.fog.enabled = false;
  const target = Cesium.Cartesian3.fromRadians(lon, lat, height, ellipsoid);
  const enu = Cesium.Transforms.eastNorthUpToFixedFrame(target, ellipsoid);
  const sun = Cesium.Matrix4.multiplyByPointAsVector(enu, new Cesium.Cartesian3(1, -1, -0.6), new Cesium.Cartesian3());
  scene.light = new Cesium.DirectionalLight({ direction: Cesium.Cartesian3.normalize(sun, sun) });
  camera.lookAt(target, new Cesium.HeadingPitchRange(0, Cesium.Math.toRadians(-20), range));
  camera.lookAtTransform(Cesium.Matrix4.IDENTITY);
  let frames = 0;
  let settled = 0;
  scene.postRender.addEventListener(() => {
    frames++;
    settled = globe.tilesLoaded ? settled + 1 : 0;
  });
  window.cesium = {
    state: () => ({ frames, settled, tilesLoaded: globe.tilesLoaded, terrainErrors }),
    // Cesium's own decoding of the tiles at one level: heights under points.
    sample: async (points) => {
      const carto = points.map(([lo, la]) => Cesium.Cartographic.fromRadians(lo, la));
      const done = await Cesium.sampleTerrain(terrainProvider, level, carto);
      return done.map((c) => c.height);
    },
  };
};
</script></body></html>`;

/** Serves the page at / and Cesium's built files under /cesium/. */
async function startStatic() {
  const server = createServer(async (req, res) => {
    const path = new URL(req.url, 'http://localhost').pathname;
    if (path === '/') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(PAGE);
      return;
    }
    if (path.startsWith('/cesium/')) {
      try {
        const file = resolve(CESIUM, decodeURIComponent(path.slice('/cesium/'.length)));
        if (file.startsWith(CESIUM + sep)) {
          const body = await readFile(file);
          res.writeHead(200, { 'content-type': TYPES[extname(file)] || 'application/octet-stream' });
          res.end(body);
          return;
        }
      } catch {
        // Not there (or a malformed path): a 404 below.
      }
    }
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('not found');
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  return server;
}

/** JSON from the Mangekyo server. */
async function api(path, init = {}) {
  const res = await fetch(new URL(path, BASE), init);
  assert.ok(res.ok, `${init.method || 'GET'} ${path}: ${res.status} ${await res.clone().text()}`);
  return res.status === 204 ? null : res.json();
}

/** A tile's height range from its quantized-mesh header (fetched without normals). */
async function tileRange(terrain, pin, z, x, y) {
  const res = await fetch(new URL(`${terrain}/${z}/${x}/${y}.terrain?${pin}`, BASE));
  assert.equal(res.status, 200, `tile ${z}/${x}/${y}`);
  const bytes = Buffer.from(await res.arrayBuffer());
  assert.equal(bytes.length, PLAIN_BYTES, `tile ${z}/${x}/${y} without normals`);
  return { z, x, y, min: bytes.readFloatLE(24), max: bytes.readFloatLE(28) };
}

/** Centre of TMS tile (z, x, y) of the geographic scheme, radians. */
function tileCentre({ z, x, y }) {
  const size = Math.PI / 2 ** z;
  return { lon: -Math.PI + (x + 0.5) * size, lat: -Math.PI / 2 + (y + 0.5) * size };
}

let statics;
let browser;
let planet;
before(async () => {
  assert.ok(existsSync(join(CESIUM, 'Cesium.js')), `${CESIUM} is missing: run npm ci in web/tests`);
  statics = await startStatic();
  browser = await launch();
  // A planet with a small coarse tier (quick to compute), through the API.
  planet = await api('/v1/planets', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: `cesium-${Date.now()}`, params: { seed: 7, graph_n: 128 } }),
  });
  const deadline = Date.now() + 240_000;
  for (;;) {
    const status = await api(planet.links.status);
    if (status.state === 'ready' || status.state === 'not_needed') break;
    assert.notEqual(status.state, 'failed', JSON.stringify(status));
    assert.ok(Date.now() < deadline, `the coarse tier is still ${status.state}`);
    await new Promise((ok) => setTimeout(ok, 1000));
  }
});
after(async () => {
  await browser?.close();
  statics?.close();
  if (planet) await fetch(new URL(planet.links.self, BASE), { method: 'DELETE' }).catch(() => {});
});

test('CesiumJS streams the planet as quantized-mesh terrain', async (ctx) => {
  const terrain = `${planet.links.self}/terrain`;
  const pin = `v=${planet.generator_version}&p=${planet.params_hash}`;
  const layer = await api(`${terrain}/layer.json?${pin}`);
  assert.equal(layer.format, 'quantized-mesh-1.0');
  assert.equal(layer.radius, planet.params.radius);
  assert.ok(layer.maxzoom >= 6, `maxzoom ${layer.maxzoom}`);

  // The highest ground, from the tiles' own headers: the highest of level
  // 2's 8 × 4 tiles, then the highest child, down to level 5 (~600 km).
  let best = null;
  for (let x = 0; x < 8; x++) {
    for (let y = 0; y < 4; y++) {
      const tile = await tileRange(terrain, pin, 2, x, y);
      if (!best || tile.max > best.max) best = tile;
    }
  }
  while (best.z < 5) {
    const { z, x, y } = best;
    const children = [];
    for (const [dx, dy] of [[0, 0], [1, 0], [0, 1], [1, 1]]) {
      children.push(await tileRange(terrain, pin, z + 1, 2 * x + dx, 2 * y + dy));
    }
    best = children.reduce((a, b) => (b.max > a.max ? b : a));
  }
  assert.ok(best.max - best.min > 500, `a mountain tile: ${JSON.stringify(best)}`);
  const { lon, lat } = tileCentre(best);

  const page = await openPage(browser, '', `http://127.0.0.1:${statics.address().port}`);
  await page.setViewportSize(VIEW);
  const tiles = [];
  page.on('response', (res) => {
    if (!new URL(res.url()).pathname.endsWith('.terrain')) return;
    tiles.push(
      res.body().then(
        (body) => ({ url: res.url(), status: res.status(), accept: res.request().headers().accept || '', body }),
        (e) => ({ url: res.url(), status: res.status(), accept: '', body: Buffer.alloc(0), error: String(e) }),
      ),
    );
  });
  await page.evaluate((cfg) => window.startCesium(cfg), {
    // The terrain's directory, not layer.json: Cesium appends "/layer.json"
    // itself (given ".../layer.json" it asks for ".../layer.json/layer.json",
    // and on that 404 falls back to the old heightmap format).
    terrain: new URL(`${terrain}?${pin}`, BASE).href,
    radius: planet.params.radius,
    lon,
    lat,
    height: best.max,
    range: 150_000,
    level: best.z,
  });
  await page.waitForFunction(() => {
    const s = window.cesium.state();
    return s.terrainErrors.length > 0 || (s.frames > 30 && s.settled >= 10);
  }, undefined, { timeout: 240_000, polling: 250 });
  const state = await page.evaluate(() => window.cesium.state());
  const answered = await Promise.all(tiles);
  const failed = answered
    .filter((r) => r.status !== 200)
    .map((r) => `${r.status} ${r.url} ${r.error || r.body.toString().slice(0, 200)}`);
  assert.deepEqual(failed, [], 'every terrain tile is answered 200');
  assert.deepEqual(state.terrainErrors, [], 'the terrain provider raised no error');
  assert.ok(answered.length >= 10, `terrain tiles requested: ${answered.length}`);
  for (const { url, accept, body } of answered) {
    assert.match(accept, /octvertexnormals/, `${url} asks for normals`);
    assert.equal(body.length, NORMALS_BYTES, `${url}: 65 × 65 vertices with normals`);
    assert.equal(body.readUInt32LE(88), VERTICES, `${url}: vertex count`);
    assert.equal(body[PLAIN_BYTES], 1, `${url}: the oct-encoded normals extension`);
  }
  const levels = new Set(answered.map((r) => Number(new URL(r.url).pathname.split('/').at(-3))));
  assert.ok(levels.size >= 3, `tiles from several levels: ${[...levels]}`);

  // Cesium's own reading of the level-5 tile: heights inside its range,
  // and not all one value (the mountain is there).
  const size = Math.PI / 2 ** best.z;
  const points = [];
  for (let i = 1; i < 8; i++) points.push([lon + (i / 8 - 0.5) * size, lat + ((i * 3) % 8 / 8 - 0.5) * size]);
  const heights = await page.evaluate((p) => window.cesium.sample(p), points);
  for (const h of heights) assert.ok(h >= best.min - 1 && h <= best.max + 1, `sampled ${h} outside ${best.min}..${best.max}`);
  assert.ok(Math.max(...heights) - Math.min(...heights) > 10, `relief sampled: ${heights}`);

  ctx.diagnostic(`mountain tile ${best.z}/${best.x}/${best.y} (${best.min.toFixed(0)}..${best.max.toFixed(0)} m); `
    + `${answered.length} tiles from levels ${[...levels].sort((a, b) => a - b)}; ${state.frames} frames`);
  const png = await screenshot(page, 'cesium');
  const stats = await colourClasses(page, png);
  assert.ok(stats.variance > 100, `the terrain is not blank: ${JSON.stringify(stats)}`);
  assert.ok(stats.dark < 0.6, `the globe fills the view: ${JSON.stringify(stats)}`);
  assertNoErrors(assert, page);
  await page.context().close();
});
