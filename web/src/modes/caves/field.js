// The density field on the viewer's side, for collision, the camera's
// ray and the depth lighting: the server's own voxel densities (fetched per
// chunk, bit for bit what the server computes), interpolated trilinearly
// between voxels (the mesher puts the surface on the same linear zero
// crossings), and the server's surface heights, interpolated bilinearly.
// Where no chunk is loaded yet the field answers "rock", so the drone
// never flies into the unknown.

/** Voxels per chunk side (mangekyo_caves::CHUNK). */
export const CHUNK = 32;

export function chunkKey(cx, cy, cz) {
  return `${cx},${cy},${cz}`;
}

export class DensityField {
  constructor() {
    this.chunks = new Map();
    /** One loaded chunk per (cx, cz) column: every chunk of a column holds the same surface heights. */
    this.columns = new Map();
    /** What unloaded space is: solid rock. */
    this.unknown = 4;
    /** Voxel height from which everything is air (above the highest surface chunk). */
    this.airAbove = Infinity;
  }

  /** The density of space with no chunk loaded. */
  missing(y) {
    return y >= this.airAbove ? -this.unknown : this.unknown;
  }

  add(chunk) {
    this.chunks.set(chunkKey(...chunk.coord), chunk);
    this.columns.set(`${chunk.coord[0]},${chunk.coord[2]}`, chunk);
  }

  has(cx, cy, cz) {
    return this.chunks.has(chunkKey(cx, cy, cz));
  }

  delete(key) {
    const chunk = this.chunks.get(key);
    if (!chunk) return;
    this.chunks.delete(key);
    const column = `${chunk.coord[0]},${chunk.coord[2]}`;
    if (this.columns.get(column) === chunk) {
      this.columns.delete(column);
      for (const other of this.chunks.values()) {
        if (other.coord[0] === chunk.coord[0] && other.coord[2] === chunk.coord[2]) this.columns.set(column, other);
      }
    }
  }

  /** The chunk whose box holds voxel (x, y, z) and its next voxel, or null. */
  chunkAt(x, y, z) {
    return this.chunks.get(chunkKey(Math.floor(x / CHUNK), Math.floor(y / CHUNK), Math.floor(z / CHUNK))) || null;
  }

  /** The server's density of the voxel at integer (x, y, z); > 0 is rock. */
  voxel(x, y, z) {
    const c = this.chunkAt(x, y, z);
    if (!c) return this.missing(y);
    if (c.uniform) return c.densities[0];
    const [nx, ny] = c.size;
    return c.densities[((z - c.min[2]) * ny + (y - c.min[1])) * nx + (x - c.min[0])];
  }

  /**
   * Density at a continuous point: the trilinear blend of the 8 voxels
   * around it, in the same f32 arithmetic and order as the server's
   * `CaveField::density_at` (`Math.fround` after every operation), so the
   * two agree bit for bit, not just closely.
   */
  densityAt(x, y, z) {
    const x0 = Math.floor(x);
    const y0 = Math.floor(y);
    const z0 = Math.floor(z);
    const c = this.chunkAt(x0, y0, z0);
    if (!c) return this.missing(y0);
    if (c.uniform) return c.densities[0];
    const [nx, ny] = c.size;
    const i = x0 - c.min[0];
    const j = y0 - c.min[1];
    const k = z0 - c.min[2];
    const d = c.densities;
    const f = Math.fround;
    const corner = (a, b, e) => d[((k + e) * ny + (j + b)) * nx + (i + a)];
    const lerp = (a, b, t) => (t === 0 ? a : f(a + f(t * f(b - a))));
    const tx = f(x - x0);
    const ty = f(y - y0);
    const tz = f(z - z0);
    const row = (b, e) => lerp(corner(0, b, e), tx === 0 ? 0 : corner(1, b, e), tx);
    const plane = (e) => lerp(row(0, e), ty === 0 ? 0 : row(1, e), ty);
    return lerp(plane(0), tz === 0 ? 0 : plane(1), tz);
  }

  /** Surface height at (x, z), bilinear between column heights; null where unknown. */
  surfaceAt(x, z) {
    const x0 = Math.floor(x);
    const z0 = Math.floor(z);
    const cx = Math.floor(x0 / CHUNK);
    const cz = Math.floor(z0 / CHUNK);
    const c = this.columns.get(`${cx},${cz}`);
    if (!c) return null;
    const nx = c.size[0];
    const i = x0 - c.min[0];
    const k = z0 - c.min[2];
    const h = (a, b) => c.surface[(k + b) * nx + (i + a)];
    const fx = x - x0;
    const fz = z - z0;
    const top = h(0, 0) + (h(1, 0) - h(0, 0)) * fx;
    const bottom = h(0, 1) + (h(1, 1) - h(0, 1)) * fx;
    return top + (bottom - top) * fz;
  }

  /** Distance along a unit ray until the density turns positive (rock), up to `max`. */
  raycast(origin, dir, max, step = 0.5) {
    for (let t = step; t <= max; t += step) {
      if (this.densityAt(origin.x + dir.x * t, origin.y + dir.y * t, origin.z + dir.z * t) > 0) return t;
    }
    return max;
  }
}
