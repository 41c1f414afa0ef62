// The viewer's entry: one mode at a time, chosen by the URL's hash
// (`#caves`, `#planet?planet=3`, `#dungeon?kind=level&seed=42`), so every
// view has a link. Each mode module exports `mount(ctx)` and returns
// `{ unmount(), debug() }`; `window.mangekyo` exposes the mounted mode's
// state for the browser tests and the console.

import { accessToken } from './api.js';
import { controlsPanel } from './ui.js';

// A `?token=` the operator gave is kept in this browser before anything
// else reads or rewrites the address (see api.js).
accessToken();

const MODES = {
  caves: () => import('./modes/caves/index.js'),
  planet: () => import('./modes/planet/index.js'),
  island: () => import('./modes/island.js'),
  dungeon: () => import('./modes/dungeon.js'),
};
const DEFAULT_MODE = 'caves';

const view = document.getElementById('view');
const hud = document.getElementById('hud');
const statusLine = document.getElementById('status');
const controls = document.getElementById('controls');
const noteLine = document.getElementById('note');

/** What the tests and the console see. */
const viewer = {
  mode: null,
  ready: false,
  debug: () => (current && current.debug ? current.debug() : {}),
};
window.mangekyo = viewer;

let current = null;
let mounting = 0;

/** The hash as a mode name and its parameters. */
function parseHash() {
  const [name, query] = location.hash.replace(/^#/, '').split('?');
  const mode = name in MODES ? name : DEFAULT_MODE;
  return { mode, params: new URLSearchParams(query || '') };
}

/** Rewrites the hash's parameters without remounting the mode. */
function setParams(values) {
  const { mode, params } = parseHash();
  for (const [k, v] of Object.entries(values)) {
    if (v === null || v === undefined || v === '') params.delete(k);
    else params.set(k, String(v));
  }
  const query = params.toString();
  history.replaceState(null, '', `#${mode}${query ? `?${query}` : ''}`);
}

/** Text as nodes, its backquoted parts (commands, file names) as `code`. */
function withCode(text) {
  return String(text || '').split('`').map((part, i) => (i % 2 ? Object.assign(document.createElement('code'), { textContent: part }) : part));
}

/**
 * A mode's standing remark in the header (not the status line, which
 * says what is happening now).
 */
function setNote(text) {
  noteLine.replaceChildren(...withCode(text));
}

function setStatus(text, kind = 'info') {
  statusLine.replaceChildren(...withCode(text));
  statusLine.className = kind === 'error' ? 'error' : '';
}

async function route() {
  const { mode, params } = parseHash();
  if (current && viewer.mode === mode && current.update) {
    current.update(params);
    return;
  }
  const token = ++mounting;
  if (current) {
    current.unmount();
    current = null;
  }
  viewer.mode = mode;
  viewer.ready = false;
  view.replaceChildren();
  controls.replaceChildren();
  hud.textContent = '';
  setStatus('');
  setNote('');
  for (const a of document.querySelectorAll('#modes a')) a.classList.toggle('active', a.dataset.mode === mode);
  const module = await MODES[mode]();
  if (token !== mounting) return;
  const ctx = {
    view,
    hud,
    controls: controlsPanel(controls),
    params,
    setParams,
    setStatus,
    setNote,
    markReady: () => {
      if (token === mounting) viewer.ready = true;
    },
  };
  try {
    current = await module.mount(ctx);
  } catch (err) {
    setStatus(`${mode}: ${err.message}`, 'error');
    throw err;
  }
}

window.addEventListener('hashchange', route);
route();
