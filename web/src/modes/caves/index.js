// Caves mode: fly the drone through the voxel caves of a seed. Chunks
// stream from the server around the drone (stream.js, decoded in workers),
// the camera orbits the drone (camera.js), WASD/QE fly it with sliding
// collision against the server's density field (movement.js, field.js),
// light fades with depth and R toggles the headlight (lighting.js). The
// heads-up line shows position, depth, chunks, generation/mesh times and
// the frame time.

import * as THREE from 'three';

import { randomSeed } from '../../ui.js';
import { OrbitCamera } from './camera.js';
import { buildDrone, DRONE_RADIUS } from './drone.js';
import { CHUNK, DensityField } from './field.js';
import { buildSpotlight, CaveLighting, SUN_DIRECTION } from './lighting.js';
import { rockMaterial } from './material.js';
import { lerpAngle, slide, wantedVelocity } from './movement.js';
import { WorkerPool } from './pool.js';
import { caveParams, openWorld, wantedSource } from './source.js';
import { ChunkStreamer } from './stream.js';

const MODES = [['tubes', 'tubes'], ['sheets', 'sheets (the seed\'s)']];
const MESHERS = [['smooth', 'smooth'], ['blocky', 'blocky']];
const HELP = 'click: look around (drag works too) · WASD move · Q/E down/up · Shift fast · R light · T shadows · wheel zoom';
/** Frames whose intervals make up the frame-time median. */
const FRAME_WINDOW = 120;
/**
 * While nothing moves, changes or arrives, the scene is redrawn only this
 * often (ms), so an idle viewer leaves the CPU (and a software renderer's
 * cores) to everything else; the rotors still turn.
 */
const IDLE_REDRAW_MS = 250;

