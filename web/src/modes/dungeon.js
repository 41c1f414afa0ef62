// Dungeon mode: a Hengband fractal room, cavern, lake or level from
// `/v1/dungeon/{kind}/{seed}` (JSON), drawn cell by cell on a grid with a
// legend of the features present; rooms of a level are outlined and
// numbered. Hovering a cell names its feature and flags.

import { generatorVersions, getJson, query } from '../api.js';
import { el, randomSeed } from '../ui.js';

/** The server's kinds, with the path segment each is served under. */
const KINDS = [
  ['levels', 'Level (rooms + corridors)'],
  ['caverns', 'Cavern'],
  ['rooms', 'Fractal room'],
  ['lakes', 'Lake'],
];

/**
 * Feature colours, the same as the server's PNG view
 * (`mangekyo_dungeon::view::rgb`), so the two pictures agree; unlit
 * floor-like cells are drawn at 70 %, as there.
 */
export const FEATURE_COLOURS = {
  floor: [200, 200, 190],
  dirt_floor: [170, 135, 95],
  moss_floor: [120, 165, 100],
  granite: [70, 66, 62],
  outer_wall: [125, 110, 95],
  permanent_wall: [30, 30, 40],
  deep_lava: [200, 40, 10],
  shallow_lava: [245, 130, 40],
  deep_water: [25, 50, 160],
  shallow_water: [70, 130, 225],
  rubble: [135, 115, 85],
  grass: [70, 170, 60],
  tree: [25, 95, 35],
};
const WALLS = new Set(['granite', 'outer_wall', 'permanent_wall']);

/** The largest cell side drawn, in CSS pixels. */
const MAX_CELL_PX = 14;

