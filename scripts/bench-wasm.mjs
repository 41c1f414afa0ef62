// Times the WebAssembly package (web/pkg, scripts/build-wasm) under Node on
// the chunks the native criterion benches time, so the two can be read
// side by side: `node scripts/bench-wasm.mjs` beside
// `cargo bench -p mangekyo-bench --bench caves -- density_smooth/tubes` and
// `RAYON_NUM_THREADS=1 cargo bench -p mangekyo-bench --bench planet -- planet_chunk_water`.
// Prints the median of repeated runs per chunk (ms). Node's clock, one
// thread; the machine is shared, so read the medians, not single runs.

import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const pkgDir = process.argv[2] || join(dirname(fileURLToPath(import.meta.url)), '../web/pkg');
const pkg = await import(join(pkgDir, 'mangekyo.js'));
await pkg.default({ module_or_path: readFileSync(join(pkgDir, 'mangekyo_bg.wasm')) });

function median(runs, fn) {
  fn();
  const times = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    fn();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return times[times.length >> 1];
}

const caves = new pkg.CaveWorld('42', '{"mode":"tubes"}');
// The criterion bench's chunks: the origin and the densest at cy = 0
// (the chunk with the most smooth triangles among x, z in -4..4).
let densest = [0, 0, 0];
let most = -1;
for (let z = -4; z < 4; z++) {
  for (let x = -4; x < 4; x++) {
    const bytes = caves.chunk(x, 0, z, 'mesh', 'smooth');
    const view = new DataView(bytes.buffer, bytes.byteOffset);
    // MKCM header: magic, version u16, kind u8, pad u8, vertices u32, indices u32, …
    const indices = view.getUint32(12, true);
    if (indices > most) {
      most = indices;
      densest = [x, 0, z];
    }
  }
}
for (const [name, c] of [['origin', [0, 0, 0]], ['densest', densest]]) {
  const ms = median(200, () => caves.chunk(...c, 'mesh', 'smooth'));
  console.log(`caves tubes_${name} ${JSON.stringify(c)}: density + smooth mesh + MKCM ${ms.toFixed(3)} ms`);
}
// The planet bench's version-1 chunks: the default planet at the mountain
// (lat 10°, lon 20°) and lowland (47°, 96°) spots, tangent cube, lods 0 and 9.
const planet = new pkg.Planet('{"generator_version": 1}');
for (const [place, lat, lon] of [['mountain', 10, 20], ['lowland', 47, 96]]) {
  for (const lod of [0, 9]) {
    const [cx, cy] = planet.locate('tangent_cube', lod, lat, lon);
    const ms = median(20, () => planet.chunk('tangent_cube', lod, cx, cy));
    console.log(`planet v1 ${place}_lod${lod} (${cx}, ${cy}), all layers, 256² as JSON text: ${ms.toFixed(1)} ms`);
  }
}
