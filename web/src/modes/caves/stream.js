// Chunk streaming around the drone: the wanted chunks (a disc of columns
// `radius` chunks wide, over the world's vertical chunk range) are fetched
// nearest first through the worker pool, at most `maxInFlight` at a time;
// jobs for chunks the drone has moved away from are cancelled, meshes
// beyond the radius (plus a margin, so they don't flicker at the edge) are
// dropped, and finished chunks become GPU meshes at most
// `uploadsPerFrame` per frame (and fewer when a frame's upload time budget
// is spent). Each mesh's bounds are its chunk's box, so
// three's frustum culling works by chunk box without touching vertices.
// Densities (for collision) are streamed the same way for the chunks
// around the drone.

import * as THREE from 'three';

import { CHUNK, chunkKey } from './field.js';

/** Chunks beyond the radius by this many are cancelled or dropped. */
const HYSTERESIS = 1;

export class ChunkStreamer {
  /**
   * @param {object} o
   * @param {THREE.Scene} o.scene           where meshes go
   * @param {WorkerPool} o.pool             fetch + decode workers
   * @param {(kind, cx, cy, cz) => object} o.job  what a worker is told to load: `{ url }` or `{ generate }` (source.js)
   * @param {DensityField} o.field          receives density chunks
   * @param {[number, number]} o.chunkY     lowest and highest chunk y holding surfaces
   * @param {THREE.Material} o.material
   */
  constructor({ scene, pool, job, field, chunkY, material, radius = 4, densityRadius = 1, maxInFlight = 8,
    uploadsPerFrame = 6, uploadBudgetMs = 6, surfaceTop = 64 }) {
    Object.assign(this, { scene, pool, job, field, chunkY, material, radius, densityRadius, maxInFlight,
      uploadsPerFrame, uploadBudgetMs, surfaceTop });
    this.meshes = new Map(); // key → { coord, state, job, mesh, triangles }
    this.densities = new Map(); // key → { coord, state, job }
    this.uploads = [];
    this.centre = null;
    this.errors = 0;
    this.cancelled = 0;
    this.lastError = null;
    this.timing = { gen: [], mesh: [], fetch: [] };
    /** `kind cx,cy,cz` → SHA-256 of the chunk's bytes, when the jobs ask for digests. */
    this.digests = new Map();
    this.group = new THREE.Group();
    this.group.name = 'cave chunks';
    scene.add(this.group);
  }

  /** Called every frame with the drone's position. */
  update(pos) {
    const c = [Math.floor(pos.x / CHUNK), Math.floor(pos.y / CHUNK), Math.floor(pos.z / CHUNK)];
    const moved = !this.centre || c.some((v, i) => v !== this.centre[i]);
    if (moved) {
      this.centre = c;
      this.plan(c);
    }
    this.lastPos = pos.clone();
    this.dispatch(pos);
    this.upload(pos);
  }

  /** Marks the wanted chunks, cancels and drops the others. */
  plan([ccx, ccy, ccz]) {
    const r = this.radius;
    for (let dz = -r; dz <= r; dz++) {
      for (let dx = -r; dx <= r; dx++) {
        if (dx * dx + dz * dz > (r + 0.5) * (r + 0.5)) continue;
        for (let cy = this.chunkY[0]; cy <= this.chunkY[1]; cy++) {
          const coord = [ccx + dx, cy, ccz + dz];
          const key = chunkKey(...coord);
          if (!this.meshes.has(key)) this.meshes.set(key, { coord, state: 'queued' });
        }
      }
    }
    const dr = this.densityRadius;
    for (let dz = -dr; dz <= dr; dz++) {
      for (let dy = -dr; dy <= dr; dy++) {
        for (let dx = -dr; dx <= dr; dx++) {
          const coord = [ccx + dx, ccy + dy, ccz + dz];
          if (coord[1] < this.chunkY[0] || coord[1] > this.chunkY[1]) continue;
          const key = chunkKey(...coord);
          if (!this.densities.has(key)) this.densities.set(key, { coord, state: 'queued' });
        }
      }
    }
    for (const [key, rec] of this.meshes) {
      const [cx, , cz] = rec.coord;
      const far = Math.hypot(cx - ccx, cz - ccz) > r + 0.5 + HYSTERESIS;
      if (far) this.drop(this.meshes, key, rec);
    }
    for (const [key, rec] of this.densities) {
      const far = rec.coord.some((v, i) => Math.abs(v - [ccx, ccy, ccz][i]) > dr + HYSTERESIS);
      if (far) {
        this.drop(this.densities, key, rec);
        this.field.delete(key);
      }
    }
  }

  drop(map, key, rec) {
    if (rec.state === 'loading') {
      this.pool.cancel(rec.job);
      this.cancelled++;
    }
    if (rec.mesh) {
      this.group.remove(rec.mesh);
      rec.mesh.geometry.dispose();
    }
    rec.state = 'dropped';
    map.delete(key);
  }

  /** Starts the nearest queued jobs (densities first: collision waits on them). */
  dispatch(pos) {
    let free = this.maxInFlight - this.pool.busy;
    if (free <= 0) return;
    const dist = (rec) => {
      const [cx, cy, cz] = rec.coord;
      return Math.hypot((cx + 0.5) * CHUNK - pos.x, (cy + 0.5) * CHUNK - pos.y, (cz + 0.5) * CHUNK - pos.z);
    };
    const queued = (map) => [...map.values()].filter((r) => r.state === 'queued').sort((a, b) => dist(a) - dist(b));
    for (const rec of queued(this.densities)) {
      if (free-- <= 0) return;
      this.start(rec, 'density');
    }
    for (const rec of queued(this.meshes)) {
      if (free-- <= 0) return;
      this.start(rec, 'mesh');
    }
  }

