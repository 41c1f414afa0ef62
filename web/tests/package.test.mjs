// The WebAssembly package as its README says (no browser): every ```js
// example of web/pkg/README.md (crates/wasm/README.md, copied there by
// scripts/build-wasm) runs unchanged in a fresh Node process that imports
// the package by its name, as `npm install mangekyo` would lay it out,
// followed by checks of what the example's last `const` holds. A README
// example that throws, or one whose value nobody checks, fails here.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PKG = join(dirname(fileURLToPath(import.meta.url)), '..', 'pkg');

/** What each example's value must be, by the name the README gives it. */
const CHECKS = {
  mkcm: `if (!(mkcm instanceof Uint8Array) || mkcm.length < 1000 || String.fromCharCode(...mkcm.slice(0, 4)) !== 'MKCM')
    throw new Error('mkcm is not a cave mesh: ' + mkcm?.length);`,
  heights: `if (!(heights instanceof Float32Array) || heights.length !== 256 * 256 || !heights.every(Number.isFinite))
    throw new Error('heights is not 256² finite samples (the default exclusive edge): ' + heights?.length);
  if (Math.max(...heights) - Math.min(...heights) <= 0) throw new Error('a flat chunk');`,
};

/** The README's ```js blocks. */
function examples(readme) {
  return [...readme.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]);
}

test('the package README examples run as written in Node', { timeout: 300_000 }, () => {
  assert.ok(existsSync(join(PKG, 'package.json')), `${PKG} is missing: scripts/build-wasm builds it`);
  const readme = readFileSync(join(PKG, 'README.md'), 'utf8');
  const blocks = examples(readme);
  assert.ok(blocks.length >= 2, 'the README shows a cave and a planet example');
  const app = mkdtempSync(join(tmpdir(), 'mangekyo-npm-'));
  try {
    // The layout `npm install` gives: node_modules/mangekyo holding the
    // package's files, resolved by name through package.json's exports.
    cpSync(PKG, join(app, 'node_modules', 'mangekyo'), { recursive: true });
    writeFileSync(join(app, 'package.json'), '{"type": "module", "private": true}');
    blocks.forEach((code, k) => {
      const names = [...code.matchAll(/^const (\w+)/gm)].map((m) => m[1]);
      const name = names.at(-1);
      assert.ok(name in CHECKS, `example ${k + 1} defines ${name}, which this test does not check:\n${code}`);
      const file = join(app, `example-${k + 1}.mjs`);
      writeFileSync(file, `${code}\n${CHECKS[name]}\nconsole.log('ok ${name}');\n`);
      const out = execFileSync(process.execPath, [file], { cwd: app, encoding: 'utf8', timeout: 240_000 });
      assert.match(out, new RegExp(`ok ${name}`), `example ${k + 1}`);
    });
    // The browser's entry point stays wasm-bindgen's own module.
    const manifest = JSON.parse(readFileSync(join(PKG, 'package.json'), 'utf8'));
    assert.equal(manifest.exports['.'].default, './mangekyo.js');
    assert.equal(manifest.exports['.'].node, './node.js');
    for (const f of manifest.files) assert.ok(existsSync(join(PKG, f)), `package.json lists ${f}, which is missing`);
  } finally {
    rmSync(app, { recursive: true, force: true });
  }
});