export async function mount(ctx) {
  const { view, controls, params, setParams, setStatus, markReady } = ctx;
  let kind = KINDS.some(([k]) => k === params.get('kind')) ? params.get('kind') : 'levels';
  let seed = params.get('seed') || '42';
  let data = null;
  /** The kind and seed of the grid on screen (`kind`/`seed` are what was asked for). */
  let drawn = null;
  let fetchToken = 0;

  controls.select('kind', KINDS, kind, (v) => {
    kind = v;
    load();
  });
  const seedInput = controls.text('seed', seed, (v) => {
    seed = v || '0';
    load();
  });
  controls.button('new seed', () => {
    seed = randomSeed();
    seedInput.value = seed;
    load();
  });

  const canvas = el('canvas', { 'aria-label': 'dungeon grid' });
  const legend = el('div', { class: 'legend' });
  const info = el('div', { class: 'cell-info' });
  view.append(el('div', { class: 'scroll' }, legend, el('div', { class: 'figure' }, canvas)));
  legend.append(info);

  const onResize = () => data && draw();
  window.addEventListener('resize', onResize);
  canvas.addEventListener('mousemove', (e) => hover(e));

  async function load() {
    const token = ++fetchToken;
    const asked = { kind, seed };
    setParams({ kind, seed });
    setStatus(`generating ${kind} ${seed}…`);
    try {
      const v = (await generatorVersions()).dungeon;
      const json = await getJson(`/v1/dungeon/${kind}/${encodeURIComponent(seed)}${query({ format: 'json', v })}`);
      if (token !== fetchToken) return;
      data = json;
      drawn = asked;
      setStatus('');
      draw();
      markReady();
    } catch (err) {
      if (token !== fetchToken) return;
      setStatus(`dungeon: ${err.message}`, 'error');
    }
  }

  function cellSize() {
    const { width, height } = data.grid;
    const room = canvas.parentElement.getBoundingClientRect();
    const fit = Math.min((room.width - 8) / width, (view.clientHeight - 40) / height);
    return Math.max(2, Math.min(MAX_CELL_PX, Math.floor(fit)));
  }

  function draw() {
    const { width, height, features, flags } = data.grid;
    const s = cellSize();
    const dpr = window.devicePixelRatio || 1;
    canvas.width = width * s * dpr;
    canvas.height = height * s * dpr;
    canvas.style.width = `${width * s}px`;
    canvas.style.height = `${height * s}px`;
    const g = canvas.getContext('2d');
    g.setTransform(dpr, 0, 0, dpr, 0, 0);
    const counts = new Map();
    for (let i = 0; i < features.length; i++) {
      const f = features[i];
      counts.set(f, (counts.get(f) || 0) + 1);
      const lit = WALLS.has(f) || flags[i].includes('glow');
      const [r, gr, b] = FEATURE_COLOURS[f] || [255, 0, 255];
      const k = lit ? 1 : 0.7;
      g.fillStyle = `rgb(${r * k | 0},${gr * k | 0},${b * k | 0})`;
      g.fillRect((i % width) * s, Math.floor(i / width) * s, s, s);
    }
    if (s >= 6) drawGridLines(g, width, height, s);
    if (Array.isArray(data.rooms)) drawRooms(g, data.rooms, s);
    drawLegend(counts);
  }

  function drawGridLines(g, width, height, s) {
    g.strokeStyle = 'rgba(0,0,0,0.18)';
    g.lineWidth = 1;
    g.beginPath();
    for (let x = 0; x <= width; x++) {
      g.moveTo(x * s + 0.5, 0);
      g.lineTo(x * s + 0.5, height * s);
    }
    for (let y = 0; y <= height; y++) {
      g.moveTo(0, y * s + 0.5);
      g.lineTo(width * s, y * s + 0.5);
    }
    g.stroke();
  }

  function drawRooms(g, rooms, s) {
    g.lineWidth = 2;
    g.font = `${Math.max(10, s * 1.4)}px system-ui, sans-serif`;
    g.textAlign = 'center';
    g.textBaseline = 'middle';
    rooms.forEach((room, i) => {
      const [x0, y0, x1, y1] = room.rect;
      g.strokeStyle = 'rgba(108,182,255,0.85)';
      g.strokeRect(x0 * s + 1, y0 * s + 1, (x1 - x0 + 1) * s - 2, (y1 - y0 + 1) * s - 2);
      const [cx, cy] = room.centre;
      g.fillStyle = 'rgba(13,17,23,0.8)';
      g.fillText(String(i + 1), (cx + 0.5) * s, (cy + 0.5) * s);
    });
  }

  function drawLegend(counts) {
    const items = [...counts.entries()].sort((a, b) => b[1] - a[1]);
    const total = data.grid.width * data.grid.height;
    const list = el('ul', {});
    for (const [name, n] of items) {
      const [r, g, b] = FEATURE_COLOURS[name] || [255, 0, 255];
      list.append(
        el('li', {}, el('span', { class: 'swatch', style: `background: rgb(${r},${g},${b})` }), name.replace(/_/g, ' '),
          el('span', { class: 'count' }, `${((100 * n) / total).toFixed(1)} %`)),
      );
    }
    const facts = [`${data.grid.width} × ${data.grid.height} cells`, `seed ${data.seed}`, `generator v${data.version}`];
    if (Array.isArray(data.rooms)) facts.push(`${data.rooms.length} rooms, ${data.corridors} corridors`);
    if (data.attempts !== undefined) facts.push(`${data.attempts} attempt${data.attempts === 1 ? '' : 's'}`);
    legend.replaceChildren(el('h2', {}, 'Features'), list, el('h2', {}, 'This grid'),
      el('ul', {}, ...facts.map((f) => el('li', {}, f))), info);
  }

  function hover(e) {
    if (!data) return;
    const s = canvas.getBoundingClientRect().width / data.grid.width;
    const x = Math.floor(e.offsetX / s);
    const y = Math.floor(e.offsetY / s);
    if (x < 0 || y < 0 || x >= data.grid.width || y >= data.grid.height) return;
    const i = y * data.grid.width + x;
    info.textContent = `(${x}, ${y}) ${data.grid.features[i]} [${data.grid.flags[i].join(', ')}]`;
  }

  await load();
  return {
    unmount() {
      fetchToken++;
      window.removeEventListener('resize', onResize);
    },
    debug: () => ({ kind, seed, drawn, width: data && data.grid.width, height: data && data.grid.height }),
  };
}
