// Flying over the globe: the camera's place is latitude, longitude and
// altitude (metres above sea level), its view a heading (0 north, 90 east)
// and a pitch (0 level, −90 straight down), all float64. The camera itself
// stays at the origin of the drawn scene (the tiles move around it), so
// this gives `eye` (the planet-frame position) and the camera's rotation.
//
// Mouse: drag turns heading and pitch; wheel climbs/descends (×1.2 a
// notch). Keys: W/S forward/back and A/D sideways along the ground, R/F
// (or PageUp/PageDown) up/down, arrows turn. Speeds scale with the height
// above the ground, so one second of W crosses about one altitude of land
// whether 1000 km or 100 m up (from orbit, a fifth of the radius).

import * as THREE from 'three';

import { directionOf } from './tiles.js';

/** Lowest height above the ground the camera goes, metres. */
export const MIN_CLEARANCE = 20;
const TURN = 0.004; // radians per dragged pixel
const KEY_TURN = 1.2; // radians per second

export class Flight {
  constructor(element, radius) {
    this.radius = radius;
    this.lat = 10;
    this.lon = 20;
    this.altitude = 2.2 * radius;
    this.heading = 0;
    this.pitch = -90;
    this.keys = new Set();
    this.ground = 0; // surface height under the camera, as last known
    this.moved = 0; // a counter of changes, for whoever waits on them
    this.listeners = [];
    this.dragged = 0;
    this.enabled = true; // off while a region is shown (OrbitControls has the mouse)
    this.listen(element, 'pointerdown', (e) => {
      if (!this.enabled) return;
      this.dragging = [e.clientX, e.clientY];
      this.dragged = 0;
    });
    this.listen(window, 'pointerup', () => {
      this.dragging = null;
    });
    this.listen(window, 'pointermove', (e) => {
      if (!this.dragging) return;
      const dx = e.clientX - this.dragging[0];
      const dy = e.clientY - this.dragging[1];
      this.dragging = [e.clientX, e.clientY];
      this.dragged += Math.abs(dx) + Math.abs(dy);
      this.look(dx, dy);
    });
    this.listen(element, 'wheel', (e) => {
      if (!this.enabled) return;
      e.preventDefault();
      this.climb(Math.exp(Math.sign(e.deltaY) * Math.log(1.2)));
    }, { passive: false });
    this.listen(window, 'keydown', (e) => {
      if (!this.enabled || e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement) return;
      this.keys.add(e.code);
    });
    this.listen(window, 'keyup', (e) => this.keys.delete(e.code));
    this.listen(window, 'blur', () => this.keys.clear());
  }

  listen(target, type, fn, options) {
    target.addEventListener(type, fn, options);
    this.listeners.push([target, type, fn, options]);
  }

  dispose() {
    for (const [target, type, fn, options] of this.listeners) target.removeEventListener(type, fn, options);
  }

  /** Height above the ground, metres (never below MIN_CLEARANCE). */
  clearance() {
    return Math.max(MIN_CLEARANCE, this.altitude - Math.max(0, this.ground));
  }

  set({ lat = this.lat, lon = this.lon, altitude = this.altitude, heading = this.heading, pitch = this.pitch }) {
    this.lat = Math.max(-89.999, Math.min(89.999, lat));
    this.lon = ((((lon + 180) % 360) + 360) % 360) - 180;
    this.altitude = Math.min(altitude, 8 * this.radius);
    this.heading = ((heading % 360) + 360) % 360;
    this.pitch = Math.max(-90, Math.min(89, pitch));
    this.moved++;
  }

  look(dx, dy) {
    this.set({ heading: this.heading + (dx * TURN * 180) / Math.PI, pitch: this.pitch - (dy * TURN * 180) / Math.PI });
  }

  /** Multiplies the height above the ground by `factor`. */
  climb(factor) {
    const above = this.clearance();
    this.set({ altitude: Math.max(this.ground + MIN_CLEARANCE, this.altitude + above * (factor - 1)) });
  }

