// Planet mode: choose a stored planet (or create one) and fly over it.
// The globe is streamed from the server's tile pyramid (pyramid.json and
// its "MKPT" tiles: quadtree.js chooses, fetches and draws them, tiles.js
// decodes and meshes them, flight.js moves the camera from orbit down to
// ~20 m over the ground, atmosphere.js draws the limb). The camera stays
// at the scene's origin and the planet is moved around it in float64, so
// nothing jitters near the ground.
//
// The server's whole-planet preview (globe.js) stays: it is the globe of a
// server without a pyramid, and the globe under the "plate boundaries"
// overlay (the preview's `overlay=plates`: convergent red, divergent
// cyan, transform yellow). A click on the globe opens that region as a 3D
// heightmap: the coarsest-level chunk there of the chosen projection (the
// server's `locate` says which chunk holds the clicked latitude and
// longitude), its heights displacing a grid, coloured by the chunk's biome
// preview, with a pin where the click landed; "back" returns to the globe.
// A planet whose coarse tier is still computing (a new one: 20–60 s) is
// waited for by polling its status link, the status line showing how far
// it is; whatever still answers 503 is asked again after its Retry-After.
// Seeds stay text (api.js parseJson): they are 64-bit.
//
// `window.__globe` is the scripting hook of the tests: setCamera({lat, lon,
// altitude, heading, pitch}), idle() (a promise: nothing wanted missing,
// nothing in flight), stats() (tile counts and caps), peak(), project()
// and meshLines() (where the surface and the tiles' grid lines are on the
// canvas), setPixelError(), setMorph() and holdMorph(). The hash's
// `bg=rrggbb` paints the clear colour; `inflight`, `memory`, `sse` and
// `morph` set the tile caps, the split threshold (pixels) and the
// geomorph's duration (ms).

import * as THREE from 'three';
import { OrbitControls } from 'three/addons/controls/OrbitControls.js';

import { ApiError, getJson, postJson } from '../../api.js';
import { el, randomSeed } from '../../ui.js';
import { atmosphere } from './atmosphere.js';
import { Flight, MIN_CLEARANCE } from './flight.js';
import { buildGlobe, loadTexture } from './globe.js';
import { GlobeTiles } from './quadtree.js';
import { directionOf, faceDirection, GRID, latLonOf, sampleCoord, STEP } from './tiles.js';

/** Vertices along a region's side (the 256-sample chunk is resampled). */
const REGION_GRID = 128;
/** Height exaggeration of a region: its relief is shown this many times taller. */
const RELIEF = 6;
/** The projections a region can be cut from (the server's names). */
const PROJECTIONS = ['equirectangular', 'cube', 'tangent_cube', 'octahedral'];
/** What the mode says where no server answers (dist/ on a static file server). */
const NO_SERVER = 'The planet mode shows the planets stored by `mangekyo serve`, and these static files have no server '
  + 'behind them: run `mangekyo serve` and open the viewer it serves. The caves mode works here.';
/** How often a computing coarse tier's progress is asked for, ms. */
const TIER_POLL_MS = 1000;
/** The camera's altitude when a planet opens, in planet radii (the whole globe in view). */
const ORBIT = 2.2;
/** Clear colours: space, and the day sky it turns into below ~60 km. */
const SPACE = 0x05070c;
const SKY_SPACE = new THREE.Color(SPACE);
const SKY_DAY = new THREE.Color(0x86aee0);

