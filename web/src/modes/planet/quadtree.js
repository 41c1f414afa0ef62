// The streamed globe: a quadtree per cube face over the server's tile
// pyramid, chosen every frame by screen-space error, culled by the view
// frustum and by the planet's horizon, fetched largest-on-screen first.
//
// - Split rule: a tile splits while its mesh's vertex spacing (STEP
//   samples), seen from the camera at the tile's nearest bounding-sphere
//   point, spans more than `maxPixelError` pixels (default 3: the grid's
//   facets stay about as big as the hill shading's detail).
// - No holes while streaming: a tile is drawn in place of its children
//   until all four (those not culled) can be drawn; a tile that cannot be
//   drawn itself yet hands that duty to its parent, whose fetch is then
//   wanted too (coarse tiles come first, being largest on screen).
// - At most `maxInFlight` fetches (default 6, the browser's per-host
//   connection count); a fetch whose tile leaves the wanted set is aborted
//   (AbortController). A 503 (coarse tier computing) is retried after its
//   Retry-After (`fetchRetrying`).
// - At most `maxInMemory` tiles (default 300) hold meshes; beyond that the
//   least recently used tile not drawn this frame is dropped, and no new
//   fetch starts while every held tile is in use. A view that would need
//   more (low over the ground, looking at the horizon) coarsens itself:
//   the split threshold doubles while the tiles a frame needs exceed 85%
//   of the cap, and eases back while they stay under 50%.
// - Cracks between levels are hidden by skirts (tiles.js).
// - Nothing pops (geomorph): a pyramid level's samples are not its
//   parent's (octaves finer than its spacing are dropped), so a tile that
//   replaces its parent, or its children, would change the ground at once
//   by up to ~85 m. Instead a newly drawn tile starts in the shape last
//   drawn there (position, normal and colour of the coarser or finer
//   tiles it replaces, mid-morph ones as they stood) and morphs to its
//   own over `morphMs`. A coarser mesh cannot hold a finer one's shape,
//   so a merge runs the other way: the finer tiles stay and morph into
//   the coarser tile's shape, which is then drawn in their place.

import * as THREE from 'three';

import { fetchRetrying, ApiError } from '../../api.js';
import {
  GRID, STEP, directionFace, faceDirection, gridArrays, parseTile, sampleCoord, tileGeometry, tileVertices, withSkirt,
} from './tiles.js';

/** `morphMs`: how long a tile takes to morph from what was drawn before it to its own shape. */
export const DEFAULTS = { maxInFlight: 6, maxInMemory: 300, maxPixelError: 3, morphMs: 700 };
/** Height bounds (m) assumed for a tile before it or an ancestor is loaded. */
const UNKNOWN_LOW = -12000;
const UNKNOWN_HIGH = 12000;
/** Points per tile edge tested against the horizon (and for bounding spheres). */
const PROBES = 5;

/**
 * The drawn surface's range over a loaded tile, metres: the mesh's (the
 * water's top where there is water) widened by the tile's own ground
 * range, which also counts the samples between the mesh's vertices.
 */
function rangeOf(n) {
  const v = n.vertices;
  const hollow = Math.min(200, Math.max(0, v.surfaceMin - n.tile.minHeight));
  return [v.surfaceMin - hollow, Math.max(v.surfaceMax, n.tile.maxHeight)];
}

