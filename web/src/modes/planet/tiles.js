// One tile of the planet's pyramid: its bytes ("MKPT" v1, see the server's
// pyramid route), where its samples lie on the sphere, and its mesh.
//
// A tile has 257² samples; its mesh takes every 4th (a 65² grid): under
// SwiftShader (the tests) and on small GPUs 66k vertices a tile times a
// hundred tiles is too many, and the quadtree splits by the error of the
// grid actually drawn (4 samples), so the finer samples show up one level
// deeper instead. Positions are float64 on the CPU and stored relative to
// the tile's centre, so float32 keeps centimetres near the ground; the
// quadtree moves each mesh to (centre − camera) every frame (the camera
// sits at the origin).

import * as THREE from 'three';

/** Samples a tile edge has (the server's `tile_size`). */
export const TILE_SIZE = 257;
/** Vertices along a tile mesh's side, and the sample stride between them. */
export const GRID = 65;
export const STEP = (TILE_SIZE - 1) / (GRID - 1);
/** Skirt depth, in mesh vertex spacings (plus a few metres): hides cracks between levels. */
const SKIRT_SPACINGS = 1.5;
const SKIRT_METRES = 20;
/** Layer mask bits of the format. */
const HEIGHT = 1;
const BIOME = 2;
const WATER = 4;

/** The face warp of the pyramid: tangent, exactly ±1 at ±1. */
export function warp(s) {
  if (s === 1 || s === -1) return s;
  return Math.tan((Math.PI / 4) * s);
}

/** Inverse of `warp`. */
export function unwarp(a) {
  return (4 / Math.PI) * Math.atan(a);
}

/**
 * The unit direction of face coordinates (s, t) ∈ [−1, 1]² (s along
 * `right`, t along `down`) of `face` (a pyramid.json face), into `out`.
 */
export function faceDirection(face, s, t, out = [0, 0, 0]) {
  const a = warp(s);
  const b = warp(t);
  const n = face.normal;
  const r = face.right;
  const d = face.down;
  const x = n[0] + a * r[0] + b * d[0];
  const y = n[1] + a * r[1] + b * d[1];
  const z = n[2] + a * r[2] + b * d[2];
  const l = Math.hypot(x, y, z);
  out[0] = x / l;
  out[1] = y / l;
  out[2] = z / l;
  return out;
}

/** Face index and face coordinates (s, t) of a direction (need not be unit). */
export function directionFace(faces, dir) {
  let best = 0;
  let bestDot = -Infinity;
  for (let f = 0; f < faces.length; f++) {
    const n = faces[f].normal;
    const dot = n[0] * dir[0] + n[1] * dir[1] + n[2] * dir[2];
    if (dot > bestDot) {
      bestDot = dot;
      best = f;
    }
  }
  const face = faces[best];
  const dotOf = (v) => v[0] * dir[0] + v[1] * dir[1] + v[2] * dir[2];
  const s = unwarp(dotOf(face.right) / bestDot);
  const t = unwarp(dotOf(face.down) / bestDot);
  return { face: best, s: Math.max(-1, Math.min(1, s)), t: Math.max(-1, Math.min(1, t)) };
}

/** Face coordinate of sample `i` of tile column `x` at `level`. */
export function sampleCoord(level, x, i) {
  const e = (TILE_SIZE - 1) * 2 ** level;
  return (2 * ((TILE_SIZE - 1) * x + i)) / e - 1;
}

/** Latitude and longitude (degrees) of a direction: +z north, +x at 0°/0°, +y at 0°/90° E. */
export function latLonOf(dir) {
  const l = Math.hypot(dir[0], dir[1], dir[2]);
  return { lat: (Math.asin(dir[2] / l) * 180) / Math.PI, lon: (Math.atan2(dir[1], dir[0]) * 180) / Math.PI };
}

/** The unit direction of a latitude/longitude (degrees). */
export function directionOf(lat, lon) {
  const la = (lat * Math.PI) / 180;
  const lo = (lon * Math.PI) / 180;
  return [Math.cos(la) * Math.cos(lo), Math.cos(la) * Math.sin(lo), Math.sin(la)];
}