export async function mount(ctx) {
  const { view, hud, controls, params, setParams, setStatus, markReady } = ctx;
  const renderer = new THREE.WebGLRenderer({ antialias: true });
  renderer.setPixelRatio(Math.min(window.devicePixelRatio || 1, 1.5));
  renderer.outputColorSpace = THREE.SRGBColorSpace;
  view.append(renderer.domElement);
  const help = el('div', { class: 'overlay-help' },
    'drag: look · wheel / R F: altitude · W A S D: fly · arrows: turn · click the globe: open that region');
  view.append(help);

  // The globe's scene: the camera stays at its origin and the planet
  // (tiles, preview sphere, atmosphere) is moved around it (flight.js).
  const scene = new THREE.Scene();
  // `bg=rrggbb` paints the clear colour (the tests look for it on the planet).
  const paint = (hex) => (/^[0-9a-f]{6}$/i.test(hex || '') ? new THREE.Color(`#${hex}`) : null);
  let background = paint(params.get('bg'));
  scene.background = new THREE.Color(SPACE);
  const camera = new THREE.PerspectiveCamera(45, 1, 1, 1e7);
  scene.add(camera);
  scene.add(new THREE.AmbientLight(0xffffff, 0.5));
  const sun = new THREE.DirectionalLight(0xffffff, 2.2);
  scene.add(sun);
  const globe = new THREE.Group(); // the preview sphere (plate overlay, or no pyramid)
  scene.add(globe);

  // The region's scene: a chunk as a heightmap, turned with OrbitControls.
  const regionScene = new THREE.Scene();
  regionScene.background = new THREE.Color(SPACE);
  const regionCamera = new THREE.PerspectiveCamera(45, 1, 0.01, 100);
  regionScene.add(new THREE.HemisphereLight(0xffffff, 0x334455, 1.2));
  const regionSun = new THREE.DirectionalLight(0xffffff, 1.6);
  regionSun.position.set(4, 2, 3);
  regionScene.add(regionSun);
  const region = new THREE.Group();
  regionScene.add(region);
  const orbit = new OrbitControls(regionCamera, renderer.domElement);
  orbit.enableDamping = true;
  orbit.enabled = false;

  const flight = new Flight(renderer.domElement, 1);
  let tiles = null;
  let pyramid = null;
  let air = null;
  let planets = [];
  let planet = null;
  let globeInfo = null;
  let regionInfo = null;
  let running = true;
  let token = 0;
  /** No server answers /v1 here (static files): nothing can be listed or created. */
  let serverless = false;
  /** A status request for a 503's wait is under way (tierWait). */
  let askingTier = false;
  let projection = PROJECTIONS.includes(params.get('projection')) ? params.get('projection') : 'equirectangular';

  const picker = controls.select('planet', [], '', (id) => open(Number(id)));
  const nameInput = controls.text('name', '', () => {}, { placeholder: 'new planet name' });
  const seedInput = controls.text('seed', randomSeed(), () => {});
  const createButton = controls.button('create', () => create(nameInput.value.trim(), seedInput.value.trim()));
  const projectionPicker = controls.select('region projection', PROJECTIONS.map((p) => [p, p.replace('_', ' ')]), projection, (p) => {
    projection = p;
    setParams({ projection: p });
    // An open region is cut again from the new projection, around the same point.
    if (regionInfo) openRegion({ lat: regionInfo.lat, lon: regionInfo.lon });
  });
  const back = controls.button('back to globe', () => showGlobe(), { disabled: true });
  let overlay = params.get('overlay') === 'plates' ? 'plates' : 'none';
  const plateBox = controls.checkbox('plate boundaries', overlay === 'plates', (on) => {
    overlay = on ? 'plates' : 'none';
    setParams({ overlay: on ? 'plates' : null });
    if (planet) loadPreview(token, planet);
  });

  let viewHeight = 1;
  const resize = () => {
    const w = view.clientWidth || 1;
    const h = view.clientHeight || 1;
    viewHeight = h;
    renderer.setSize(w, h, false);
    for (const c of [camera, regionCamera]) {
      c.aspect = w / h;
      c.updateProjectionMatrix();
    }
  };
  const observer = new ResizeObserver(resize);
  observer.observe(view);
  resize();

  async function refreshList(selectId) {
    const list = await getJson('/v1/planets');
    planets = list.planets;
    picker.replaceChildren(...planets.map((p) => el('option', { value: p.id, selected: p.id === selectId }, `${p.name} (#${p.id})`)));
    return planets;
  }

  async function create(name, seedText) {
    // The seed goes as text: the server reads digits as that number (all
    // 64 bits, which a JavaScript number would round) and hashes any
    // other text, as the CLI and every seed in a URL do.
    const seed = seedText || randomSeed();
    const body = { name: name || `planet-${seed}`, params: { seed } };
    try {
      const created = await postJson('/v1/planets', body);
      await refreshList(created.id);
      await open(created.id);
    } catch (err) {
      setStatus(`planet: ${err.message}`, 'error');
    }
  }

  function dropGlobe() {
    if (tiles) {
      scene.remove(tiles.group);
      tiles.dispose();
      tiles = null;
    }
    if (air) {
      scene.remove(air);
      air.geometry.dispose();
      air.material.dispose();
      air = null;
    }
    pyramid = null;
    clear(globe);
    globeInfo = null;
  }

  async function open(id) {
    const mine = ++token;
    setParams({ planet: id, lat: null, lon: null });
    showGlobe();
    dropGlobe();
    setStatus(`planet #${id}: loading the globe…`);
    const waiting = (s) => tierWait(mine, planet, s);
    try {
      planet = await getJson(`/v1/planets/${id}`);
      if (!planet.space) throw new Error(`planet #${id} is from a generator version this server does not run`);
      await waitForTier(mine, planet);
      if (mine !== token) return;
      setStatus(`planet #${id}: loading the globe…`);
      // The server links the plates of a planet whose version has them
      // (versions are told apart on the server; `next` is not a number).
      plateBox.disabled = !hasPlates(planet);
      let found = null;
      try {
        found = await getJson(`/v1/planets/${id}/pyramid.json`, {}, waiting);
      } catch (err) {
        // A server without the pyramid: the preview sphere is the globe.
        if (!(err instanceof ApiError && err.status === 404)) throw err;
      }
      if (mine !== token) return;
      const radius = (found && found.radius) || planet.params.radius;
      flight.radius = radius;
      const lat = Number(params.get('lat'));
      const lon = Number(params.get('lon'));
      flight.set({ lat: Number.isFinite(lat) && params.has('lat') ? lat : 10, lon: Number.isFinite(lon) && params.has('lon') ? lon : 20,
        altitude: ORBIT * radius, heading: 0, pitch: -90 });
      air = atmosphere(radius);
      scene.add(air);
      if (found) {
        pyramid = found;
        // Water where the pyramid lists it (versions with rivers and lakes).
        const layers = ['height', 'biome'];
        if ((pyramid.layers || []).includes('water')) layers.push('water');
        tiles = new GlobeTiles(pyramid, {
          layers,
          material: tileMaterial,
          onWait: waiting,
          onError: (err) => {
            if (mine === token) setStatus(`tile: ${err.message}`, 'error');
          },
          ...capsFrom(params),
        });
        scene.add(tiles.group);
      }
      // The preview: the globe without a pyramid, the plate overlay's
      // globe, and the picture the tests read; both load together.
      const first = tiles ? tiles.idle() : Promise.resolve();
      await Promise.all([loadPreview(mine, planet), first]);
      if (mine !== token) return;
      setStatus('');
      markReady();
    } catch (err) {
      if (mine === token) setStatus(`planet: ${err.message}`, 'error');
    }
  }

  /**
   * Waits while `p`'s coarse tier computes (a new planet's plates,
   * climate and rivers: 20–60 s, once), polling its status link and
   * showing the progress; returns at once when it is ready or not needed.
   */
  async function waitForTier(mine, p) {
    if (!p.links || !p.links.status) return;
    for (;;) {
      let tier;
      try {
        tier = await getJson(p.links.status);
      } catch (err) {
        // A server without the status route: the 503s say it instead.
        if (err instanceof ApiError && err.status === 404) return;
        throw err;
      }
      if (mine !== token) return;
      if (tier.state === 'failed') throw new Error(`planet #${p.id}'s coarse tier failed: ${tier.error || 'no reason given'}`);
      if (tier.state !== 'computing') return;
      setStatus(tierText(p, tier));
      await new Promise((resolve) => setTimeout(resolve, TIER_POLL_MS));
      if (mine !== token) return;
    }
  }

  /** What the status line says while `p`'s coarse tier computes. */
  function tierText(p, tier) {
    const percent = Math.min(99, Math.floor((Number(tier.progress) || 0) * 100));
    return `planet #${p.id}: computing the planet's coarse tier (once per planet): ${percent} %`;
  }

  /**
   * A request waits `seconds` for the coarse tier (a 503): the status line
   * shows the tier's progress if the status link has it.
   */
  async function tierWait(mine, p, seconds) {
    // Tiles wait side by side: one status request at a time says it for all.
    if (mine !== token || !p || askingTier) return;
    askingTier = true;
    let text = `planet #${p.id}: the server is busy; asking again in ${seconds} s…`;
    try {
      const tier = p.links && p.links.status ? await getJson(p.links.status) : null;
      if (tier && tier.state === 'computing') text = tierText(p, tier);
    } catch {
      // The wait itself goes on; the plain text says why.
    } finally {
      askingTier = false;
    }
    if (mine === token) setStatus(text);
  }

  /** Whether a planet (as `/v1/planets/{id}` serves it) has plates. */
  function hasPlates(p) {
    return Boolean(p.links && p.links.plates);
  }

  /** (Re)loads the preview sphere with the current overlay. */
  async function loadPreview(mine, p) {
    const group = new THREE.Group();
    const info = await buildGlobe(p, group, hasPlates(p) ? overlay : 'none', (s) => tierWait(mine, p, s));
    if (mine !== token) {
      clear(group);
      return;
    }
    clear(globe);
    const sphere = group.children[0];
    group.remove(sphere);
    // three's sphere is y-up with u = 0 at longitude −180°; the planet
    // is z-up with +x at longitude 0°: a quarter turn about x maps one
    // onto the other.
    sphere.rotation.x = Math.PI / 2;
    sphere.scale.setScalar(flight.radius);
    globe.add(sphere);
    globeInfo = { ...info, pyramid: Boolean(tiles) };
  }

  function showGlobe() {
    region.visible = false;
    regionInfo = null;
    back.disabled = true;
    orbit.enabled = false;
    flight.enabled = true;
  }

  /** Opens the region around `point` ({lat, lon}, degrees) as a heightmap. */
  async function openRegion(point) {
    const mine = ++token;
    const lod = planet.space.max_lod;
    const cut = projection;
    setStatus(`opening the region at ${point.lat.toFixed(1)}°, ${point.lon.toFixed(1)}°…`);
    try {
      const located = await getJson(`${planet.links.locate}&lat=${point.lat}&lon=${point.lon}&projection=${cut}&lod=${lod}`);
      // The JSON first: it waits out a 503 (the coarse tier computing), and
      // then the picture of the same chunk is ready too.
      const json = await getJson(`${located.chunk}&format=json&layers=height,biome&edge=shared`, {}, (s) => tierWait(mine, planet, s));
      const texture = await loadTexture(`${located.chunk}&format=preview`);
      if (mine !== token) {
        texture.dispose();
        return;
      }
      texture.colorSpace = THREE.SRGBColorSpace;
      clear(region);
      const mesh = heightmapMesh(json, texture);
      region.add(mesh, pinAt(mesh, json, located));
      const relief = heightRange(json.layers.height);
      regionInfo = {
        projection: cut, face: located.face, lod, cx: located.cx, cy: located.cy, i: located.i, j: located.j,
        lat: point.lat, lon: point.lon, width: json.width, biomes: biomeCounts(json), relief,
      };
      region.visible = true;
      back.disabled = false;
      flight.enabled = false;
      orbit.enabled = true;
      orbit.target.set(0, 0, 0);
      regionCamera.position.set(0, 1.3, 1.9);
      orbit.minDistance = 0.3;
      orbit.maxDistance = 5;
      setParams({ lat: point.lat.toFixed(3), lon: point.lon.toFixed(3) });
      setStatus('');
    } catch (err) {
      if (mine === token) setStatus(`region: ${err.message}`, 'error');
    }
  }

  // A click (not a drag) on the globe opens the region under it: the view
  // ray met with the sea-level sphere, in float64.
  renderer.domElement.addEventListener('pointerup', (e) => {
    if (!flight.enabled || !planet || flight.dragged > 4) return;
    const rect = renderer.domElement.getBoundingClientRect();
    const ndc = new THREE.Vector3(((e.clientX - rect.left) / rect.width) * 2 - 1, -((e.clientY - rect.top) / rect.height) * 2 + 1, 0.5);
    const ray = ndc.unproject(camera).normalize();
    const hit = raySphere(flight.eye(), [ray.x, ray.y, ray.z], flight.radius);
    if (hit) openRegion(latLonOf(hit));
  });

  let last = performance.now();
  function frame(now) {
    if (!running) return;
    requestAnimationFrame(frame);
    const dt = Math.min(0.1, (now - last) / 1000);
    last = now;
    if (region.visible) {
      orbit.update();
      renderer.render(regionScene, regionCamera);
    } else {
      drawGlobe(dt);
    }
    hud.textContent = hudText();
  }

  function drawGlobe(dt) {
    flight.tick(dt);
    const R = flight.radius;
    const up = directionOf(flight.lat, flight.lon);
    const under = tiles && tiles.heightAt(up);
    flight.ground = under ? under.height : 0;
    // Never below the ground as the finer tiles reveal it.
    if (flight.altitude < flight.ground + MIN_CLEARANCE) flight.altitude = flight.ground + MIN_CLEARANCE;
    const eye = flight.eye();
    const { east, north } = flight.orient(camera);
    // Near and far follow the altitude: near a quarter of the height
    // above the ground, far just past the horizon (over the atmosphere):
    // 24-bit depth then resolves both orbit and 100 m up.
    const d = Math.hypot(eye[0], eye[1], eye[2]);
    const clearance = flight.clearance();
    const low = (tiles ? tiles.occluder : R - 12000);
    const outer = air ? air.userData.outer : R * 1.03;
    camera.near = Math.max(0.5, clearance * 0.25);
    camera.far = Math.sqrt(Math.max(0, d * d - low * low)) + Math.sqrt(outer * outer - low * low);
    camera.updateProjectionMatrix();
    // The sun follows the camera, ~33° up in the south-east of its
    // ground: hills are shaded wherever one flies.
    sun.position.set(...[0, 1, 2].map((k) => up[k] * 0.5 + east[k] * 0.7 - north[k] * 0.5));
    const plates = overlay === 'plates' && globe.children.length > 0;
    globe.visible = !tiles || plates;
    globe.position.set(-eye[0], -eye[1], -eye[2]);
    if (air) {
      air.position.set(-eye[0], -eye[1], -eye[2]);
      air.visible = d > air.userData.outer * 1.01;
    }
    if (tiles) {
      tiles.group.visible = !plates;
      tiles.update(eye, camera, viewHeight);
    }
    // Space from orbit, a sky near the ground (unless `bg` paints it).
    if (background) scene.background.copy(background);
    else scene.background.copy(SKY_SPACE).lerp(SKY_DAY, THREE.MathUtils.smoothstep(-flight.altitude, -60000, -4000));
    renderer.render(scene, camera);
  }

  function hudText() {
    if (!planet) return '';
    if (regionInfo) {
      return `${planet.name} · region ${regionInfo.lat.toFixed(2)}°, ${regionInfo.lon.toFixed(2)}° · ${regionInfo.projection.replace('_', ' ')}${regionInfo.face ? ` face ${regionInfo.face}` : ''} lod ${regionInfo.lod} chunk (${regionInfo.cx}, ${regionInfo.cy}) · ${regionInfo.width}² samples · ${regionInfo.relief[0].toFixed(0)}…${regionInfo.relief[1].toFixed(0)} m · relief ×${RELIEF}`;
    }
    const where = `${flight.lat.toFixed(3)}°, ${flight.lon.toFixed(3)}° · ${formatMetres(flight.altitude)} up (${formatMetres(flight.clearance())} over the ground)`;
    // Nothing about the globe while it is still being asked for (a new
    // planet's coarse tier computing): the status line says how far.
    const streamed = tiles
      ? ` · tiles ${tiles.drawn.length} drawn, ${tiles.inMemory}/${tiles.maxInMemory} held, ${tiles.inFlight}/${tiles.maxInFlight} loading · finest ${formatMetres(tiles.finestSpacingInView)} samples`
      : globeInfo ? ' · preview globe (no pyramid on this server)' : '';
    return `${planet.name} · seed ${planet.params.seed} · ${where}${streamed}`;
  }

  requestAnimationFrame(frame);

  /** The scripting hook of the tests (and the console). */
  const hook = {
    setCamera(place) {
      flight.set(place);
      return hook.camera();
    },
    camera: () => ({ lat: flight.lat, lon: flight.lon, altitude: flight.altitude, heading: flight.heading, pitch: flight.pitch,
      radius: flight.radius, ground: flight.ground, fov: camera.fov, near: camera.near, far: camera.far }),
    idle: () => (tiles ? tiles.idle() : Promise.resolve()),
    /** Paints the clear colour (`rrggbb`), or gives it back to space and sky (null). */
    setBackground(hex) {
      background = paint(hex);
    },
    stats: () => globeStats(),
    /** Sets the split threshold (pixels: `sse`). */
    setPixelError(px) {
      if (tiles) tiles.maxPixelError = px;
    },
    /**
     * Sets how long a newly drawn tile morphs from what it replaces, ms
     * (`morph`): 0 turns the geomorph off (and ends running morphs).
     */
    setMorph(ms) {
      if (tiles) tiles.morphMs = ms;
    },
    /** Holds every morph at `progress` (0 → 1; a merge never ends while held), or lets them run again (null). */
    holdMorph(progress) {
      if (tiles) tiles.heldProgress = progress;
    },
    /**
     * The highest dry sample of the drawn tiles, off ice and within
     * `maxLat` degrees of the equator: {lat, lon, height, level, biome}.
     */
    peak({ maxLat = 90, ice = false } = {}) {
      const skip = (d, biome) => Math.abs(latLonOf(d).lat) > maxLat || (!ice && biome === 'snow_ice');
      const p = tiles && tiles.peak(skip);
      return p && { ...latLonOf(p.direction), height: p.height, level: p.level, biome: p.biome };
    },
    heightAt: (lat, lon) => (tiles ? tiles.heightAt(directionOf(lat, lon)) : null),
    /**
     * Where the drawn surface at (lat, lon) is on the canvas as last
     * drawn: {x, y} in CSS pixels, `onScreen` when in front of the camera
     * and inside the canvas, and the surface there (`height`, on the
     * drawing tile's triangles, and its `level`); null where no drawn
     * tile holds it.
     */
    project(lat, lon) {
      const at = tiles && tiles.drawnSurfaceAt(directionOf(lat, lon));
      return at && { ...screenOf(directionOf(lat, lon), at.height), ...at };
    },
    /**
     * The drawn tiles' mesh lines on the canvas, as segments between
     * neighbouring vertices: `border` (a tile's edges, where it meets its
     * neighbours) or `inner` (the grid lines a quarter and three quarters
     * across, the same mesh away from any border). Each segment is
     * [x0, y0, x1, y1] in CSS pixels, both ends on screen. A seam shows as
     * a step in shading across the border lines that the inner lines do
     * not have (the tests compare the two).
     */
    meshLines() {
      const lines = { border: [], inner: [] };
      if (!tiles) return lines;
      const last = GRID - 1;
      const along = [[0, 'border'], [last, 'border'], [last / 4, 'inner'], [(3 * last) / 4, 'inner']];
      for (const n of tiles.drawn) {
        const face = tiles.pyramid.faces[n.face];
        const v = n.vertices;
        const point = (gi, gj) => screenOf(
          faceDirection(face, sampleCoord(n.level, n.x, gi * STEP), sampleCoord(n.level, n.y, gj * STEP)),
          v.surfaceAt[gj * GRID + gi],
        );
        for (const [k, kind] of along) {
          for (const transpose of [false, true]) {
            let a = transpose ? point(0, k) : point(k, 0);
            for (let m = 1; m < GRID; m++) {
              const b = transpose ? point(m, k) : point(k, m);
              if (a.onScreen && b.onScreen) lines[kind].push([a.x, a.y, b.x, b.y]);
              a = b;
            }
          }
        }
      }
      return lines;
    },
  };
  /** A point `height` metres above sea level along `dir`, on the canvas (CSS pixels). */
  function screenOf(dir, height) {
    const eye = flight.eye();
    const r = flight.radius + height;
    const p = new THREE.Vector3(dir[0] * r - eye[0], dir[1] * r - eye[1], dir[2] * r - eye[2]).project(camera);
    const canvas = renderer.domElement;
    const onScreen = p.z > -1 && p.z < 1 && Math.abs(p.x) <= 1 && Math.abs(p.y) <= 1;
    return { x: ((p.x + 1) / 2) * canvas.clientWidth, y: ((1 - p.y) / 2) * canvas.clientHeight, onScreen };
  }
  function globeStats() {
    if (!tiles) return { pyramid: false };
    return {
      pyramid: true,
      inFlight: tiles.inFlight,
      inMemory: tiles.inMemory,
      maxInFlight: tiles.maxInFlight,
      maxInMemory: tiles.maxInMemory,
      maxPixelError: tiles.maxPixelError,
      pressure: tiles.pressure,
      drawn: tiles.drawn.length,
      missing: tiles.missing,
      fetched: tiles.fetched,
      failed: tiles.failed,
      morphing: tiles.morphing,
      idle: tiles.isIdle(),
      finestSpacingInView: tiles.finestSpacingInView,
      levels: [...new Set(tiles.drawn.map((n) => n.level))].sort((a, b) => a - b),
    };
  }
  window.__globe = hook;

  window.mangekyo.api = {
    openRegion: (lat, lon) => openRegion({ lat, lon }),
    showGlobe,
    /** The globe's preview texture (for tests that read its pixels). */
    globeImage: () => globe.children.find((m) => m.material.map)?.material.map.image ?? null,
  };

  let list = null;
  try {
    list = await refreshList(Number(params.get('planet')));
  } catch (err) {
    // Static files (dist/ on a plain file server) have no planets to list:
    // the mode says what it needs and offers nothing that cannot work.
    const noServer = err instanceof ApiError && err.status === 404 && !err.body;
    if (noServer) {
      for (const input of [picker, nameInput, seedInput, createButton, projectionPicker, plateBox]) input.disabled = true;
      serverless = true;
      setStatus(NO_SERVER);
    } else {
      setStatus(`planet: ${err.message}`, 'error');
    }
  }
  if (list) {
    const wanted = list.find((p) => p.id === Number(params.get('planet'))) || list[0];
    if (wanted) await open(wanted.id);
    else await create('Aurora', '42');
  }

  return {
    unmount() {
      running = false;
      token++;
      observer.disconnect();
      orbit.dispose();
      flight.dispose();
      dropGlobe();
      clear(region);
      tileMaterial.dispose();
      renderer.dispose();
      renderer.forceContextLoss();
      delete window.mangekyo.api;
      delete window.__globe;
    },
    debug: () => ({
      serverless,
      planet: planet && { id: planet.id, name: planet.name, seed: planet.params.seed, paramsHash: planet.params_hash },
      planets: planets.length,
      globe: globeInfo,
      textured: globe.children.some((m) => m.material.map),
      tiles: globeStats(),
      camera: hook.camera(),
      region: regionInfo && { ...regionInfo, pinned: region.children.some((m) => m.name === 'pin') },
    }),
  };
}

