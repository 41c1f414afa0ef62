// The drone: our own model, built from three.js primitives (a pearl-white
// body, a visor, four arms with spinning rotors, a headlight), so the
// viewer ships no borrowed asset. One unit is one voxel; the drone is
// about 2.4 voxels across.

import * as THREE from 'three';

/** Half the drone's extent, in voxels: collision keeps this much air around its centre. */
export const DRONE_RADIUS = 0.9;

export function buildDrone() {
  const group = new THREE.Group();
  group.name = 'drone';
  const shell = new THREE.MeshStandardMaterial({ color: 0xf2efe9, roughness: 0.35, metalness: 0.1 });
  const dark = new THREE.MeshStandardMaterial({ color: 0x23262d, roughness: 0.6, metalness: 0.3 });
  const accent = new THREE.MeshStandardMaterial({ color: 0xff5fa2, roughness: 0.4, emissive: 0x401025 });
  const glass = new THREE.MeshStandardMaterial({ color: 0x2b6cff, roughness: 0.1, metalness: 0.2, emissive: 0x0a2a80 });

  const body = new THREE.Mesh(new THREE.SphereGeometry(0.55, 24, 16), shell);
  body.scale.set(1, 0.62, 1.15);
  group.add(body);
  const belly = new THREE.Mesh(new THREE.CylinderGeometry(0.42, 0.3, 0.22, 20), dark);
  belly.position.y = -0.3;
  group.add(belly);
  // The visor faces -z, the direction the drone flies.
  const visor = new THREE.Mesh(new THREE.SphereGeometry(0.3, 20, 12, 0, Math.PI * 2, 0, Math.PI / 2), glass);
  visor.rotation.x = -Math.PI / 2;
  visor.position.set(0, 0.05, -0.5);
  visor.scale.set(1, 1, 0.45);
  group.add(visor);
  const lamp = new THREE.Mesh(
    new THREE.CylinderGeometry(0.09, 0.12, 0.14, 12),
    new THREE.MeshBasicMaterial({ color: 0xfff3c4 }),
  );
  lamp.rotation.x = Math.PI / 2;
  lamp.position.set(0, -0.22, -0.58);
  group.add(lamp);

  const rotors = [];
  for (const [sx, sz] of [[1, 1], [1, -1], [-1, 1], [-1, -1]]) {
    const arm = new THREE.Mesh(new THREE.BoxGeometry(0.9, 0.07, 0.12), dark);
    arm.position.set(sx * 0.55, 0.08, sz * 0.5);
    arm.rotation.y = Math.atan2(sz, sx) * -1;
    group.add(arm);
    const hub = new THREE.Mesh(new THREE.CylinderGeometry(0.12, 0.12, 0.16, 12), accent);
    hub.position.set(sx * 0.95, 0.14, sz * 0.88);
    group.add(hub);
    const rotor = new THREE.Group();
    rotor.position.set(sx * 0.95, 0.25, sz * 0.88);
    for (let b = 0; b < 2; b++) {
      const blade = new THREE.Mesh(new THREE.BoxGeometry(0.72, 0.02, 0.08), shell);
      blade.rotation.y = (b * Math.PI) / 2;
      rotor.add(blade);
    }
    const ring = new THREE.Mesh(new THREE.TorusGeometry(0.4, 0.03, 6, 28), accent);
    ring.rotation.x = Math.PI / 2;
    ring.position.copy(rotor.position);
    group.add(ring, rotor);
    rotors.push({ rotor, dir: sx * sz });
  }

  return {
    group,
    /** Spins the rotors; `dt` in seconds. */
    animate(dt) {
      for (const { rotor, dir } of rotors) rotor.rotation.y += dir * dt * 40;
    },
  };
}