  start(rec, kind) {
    const { id, promise } = this.pool.load(this.job(kind, ...rec.coord), kind, { coord: rec.coord, surfaceTop: this.surfaceTop });
    rec.state = 'loading';
    rec.job = id;
    promise.then(
      (data) => {
        // Keep the workers busy between frames (a slow frame would
        // otherwise leave them idle until the next one).
        if (this.lastPos && !this.disposed) this.dispatch(this.lastPos);
        if (rec.state !== 'loading') return;
        this.record(data.timing);
        if (data.digest) this.digests.set(`${kind} ${rec.coord.join(',')}`, data.digest);
        if (kind === 'density') {
          rec.state = 'ready';
          this.field.add(data);
        } else {
          rec.state = 'decoded';
          rec.data = data;
          this.uploads.push(rec);
        }
      },
      (err) => {
        if (this.lastPos && !this.disposed) this.dispatch(this.lastPos);
        if (err.aborted || rec.state !== 'loading') return;
        rec.state = 'failed';
        this.errors++;
        this.lastError = err.message;
      },
    );
  }

  record(t) {
    for (const [name, list] of [['gen', this.timing.gen], ['mesh', this.timing.mesh], ['fetchedMs', this.timing.fetch]]) {
      if (Number.isFinite(t[name])) {
        list.push(t[name]);
        if (list.length > 64) list.shift();
      }
    }
  }

  /** Turns up to `uploadsPerFrame` decoded chunks, nearest first, into meshes. */
  upload(pos) {
    if (!this.uploads.length) return;
    this.uploads = this.uploads.filter((r) => r.state === 'decoded');
    const dist = (rec) => {
      const [cx, cy, cz] = rec.coord;
      return Math.hypot((cx + 0.5) * CHUNK - pos.x, (cy + 0.5) * CHUNK - pos.y, (cz + 0.5) * CHUNK - pos.z);
    };
    this.uploads.sort((a, b) => dist(a) - dist(b));
    const started = performance.now();
    for (let n = 0; n < this.uploadsPerFrame && this.uploads.length; n++) {
      if (n > 0 && performance.now() - started > this.uploadBudgetMs) break;
      const rec = this.uploads.shift();
      const d = rec.data;
      rec.data = null;
      rec.state = 'ready';
      rec.triangles = d.indices.length / 3;
      if (!d.indices.length) continue;
      const geometry = new THREE.BufferGeometry();
      geometry.setAttribute('position', new THREE.BufferAttribute(d.positions, 3));
      geometry.setAttribute('normal', new THREE.BufferAttribute(d.normals, 3));
      geometry.setAttribute('color', new THREE.BufferAttribute(d.colours, 3));
      geometry.setAttribute('sky', new THREE.BufferAttribute(d.sky, 1, true));
      geometry.setIndex(new THREE.BufferAttribute(d.indices, 1));
      // Positions are local to the chunk's origin (exact in f32 anywhere);
      // the bounds are the chunk's box, not computed from the vertices.
      geometry.boundingBox = new THREE.Box3(new THREE.Vector3(-1, -1, -1), new THREE.Vector3(CHUNK + 1, CHUNK + 1, CHUNK + 1));
      geometry.boundingSphere = geometry.boundingBox.getBoundingSphere(new THREE.Sphere());
      const mesh = new THREE.Mesh(geometry, this.material);
      mesh.name = `chunk ${rec.coord}`;
      mesh.castShadow = true;
      mesh.receiveShadow = true;
      mesh.position.fromArray(d.origin);
      mesh.matrixAutoUpdate = false;
      mesh.updateMatrix();
      rec.mesh = mesh;
      this.group.add(mesh);
    }
  }

  stats() {
    let loaded = 0;
    let meshed = 0;
    let triangles = 0;
    let pending = 0;
    let loading = 0;
    for (const rec of this.meshes.values()) {
      if (rec.state === 'loading') loading++;
      if (rec.state === 'ready') {
        loaded++;
        triangles += rec.triangles;
        if (rec.mesh) meshed++;
      } else if (rec.state !== 'failed') pending++;
    }
    const median = (list) => {
      if (!list.length) return null;
      const s = [...list].sort((a, b) => a - b);
      return s[s.length >> 1];
    };
    let densities = 0;
    for (const rec of this.densities.values()) {
      if (rec.state === 'ready') densities++;
      if (rec.state === 'loading') loading++;
    }
    return {
      loaded, meshed, triangles, pending, loading, densities, errors: this.errors, lastError: this.lastError, centre: this.centre,
      cancelled: this.cancelled, inFlight: this.pool.busy,
      genMs: median(this.timing.gen), meshMs: median(this.timing.mesh), fetchMs: median(this.timing.fetch),
    };
  }

  dispose() {
    this.disposed = true;
    for (const [key, rec] of this.meshes) this.drop(this.meshes, key, rec);
    for (const [key, rec] of this.densities) this.drop(this.densities, key, rec);
    this.scene.remove(this.group);
  }
}