/** The tiles' material: biome and water colours per vertex, lit by the sun (hill shading). */
const tileMaterial = new THREE.MeshLambertMaterial({ vertexColors: true });

/** The first hit of a ray (origin, unit direction; float64) with the sphere of `radius` at the origin. */
function raySphere(o, d, radius) {
  const b = o[0] * d[0] + o[1] * d[1] + o[2] * d[2];
  const c = o[0] * o[0] + o[1] * o[1] + o[2] * o[2] - radius * radius;
  const disc = b * b - c;
  if (disc < 0) return null;
  const t = -b - Math.sqrt(disc);
  if (t < 0) return null;
  return [o[0] + t * d[0], o[1] + t * d[1], o[2] + t * d[2]];
}

/** Tile caps from the hash (`inflight`, `memory`, `sse`), for experiments. */
function capsFrom(params) {
  const caps = {};
  const take = (name, key, min, max) => {
    const v = Number(params.get(name));
    if (params.has(name) && Number.isFinite(v)) caps[key] = Math.min(max, Math.max(min, v));
  };
  take('inflight', 'maxInFlight', 1, 32);
  take('memory', 'maxInMemory', 24, 4000);
  take('sse', 'maxPixelError', 0.5, 64);
  take('morph', 'morphMs', 0, 10000);
  return caps;
}

