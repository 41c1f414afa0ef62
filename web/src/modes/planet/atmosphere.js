// A thin atmosphere at the limb: a slightly larger sphere drawn from its
// inside (back faces), brightest just outside the planet's edge and fading
// to nothing at its own, added onto whatever is behind. One mesh, one
// cheap shader; hidden once the camera is inside the shell, where it would
// be a sky model, not a limb.

import * as THREE from 'three';

/** The shell's radius over the planet's. */
export const ATMOSPHERE_SCALE = 1.025;

export function atmosphere(radius) {
  const outer = radius * ATMOSPHERE_SCALE;
  const material = new THREE.ShaderMaterial({
    uniforms: {
      // How far the view ray's cosine with the back face's normal gets
      // at the planet's own edge (a distant camera): the glow's full width.
      edge: { value: Math.sqrt(1 - (1 / ATMOSPHERE_SCALE) ** 2) },
      colour: { value: new THREE.Color(0.45, 0.68, 1.0) },
    },
    vertexShader: /* glsl */ `
      varying vec3 vNormal;
      varying vec3 vView;
      void main() {
        vec4 p = modelViewMatrix * vec4(position, 1.0);
        vNormal = normalize(normalMatrix * normal);
        vView = p.xyz;
        gl_Position = projectionMatrix * p;
      }`,
    fragmentShader: /* glsl */ `
      uniform float edge;
      uniform vec3 colour;
      varying vec3 vNormal;
      varying vec3 vView;
      void main() {
        float a = clamp(dot(normalize(vNormal), normalize(vView)) / edge, 0.0, 1.0);
        gl_FragColor = vec4(colour * pow(a, 2.0) * 0.9, 1.0);
      }`,
    side: THREE.BackSide,
    transparent: true,
    depthWrite: false,
    blending: THREE.AdditiveBlending,
  });
  const mesh = new THREE.Mesh(new THREE.SphereGeometry(outer, 96, 48), material);
  mesh.name = 'atmosphere';
  mesh.frustumCulled = false;
  mesh.renderOrder = 1;
  mesh.userData.outer = outer;
  return mesh;
}
