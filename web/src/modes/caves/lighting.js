// Lighting that fades from sky to darkness with depth, as in the seed:
// depth factor = clamp((surface − y) / 15, 0, 1) drives the background and
// fog colour (sky → cave), fog density 0.005 → 0.04, ambient 0.4 → 0.05 and
// the sun 1 → 0. The drone's spotlight (R) is the light that is left.
// Both cast real-time shadows (shadow maps): the sun's orthographic shadow
// camera follows the drone over a SUN_SHADOW_HALF box, snapped to whole
// shadow texels so the shadows don't shimmer as it moves; the spotlight's
// perspective one looks down the tunnel with it.

import * as THREE from 'three';

/** Depth below the surface, in voxels, at which the scene is fully dark. */
export const DARK_DEPTH = 15;
export const SKY_COLOUR = new THREE.Color(0x8ec5ff);
export const CAVE_COLOUR = new THREE.Color(0x050608);
export const FOG_DENSITY = [0.005, 0.04];
export const AMBIENT = [0.4, 0.05];
export const SUN = [1, 0];
/** Half the side of the square the sun's shadow map covers, voxels. */
export const SUN_SHADOW_HALF = 96;
const SUN_SHADOW_MAP = 1024;
/**
 * Where the sun is, relative to what it lights (unnormalised): 22° above
 * the horizon, low enough that the rolling surface's ridges (slopes up to
 * about 40°) throw shadows across their lee sides.
 */
export const SUN_DIRECTION = new THREE.Vector3(0.75, 0.33, 0.35);
const SUN_DISTANCE = 150;

export function depthFactor(surfaceY, y) {
  return THREE.MathUtils.clamp((surfaceY - y) / DARK_DEPTH, 0, 1);
}

export class CaveLighting {
  constructor(scene) {
    this.scene = scene;
    scene.background = SKY_COLOUR.clone();
    scene.fog = new THREE.FogExp2(SKY_COLOUR.clone(), FOG_DENSITY[0]);
    // Hemisphere ambient (sky above, earth below) shapes the walls more
    // than a flat ambient; its intensity follows the seed's ambient curve.
    this.ambient = new THREE.HemisphereLight(0xdde9ff, 0x4a3f35, AMBIENT[0]);
    this.sun = new THREE.DirectionalLight(0xfff1dc, SUN[0]);
    this.sun.position.copy(SUN_DIRECTION).setLength(SUN_DISTANCE);
    this.sun.target.position.set(0, 0, 0);
    this.sun.castShadow = true;
    const shadow = this.sun.shadow;
    shadow.mapSize.set(SUN_SHADOW_MAP, SUN_SHADOW_MAP);
    Object.assign(shadow.camera, { left: -SUN_SHADOW_HALF, right: SUN_SHADOW_HALF, top: SUN_SHADOW_HALF,
      bottom: -SUN_SHADOW_HALF, near: 1, far: SUN_DISTANCE * 2 });
    shadow.camera.updateProjectionMatrix();
    shadow.bias = -0.0005;
    shadow.normalBias = 0.4;
    scene.add(this.ambient, this.sun, this.sun.target);
    this.factor = 0;
    this.texel = (2 * SUN_SHADOW_HALF) / SUN_SHADOW_MAP;
    // The sun's own axes, for snapping its view to whole shadow texels.
    const forward = SUN_DIRECTION.clone().negate().normalize();
    this.sunRight = new THREE.Vector3().crossVectors(forward, new THREE.Vector3(0, 1, 0)).normalize();
    this.sunUp = new THREE.Vector3().crossVectors(this.sunRight, forward).normalize();
  }

  /** Sets every light for the drone's depth; moves the sun with it. */
  update(surfaceY, droneY, dronePos) {
    const f = depthFactor(surfaceY, droneY);
    this.factor = f;
    this.scene.background.copy(SKY_COLOUR).lerp(CAVE_COLOUR, f);
    this.scene.fog.color.copy(this.scene.background);
    this.scene.fog.density = FOG_DENSITY[0] + f * (FOG_DENSITY[1] - FOG_DENSITY[0]);
    this.ambient.intensity = THREE.MathUtils.lerp(AMBIENT[0], AMBIENT[1], f);
    this.sun.intensity = THREE.MathUtils.lerp(SUN[0], SUN[1], f);
    // Centre the shadow box on the drone, moved only by whole texels
    // across the sun's view.
    const centre = dronePos.clone();
    const r = Math.round(centre.dot(this.sunRight) / this.texel) * this.texel - centre.dot(this.sunRight);
    const u = Math.round(centre.dot(this.sunUp) / this.texel) * this.texel - centre.dot(this.sunUp);
    centre.addScaledVector(this.sunRight, r).addScaledVector(this.sunUp, u);
    this.sun.target.position.copy(centre);
    this.sun.position.copy(SUN_DIRECTION).setLength(SUN_DISTANCE).add(centre);
    this.sun.target.updateMatrixWorld();
  }
}

/**
 * The drone's headlight: a wide spotlight along the camera's gaze, and a
 * faint lamp on the drone itself so the walls right around it read too.
 */
export function buildSpotlight(drone) {
  const spot = new THREE.SpotLight(0xfff3d6, 160, 90, Math.PI / 4.2, 0.6, 1.4);
  spot.position.set(0, -0.22, -0.6);
  spot.castShadow = true;
  spot.shadow.mapSize.set(1024, 1024);
  spot.shadow.camera.near = 0.5;
  spot.shadow.camera.far = 90;
  spot.shadow.bias = -0.0008;
  spot.shadow.normalBias = 0.2;
  const glow = new THREE.PointLight(0xffe9c4, 6, 14, 1.2);
  glow.position.set(0, 0.6, 0);
  const lamp = new THREE.Group();
  lamp.add(spot, glow);
  drone.add(lamp);
  lamp.visible = false;
  return { lamp, spot, target: spot.target, get visible() { return lamp.visible; }, set visible(v) { lamp.visible = v; } };
}
