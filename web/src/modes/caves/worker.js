// The chunk worker: loads cave chunks (meshes and densities) off the main
// thread and decodes them, answering with typed arrays whose buffers are
// transferred, not copied. A chunk is either generated here by the
// WebAssembly package (`generate`: the same bytes the server sends) or
// fetched from the server (`url`). A `cancel` message aborts the fetch of
// a chunk the drone has left behind, or drops a generation still queued.
//
// Messages in:  { type: 'load', id, kind: 'mesh' | 'density', coord, surfaceTop, digest, url | generate }
//               and { type: 'cancel', id }
// Messages out: { id, ok: true, kind, ... decoded, timing, digest } or { id, ok: false, error, aborted }

import { vertexColours } from './colours.js';
import { decodeDensity, decodeMesh, serverTiming } from './format.js';
import { loadPackage } from './source.js';

const inFlight = new Map(); // id → AbortController (fetches)
const queue = []; // generation jobs, oldest first
const cancelled = new Set();
let generating = false;
/** The cave world of the last (seed, parameters): building one is not free. */
let world = null;

self.onmessage = (event) => {
  const msg = event.data;
  if (msg.type === 'cancel') {
    const controller = inFlight.get(msg.id);
    if (controller) controller.abort();
    if (queue.some((job) => job.id === msg.id)) cancelled.add(msg.id);
    return;
  }
  if (msg.type !== 'load') return;
  if (msg.generate) {
    queue.push(msg);
    if (!generating) drain();
  } else {
    fetchChunk(msg);
  }
};

/**
 * Generates the queued chunks one at a time, yielding to the event loop
 * between them so cancels arrive before the next one starts.
 */
async function drain() {
  generating = true;
  while (queue.length) {
    await new Promise((resolve) => setTimeout(resolve, 0));
    const msg = queue.shift();
    if (cancelled.delete(msg.id)) {
      self.postMessage({ id: msg.id, ok: false, aborted: true, error: 'cancelled' });
      continue;
    }
    try {
      const started = performance.now();
      const bytes = await generate(msg.generate);
      const genMs = performance.now() - started;
      await answer(msg, bytes.buffer, { gen: genMs });
    } catch (err) {
      self.postMessage({ id: msg.id, ok: false, aborted: false, error: String(err.message || err) });
    }
  }
  generating = false;
}

async function generate(g) {
  const pkg = await loadPackage();
  const key = `${g.seed}\n${g.params}`;
  if (!world || world.key !== key) {
    if (world) world.caves.free();
    world = { key, caves: new pkg.CaveWorld(g.seed, g.params) };
  }
  const [cx, cy, cz] = g.coord;
  return world.caves.chunk(cx, cy, cz, g.format, g.mesher);
}

async function fetchChunk(msg) {
  const controller = new AbortController();
  inFlight.set(msg.id, controller);
  const started = performance.now();
  try {
    const response = await fetch(msg.url, { signal: controller.signal });
    if (!response.ok) {
      let text = `HTTP ${response.status}`;
      try {
        text = (await response.json()).message || text;
      } catch {
        // not a JSON error: keep the status
      }
      throw new Error(text);
    }
    const timing = serverTiming(response.headers.get('server-timing'));
    const buffer = await response.arrayBuffer();
    await answer(msg, buffer, { ...timing, fetchedMs: performance.now() - started });
  } catch (err) {
    self.postMessage({ id: msg.id, ok: false, aborted: err.name === 'AbortError', error: String(err.message || err) });
  } finally {
    inFlight.delete(msg.id);
  }
}

/** Decodes a chunk's bytes and posts it back, buffers transferred. */
async function answer(msg, buffer, timing) {
  const digest = msg.digest ? await sha256(buffer) : undefined;
  const t0 = performance.now();
  const decoded = msg.kind === 'mesh' ? decodeMesh(buffer) : decodeDensity(buffer);
  if (msg.kind === 'mesh') {
    decoded.colours = vertexColours(decoded.normals, decoded.sky, decoded.positions, decoded.origin, msg.surfaceTop);
    decoded.buffers.push(decoded.colours.buffer);
  }
  const decodeMs = performance.now() - t0;
  decoded.coord = msg.coord;
  const transfer = decoded.buffers;
  delete decoded.buffers;
  self.postMessage({ id: msg.id, ok: true, kind: msg.kind, ...decoded, digest, timing: { ...timing, decodeMs } }, transfer);
}

async function sha256(buffer) {
  const hash = new Uint8Array(await crypto.subtle.digest('SHA-256', buffer));
  return [...hash].map((b) => b.toString(16).padStart(2, '0')).join('');
}