/** Decodes an "MKPT" v1 tile; throws on anything else. */
export function parseTile(buffer) {
  const view = new DataView(buffer);
  const magic = String.fromCharCode(view.getUint8(0), view.getUint8(1), view.getUint8(2), view.getUint8(3));
  if (magic !== 'MKPT') throw new Error(`not a pyramid tile (magic ${JSON.stringify(magic)})`);
  const format = view.getUint16(4, true);
  if (format !== 1) throw new Error(`pyramid tile format ${format}, this viewer reads 1`);
  const size = view.getUint16(16, true);
  const mask = view.getUint16(18, true);
  const n = size * size;
  const tile = {
    face: view.getUint8(6),
    level: view.getUint8(7),
    x: view.getUint32(8, true),
    y: view.getUint32(12, true),
    size,
    mask,
    minHeight: view.getFloat32(20, true),
    maxHeight: view.getFloat32(24, true),
    generatorVersion: view.getUint32(28, true),
    metresPerSample: view.getFloat64(32, true),
    height: null,
    biome: null,
    water: null,
  };
  let offset = 40;
  const need = (bytes) => {
    if (offset + bytes > buffer.byteLength) throw new Error(`pyramid tile truncated (${buffer.byteLength} bytes)`);
  };
  if (mask & HEIGHT) {
    need(4 * n);
    tile.height = new Float32Array(buffer, offset, n);
    offset += 4 * n;
  }
  if (mask & BIOME) {
    need(n);
    tile.biome = new Uint8Array(buffer, offset, n);
    offset += Math.ceil(n / 4) * 4;
  }
  if (mask & WATER) {
    need(4 * n);
    tile.water = new Float32Array(buffer, offset, n);
    offset += 4 * n;
  }
  if (!tile.height) throw new Error('pyramid tile without heights');
  return tile;
}

/** The sRGB byte → linear table (vertex colours are linear; the renderer writes sRGB). */
const LINEAR = new Float32Array(256).map((_, i) => {
  const c = i / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
});

/** Water colours, sRGB bytes: shallow (lakes, rivers, coasts) to deep ocean. */
const SHALLOW = [64, 132, 182];
const DEEP = [12, 38, 92];
/** Depth (m) at which water is drawn fully deep. */
const DEEP_AT = 4000;

/**
 * The mesh vertices of tile (`level`, `x`, `y`) of `face`: the 65² grid of
 * every STEP-th sample, then a skirt ring (the border hung down), all
 * relative to `centre` (float64, metres, planet frame). Water (`water` > 0)
 * lifts the surface to the water's top and colours it by depth; without a
 * water layer the sea is where the ground is below sea level. What the
 * grid keeps (surface, ground, depth and biome per vertex) is enough to
 * build its arrays again (`gridArrays`): the geomorph does, rather than
 * hold every tile's float arrays in JS.
 */
export function tileVertices(pyramid, tile, colours, oceanIndex) {
  const { level, x, y, size } = tile;
  const count = GRID * GRID;
  let surfaceMin = Infinity;
  let surfaceMax = -Infinity;
  const surfaceAt = new Float32Array(count);
  const groundAt = new Float32Array(count);
  const depthAt = new Float32Array(count);
  const biomeAt = new Uint8Array(count);
  for (let gj = 0; gj < GRID; gj++) {
    for (let gi = 0; gi < GRID; gi++) {
      const si = (gj * STEP) * size + gi * STEP;
      const h = tile.height[si];
      let w = tile.water ? tile.water[si] : Math.max(0, -h);
      if (!(w > 0)) w = 0;
      const surface = h + w;
      const v = gj * GRID + gi;
      surfaceAt[v] = surface;
      groundAt[v] = h;
      depthAt[v] = w;
      biomeAt[v] = tile.biome ? tile.biome[si] : 255;
      surfaceMin = Math.min(surfaceMin, surface);
      surfaceMax = Math.max(surfaceMax, surface);
    }
  }
  const kept = { surfaceAt, groundAt, depthAt, biomeAt };
  const node = { face: tile.face, level, x, y };
  const centre = tileCentre(pyramid, node);
  const grid = gridArrays(pyramid, node, kept, colours, oceanIndex);
  return { ...withSkirt(pyramid, level, grid, centre), centre, surfaceMin, surfaceMax, ...kept };
}

