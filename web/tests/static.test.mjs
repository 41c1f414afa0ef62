// The viewer as static files: dist/ (scripts/build-dist) served by a plain
// Node file server, with no mangekyo process behind it. Caves mode
// generates its chunks in the workers with the WebAssembly package; the
// drone flies into a tunnel, and 20 of the chunks it loaded there have the
// server's bytes exactly (SHA-256 in the worker against the server's
// answer for the same URL). The same flight with `?source=server` against
// the real server sees the same chunks. The static page asks nothing of /v1.
// The planet mode, which needs a server, says so calmly, without a page
// error, and disables what cannot work there.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { dirname, extname, join, normalize, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { assertNoErrors, BASE, findCave, launch, openPage, screenshot, waitFor, waitReady } from './harness.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const DIST = process.env.MANGEKYO_DIST || join(ROOT, 'dist');
const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.mjs': 'text/javascript', '.css': 'text/css',
  '.json': 'application/json', '.wasm': 'application/wasm', '.png': 'image/png', '.ts': 'text/plain',
};
/** Chunks whose bytes are compared. */
const COMPARED = 20;

let browser;
let files;
let staticBase;

/** A plain static file server over `dir`: GET only, no index magic beyond `/`. */
function serveDir(dir) {
  return createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    const file = normalize(join(dir, path === '/' ? 'index.html' : path));
    if (!file.startsWith(dir) || !existsSync(file) || !statSync(file).isFile()) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[extname(file)] || 'application/octet-stream' });
    createReadStream(file).pipe(res);
  });
}

before(async () => {
  assert.ok(existsSync(join(DIST, 'pkg', 'mangekyo_bg.wasm')), `${DIST} holds no build: run scripts/build-dist`);
  files = serveDir(resolve(DIST));
  await new Promise((r) => files.listen(0, '127.0.0.1', r));
  staticBase = `http://127.0.0.1:${files.address().port}`;
  browser = await launch();
});
after(async () => {
  if (browser) await browser.close();
  if (files) files.close();
});

/** Opens caves at `base`, flies into the nearest tunnel, waits for its chunks; returns the page and digests. */
async function flyIntoTunnel(base, query) {
  const page = await openPage(browser, `#caves?seed=42&digests${query}`, base);
  const apiCalls = [];
  page.on('request', (req) => {
    if (new URL(req.url()).pathname.startsWith('/v1')) apiCalls.push(req.url());
  });
  await waitReady(page, 'caves', 120_000);
  await waitFor(page, () => window.mangekyo.debug().chunks.densities >= 9, null, 120_000);
  const cave = await findCave(page);
  assert.ok(cave, 'a cave lies within the loaded chunks');
  await page.evaluate(([x, y, z]) => {
    window.mangekyo.api.teleport(x, y, z);
    window.mangekyo.api.look(0.3, -0.1);
  }, cave);
  await waitFor(page, () => {
    const c = window.mangekyo.debug().chunks;
    return c.pending === 0 && c.loading === 0 && c.densities >= 9;
  }, null, 180_000);
  const digests = new Map(await page.evaluate(() => window.mangekyo.api.chunkDigests()));
  return { page, cave, digests, apiCalls, state: await page.evaluate(() => window.mangekyo.debug()) };
}

let generated;

test('dist/ on a static file server: caves are generated in the workers, with the server\'s bytes', async () => {
  generated = await flyIntoTunnel(staticBase, '');
  const { page, digests, apiCalls, state } = generated;
  assert.equal(state.source, 'wasm');
  assert.ok(state.chunks.meshed > 0, 'meshes drawn');
  assert.ok(state.surface - state.position[1] > 15, `in a tunnel: ${state.surface} over ${state.position[1]}`);
  assert.deepEqual(apiCalls, [], 'the static page asks no server');
  // The headlight on, for the picture: its shadows fall down the tunnel.
  await page.keyboard.press('r');
  await new Promise((r) => setTimeout(r, 800));
  await screenshot(page, 'static_caves_tunnel');
  assertNoErrors(assert, page);

  const index = await (await fetch(`${BASE}/v1`)).json();
  const version = index.generators.find((g) => g.name === 'caves').version;
  // The chunks nearest the drone first: the tunnel's own.
  const [x, y, z] = state.position.map((v) => Math.floor(v / 32));
  const near = ([, c]) => c.split(',').map(Number).reduce((s, v, i) => s + Math.abs(v - [x, y, z][i]), 0);
  const picked = [...digests].map(([key, hash]) => [key.split(' '), hash])
    .sort((a, b) => near(a[0]) - near(b[0]) || a[0].join().localeCompare(b[0].join())).slice(0, COMPARED);
  assert.equal(picked.length, COMPARED, `${digests.size} chunks loaded`);
  assert.ok(picked.some(([[kind]]) => kind === 'mesh') && picked.some(([[kind]]) => kind === 'density'));
  for (const [[kind, coord], hash] of picked) {
    const [cx, cy, cz] = coord.split(',');
    const url = `${BASE}/v1/caves/42/chunks/${cx}/${cy}/${cz}?format=${kind}&v=${version}&mode=tubes`;
    const response = await fetch(url);
    assert.equal(response.status, 200, url);
    const bytes = Buffer.from(await response.arrayBuffer());
    assert.equal(createHash('sha256').update(bytes).digest('hex'), hash, `${kind} ${coord}: worker bytes ≠ server bytes`);
  }
  await page.context().close();
});

test('the same flight with ?source=server sees the same chunks', async () => {
  assert.ok(generated, 'the static flight ran');
  const served = await flyIntoTunnel(BASE, '&source=server');
  assert.equal(served.state.source, 'server');
  assert.ok(served.apiCalls.length > 0, 'chunks came from the server');
  let same = 0;
  for (const [key, hash] of served.digests) {
    if (!generated.digests.has(key)) continue;
    assert.equal(hash, generated.digests.get(key), key);
    same++;
  }
  assert.ok(same >= COMPARED, `${same} chunks in common`);
  assertNoErrors(assert, served.page);
  await served.page.context().close();
});

test('dist/ without a server: the planet mode says it needs `mangekyo serve` and offers nothing that cannot work', async () => {
  const page = await openPage(browser, '#planet', staticBase);
  const status = page.locator('#status');
  await status.filter({ hasText: 'mangekyo serve' }).waitFor({ timeout: 30_000 });
  assert.ok(await status.isVisible(), 'the message is shown');
  assert.match(await status.textContent(), /shows the planets stored by mangekyo serve/);
  assert.equal(await status.locator('code').first().textContent(), 'mangekyo serve');
  assert.equal(await status.getAttribute('class'), '', 'calmly: not styled as an error');
  assert.ok(await page.locator('#controls button:has-text("create")').isDisabled(), 'create is disabled');
  assert.ok(await page.locator('#controls label:has-text("seed") input').isDisabled());
  assert.ok(await page.locator('#controls label:has-text("planet") select').first().isDisabled());
  assert.equal((await page.evaluate(() => window.mangekyo.debug())).serverless, true);
  await page.waitForTimeout(500);
  await screenshot(page, 'static_planet_no_server');
  // The one thing that went wrong is the list's 404 (how the mode learns
  // there is no server); no exception, nothing else.
  assert.deepEqual(page.errors.filter((e) => !/^console: Failed to load resource: the server responded with a status of 404/.test(e)), [],
    `errors: ${page.errors}`);
  assert.ok(page.errors.length <= 1, `errors: ${page.errors}`);
  await page.context().close();
});