export async function mount(ctx) {
  const { view, hud, controls, params, setParams, setStatus, setNote, markReady } = ctx;
  const state = {
    seed: params.get('seed') || '42',
    mode: params.get('cave') === 'sheets' ? 'sheets' : 'tubes',
    radius: clampInt(params.get('radius'), 1, 8, 4),
    mesher: params.get('mesher') === 'blocky' ? 'blocky' : 'smooth',
    wanted: wantedSource(params),
    // Workers hash every chunk's bytes (SHA-256) when asked, so a test can
    // compare the WebAssembly chunks with the server's.
    digests: params.has('digests'),
    shadows: params.get('shadows') !== '0',
    // More cave parameters by their CaveParams names (`amplitude=24`).
    extra: caveParams(params),
  };

  const renderer = new THREE.WebGLRenderer({ antialias: false, powerPreference: 'high-performance' });
  renderer.setPixelRatio(Math.min(window.devicePixelRatio || 1, 1.5));
  renderer.outputColorSpace = THREE.SRGBColorSpace;
  renderer.shadowMap.type = THREE.PCFShadowMap;
  renderer.shadowMap.enabled = state.shadows;
  view.append(renderer.domElement);
  view.append(Object.assign(document.createElement('div'), { className: 'overlay-help', textContent: HELP }));
  const scene = new THREE.Scene();
  const camera = new THREE.PerspectiveCamera(70, 1, 0.1, 700);
  const orbit = new OrbitCamera(camera, renderer.domElement);
  const lighting = new CaveLighting(scene);
  const drone = buildDrone();
  scene.add(drone.group);
  let droneMeshes = 0;
  drone.group.traverse((o) => {
    if (o.isMesh) droneMeshes++;
  });
  const spot = buildSpotlight(drone.group);
  // Start looking down on the drone: it spawns above a karst shaft.
  orbit.pitch = -0.85;
  // The spotlight follows the camera's gaze, not the drone's heading.
  scene.add(spot.target);
  const material = rockMaterial();
  /** Shadows from the sun and the spotlight on or off (T); the materials recompile. */
  function setShadows(on) {
    state.shadows = Boolean(on);
    renderer.shadowMap.enabled = state.shadows;
    material.needsUpdate = true;
    drone.group.traverse((o) => {
      if (o.material) o.material.needsUpdate = true;
    });
    setParams({ shadows: state.shadows ? null : '0' });
    forceFrames = Math.max(forceFrames, 2);
  }
  const pool = new WorkerPool();

  let world = null; // { manifest, field, streamer, version }
  const position = new THREE.Vector3();
  const velocity = new THREE.Vector3();
  const keys = new Set();
  const frames = [];
  /** Main-thread milliseconds inside `renderer.render` (culling, uniforms, draw calls). */
  const renderTimes = [];
  let last = performance.now();
  let running = true;
  let worldToken = 0;
  let readyOnce = false;
  let lastDraw = 0;
  let forceFrames = 0;
  const lastView = { p: new THREE.Vector3(Infinity), yaw: 0, pitch: 0, dist: 0, spot: false, meshed: -1 };

  const seedInput = controls.text('seed', state.seed, (v) => regenerate({ seed: v || '0' }));
  controls.button('new seed', () => {
    const seed = randomSeed();
    seedInput.value = seed;
    regenerate({ seed });
  });
  controls.select('caves', MODES, state.mode, (v) => regenerate({ mode: v }));
  controls.select('mesh', MESHERS, state.mesher, (v) => regenerate({ mesher: v }));
  controls.number('radius', state.radius, (v) => regenerate({ radius: clampInt(v, 1, 8, 4) }), { min: 1, max: 8 });

  const onKey = (down) => (e) => {
    if (e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement) return;
    const k = e.key.length === 1 ? e.key.toLowerCase() : e.key.toLowerCase();
    if (down && k === 'r' && !e.repeat) spot.visible = !spot.visible;
    if (down && k === 't' && !e.repeat) setShadows(!state.shadows);
    if (['w', 'a', 's', 'd', 'q', 'e', 'shift'].includes(k)) {
      if (down) keys.add(k);
      else keys.delete(k);
      e.preventDefault();
    }
  };
  const keydown = onKey(true);
  const keyup = onKey(false);
  const blur = () => keys.clear();
  window.addEventListener('keydown', keydown);
  window.addEventListener('keyup', keyup);
  window.addEventListener('blur', blur);

  const resize = () => {
    const w = view.clientWidth || 1;
    const h = view.clientHeight || 1;
    renderer.setSize(w, h, false);
    camera.aspect = w / h;
    camera.updateProjectionMatrix();
  };
  const observer = new ResizeObserver(resize);
  observer.observe(view);
  resize();

  async function regenerate(change = {}) {
    Object.assign(state, change);
    setParams({ seed: state.seed, cave: state.mode === 'tubes' ? null : state.mode, radius: state.radius === 4 ? null : state.radius,
      mesher: state.mesher === 'smooth' ? null : state.mesher });
    const token = ++worldToken;
    if (world) world.streamer.dispose();
    world = null;
    setStatus(`caves: opening seed ${state.seed}…`);
    try {
      const opened = await openWorld({ wanted: state.wanted, seed: state.seed, mode: state.mode, mesher: state.mesher,
        extra: state.extra });
      if (token !== worldToken) return;
      const { manifest, source } = opened;
      const field = new DensityField();
      field.airAbove = (manifest.chunk_y[1] + 1) * CHUNK;
      const digest = state.digests;
      const streamer = new ChunkStreamer({
        scene, pool, field, material, radius: state.radius, chunkY: manifest.chunk_y, surfaceTop: manifest.surface_range[1],
        job: (kind, cx, cy, cz) => ({ ...opened.job(kind, cx, cy, cz), digest }),
      });
      world = { manifest, field, streamer, source, note: opened.note };
      const start = ['x', 'y', 'z'].map((a) => Number(params.get(a)));
      position.fromArray(start.every(Number.isFinite) && params.has('x') ? start : manifest.spawn);
      // Why the server generates (no package): a standing note in the
      // header, not the status line over the view.
      setNote(opened.note || '');
      setStatus('');
    } catch (err) {
      if (token === worldToken) setStatus(`caves: ${err.message}`, 'error');
    }
  }

  function step(dt) {
    if (!world) return;
    const { field, streamer } = world;
    wantedVelocity(keys, orbit.yaw, velocity);
    if (velocity.lengthSq() > 0) {
      slide(position, velocity.clone().multiplyScalar(dt), (x, y, z) => field.densityAt(x, y, z), DRONE_RADIUS);
      if (velocity.x || velocity.z) {
        const target = Math.atan2(-velocity.x, -velocity.z);
        drone.group.rotation.y = lerpAngle(drone.group.rotation.y, target, Math.min(1, dt * 6));
      }
    }
    position.y = Math.min(position.y, world.manifest.ceiling);
    streamer.update(position);
    drone.group.position.copy(position);
    drone.group.rotation.z = THREE.MathUtils.lerp(drone.group.rotation.z, keys.has('a') ? 0.25 : keys.has('d') ? -0.25 : 0, 0.1);
    drone.animate(dt);
    const back = orbit.direction();
    const room = field.raycast(position, back, orbit.distance + 1) - 0.6;
    orbit.update(position, Math.max(1.5, room));
    const surface = field.surfaceAt(position.x, position.z);
    if (surface !== null) world.surface = surface;
    lighting.update(world.surface ?? position.y, position.y, position);
    const look = camera.getWorldDirection(new THREE.Vector3());
    spot.target.position.copy(position).addScaledVector(look, 12);
    spot.target.updateMatrixWorld();
  }

  /** Whether anything visible changed since the last drawn frame. */
  function changed() {
    const meshed = world ? world.streamer.group.children.length : 0;
    const same = lastView.p.distanceToSquared(position) < 1e-8 && lastView.yaw === orbit.yaw
      && lastView.pitch === orbit.pitch && lastView.dist === orbit.distance && lastView.spot === spot.visible
      && lastView.meshed === meshed && keys.size === 0;
    lastView.p.copy(position);
    Object.assign(lastView, { yaw: orbit.yaw, pitch: orbit.pitch, dist: orbit.distance, spot: spot.visible, meshed });
    return !same;
  }

  function stats() {
    const s = world ? world.streamer.stats() : null;
    const sorted = [...frames].sort((a, b) => a - b);
    const frameMs = sorted.length ? sorted[sorted.length >> 1] : null;
    return { s, frameMs };
  }

  function drawHud() {
    const { s, frameMs } = stats();
    if (!s) return;
    const depth = world.surface !== undefined ? world.surface - position.y : 0;
    const fmt = (v) => (v === null ? '–' : v.toFixed(1));
    hud.textContent = `pos ${position.x.toFixed(1)}, ${position.y.toFixed(1)}, ${position.z.toFixed(1)}`
      + `   depth ${depth.toFixed(1)} (${lighting.factor.toFixed(2)})`
      + `   chunks ${s.loaded} (${s.meshed} meshed, ${s.pending} pending)`
      // Generated here, density and mesh in one call; or the server's Server-Timing.
      + (world.source === 'wasm' ? `   gen ${fmt(s.genMs)} ms (wasm)` : `   gen ${fmt(s.genMs)} ms  mesh ${fmt(s.meshMs)} ms`)
      + `   frame ${fmt(frameMs)} ms   light ${spot.visible ? 'on' : 'off'}   shadows ${state.shadows ? 'on' : 'off'}`
      + (s.errors ? `   ${s.errors} failed: ${s.lastError}` : '');
  }

  let hudTimer = 0;
  function frame(now) {
    if (!running) return;
    requestAnimationFrame(frame);
    const dt = Math.min(0.1, (now - last) / 1000);
    frames.push(now - last);
    if (frames.length > FRAME_WINDOW) frames.shift();
    last = now;
    step(dt);
    if (changed() || forceFrames > 0 || now - lastDraw > IDLE_REDRAW_MS) {
      forceFrames = Math.max(0, forceFrames - 1);
      lastDraw = now;
      const t0 = performance.now();
      renderer.render(scene, camera);
      renderTimes.push(performance.now() - t0);
      if (renderTimes.length > FRAME_WINDOW) renderTimes.shift();
    }
    if (world && !readyOnce && world.streamer.stats().meshed > 0) {
      readyOnce = true;
      markReady();
    }
    if (now - hudTimer > 200) {
      hudTimer = now;
      drawHud();
    }
  }

  await regenerate();
  requestAnimationFrame(frame);

  const api = {
    /** Moves the drone; streaming is re-planned at once, not on the next frame. */
    teleport(x, y, z) {
      position.set(x, y, z);
      if (world) world.streamer.update(position);
    },
    setShadows,
    /** Where world point (x, y, z) lands on the canvas, CSS pixels; null behind the camera or off screen. */
    project(x, y, z) {
      const v = new THREE.Vector3(x, y, z).project(camera);
      if (v.z > 1 || Math.abs(v.x) > 1 || Math.abs(v.y) > 1) return null;
      const el = renderer.domElement;
      return [((v.x + 1) / 2) * el.clientWidth, ((1 - v.y) / 2) * el.clientHeight];
    },
    look(yaw, pitch) {
      orbit.yaw = yaw;
      orbit.pitch = THREE.MathUtils.clamp(pitch, -Math.PI / 2.1, Math.PI / 4);
    },
    densityAt: (x, y, z) => (world ? world.field.densityAt(x, y, z) : null),
    voxel: (x, y, z) => (world ? world.field.voxel(x, y, z) : null),
    surfaceAt: (x, z) => (world ? world.field.surfaceAt(x, z) : null),
    hasDensity: (cx, cy, cz) => (world ? world.field.has(cx, cy, cz) : false),
    /** Coordinates of every chunk the streamer holds or fetches. */
    chunkCoords: () => (world ? [...world.streamer.meshes.values()].map((r) => r.coord) : []),
    /** `[['mesh 0,1,0', sha256 hex], …]` for every chunk loaded since the world opened (with `?digests`). */
    chunkDigests: () => (world ? [...world.streamer.digests] : []),
    /** Chunk coordinates of every mesh in the scene. */
    meshCoords: () => (world ? world.streamer.group.children.map((m) => m.position.toArray().map((v) => Math.round(v / CHUNK))) : []),
    /** Median frame interval (ms) over the next `n` frames, every one drawn. */
    measureFrames(n = 60) {
      forceFrames = n + 1;
      return new Promise((resolve) => {
        const times = [];
        let prev = performance.now();
        const tick = (t) => {
          times.push(t - prev);
          prev = t;
          if (times.length < n) requestAnimationFrame(tick);
          else {
            times.sort((a, b) => a - b);
            const render = renderTimes.slice(-n).sort((a, b) => a - b);
            resolve({ median: times[n >> 1], p90: times[Math.floor(n * 0.9)], frames: n, renderMedian: render[render.length >> 1] });
          }
        };
        requestAnimationFrame(tick);
      });
    },
  };
  window.mangekyo.api = api;

  return {
    unmount() {
      running = false;
      worldToken++;
      if (world) world.streamer.dispose();
      pool.dispose();
      orbit.dispose();
      observer.disconnect();
      window.removeEventListener('keydown', keydown);
      window.removeEventListener('keyup', keyup);
      window.removeEventListener('blur', blur);
      material.dispose();
      renderer.dispose();
      renderer.forceContextLoss();
      delete window.mangekyo.api;
    },
    debug() {
      const { s, frameMs } = stats();
      return {
        seed: state.seed, mode: state.mode, radius: state.radius, mesher: state.mesher,
        source: world ? world.source : null,
        note: world ? world.note : null,
        droneMeshes: droneMeshes,
        position: position.toArray(), yaw: orbit.yaw, pitch: orbit.pitch,
        surface: world ? world.surface ?? null : null, depthFactor: lighting.factor,
        fogDensity: scene.fog.density, ambient: lighting.ambient.intensity, sun: lighting.sun.intensity,
        spotlight: spot.visible, shadows: state.shadows, sunDirection: SUN_DIRECTION.clone().normalize().toArray(), chunks: s, frameMs, drawCalls: renderer.info.render.calls,
        triangles: renderer.info.render.triangles,
      };
    },
  };
}

function clampInt(v, lo, hi, fallback) {
  const n = Math.round(Number(v));
  return Number.isFinite(n) && v !== null && v !== '' ? Math.min(hi, Math.max(lo, n)) : fallback;
}