/** The sea-level point under the middle sample of a tile (float64, planet frame): its mesh's origin. */
export function tileCentre(pyramid, { face, level, x, y }) {
  const centre = faceDirection(pyramid.faces[face], sampleCoord(level, x, 128), sampleCoord(level, y, 128));
  for (let k = 0; k < 3; k++) centre[k] *= pyramid.radius;
  return centre;
}

/**
 * A tile's 65² grid as drawn, from what its vertices keep: `world`
 * positions (float64, planet frame), `normals` and linear `colours`.
 */
export function gridArrays(pyramid, { face: faceIndex, level, x, y }, kept, colours, oceanIndex) {
  const face = pyramid.faces[faceIndex];
  const R = pyramid.radius;
  const count = GRID * GRID;
  const world = new Float64Array(count * 3);
  const colourData = new Float32Array(count * 3);
  const dir = [0, 0, 0];
  for (let gj = 0; gj < GRID; gj++) {
    const t = sampleCoord(level, y, gj * STEP);
    for (let gi = 0; gi < GRID; gi++) {
      faceDirection(face, sampleCoord(level, x, gi * STEP), t, dir);
      const v = gj * GRID + gi;
      const r = R + kept.surfaceAt[v];
      for (let k = 0; k < 3; k++) world[v * 3 + k] = dir[k] * r;
      const w = kept.depthAt[v];
      let rgb;
      if (w > 0) {
        const f = Math.min(1, Math.log1p(w) / Math.log1p(DEEP_AT));
        rgb = [0, 1, 2].map((k) => Math.round(SHALLOW[k] + (DEEP[k] - SHALLOW[k]) * f));
      } else {
        rgb = colours[kept.biomeAt[v]] || (kept.groundAt[v] < 0 ? colours[oceanIndex] : null) || [128, 128, 128];
      }
      colourData[v * 3] = LINEAR[rgb[0]];
      colourData[v * 3 + 1] = LINEAR[rgb[1]];
      colourData[v * 3 + 2] = LINEAR[rgb[2]];
    }
  }
  return { world, normals: gridNormals(world), colours: colourData };
}

/** Normals of a 65² grid of world positions from the grid's neighbours (one-sided at the border): the hill shading. */
function gridNormals(world) {
  const normals = new Float32Array(world.length);
  const at = (gi, gj, k) => world[(gj * GRID + gi) * 3 + k];
  for (let gj = 0; gj < GRID; gj++) {
    for (let gi = 0; gi < GRID; gi++) {
      const i0 = Math.max(0, gi - 1);
      const i1 = Math.min(GRID - 1, gi + 1);
      const j0 = Math.max(0, gj - 1);
      const j1 = Math.min(GRID - 1, gj + 1);
      const ax = at(i1, gj, 0) - at(i0, gj, 0);
      const ay = at(i1, gj, 1) - at(i0, gj, 1);
      const az = at(i1, gj, 2) - at(i0, gj, 2);
      const bx = at(gi, j1, 0) - at(gi, j0, 0);
      const by = at(gi, j1, 1) - at(gi, j0, 1);
      const bz = at(gi, j1, 2) - at(gi, j0, 2);
      // down × right points outwards.
      let nx = by * az - bz * ay;
      let ny = bz * ax - bx * az;
      let nz = bx * ay - by * ax;
      const l = Math.hypot(nx, ny, nz) || 1;
      nx /= l;
      ny /= l;
      nz /= l;
      const v = (gj * GRID + gi) * 3;
      normals[v] = nx;
      normals[v + 1] = ny;
      normals[v + 2] = nz;
    }
  }
  return normals;
}

/**
 * The mesh arrays of a grid (`gridArrays`' shape) relative to `centre`:
 * the grid, then the skirt, each border vertex again lowered along its
 * direction.
 */