export class GlobeTiles {
  /**
   * `pyramid`: the server's pyramid.json; `layers`: the layers asked for;
   * `material`: what tiles draw with; `onError(err)`: a tile failed for good.
   */
  constructor(pyramid, { layers, material, onError = () => {}, onWait = () => {}, ...options } = {}) {
    this.pyramid = pyramid;
    this.layers = layers;
    this.material = material;
    this.onError = onError;
    this.onWait = onWait;
    Object.assign(this, DEFAULTS, options);
    this.group = new THREE.Group();
    this.group.name = 'globe-tiles';
    this.nodes = new Map();
    this.frame = 0;
    this.inFlight = 0;
    this.inMemory = 0;
    this.missing = 0;
    this.drawn = [];
    this.finestSpacingInView = Infinity;
    this.failed = 0;
    this.fetched = 0;
    this.pressure = 1; // the split threshold's multiplier under memory pressure
    this.needed = 0;
    this.idleWaiters = [];
    this.colours = pyramid.biome_colours || [];
    this.oceanIndex = (pyramid.biome_legend || []).findIndex((b) => (b.name || b) === 'ocean');
    // The occluder of the horizon test: a sphere wholly under the drawn
    // surface (refined by the root tiles' lowest surface once loaded).
    this.occluder = pyramid.radius + UNKNOWN_LOW;
    this.frustum = new THREE.Frustum();
    this.matrix = new THREE.Matrix4();
    this.previous = new Set(); // the nodes drawn last frame
    this.merges = new Map(); // node → {start, ended}: its finer tiles morphing into its shape
    this.heldProgress = null;
    this.now = 0;
    this.morphing = 0;
  }

  node(face, level, x, y) {
    const key = `${face}/${level}/${x}/${y}`;
    let n = this.nodes.get(key);
    if (!n) {
      n = { key, face, level, x, y, state: 'none', mesh: null, tile: null, used: 0, bounds: null, controller: null };
      this.nodes.set(key, n);
    }
    return n;
  }

  /**
   * Centre, bounding radius and horizon probes of a node, from its own
   * surface range once loaded (kept after it is dropped: they stay true),
   * else its nearest loaded ancestor's. They never fall back to a looser
   * guess: bounds that grew back when an ancestor is dropped would change
   * the selection, cancel fetches, and could thrash.
   */
  bounds(n) {
    if (n.bounds && (n.bounds.own || (!n.vertices && n.bounds.known))) return n.bounds;
    let known = null;
    let own = false;
    if (n.vertices) {
      own = true;
      known = rangeOf(n);
    } else {
      known = this.ancestorRange(n);
      if (!known && n.bounds) return n.bounds;
    }
    const face = this.pyramid.faces[n.face];
    const R = this.pyramid.radius;
    const [low, high] = known || [UNKNOWN_LOW, UNKNOWN_HIGH];
    const dirs = [];
    for (let j = 0; j < PROBES; j++) {
      for (let i = 0; i < PROBES; i++) {
        const s = sampleCoord(n.level, n.x, (256 * i) / (PROBES - 1));
        const t = sampleCoord(n.level, n.y, (256 * j) / (PROBES - 1));
        dirs.push(faceDirection(face, s, t));
      }
    }
    const mid = dirs[(PROBES * PROBES - 1) / 2];
    const rc = R + (low + high) / 2;
    const centre = [mid[0] * rc, mid[1] * rc, mid[2] * rc];
    let radius = 0;
    for (const d of dirs) {
      for (const r of [R + low, R + high]) {
        radius = Math.max(radius, Math.hypot(d[0] * r - centre[0], d[1] * r - centre[1], d[2] * r - centre[2]));
      }
    }
    const top = R + high;
    const probes = dirs.map((d) => [d[0] * top, d[1] * top, d[2] * top]);
    n.bounds = { low, high, centre, radius, probes, own, known: Boolean(known) };
    return n.bounds;
  }

  /** The surface range of the nearest loaded ancestor (a child lies within it), or null. */
  ancestorRange(n) {
    let { level, x, y } = n;
    while (level > 0) {
      level--;
      x >>= 1;
      y >>= 1;
      const a = this.nodes.get(`${n.face}/${level}/${x}/${y}`);
      if (a && a.vertices) return rangeOf(a);
    }
    return null;
  }

