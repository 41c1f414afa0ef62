// Per-vertex colours of the cave mesh, computed in the chunk workers (no
// three.js there: workers have no import map): grass on open,
// upward-facing ground, rock elsewhere, darker with depth below the
// highest surface, with faint strata.

const ROCK = [0.54, 0.49, 0.43];
const DEEP_ROCK = [0.36, 0.33, 0.3];
const GRASS = [0.37, 0.56, 0.24];
const DRY_GRASS = [0.55, 0.58, 0.3];
const CLIFF = [0.5, 0.46, 0.42];

function smoothstep(x, lo, hi) {
  const t = Math.min(1, Math.max(0, (x - lo) / (hi - lo)));
  return t * t * (3 - 2 * t);
}

/** A smooth, cheap pattern in [0, 1] over the ground: patches of meadow. */
function patches(x, z) {
  const a = Math.sin(x * 0.061 + Math.sin(z * 0.043) * 2.1);
  const b = Math.sin(z * 0.057 + Math.sin(x * 0.039) * 1.7);
  return 0.5 + 0.25 * (a + b);
}

/**
 * RGB per vertex from normals [3n], sky visibility [n] (u8, 255 = open
 * sky) and chunk-local positions [3n] from `origin` (world voxels).
 */
export function vertexColours(normals, sky, positions, origin, surfaceTop) {
  const n = sky.length;
  const colours = new Float32Array(3 * n);
  for (let v = 0; v < n; v++) {
    const y = origin[1] + positions[3 * v + 1];
    const meadow = patches(origin[0] + positions[3 * v], origin[2] + positions[3 * v + 2]);
    const grass = smoothstep(normals[3 * v + 1], 0.55, 0.85) * smoothstep(sky[v] / 255, 0.6, 0.95);
    const depth = Math.min(1, Math.max(0, (surfaceTop - y) / 40));
    const band = 0.93 + 0.07 * Math.sin(y * 1.7);
    // Higher ground dries out: a gentle green-to-olive ramp with height.
    const dry = Math.min(1, smoothstep(y, 30, 44) + 0.6 * smoothstep(meadow, 0.55, 0.9));
    const open = sky[v] / 255;
    for (let c = 0; c < 3; c++) {
      const rock = (ROCK[c] + (DEEP_ROCK[c] - ROCK[c]) * depth) * (1 - open) + CLIFF[c] * open;
      const turf = GRASS[c] + (DRY_GRASS[c] - GRASS[c]) * dry;
      colours[3 * v + c] = (rock + (turf - rock) * grass) * band;
    }
  }
  return colours;
}
