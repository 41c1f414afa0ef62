// The third-person orbit camera of the seed: the mouse (pointer-locked
// after a click; dragging works too) turns yaw and pitch around the drone,
// the wheel sets the distance, and the camera always looks at a point
// just above the drone.

import * as THREE from 'three';

/** Pitch limits, radians: the seed's −π/2.1 (almost straight down) … π/4. */
export const PITCH_MIN = -Math.PI / 2.1;
export const PITCH_MAX = Math.PI / 4;
/** Radians per pixel of mouse movement. */
const SENSITIVITY = 0.0025;

export class OrbitCamera {
  constructor(camera, element) {
    this.camera = camera;
    this.element = element;
    this.yaw = 0;
    this.pitch = -0.35;
    this.distance = 9;
    this.dragging = false;
    this.offset = new THREE.Vector3();
    this.euler = new THREE.Euler(0, 0, 0, 'YXZ');
    this.listeners = [];
    this.listen(element, 'click', () => {
      // Rejected where pointer lock is not allowed (headless, iframes): dragging still works.
      const request = element.requestPointerLock && element.requestPointerLock();
      if (request && request.catch) request.catch(() => {});
    });
    this.listen(element, 'mousedown', (e) => {
      this.dragging = true;
      this.last = [e.clientX, e.clientY];
    });
    this.listen(window, 'mouseup', () => {
      this.dragging = false;
    });
    this.listen(document, 'mousemove', (e) => {
      if (document.pointerLockElement === element) {
        this.turn(e.movementX, e.movementY);
      } else if (this.dragging) {
        // Dragging: positions, not movementX/Y, which a busy page's
        // coalesced mouse events under-report.
        this.turn(e.clientX - this.last[0], e.clientY - this.last[1]);
        this.last = [e.clientX, e.clientY];
      }
    });
    this.listen(element, 'wheel', (e) => {
      e.preventDefault();
      this.distance = THREE.MathUtils.clamp(this.distance * Math.exp(e.deltaY * 0.001), 3, 60);
    }, { passive: false });
  }

  listen(target, type, fn, options) {
    target.addEventListener(type, fn, options);
    this.listeners.push([target, type, fn, options]);
  }

  /** Turns by a mouse movement in pixels, with the seed's pitch clamp. */
  turn(dx, dy) {
    this.yaw -= dx * SENSITIVITY;
    this.pitch = THREE.MathUtils.clamp(this.pitch - dy * SENSITIVITY, PITCH_MIN, PITCH_MAX);
  }

  /**
   * Places the camera at `distance` behind the target along (pitch, yaw);
   * `maxDistance` (from a ray cast against the terrain) pulls it in so
   * walls do not hide the drone.
   */
  update(target, maxDistance = Infinity) {
    this.euler.set(this.pitch, this.yaw, 0);
    this.offset.set(0, 0, Math.min(this.distance, maxDistance)).applyEuler(this.euler);
    this.camera.position.copy(target).add(this.offset);
    this.camera.lookAt(target.x, target.y + 1, target.z);
  }

  /** The unit direction from the target to the camera. */
  direction(out = new THREE.Vector3()) {
    this.euler.set(this.pitch, this.yaw, 0);
    return out.set(0, 0, 1).applyEuler(this.euler);
  }

  dispose() {
    for (const [target, type, fn, options] of this.listeners) target.removeEventListener(type, fn, options);
    if (document.pointerLockElement === this.element) document.exitPointerLock();
  }
}