  /**
   * Chooses, requests and positions the tiles for a camera at `eye`
   * (float64, planet frame) with `camera` (at the origin, rotated) of a
   * viewport `height` pixels tall.
   */
  update(eye, camera, height, now = performance.now()) {
    this.frame++;
    this.now = now;
    this.eye = eye;
    this.matrix.multiplyMatrices(camera.projectionMatrix, camera.matrixWorldInverse);
    this.frustum.setFromProjectionMatrix(this.matrix);
    this.pixelsPerRadian = height / (2 * Math.tan(THREE.MathUtils.degToRad(camera.fov) / 2));
    this.wanted = [];
    const draw = [];
    for (let f = 0; f < 6; f++) {
      const list = this.select(this.node(f, 0, 0, 0));
      if (list) draw.push(...list);
    }
    this.place(draw);
    this.stream();
    this.missing = this.wanted.filter((n) => n.state !== 'loaded').length;
    this.adapt(draw.length + this.missing);
    this.prune();
    if (this.isIdle()) {
      for (const resolve of this.idleWaiters.splice(0)) resolve();
    }
  }

  /** Coarsens (or refines back) the split threshold by how many tiles the view needs. */
  adapt(needed) {
    this.needed = needed;
    if (needed > 0.85 * this.maxInMemory) this.pressure = Math.min(64, this.pressure * 2);
    else if (needed < 0.5 * this.maxInMemory && this.pressure > 1) this.pressure = Math.max(1, this.pressure / 1.25);
  }

  isIdle() {
    return this.missing === 0 && this.inFlight === 0;
  }

