// Runs a wasm32-wasip1 test binary under Node's WebAssembly (cargo's
// runner for that target): the same bits as native, proven by the tests'
// own golden hashes. Usage: node scripts/wasi-run.mjs file.wasm [args…]
import { readFile } from 'node:fs/promises';
import { WASI } from 'node:wasi';
import process from 'node:process';

const [file, ...args] = process.argv.slice(2);
const wasi = new WASI({
  version: 'preview1',
  args: [file, ...args],
  env: process.env,
  preopens: { '/': '/' },
  returnOnExit: true,
});
const module = await WebAssembly.compile(await readFile(file));
const instance = await WebAssembly.instantiate(module, wasi.getImportObject());
process.exitCode = wasi.start(instance);
