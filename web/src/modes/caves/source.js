// Where cave chunks come from. By default the chunk workers generate them
// with the WebAssembly package (web/pkg, built by scripts/build-wasm; the
// same bytes as the server's, see crates/wasm), so the viewer also runs
// from static files; `?source=server` fetches them from `mangekyo serve`
// instead, and `?source=wasm` insists on the package. Without the package
// (a checkout where scripts/build-wasm has not run) the default falls back
// to the server and says so.

import { generatorVersions, getJson, query } from '../../api.js';

/** The package's ES module, relative to this file (web/pkg/mangekyo.js). */
const PACKAGE_URL = new URL('../../../pkg/mangekyo.js', import.meta.url).href;

let loaded = null;
/** The initialised package (loaded once per page and once per worker). */
export function loadPackage() {
  if (!loaded) {
    loaded = import(PACKAGE_URL).then(async (pkg) => {
      await pkg.default();
      return pkg;
    });
    loaded.catch(() => {
      loaded = null;
    });
  }
  return loaded;
}

/** The page parameters that are the viewer's own; every other one is a cave parameter. */
const VIEWER_KEYS = new Set(['seed', 'cave', 'radius', 'mesher', 'source', 'digests', 'shadows', 'x', 'y', 'z']);

/**
 * The cave parameters in the page's parameters (`amplitude=24`,
 * `scale=0.015`, … by the names of `CaveParams`, as the server's query
 * takes them): numbers as numbers. An unknown name is refused by the
 * generator, by name.
 */
export function caveParams(params) {
  const out = {};
  for (const [k, v] of params) {
    if (VIEWER_KEYS.has(k)) continue;
    out[k] = v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : v;
  }
  return out;
}

/** `'server'`, `'wasm'` or `'auto'` from the page's parameters. */
export function wantedSource(params) {
  const s = params.get('source');
  return s === 'server' || s === 'wasm' ? s : 'auto';
}

/**
 * Opens a cave world (`extra`: more cave parameters) from the chosen
 * source: `{ source, manifest, job }`,
 * where `job(kind, cx, cy, cz)` is what a chunk worker is told to load
 * (`{ url }` or `{ generate }`), and `note` says why the server is used
 * when the package was wanted but missing.
 */
export async function openWorld({ wanted, seed, mode, mesher, extra = {} }) {
  let note = null;
  if (wanted !== 'server') {
    try {
      const pkg = await loadPackage();
      const params = JSON.stringify({ ...extra, mode });
      const world = new pkg.CaveWorld(seed, params);
      let manifest;
      try {
        manifest = JSON.parse(world.manifest());
      } finally {
        world.free();
      }
      const job = (kind, cx, cy, cz) => ({
        generate: { seed, params, format: kind, mesher, coord: [cx, cy, cz] },
      });
      return { source: 'wasm', manifest, job, note };
    } catch (err) {
      if (wanted === 'wasm') throw new Error(`the WebAssembly package did not load: ${err.message}`);
      note = `generating on the server: the WebAssembly package did not load (${err.message})`;
    }
  }
  const version = (await generatorVersions()).caves;
  const base = `/v1/caves/${encodeURIComponent(seed)}`;
  const common = { ...extra, v: version, mode };
  const manifest = await getJson(`${base}${query(common)}`);
  const job = (kind, cx, cy, cz) => ({
    url: `${base}/chunks/${cx}/${cy}/${cz}${query({ format: kind, mesher: kind === 'mesh' && mesher !== 'smooth' ? mesher : null, ...common })}`,
  });
  return { source: 'server', manifest, job, note };
}