  /** Resolves on the first frame after this call with nothing wanted missing and nothing in flight. */
  idle() {
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /**
   * The nodes drawing `n`'s part of the view, [] when it is out of view,
   * or null when nothing can draw it yet (its parent has to).
   */
  select(n) {
    n.used = this.frame;
    const b = this.bounds(n);
    if (!this.visible(b)) return [];
    const d = Math.hypot(b.centre[0] - this.eye[0], b.centre[1] - this.eye[1], b.centre[2] - this.eye[2]);
    const distance = Math.max(d - b.radius, 1);
    n.area = (b.radius / Math.max(d, 1)) ** 2;
    const spacing = STEP * this.pyramid.metres_per_sample[n.level];
    const error = (spacing / distance) * this.pixelsPerRadian;
    if (error > this.maxPixelError * this.pressure && n.level < this.pyramid.max_level) {
      const lists = [];
      let complete = true;
      for (let j = 0; j < 2; j++) {
        for (let i = 0; i < 2; i++) {
          const list = this.select(this.node(n.face, n.level + 1, 2 * n.x + i, 2 * n.y + j));
          if (list === null) complete = false;
          else lists.push(list);
        }
      }
      if (complete) return lists.flat();
    }
    if (n.state === 'failed') return null;
    this.wanted.push(n);
    return n.state === 'loaded' ? [n] : null;
  }

  /** Frustum test of the bounding sphere, then the horizon test of its probes. */
  visible(b) {
    const e = this.eye;
    const sphere = new THREE.Sphere(new THREE.Vector3(b.centre[0] - e[0], b.centre[1] - e[1], b.centre[2] - e[2]), b.radius);
    if (!this.frustum.intersectsSphere(sphere)) return false;
    if (sphere.center.length() <= b.radius) return true;
    const r2 = this.occluder * this.occluder;
    for (const p of b.probes) {
      // The segment eye → p misses the occluder: p is above the horizon.
      const dx = p[0] - e[0];
      const dy = p[1] - e[1];
      const dz = p[2] - e[2];
      const dd = dx * dx + dy * dy + dz * dz;
      const t = Math.max(0, Math.min(1, -(e[0] * dx + e[1] * dy + e[2] * dz) / dd));
      const cx = e[0] + t * dx;
      const cy = e[1] + t * dy;
      const cz = e[2] + t * dz;
      if (cx * cx + cy * cy + cz * cz >= r2) return true;
    }
    return false;
  }

  /**
   * Shows the `draw` tiles, each moved to (centre − eye). A newly drawn
   * tile that replaces coarser ones starts in their shape and morphs to
   * its own; one that replaces finer ones that cover all its ground (a
   * merge) waits while they morph into its shape, and is drawn once they
   * have (else it morphs from them like a split).
   */
  place(draw) {
    for (const m of this.group.children) m.visible = false;
    if (!(this.morphMs > 0)) this.merges.clear();
    let finest = Infinity;
    const previous = [...this.previous];
    const shown = [];
    const wanted = new Set(draw);
    for (const n of draw) {
      if (this.previous.has(n)) {
        // A merge given up: back to its own shape from where it stands.
        if (n.morph && n.morph.reverse) this.startMorph(n, [{ c: n, grid: this.drawnGrid(n) }]);
        shown.push(n);
        continue;
      }
      const covers = previous.filter((c) => c !== n && c.vertices && c.face === n.face && related(c, n));
      const whole = covers.reduce((sum, c) => sum + 4 ** (n.level - c.level), 0) === 1;
      if (whole && covers.every((c) => c.level > n.level) && this.morphMs > 0) {
        let merge = this.merges.get(n);
        if (!merge) {
          merge = { start: this.now, ended: false };
          this.merges.set(n, merge);
          const target = gridArrays(this.pyramid, n, n.vertices, this.colours, this.oceanIndex);
          for (const c of covers) this.startMorph(c, [{ c: n, grid: target }], true);
        }
        // The finer tiles are drawn once more at their end (n's shape), then n.
        if (!merge.ended) {
          merge.ended = this.progress(merge) >= 1;
          n.drawnAt = this.frame; // kept while it waits
          shown.push(...covers);
          continue;
        }
        this.merges.delete(n);
        if (n.morph) this.endMorph(n);
      } else {
        this.merges.delete(n);
        this.startMorph(n, covers.map((c) => ({ c, grid: this.drawnGrid(c) })));
      }
      shown.push(n);
    }
    for (const n of this.merges.keys()) {
      if (!wanted.has(n)) this.merges.delete(n);
    }
    const shownSet = new Set(shown);
    for (const n of this.previous) {
      // Hidden mid-morph (split again, merged, out of view): its morph data goes.
      if (n.morph && n.vertices && !shownSet.has(n)) this.endMorph(n);
    }
    this.morphing = 0;
    for (const n of shown) {
      if (n.morph) {
        const weight = this.morphWeight(n);
        if (weight > 0 || n.morph.reverse) {
          n.mesh.morphTargetInfluences[0] = weight;
          this.morphing++;
        } else {
          this.endMorph(n);
        }
      }
    }
    for (const n of shown) {
      const m = n.mesh;
      const c = n.vertices.centre;
      m.position.set(c[0] - this.eye[0], c[1] - this.eye[1], c[2] - this.eye[2]);
      m.visible = true;
      n.drawnAt = this.frame;
      finest = Math.min(finest, this.pyramid.metres_per_sample[n.level]);
    }
    this.drawn = shown;
    this.previous = shownSet;
    this.finestSpacingInView = finest;
  }

  /**
   * How far a morph (or a merge) has come, 0 → 1 over `morphMs` (1 at
   * once without morphs; `heldProgress` holds every morph at one point,
   * for the tests).
   */
  progress(m) {
    if (!(this.morphMs > 0)) return 1;
    if (this.heldProgress !== null) return this.heldProgress;
    return Math.min(1, Math.max(0, (this.now - m.start) / this.morphMs));
  }

  /** The weight of a morph's other shape: the one a tile comes from (smoothly 1 → 0), or goes to in a merge (0 → 1). */
  morphWeight(n) {
    const t = this.progress(n.morph);
    const s = t * t * (3 - 2 * t);
    return n.morph.reverse ? s : 1 - s;
  }

  /**
   * Starts `n` morphing between its shape and the shape of `drawn` ({c,
   * grid}: tiles over its ground and their grids as drawn) where they
   * cover it: from that shape into its own (a newly drawn tile), or with
   * `reverse` from its shape as drawn now into that one (a tile about to
   * give way to a coarser one). Nothing to morph from (the first tiles,
   * or ground last seen out of view) leaves it as it is.
   */
  startMorph(n, drawn, reverse = false) {
    if (!(this.morphMs > 0) || drawn.length === 0) {
      if (n.morph) this.endMorph(n);
      return;
    }
    const base = reverse ? this.drawnGrid(n) : gridArrays(this.pyramid, n, n.vertices, this.colours, this.oceanIndex);
    const other = { world: new Float64Array(base.world), normals: new Float32Array(base.normals), colours: new Float32Array(base.colours) };
    for (let gj = 0; gj < GRID; gj++) {
      for (let gi = 0; gi < GRID; gi++) {
        const v = gj * GRID + gi;
        for (const { c, grid } of drawn) {
          // This vertex in the cover's grid coordinates.
          const scale = 2 ** (c.level - n.level);
          const u = (n.x * (GRID - 1) + gi) * scale - c.x * (GRID - 1);
          const w = (n.y * (GRID - 1) + gj) * scale - c.y * (GRID - 1);
          if (u < 0 || w < 0 || u > GRID - 1 || w > GRID - 1) continue;
          onSurface(grid, u, w, v, other);
          break;
        }
      }
    }
    const geometry = tileGeometry(withSkirt(this.pyramid, n.level, base, n.vertices.centre),
      withSkirt(this.pyramid, n.level, other, n.vertices.centre));
    this.swapGeometry(n, geometry);
    n.morph = { start: this.now, base: reverse ? base : null, other, reverse };
    n.mesh.morphTargetInfluences[0] = this.morphWeight(n);
  }

  /** Ends a node's morph: its own geometry again, without morph targets. */
  endMorph(n) {
    n.morph = null;
    const own = gridArrays(this.pyramid, n, n.vertices, this.colours, this.oceanIndex);
    this.swapGeometry(n, tileGeometry(withSkirt(this.pyramid, n.level, own, n.vertices.centre)));
  }

  swapGeometry(n, geometry) {
    const old = n.mesh.geometry;
    n.mesh.geometry = geometry;
    n.mesh.updateMorphTargets();
    if (n.mesh.morphTargetInfluences) n.mesh.morphTargetInfluences[0] = 1;
    // The index buffer is shared by every tile: detach it before disposing.
    old.setIndex(null);
    old.dispose();
  }

  /** A loaded node's grid as drawn now (mid-morph: between its two shapes). */
  drawnGrid(c) {
    const out = gridArrays(this.pyramid, c, c.vertices, this.colours, this.oceanIndex);
    if (!c.morph) return out;
    const a = this.morphWeight(c);
    for (const key of ['world', 'normals', 'colours']) {
      const o = out[key];
      const b = c.morph.base ? c.morph.base[key] : o;
      const f = c.morph.other[key];
      for (let k = 0; k < o.length; k++) o[k] = b[k] * (1 - a) + f[k] * a;
    }
    return out;
  }

  /**
   * The surface (m, water's top) under a direction as the drawn tiles
   * draw it (on their triangles, their own shapes), with the drawing
   * tile's level; null where no drawn tile holds it.
   */
  drawnSurfaceAt(dir) {
    const { face, s, t } = directionFace(this.pyramid.faces, dir);
    for (const n of this.drawn) {
      if (n.face !== face) continue;
      const u = (((s + 1) / 2) * 2 ** n.level - n.x) * (GRID - 1);
      const w = (((t + 1) / 2) * 2 ** n.level - n.y) * (GRID - 1);
      if (u < 0 || w < 0 || u > GRID - 1 || w > GRID - 1) continue;
      let height = 0;
      for (const [corner, weight] of triangleWeights(u, w)) height += n.vertices.surfaceAt[corner] * weight;
      return { height, level: n.level };
    }
    return null;
  }

  /** Aborts fetches no longer wanted, starts wanted ones largest first. */
  stream() {
    const wanted = new Set(this.wanted);
    for (const n of this.nodes.values()) {
      if (n.state === 'loading' && !wanted.has(n)) this.cancel(n);
    }
    const queue = this.wanted.filter((n) => n.state === 'none').sort((a, b) => b.area - a.area);
    for (const n of queue) {
      if (this.inFlight >= this.maxInFlight) break;
      if (this.inMemory + this.inFlight >= this.maxInMemory && !this.evictOne()) break;
      this.load(n);
    }
  }

  cancel(n) {
    n.controller.abort();
    n.controller = null;
    n.state = 'none';
    this.inFlight--;
  }

  async load(n) {
    n.state = 'loading';
    const controller = new AbortController();
    n.controller = controller;
    this.inFlight++;
    const url = this.pyramid.tiles.replace('{face}', n.face).replace('{level}', n.level).replace('{x}', n.x).replace('{y}', n.y);
    const full = `${url}${url.includes('?') ? '&' : '?'}layers=${this.layers.join(',')}`;
    try {
      const response = await fetchRetrying(full, { signal: controller.signal }, this.onWait);
      if (!response.ok) {
        let body = null;
        try {
          body = await response.json();
        } catch {
          body = null;
        }
        throw new ApiError(full, response.status, body && (body.error || body));
      }
      const buffer = await response.arrayBuffer();
      if (n.controller !== controller) return;
      const tile = parseTile(buffer);
      const vertices = tileVertices(this.pyramid, tile, this.colours, this.oceanIndex);
      n.controller = null;
      this.inFlight--;
      n.vertices = vertices;
      // The header only: the mesh's grid keeps what heightAt and peak read.
      n.tile = { minHeight: tile.minHeight, maxHeight: tile.maxHeight, level: tile.level };
      n.mesh = new THREE.Mesh(tileGeometry(vertices), this.material);
      n.mesh.name = n.key;
      n.mesh.visible = false;
      n.mesh.frustumCulled = false; // culled here, by the quadtree
      this.group.add(n.mesh);
      n.state = 'loaded';
      n.used = this.frame;
      this.inMemory++;
      this.fetched++;
      if (n.level === 0) this.refineOccluder();
    } catch (err) {
      if (n.controller !== controller) return; // cancelled (aborted)
      n.controller = null;
      this.inFlight--;
      n.state = 'failed';
      this.failed++;
      this.onError(err);
    }
  }

  /**
   * The horizon occluder: once the six root tiles are in, a sphere just
   * under their lowest drawn surface (the sea's top covers the ocean
   * floor), with a margin for dry hollows their sparse grid misses.
   */
  refineOccluder() {
    const roots = [0, 1, 2, 3, 4, 5].map((f) => this.nodes.get(`${f}/0/0/0`));
    if (roots.some((r) => !r || !r.vertices)) return;
    const low = Math.min(0, ...roots.map((r) => r.vertices.surfaceMin));
    this.occluder = this.pyramid.radius + Math.max(low, UNKNOWN_LOW) - 500;
  }

  /** Drops the least recently used tile not drawn this frame; false if none. */
  evictOne() {
    let oldest = null;
    for (const n of this.nodes.values()) {
      if (n.state !== 'loaded' || n.drawnAt === this.frame || n.level === 0) continue;
      if (!oldest || n.used < oldest.used) oldest = n;
    }
    if (!oldest) return false;
    this.unload(oldest);
    return true;
  }

  unload(n) {
    n.morph = null;
    this.merges.delete(n);
    this.group.remove(n.mesh);
    // The index buffer is shared by every tile: detach it before disposing.
    n.mesh.geometry.setIndex(null);
    n.mesh.geometry.dispose();
    n.mesh = null;
    n.vertices = null;
    n.tile = null;
    n.state = 'none';
    this.inMemory--;
  }

  /** Forgets bookkeeping of nodes neither held nor fetching nor seen lately. */
  prune() {
    if (this.frame % 120 !== 0) return;
    for (const [key, n] of this.nodes) {
      if (n.state !== 'loaded' && n.state !== 'loading' && this.frame - n.used > 120) this.nodes.delete(key);
    }
  }

  /**
   * The surface height (m, water's top where there is water) under a
   * direction, from the finest loaded tile holding it (its mesh, as
   * drawn), with the ground's and that tile's level; null when no tile
   * holds it.
   */
  heightAt(dir) {
    const { face, s, t } = directionFace(this.pyramid.faces, dir);
    let best = null;
    for (let level = this.pyramid.max_level; level >= 0; level--) {
      const tiles = 2 ** level;
      const fx = ((s + 1) / 2) * tiles;
      const fy = ((t + 1) / 2) * tiles;
      const x = Math.min(tiles - 1, Math.floor(fx));
      const y = Math.min(tiles - 1, Math.floor(fy));
      const n = this.nodes.get(`${face}/${level}/${x}/${y}`);
      if (!n || !n.vertices) continue;
      // Bilinear over the mesh's grid: the surface as drawn.
      const v = n.vertices;
      const gx = (fx - x) * (GRID - 1);
      const gy = (fy - y) * (GRID - 1);
      const i = Math.min(GRID - 2, Math.floor(gx));
      const j = Math.min(GRID - 2, Math.floor(gy));
      const u = gx - i;
      const w = gy - j;
      const k = j * GRID + i;
      const lerp = (a) => (a[k] * (1 - u) + a[k + 1] * u) * (1 - w) + (a[k + GRID] * (1 - u) + a[k + GRID + 1] * u) * w;
      best = { height: lerp(v.surfaceAt), ground: lerp(v.groundAt), level };
      break;
    }
    return best;
  }

  /**
   * The highest dry sample of the drawn tiles (ground, metres) and where
   * it is: a mountain to fly to. `skip(direction, biomeName)` rules
   * samples out (ice caps, say).
   */
  peak(skip = () => false) {
    let best = null;
    const legend = this.pyramid.biome_legend || [];
    for (const n of this.drawn) {
      const v = n.vertices;
      const face = this.pyramid.faces[n.face];
      for (let k = 0; k < v.groundAt.length; k++) {
        const h = v.groundAt[k];
        if ((best && h <= best.height) || v.depthAt[k] > 0) continue;
        const gi = k % GRID;
        const gj = (k - gi) / GRID;
        const direction = faceDirection(face, sampleCoord(n.level, n.x, gi * STEP), sampleCoord(n.level, n.y, gj * STEP));
        const biome = legend[v.biomeAt[k]];
        if (skip(direction, biome && (biome.name || biome))) continue;
        best = { height: h, face: n.face, level: n.level, x: n.x, y: n.y, direction, biome };
      }
    }
    return best;
  }

  dispose() {
    for (const n of this.nodes.values()) {
      if (n.state === 'loading') this.cancel(n);
      else if (n.state === 'loaded') this.unload(n);
    }
    this.nodes.clear();
  }
}

/** Whether one node is an ancestor of the other (same face). */
function related(a, b) {
  const [hi, lo] = a.level < b.level ? [a, b] : [b, a];
  const shift = lo.level - hi.level;
  return (lo.x >> shift) === hi.x && (lo.y >> shift) === hi.y;
}

/**
 * Vertex `v` of `out` (world, normals, colours) set to the drawn surface
 * of `grid` at its grid coordinates (u, w), on the triangle that holds
 * the point.
 */
function onSurface(grid, u, w, v, out) {
  const weights = triangleWeights(u, w);
  for (const key of ['world', 'normals', 'colours']) {
    const src = grid[key];
    const dst = out[key];
    for (let k = 0; k < 3; k++) {
      let sum = 0;
      for (const [corner, weight] of weights) sum += src[corner * 3 + k] * weight;
      dst[v * 3 + k] = sum;
    }
  }
}

/**
 * The grid vertices and barycentric weights of the triangle holding grid
 * coordinates (u, w), as the GPU draws it: each quad is cut along its
 * top-right/bottom-left diagonal (`tileIndex`).
 */
function triangleWeights(u, w) {
  const i = Math.min(GRID - 2, Math.floor(u));
  const j = Math.min(GRID - 2, Math.floor(w));
  const fu = u - i;
  const fw = w - j;
  const a = j * GRID + i;
  const b = a + 1;
  const c = a + GRID;
  const d = c + 1;
  return fu + fw <= 1
    ? [[a, 1 - fu - fw], [b, fu], [c, fw]]
    : [[d, fu + fw - 1], [c, 1 - fu], [b, 1 - fw]];
}
