// Planet mode: choose a stored planet (or create one), see it as a globe
// (globe.js), and click anywhere to open that region as a 3D heightmap:
// the coarsest-level chunk there of the chosen projection (the server's
// `locate` says which chunk holds the clicked latitude/longitude, so the
// projections are not re-implemented here), its heights (JSON) displacing
// a grid, coloured by the chunk's biome preview, with a pin where the click
// landed. Back returns to the globe. "plate boundaries" draws a version-2
// planet's plate boundaries on the globe (the preview's `overlay=plates`:
// convergent red, divergent cyan, transform yellow). A chunk of a version-2
// planet whose coarse tier is still computing answers 503: the requests
// wait as its Retry-After says, and the status line says so.

import * as THREE from 'three';
import { OrbitControls } from 'three/addons/controls/OrbitControls.js';

import { getJson, postJson } from '../../api.js';
import { el, randomSeed } from '../../ui.js';
import { buildGlobe, loadTexture, mapPointOf } from './globe.js';

/** Vertices along a region's side (the 256-sample chunk is resampled). */
const REGION_GRID = 128;
/** Height exaggeration of a region: its relief is shown this many times taller. */
const RELIEF = 6;
/** The projections a region can be cut from (the server's names). */
const PROJECTIONS = ['equirectangular', 'cube', 'tangent_cube', 'octahedral'];