function formatMetres(m) {
  if (!Number.isFinite(m)) return '–';
  const a = Math.abs(m);
  if (a >= 10000) return `${(m / 1000).toFixed(0)} km`;
  if (a >= 1000) return `${(m / 1000).toFixed(1)} km`;
  return `${m.toFixed(a < 10 ? 1 : 0)} m`;
}

/** A grid displaced by a chunk's heights (metres, exaggerated), textured by its preview. */
function heightmapMesh(json, texture) {
  const n = json.width;
  const heights = json.layers.height;
  const g = new THREE.PlaneGeometry(2, 2, REGION_GRID - 1, REGION_GRID - 1);
  g.rotateX(-Math.PI / 2);
  // The region's side in metres, to scale heights into plane units.
  const side = json.metres_per_sample * (n - 1);
  const pos = g.attributes.position;
  // Land-only regions sit on the plane (their lowest point at 0); regions
  // with sea keep sea level at 0 and draw the sea flat.
  let base = Infinity;
  for (const h of heights) base = Math.min(base, h);
  base = Math.max(0, base);
  for (let j = 0; j < REGION_GRID; j++) {
    for (let i = 0; i < REGION_GRID; i++) {
      const si = Math.round((i / (REGION_GRID - 1)) * (n - 1));
      const sj = Math.round((j / (REGION_GRID - 1)) * (n - 1));
      // The sea is drawn flat at sea level (heights are metres above it).
      const hgt = Math.max(0, heights[sj * n + si]) - base;
      pos.setY(j * REGION_GRID + i, (hgt / side) * 2 * RELIEF);
    }
  }
  g.computeVertexNormals();
  const mesh = new THREE.Mesh(g, new THREE.MeshStandardMaterial({ map: texture, roughness: 0.9 }));
  mesh.name = 'region';
  return mesh;
}

