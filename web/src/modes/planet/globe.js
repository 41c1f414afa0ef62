// The preview globe: the server's whole-planet preview (an
// equirectangular biome map with hill shading) on a sphere, whose UVs it
// maps onto directly (u = longitude, v = latitude). The streamed globe
// (quadtree.js) replaces it as the view; it stays as the globe of a
// server without the tile pyramid, as the globe under the plate-boundary
// overlay, and as the map the tests read colours from. Regions: a
// planet's chunks are far too many for a globe (at least ~200 × 100
// equirectangular chunks even at the coarsest level), so a click opens
// the coarsest-level chunk under it, cut from the chosen projection.

import * as THREE from 'three';
import { getBlob } from '../../api.js';

/** Width of the preview texture, pixels (the height is half). */
export const GLOBE_TEXTURE_WIDTH = 1024;

/** The chunk grid (columns, rows) of the equirectangular map at `lod`. */
export function gridAt(space, lod) {
  const [w0, h0] = space.chunk_grid.equirectangular;
  return [Math.max(1, Math.floor(w0 / 2 ** lod)), Math.max(1, Math.floor(h0 / 2 ** lod))];
}

/**
 * A picture from the server as a texture. The GET retries a 503 (a
 * version-3 planet's previews wait for its coarse tier); `onWait(seconds)`
 * hears each wait.
 */
export async function loadTexture(url, onWait) {
  const objectUrl = URL.createObjectURL(await getBlob(url, {}, onWait));
  try {
    return await new THREE.TextureLoader().loadAsync(objectUrl);
  } finally {
    URL.revokeObjectURL(objectUrl);
  }
}

/**
 * Builds the globe of `planet` into `group` (resolves once its texture is
 * in). `overlay` is the preview's overlay: `none`, or `plates` (plate
 * boundaries coloured by type, version-2 planets). `onWait` hears a wait
 * for the coarse tier.
 */
export async function buildGlobe(planet, group, overlay = 'none', onWait = () => {}) {
  const url = `${planet.links.preview}&width=${GLOBE_TEXTURE_WIDTH}${overlay === 'none' ? '' : `&overlay=${overlay}`}`;
  const texture = await loadTexture(url, onWait);
  texture.colorSpace = THREE.SRGBColorSpace;
  texture.anisotropy = 4;
  const globe = new THREE.Mesh(new THREE.SphereGeometry(1, 128, 64), new THREE.MeshStandardMaterial({ map: texture, roughness: 0.9 }));
  globe.name = 'globe';
  group.add(globe);
  return { lod: planet.space.max_lod, grid: gridAt(planet.space, planet.space.max_lod), texture: GLOBE_TEXTURE_WIDTH, overlay };
}

/**
 * Where a click at sphere UV `uv` lies: map coordinates in [0, 1]² (x east
 * from −180°, y south from the north pole) and latitude/longitude in
 * degrees.
 */
export function mapPointOf(uv) {
  const x = uv.x;
  const y = 1 - uv.y;
  return { x, y, lon: x * 360 - 180, lat: 90 - y * 180 };
}
