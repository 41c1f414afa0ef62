// Drone movement, as in the seed: W/A/S/D relative to the camera's yaw,
// Q/E down/up, and per-axis sliding collision against the density field —
// each axis moves only if the drone stays in air (density ≤ 0) along it,
// so flying into a wall slides along it instead of stopping dead. Steps
// are split so no sub-step exceeds a quarter voxel: a slow frame cannot
// tunnel through a thin wall.

import * as THREE from 'three';

/** Cruise speed, voxels per second (the seed's 0.8 per frame at 30 fps). */
export const SPEED = 24;
/** Speed factor while Shift is held. */
export const BOOST = 2.5;
/** Longest sub-step, voxels. */
const MAX_STEP = 0.25;

const forward = new THREE.Vector3();
const right = new THREE.Vector3();
const euler = new THREE.Euler(0, 0, 0, 'YXZ');

/** The velocity (voxels/s) wanted by the held keys, relative to `yaw`. */
export function wantedVelocity(keys, yaw, out = new THREE.Vector3()) {
  euler.set(0, yaw, 0);
  forward.set(0, 0, -1).applyEuler(euler);
  right.set(1, 0, 0).applyEuler(euler);
  out.set(0, 0, 0);
  if (keys.has('w')) out.add(forward);
  if (keys.has('s')) out.sub(forward);
  if (keys.has('d')) out.add(right);
  if (keys.has('a')) out.sub(right);
  if (keys.has('e')) out.y += 1;
  if (keys.has('q')) out.y -= 1;
  if (out.lengthSq() > 0) out.normalize().multiplyScalar(SPEED * (keys.has('shift') ? BOOST : 1));
  return out;
}

/**
 * Moves `pos` by `delta` with per-axis sliding collision against
 * `densityAt`; `radius` of air is kept ahead of the drone on each axis.
 * Returns which axes were blocked.
 */
export function slide(pos, delta, densityAt, radius) {
  const steps = Math.max(1, Math.ceil(Math.max(Math.abs(delta.x), Math.abs(delta.y), Math.abs(delta.z)) / MAX_STEP));
  const blocked = { x: false, y: false, z: false };
  for (let s = 0; s < steps; s++) {
    for (const axis of ['x', 'y', 'z']) {
      const step = delta[axis] / steps;
      if (step === 0) continue;
      const here = densityAt(pos.x, pos.y, pos.z);
      const next = pos.clone();
      next[axis] += step;
      const probe = next.clone();
      probe[axis] += Math.sign(step) * radius;
      const dNext = densityAt(next.x, next.y, next.z);
      const free = dNext <= 0 && densityAt(probe.x, probe.y, probe.z) <= 0;
      // Inside rock (a teleport, a new seed): any move that gets out is allowed.
      const escaping = here > 0 && dNext < here;
      if (free || escaping) pos[axis] = next[axis];
      else blocked[axis] = true;
    }
  }
  return blocked;
}

/** The shortest turn from angle `a` to `b`, a fraction `t` of the way. */
export function lerpAngle(a, b, t) {
  const d = Math.atan2(Math.sin(b - a), Math.cos(b - a));
  return a + d * t;
}
