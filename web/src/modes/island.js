// Island mode: the example world's island for a seed, as the server draws
// it (SVG: coastline, paths with travel minutes, sites by type), beside a
// legend built from the JSON form: each location type with its colour and
// count, and the sites by name. Hovering a legend row highlights its sites.

import { generatorVersions, getJson, getText, query } from '../api.js';
import { el, randomSeed } from '../ui.js';
import { startGame } from './island_play.js';

const LANGS = [['en', 'English'], ['ja', '日本語']];

/** The island URLs of the server, in one place. */
export function islandUrl(seed, format, params) {
  return `/v1/islands/example/${encodeURIComponent(seed)}${query({ format, ...params })}`;
}

export async function mount(ctx) {
  const { view, controls, params, setParams, setStatus, markReady } = ctx;
  let seed = params.get('seed') || '42';
  let lang = LANGS.some(([l]) => l === params.get('lang')) ? params.get('lang') : 'en';
  let data = null;
  /** The seed and language of the map on screen (`seed` is what was asked for). */
  let drawn = null;
  let token = 0;

  const seedInput = controls.text('seed', seed, (v) => {
    seed = v || '0';
    load();
  });
  controls.button('new seed', () => {
    seed = randomSeed();
    seedInput.value = seed;
    load();
  });
  controls.select('names', LANGS, lang, (v) => {
    lang = v;
    load();
  });
  /** The game being played on this map, if any (`play` in the controls). */
  let game = null;
  controls.button('play', async () => {
    if (!data) return;
    game = null;
    const panel = el('div', { class: 'play' });
    legend.replaceChildren(panel);
    game = await startGame({ panel, seed: drawn.seed, lang: drawn.lang, mark: markExplorer, setStatus });
  });

  const figure = el('div', { class: 'figure' });
  const legend = el('div', { class: 'legend' });
  view.append(el('div', { class: 'scroll' }, legend, figure));

  async function load() {
    const mine = ++token;
    const asked = { seed, lang };
    setParams({ seed, lang });
    setStatus(`generating island ${seed}…`);
    try {
      const v = (await generatorVersions()).island;
      const [svg, json] = await Promise.all([
        getText(islandUrl(seed, 'svg', { lang, v })),
        getJson(islandUrl(seed, 'json', { lang, v })),
      ]);
      if (mine !== token) return;
      data = json;
      drawn = asked;
      game = null;
      showSvg(svg);
      showLegend();
      setStatus('');
      markReady();
    } catch (err) {
      if (mine === token) setStatus(`island: ${err.message}`, 'error');
    }
  }

  /** Rings the explorer's site on the map and dims the sites not yet visited. */
  function markExplorer(status) {
    const visited = new Set(status.visited_sites);
    for (const [id, c] of siteCircles()) {
      c.setAttribute('opacity', visited.has(id) ? '1' : '0.45');
      c.setAttribute('stroke', id === status.here.site ? '#ffffff' : 'none');
      c.setAttribute('stroke-width', id === status.here.site ? '4' : '0');
      c.setAttribute('r', id === status.here.site ? '12' : '8');
    }
  }

  function showSvg(text) {
    const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
    const svg = doc.documentElement;
    if (svg.nodeName !== 'svg') throw new Error('the server sent no SVG');
    svg.removeAttribute('width');
    svg.removeAttribute('height');
    svg.style.width = '100%';
    svg.style.maxHeight = `${view.clientHeight - 32}px`;
    figure.replaceChildren(document.importNode(svg, true));
  }

  /** Site id → its circle in the SVG (the circle's title names the site). */
  function siteCircles() {
    const circles = new Map();
    for (const c of figure.querySelectorAll('#sites circle')) {
      const m = /site (\d+)/.exec(c.querySelector('title')?.textContent || '');
      if (m) circles.set(Number(m[1]), c);
    }
    return circles;
  }

  function showLegend() {
    const circles = siteCircles();
    const byType = new Map();
    for (const s of data.sites) {
      if (!byType.has(s.type)) byType.set(s.type, []);
      byType.get(s.type).push(s);
    }
    const highlight = (sites, on) => {
      for (const s of sites) {
        const c = circles.get(s.id);
        if (c) c.setAttribute('r', on ? '12' : '8');
      }
    };
    const types = el('ul', {});
    for (const [type, sites] of [...byType.entries()].sort((a, b) => b[1].length - a[1].length)) {
      const colour = circles.get(sites[0].id)?.getAttribute('fill') || '#888';
      types.append(el('li', { onmouseenter: () => highlight(sites, true), onmouseleave: () => highlight(sites, false) },
        el('span', { class: 'swatch', style: `background: ${colour}; border-radius: 50%` }), type.replace(/_/g, ' '),
        el('span', { class: 'count' }, `× ${sites.length}`)));
    }
    const names = el('ul', {});
    for (const s of [...data.sites].sort((a, b) => a.label.localeCompare(b.label, lang))) {
      names.append(el('li', { onmouseenter: () => highlight([s], true), onmouseleave: () => highlight([s], false) },
        s.label, el('span', { class: 'count' }, s.type.replace(/_/g, ' '))));
    }
    const mst = data.edges.filter((e) => e.mst).length;
    const km = data.edges.reduce((sum, e) => sum + e.meters, 0) / 1000;
    const facts = [`${data.sites.length} sites`, `${mst} spanning-tree paths, ${data.edges.length - mst} detour savers`,
      `${km.toFixed(1)} km of paths`, `seed ${data.seed}, generator v${data.generator_version}`];
    legend.replaceChildren(el('h2', {}, 'Location types'), types, el('h2', {}, 'This island'),
      el('ul', {}, ...facts.map((f) => el('li', {}, f))), el('h2', {}, 'Sites'), names);
  }

  await load();
  return {
    unmount() {
      token++;
    },
    debug: () => ({
      seed,
      lang,
      drawn,
      sites: data ? data.sites.length : 0,
      types: data ? [...new Set(data.sites.map((s) => s.type))] : [],
      game: game ? game.state() : null,
    }),
  };
}