/**
 * A pin standing on the region where the located point lies (sample
 * (i, j) of the chunk), so a click on the globe can be found again here.
 */
function pinAt(mesh, json, located) {
  const n = json.width;
  const g = mesh.geometry.attributes.position;
  const vi = Math.round((Math.min(located.i, n - 1) / (n - 1)) * (REGION_GRID - 1));
  const vj = Math.round((Math.min(located.j, n - 1) / (n - 1)) * (REGION_GRID - 1));
  const k = vj * REGION_GRID + vi;
  const pin = new THREE.Mesh(new THREE.ConeGeometry(0.025, 0.12, 12), new THREE.MeshStandardMaterial({ color: 0xff3b30 }));
  pin.rotation.x = Math.PI;
  pin.position.set(g.getX(k), g.getY(k) + 0.06, g.getZ(k));
  pin.name = 'pin';
  return pin;
}

/** Lowest and highest height of a chunk, metres. */
function heightRange(heights) {
  let lo = Infinity;
  let hi = -Infinity;
  for (const h of heights) {
    lo = Math.min(lo, h);
    hi = Math.max(hi, h);
  }
  return [lo, hi];
}

function biomeCounts(json) {
  const counts = {};
  const legend = json.biome_legend || [];
  for (const b of json.layers.biome || []) {
    const name = typeof b === 'number' ? (legend[b] && (legend[b].name || legend[b])) || b : b;
    counts[name] = (counts[name] || 0) + 1;
  }
  return counts;
}

function clear(group) {
  for (const child of [...group.children]) {
    group.remove(child);
    child.geometry.dispose();
    if (child.material.map) child.material.map.dispose();
    child.material.dispose();
  }
}

