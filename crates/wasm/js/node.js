// The package's entry point under Node (package.json `exports`, condition
// `node`): everything mangekyo.js exports, with an `init()` that also works
// without arguments. wasm-bindgen's browser glue fetches mangekyo_bg.wasm
// by URL, and Node's fetch does not read file: URLs, so here the file is
// read from disk instead. Browsers and bundlers take mangekyo.js itself.
import initWeb from './mangekyo.js';
import { readFile } from 'node:fs/promises';

export * from './mangekyo.js';

const WASM = new URL('./mangekyo_bg.wasm', import.meta.url);

/**
 * Loads the WebAssembly module: with no argument (or a file: URL) from
 * the package's own mangekyo_bg.wasm; anything else as mangekyo.js's init.
 */
export default async function init(input) {
  let source = input && typeof input === 'object' && 'module_or_path' in input ? input.module_or_path : input;
  if (source === undefined) source = WASM;
  if (source instanceof URL && source.protocol === 'file:') {
    return initWeb({ module_or_path: await readFile(source) });
  }
  return initWeb(input === undefined ? { module_or_path: source } : input);
}