export function withSkirt(pyramid, level, grid, centre) {
  const count = GRID * GRID;
  const ring = 4 * (GRID - 1);
  const positions = new Float32Array((count + ring) * 3);
  const normals = new Float32Array((count + ring) * 3);
  const colourData = new Float32Array((count + ring) * 3);
  const { world } = grid;
  for (let v = 0; v < count; v++) {
    for (let k = 0; k < 3; k++) positions[v * 3 + k] = world[v * 3 + k] - centre[k];
  }
  normals.set(grid.normals);
  colourData.set(grid.colours);
  const depth = SKIRT_SPACINGS * STEP * pyramid.metres_per_sample[level] + SKIRT_METRES;
  const perimeter = ringOrder();
  for (let k = 0; k < ring; k++) {
    const v = perimeter[k];
    const o = (count + k) * 3;
    const r = Math.hypot(world[v * 3], world[v * 3 + 1], world[v * 3 + 2]);
    const scale = (r - depth) / r;
    for (let c = 0; c < 3; c++) {
      positions[o + c] = world[v * 3 + c] * scale - centre[c];
      normals[o + c] = normals[v * 3 + c];
      colourData[o + c] = colourData[v * 3 + c];
    }
  }
  return { positions, normals, colours: colourData };
}

/** The border vertices of the grid as a closed loop: top, right, bottom, left. */
let perimeterCache = null;
function ringOrder() {
  if (perimeterCache) return perimeterCache;
  const n = GRID - 1;
  const out = [];
  for (let i = 0; i < n; i++) out.push(i); // top, left to right
  for (let j = 0; j < n; j++) out.push(j * GRID + n); // right, top to bottom
  for (let i = n; i > 0; i--) out.push(n * GRID + i); // bottom, right to left
  for (let j = n; j > 0; j--) out.push(j * GRID); // left, bottom to top
  perimeterCache = out;
  return out;
}

/** The index buffer every tile shares: the grid's triangles (counter-clockwise from outside) and the skirt's (both sides). */
let sharedIndex = null;
export function tileIndex() {
  if (sharedIndex) return sharedIndex;
  const count = GRID * GRID;
  const ring = 4 * (GRID - 1);
  const idx = [];
  for (let j = 0; j < GRID - 1; j++) {
    for (let i = 0; i < GRID - 1; i++) {
      const a = j * GRID + i;
      const b = a + 1; // right
      const c = a + GRID; // down
      const d = c + 1;
      idx.push(a, c, b, b, c, d);
    }
  }
  const perimeter = ringOrder();
  for (let k = 0; k < ring; k++) {
    const a = perimeter[k];
    const b = perimeter[(k + 1) % ring];
    const a2 = count + k;
    const b2 = count + ((k + 1) % ring);
    idx.push(a, b, a2, b, b2, a2, a, a2, b, b, a2, b2);
  }
  sharedIndex = new THREE.BufferAttribute(new Uint16Array(idx), 1);
  return sharedIndex;
}

/**
 * A tile's geometry from `tileVertices` (or `withSkirt`'s arrays). With
 * `from` (arrays of the same shape), the geometry morphs from that shape
 * to its own (three's absolute morph target: position, normal, colour,
 * weighted by the mesh's `morphTargetInfluences[0]`). Its arrays are let
 * go once on the GPU (300 tiles would otherwise keep ~50 MB of copies in
 * JS).
 */
export function tileGeometry(vertices, from = null) {
  const g = new THREE.BufferGeometry();
  g.setIndex(tileIndex());
  const release = function release() {
    this.array = null;
  };
  const names = [['position', 'positions'], ['normal', 'normals'], ['color', 'colours']];
  for (const [name, key] of names) {
    g.setAttribute(name, new THREE.BufferAttribute(vertices[key], 3).onUpload(release));
    if (from) g.morphAttributes[name] = [new THREE.BufferAttribute(from[key], 3).onUpload(release)];
  }
  g.computeBoundingSphere();
  delete vertices.positions;
  delete vertices.normals;
  delete vertices.colours;
  return g;
}
