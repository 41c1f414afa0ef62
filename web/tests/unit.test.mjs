// Browser-free tests of the viewer's pure modules: the cave wire decoders
// (the caves crate's MKCM/MKCD layouts, checked against hand-built
// buffers, and their refusals), the density field's trilinear blend, and
// JSON with 64-bit seeds kept exact.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeDensity, decodeMesh, serverTiming } from '../src/modes/caves/format.js';
import { DensityField } from '../src/modes/caves/field.js';
import { fetchRetrying, getJson, parseJson } from '../src/api.js';

/** An MKCM buffer of `v` vertices and `i` indices, as the caves crate lays it out. */
function mkcm(v, i, origin = [32, 0, -64]) {
  const skyAt = 48 + 24 * v;
  const indexAt = Math.ceil((skyAt + v) / 4) * 4;
  const buffer = new ArrayBuffer(indexAt + 4 * i);
  const view = new DataView(buffer);
  [0x4d, 0x4b, 0x43, 0x4d].forEach((b, k) => view.setUint8(k, b));
  view.setUint16(4, 1, true);
  view.setUint8(6, 0);
  view.setUint32(8, v, true);
  view.setUint32(12, i, true);
  origin.forEach((o, a) => view.setFloat64(16 + 8 * a, o, true));
  view.setUint32(40, 1, true);
  for (let k = 0; k < 6 * v; k++) view.setFloat32(48 + 4 * k, k + 0.5, true);
  for (let k = 0; k < v; k++) view.setUint8(skyAt + k, 255 - k);
  for (let k = 0; k < i; k++) view.setUint32(indexAt + 4 * k, k % v, true);
  return buffer;
}

/** An MKCD buffer of n³ samples whose density is x + 10·y + 100·z. */
function mkcd(n, origin = [0, 0, 0]) {
  const buffer = new ArrayBuffer(48 + 4 * (n * n * n + n * n));
  const view = new DataView(buffer);
  [0x4d, 0x4b, 0x43, 0x44].forEach((b, k) => view.setUint8(k, b));
  view.setUint16(4, 1, true);
  for (let a = 0; a < 3; a++) view.setUint32(8 + 4 * a, n, true);
  view.setUint32(20, 1, true);
  origin.forEach((o, a) => view.setFloat64(24 + 8 * a, o, true));
  let at = 48;
  for (let z = 0; z < n; z++) for (let y = 0; y < n; y++) for (let x = 0; x < n; x++, at += 4) view.setFloat32(at, x + 10 * y + 100 * z, true);
  for (let k = 0; k < n * n; k++, at += 4) view.setFloat32(at, 30 + (k % n), true);
  return buffer;
}

test('an MKCM mesh decodes into views on its buffer', () => {
  const m = decodeMesh(mkcm(5, 9));
  assert.deepEqual(m.origin, [32, 0, -64]);
  assert.equal(m.kind, 'smooth');
  assert.equal(m.positions.length, 15);
  assert.equal(m.positions[0], 0.5);
  assert.equal(m.normals[0], 15.5);
  assert.deepEqual([...m.sky], [255, 254, 253, 252, 251]);
  assert.deepEqual([...m.indices], [0, 1, 2, 3, 4, 0, 1, 2, 3]);
  assert.equal(m.positions.buffer, m.buffers[0], 'no copy');
});

test('bad cave binaries are refused with a reason', () => {
  assert.throws(() => decodeMesh(new ArrayBuffer(8)), /8-byte answer is no MKCM/);
  assert.throws(() => decodeMesh(mkcd(2)), /expected MKCM, got magic "MKCD"/);
  assert.throws(() => decodeMesh(mkcm(5, 9).slice(0, -4)), /MKCM: \d+ bytes, its header says \d+/);
  const wrongVersion = mkcm(1, 0);
  new DataView(wrongVersion).setUint16(4, 2, true);
  assert.throws(() => decodeMesh(wrongVersion), /version 2 is not the supported 1/);
  assert.throws(() => decodeDensity(mkcd(3).slice(0, 60)), /MKCD: 60 bytes/);
});

test('the density field blends voxels trilinearly and treats the unknown as rock', () => {
  const field = new DensityField();
  const block = decodeDensity(mkcd(33, [0, 0, 0]));
  field.add({ ...block, coord: [0, 0, 0] });
  assert.equal(field.voxel(3, 4, 5), 543);
  assert.equal(field.densityAt(3, 4, 5), 543);
  assert.equal(field.densityAt(3.5, 4.25, 5.75), Math.fround(3.5 + 42.5 + 575));
  assert.equal(field.densityAt(-0.5, 1, 1), 4, 'unloaded space is rock');
  field.airAbove = 64;
  assert.equal(field.densityAt(1, 70, 1), -4, 'above every surface chunk is air');
  assert.equal(field.surfaceAt(2.5, 0), 32.5);
  assert.equal(field.raycast({ x: 0.5, y: 0.5, z: 0.5 }, { x: 0, y: 1, z: 0 }, 10), 0.5);
});