export async function mount(ctx) {
  const { view, hud, controls, params, setParams, setStatus, markReady } = ctx;
  const renderer = new THREE.WebGLRenderer({ antialias: true });
  renderer.setPixelRatio(Math.min(window.devicePixelRatio || 1, 1.5));
  renderer.outputColorSpace = THREE.SRGBColorSpace;
  view.append(renderer.domElement);
  const help = el('div', { class: 'overlay-help' }, 'drag: turn · wheel: zoom · click the globe: open that region');
  view.append(help);
  const scene = new THREE.Scene();
  scene.background = new THREE.Color(0x05070c);
  const camera = new THREE.PerspectiveCamera(45, 1, 0.01, 100);
  camera.position.set(0, 0.6, 3.2);
  const orbit = new OrbitControls(camera, renderer.domElement);
  orbit.enableDamping = true;
  let interacting = false;
  orbit.addEventListener('start', () => {
    interacting = true;
  });
  orbit.addEventListener('end', () => {
    interacting = false;
  });
  scene.add(new THREE.HemisphereLight(0xffffff, 0x334455, 1.2));
  const sun = new THREE.DirectionalLight(0xffffff, 1.6);
  sun.position.set(4, 2, 3);
  scene.add(sun);
  const globe = new THREE.Group();
  const region = new THREE.Group();
  scene.add(globe, region);

  let planets = [];
  let planet = null;
  let globeInfo = null;
  let regionInfo = null;
  let running = true;
  let token = 0;
  let projection = PROJECTIONS.includes(params.get('projection')) ? params.get('projection') : 'equirectangular';

  const picker = controls.select('planet', [], '', (id) => open(Number(id)));
  const nameInput = controls.text('name', '', () => {}, { placeholder: 'new planet name' });
  const seedInput = controls.text('seed', randomSeed(), () => {});
  controls.button('create', () => create(nameInput.value.trim(), seedInput.value.trim()));
  controls.select('region projection', PROJECTIONS.map((p) => [p, p.replace('_', ' ')]), projection, (p) => {
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
    if (planet) open(planet.id);
  });

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

  async function refreshList(selectId) {
    const list = await getJson('/v1/planets');
    planets = list.planets;
    picker.replaceChildren(...planets.map((p) => el('option', { value: p.id, selected: p.id === selectId }, `${p.name} (#${p.id})`)));
    return planets;
  }

  async function create(name, seedText) {
    const seed = /^\d+$/.test(seedText) ? Number(seedText) : seedText || randomSeed();
    const body = { name: name || `planet-${seed}`, params: { seed: typeof seed === 'number' ? seed : hashSeed(seed) } };
    try {
      const created = await postJson('/v1/planets', body);
      await refreshList(created.id);
      await open(created.id);
    } catch (err) {
      setStatus(`planet: ${err.message}`, 'error');
    }
  }

  async function open(id) {
    const mine = ++token;
    setParams({ planet: id, lat: null, lon: null });
    showGlobe();
    clear(globe);
    setStatus(`planet #${id}: loading the globe…`);
    try {
      planet = await getJson(`/v1/planets/${id}`);
      if (!planet.space) throw new Error(`planet #${id} is from a generator version this server does not run`);
      // Plates exist from generator version 2.
      const hasPlates = planet.generator_version >= 2;
      plateBox.disabled = !hasPlates;
      globeInfo = await buildGlobe(planet, globe, hasPlates ? overlay : 'none', (s) => {
        if (mine === token) setStatus(`planet #${id}: its coarse tier is still computing; retrying in ${s} s…`);
      });
      if (mine !== token) return;
      setStatus('');
      markReady();
    } catch (err) {
      if (mine === token) setStatus(`planet: ${err.message}`, 'error');
    }
  }

  function showGlobe() {
    globe.visible = true;
    region.visible = false;
    regionInfo = null;
    back.disabled = true;
    orbit.target.set(0, 0, 0);
    camera.position.set(0, 0.6, 3.2);
    orbit.minDistance = 1.3;
    orbit.maxDistance = 8;
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
      const json = await getJson(`${located.chunk}&format=json&layers=height,biome&edge=shared`, {}, (s) => {
        if (mine === token) setStatus(`the planet's coarse tier is still computing; retrying in ${s} s…`);
      });
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
      globe.visible = false;
      region.visible = true;
      back.disabled = false;
      orbit.target.set(0, 0, 0);
      camera.position.set(0, 1.3, 1.9);
      orbit.minDistance = 0.3;
      orbit.maxDistance = 5;
      setParams({ lat: point.lat.toFixed(3), lon: point.lon.toFixed(3) });
      setStatus('');
    } catch (err) {
      if (mine === token) setStatus(`region: ${err.message}`, 'error');
    }
  }

  const pointer = new THREE.Vector2();
  const raycaster = new THREE.Raycaster();
  let downAt = null;
  renderer.domElement.addEventListener('pointerdown', (e) => {
    downAt = [e.clientX, e.clientY];
  });
  renderer.domElement.addEventListener('pointerup', (e) => {
    // A click, not the end of a drag.
    if (!downAt || Math.hypot(e.clientX - downAt[0], e.clientY - downAt[1]) > 4) return;
    if (!globe.visible || !globeInfo) return;
    const rect = renderer.domElement.getBoundingClientRect();
    pointer.set(((e.clientX - rect.left) / rect.width) * 2 - 1, -((e.clientY - rect.top) / rect.height) * 2 + 1);
    raycaster.setFromCamera(pointer, camera);
    const hit = raycaster.intersectObjects(globe.children)[0];
    if (hit) {
      const { lat, lon } = mapPointOf(hit.uv);
      openRegion({ lat, lon });
    }
  });

  function frame() {
    if (!running) return;
    requestAnimationFrame(frame);
    orbit.update();
    if (globe.visible && !interacting) globe.rotation.y += 0.0008;
    renderer.render(scene, camera);
    hud.textContent = !planet ? '' : regionInfo
      ? `${planet.name} · region ${regionInfo.lat.toFixed(2)}°, ${regionInfo.lon.toFixed(2)}° · ${regionInfo.projection.replace('_', ' ')}${regionInfo.face ? ` face ${regionInfo.face}` : ''} lod ${regionInfo.lod} chunk (${regionInfo.cx}, ${regionInfo.cy}) · ${regionInfo.width}² samples · ${regionInfo.relief[0].toFixed(0)}…${regionInfo.relief[1].toFixed(0)} m · relief ×${RELIEF}`
      : `${planet.name} · seed ${planet.params.seed} · radius ${(planet.params.radius / 1000).toFixed(0)} km · ${planet.params.pixel_size} m samples · click a region (lod ${globeInfo ? globeInfo.lod : '–'} chunks, ${globeInfo ? globeInfo.grid.join(' × ') : ''})`;
  }
  requestAnimationFrame(frame);

  const list = await refreshList(Number(params.get('planet')));
  const wanted = list.find((p) => p.id === Number(params.get('planet'))) || list[0];
  if (wanted) await open(wanted.id);
  else await create('Aurora', '42');

  window.mangekyo.api = {
    openRegion: (lat, lon) => openRegion({ lat, lon }),
    showGlobe,
    /** The globe's texture as drawn (for tests that read its pixels). */
    globeImage: () => globe.children.find((m) => m.material.map)?.material.map.image ?? null,
  };
  return {
    unmount() {
      running = false;
      token++;
      observer.disconnect();
      orbit.dispose();
      clear(globe);
      clear(region);
      renderer.dispose();
      renderer.forceContextLoss();
      delete window.mangekyo.api;
    },
    debug: () => ({
      planet: planet && { id: planet.id, name: planet.name },
      planets: planets.length,
      globe: globeInfo,
      textured: globe.children.some((m) => m.material.map),
      region: regionInfo && { ...regionInfo, pinned: region.children.some((m) => m.name === 'pin') },
    }),
  };
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

/** A text seed as a number (FNV-1a), for planet parameters that take integers. */
function hashSeed(text) {
  let h = 0x811c9dc5;
  for (const c of new TextEncoder().encode(text)) h = Math.imul(h ^ c, 0x01000193) >>> 0;
  return h;
}
