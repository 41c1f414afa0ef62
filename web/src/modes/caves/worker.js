// The chunk worker: fetches cave chunks (meshes and densities) from the
// server and decodes them off the main thread, answering with typed arrays
// whose buffers are transferred, not copied. A `cancel` message aborts the
// fetch of a chunk the drone has left behind.
//
// Messages in:  { type: 'load', id, url, kind: 'mesh' | 'density', coord, surfaceTop } and { type: 'cancel', id }
// Messages out: { id, ok: true, kind, ... decoded, timing } or { id, ok: false, error, aborted }

import { vertexColours } from './colours.js';
import { decodeDensity, decodeMesh, serverTiming } from './format.js';

const inFlight = new Map();

self.onmessage = async (event) => {
  const msg = event.data;
  if (msg.type === 'cancel') {
    const controller = inFlight.get(msg.id);
    if (controller) controller.abort();
    return;
  }
  if (msg.type !== 'load') return;
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
    const fetchedMs = performance.now() - started;
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
    self.postMessage({ id: msg.id, ok: true, kind: msg.kind, ...decoded, timing: { ...timing, fetchedMs, decodeMs } },
      transfer);
  } catch (err) {
    self.postMessage({ id: msg.id, ok: false, aborted: err.name === 'AbortError', error: String(err.message || err) });
  } finally {
    inFlight.delete(msg.id);
  }
};