test('Server-Timing durations are read by name', () => {
  assert.deepEqual(serverTiming('gen;dur=1.25, mesh;dur=0.5'), { gen: 1.25, mesh: 0.5 });
  assert.deepEqual(serverTiming(null), {});
});

test('seeds keep all 64 bits: every "seed" number is read as its digits, nothing else changes', () => {
  // 18446744073709551557 is 2^64 − 59: a JavaScript number rounds it to 2^64.
  const text = '{"id": 3, "params": {"seed": 18446744073709551557, "radius": 6371000.0, "plates": [1, 2]},'
    + ' "name": "say \\"seed\\": 5 \\\\", "list": [{"seed" : 42 }], "seedling": 9007199254740993, "odd": {"seed": 1.5}}';
  const parsed = parseJson(text);
  assert.equal(parsed.params.seed, '18446744073709551557');
  assert.equal(parsed.list[0].seed, '42');
  assert.equal(parsed.name, 'say "seed": 5 \\', 'a "seed" inside a string is text, not a member');
  assert.equal(parsed.params.radius, 6371000);
  assert.deepEqual(parsed.params.plates, [1, 2]);
  assert.equal(parsed.seedling, 9007199254740992, 'only "seed" members are kept as text');
  assert.equal(parsed.odd.seed, 1.5, 'a seed that is no integer is left as it is');
  assert.equal(JSON.parse(text).params.seed, 18446744073709552000, 'what JSON.parse would have made of it');
  assert.deepEqual(parseJson('[1, "seed", {"a": "\\\\"}]'), [1, 'seed', { a: '\\' }]);
});

test('a 503 is retried after its Retry-After, other answers are not', async () => {
  const real = globalThis.fetch;
  const answers = [
    new Response('{}', { status: 503, headers: { 'retry-after': '1' } }),
    new Response('{}', { status: 503 }),
    new Response('{"ok": true}', { status: 200 }),
  ];
  const asked = [];
  globalThis.fetch = async (url) => {
    asked.push(url);
    return answers.shift();
  };
  try {
    const waits = [];
    const started = Date.now();
    assert.deepEqual(await getJson('/chunk', {}, (s) => waits.push(s)), { ok: true });
    assert.deepEqual(waits, [1, 1], 'waited as told, 1 s when not told');
    assert.ok(Date.now() - started >= 1900, 'and really waited');
    assert.equal(asked.length, 3);
    // A POST is never repeated: the server may have acted on it.
    globalThis.fetch = async () => new Response('{}', { status: 503 });
    assert.equal((await fetchRetrying('/v1/planets', { method: 'POST' })).status, 503);
    globalThis.fetch = async () => new Response('{"message": "no"}', { status: 404 });
    await assert.rejects(getJson('/gone'), /no/);
  } finally {
    globalThis.fetch = real;
  }
});

test('an access token given once as ?token= is kept, sent, and a refusal says how to get one', async () => {
  const realFetch = globalThis.fetch;
  const stored = new Map();
  let address = 'http://viewer.example/?token=mgk_abc#planet?planet=3';
  globalThis.window = {
    get location() { return { href: address }; },
    localStorage: {
      getItem: (k) => (stored.has(k) ? stored.get(k) : null),
      setItem: (k, v) => stored.set(k, v),
      removeItem: (k) => stored.delete(k),
    },
    history: { replaceState: (_s, _t, url) => { address = String(url); } },
  };
  try {
    const { accessToken } = await import('../src/api.js');
    assert.equal(accessToken(), 'mgk_abc');
    assert.equal(address, 'http://viewer.example/#planet?planet=3', 'the secret leaves the address bar');
    assert.equal(accessToken(), 'mgk_abc', 'and stays in this browser');
    let sent = null;
    globalThis.fetch = async (_url, init) => {
      sent = init.headers;
      return new Response('{"error": {"code": "unauthorized", "message": "the bearer token is not one this server knows"}}', { status: 401 });
    };
    await assert.rejects(getJson('/v1/planets'), /not one this server knows.*\/\?token=/);
    assert.equal(sent.authorization, 'Bearer mgk_abc');
    address = 'http://viewer.example/?token=';
    assert.equal(accessToken(), null, '?token= forgets it');
    await assert.rejects(getJson('/v1/planets'), /needs an access token.*\/\?token=YOUR_TOKEN/);
    assert.equal(sent?.authorization, undefined, "no token, no header");
  } finally {
    globalThis.fetch = realFetch;
    delete globalThis.window;
  }
});