  /** Moves `forward` and `right` metres along the ground (great circles). */
  travel(forward, right) {
    const d = Math.hypot(forward, right);
    if (d === 0) return;
    const bearing = this.heading + (Math.atan2(right, forward) * 180) / Math.PI;
    // Great-circle destination from (lat, lon) along `bearing` for d / R radians.
    const delta = d / (this.radius + Math.max(0, this.ground));
    const la = (this.lat * Math.PI) / 180;
    const lo = (this.lon * Math.PI) / 180;
    const b = (bearing * Math.PI) / 180;
    const la2 = Math.asin(Math.sin(la) * Math.cos(delta) + Math.cos(la) * Math.sin(delta) * Math.cos(b));
    const lo2 = lo + Math.atan2(Math.sin(b) * Math.sin(delta) * Math.cos(la), Math.cos(delta) - Math.sin(la) * Math.sin(la2));
    // The heading turns with the great circle (so "forward" keeps going straight).
    const back = Math.atan2(Math.sin(lo - lo2) * Math.cos(la), Math.cos(la2) * Math.sin(la) - Math.sin(la2) * Math.cos(la) * Math.cos(lo - lo2));
    const turned = ((back * 180) / Math.PI + 180) - bearing;
    this.set({ lat: (la2 * 180) / Math.PI, lon: (lo2 * 180) / Math.PI, heading: this.heading + turned });
  }

  /** Applies held keys over `dt` seconds. */
  tick(dt) {
    if (this.keys.size === 0) return;
    const k = (code) => (this.keys.has(code) ? 1 : 0);
    // One height above the ground a second (at most a fifth of the radius: from orbit, ~12° a second).
    const speed = Math.min(this.clearance(), 0.2 * this.radius);
    const forward = (k('KeyW') - k('KeyS')) * speed * dt;
    const right = (k('KeyD') - k('KeyA')) * speed * dt;
    this.travel(forward, right);
    const up = k('KeyR') + k('PageUp') - k('KeyF') - k('PageDown');
    if (up) this.climb(Math.exp(up * dt));
    const turn = k('ArrowRight') - k('ArrowLeft');
    const tilt = k('ArrowUp') - k('ArrowDown');
    if (turn || tilt) this.set({ heading: this.heading + turn * KEY_TURN * dt * 57.3, pitch: this.pitch + tilt * KEY_TURN * dt * 57.3 });
  }

  /** The camera's place in the planet frame (float64 metres). */
  eye() {
    const d = directionOf(this.lat, this.lon);
    const r = this.radius + this.altitude;
    return [d[0] * r, d[1] * r, d[2] * r];
  }

  /** Local frame at the camera: up (outwards), east, north (unit vectors). */
  frame() {
    const up = directionOf(this.lat, this.lon);
    const lo = (this.lon * Math.PI) / 180;
    const east = [-Math.sin(lo), Math.cos(lo), 0];
    const north = [up[1] * east[2] - up[2] * east[1], up[2] * east[0] - up[0] * east[2], up[0] * east[1] - up[1] * east[0]];
    return { up, east, north };
  }

  /** Points `camera` (at the origin) along heading and pitch. */
  orient(camera) {
    const { up, east, north } = this.frame();
    const h = (this.heading * Math.PI) / 180;
    const p = (this.pitch * Math.PI) / 180;
    const level = [0, 1, 2].map((k) => Math.cos(h) * north[k] + Math.sin(h) * east[k]);
    const forward = [0, 1, 2].map((k) => Math.cos(p) * level[k] + Math.sin(p) * up[k]);
    const camUp = [0, 1, 2].map((k) => -Math.sin(p) * level[k] + Math.cos(p) * up[k]);
    const right = [
      forward[1] * camUp[2] - forward[2] * camUp[1],
      forward[2] * camUp[0] - forward[0] * camUp[2],
      forward[0] * camUp[1] - forward[1] * camUp[0],
    ];
    const m = new THREE.Matrix4().makeBasis(
      new THREE.Vector3(...right),
      new THREE.Vector3(...camUp),
      new THREE.Vector3(-forward[0], -forward[1], -forward[2]),
    );
    camera.position.set(0, 0, 0);
    camera.quaternion.setFromRotationMatrix(m);
    camera.updateMatrixWorld(true);
    return { up, east, north, forward };
  }
}
