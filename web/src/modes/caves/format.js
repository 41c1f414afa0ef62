// Decoders of the caves crate's compact chunk forms (`mangekyo_caves::wire`,
// which documents them; the server serves them at
// /v1/caves/{seed}/chunks/{cx}/{cy}/{cz}?format=mesh|density). Little-endian;
// every array is a view on the fetched buffer, never a copy.
//
// Mesh "MKCM": 0 magic · 4 u16 version · 6 u8 kind (0 smooth, 1 blocky) ·
//   8 u32 vertex count V · 12 u32 index count I · 16 f64 origin x, y, z ·
//   40 u32 generator version · 48 f32 positions [3V] (voxels from the
//   origin), f32 normals [3V], u8 sky [V] (255 = open sky) padded to 4,
//   u32 indices [I].
// Density "MKCD": 0 magic · 4 u16 version · 8 u32 nx, ny, nz (33 each) ·
//   20 u32 generator version · 24 f64 origin x, y, z · 48 f32 densities
//   [nx·ny·nz] ((z·ny + y)·nx + x; > 0 rock) · f32 surface heights [nx·nz].

export const FORMAT_VERSION = 1;
const HEADER = 48;

function check(buffer, magic) {
  if (buffer.byteLength < HEADER) throw new Error(`a ${buffer.byteLength}-byte answer is no ${magic} block`);
  const got = String.fromCharCode(...new Uint8Array(buffer, 0, 4));
  if (got !== magic) throw new Error(`expected ${magic}, got magic ${JSON.stringify(got)}`);
  const view = new DataView(buffer);
  const version = view.getUint16(4, true);
  if (version !== FORMAT_VERSION) throw new Error(`${magic} version ${version} is not the supported ${FORMAT_VERSION}`);
  return view;
}

function expectLength(buffer, want, magic) {
  if (buffer.byteLength !== want) throw new Error(`${magic}: ${buffer.byteLength} bytes, its header says ${want}`);
}

const origin = (view, at) => [0, 1, 2].map((a) => view.getFloat64(at + 8 * a, true));

/** A mesh as typed-array views; `buffers` lists what to transfer. */
export function decodeMesh(buffer) {
  const view = check(buffer, 'MKCM');
  const kind = view.getUint8(6) === 1 ? 'blocky' : 'smooth';
  const v = view.getUint32(8, true);
  const i = view.getUint32(12, true);
  const skyAt = HEADER + 24 * v;
  const indexAt = Math.ceil((skyAt + v) / 4) * 4;
  expectLength(buffer, indexAt + 4 * i, 'MKCM');
  return {
    kind,
    origin: origin(view, 16),
    generatorVersion: view.getUint32(40, true),
    vertices: v,
    positions: new Float32Array(buffer, HEADER, 3 * v),
    normals: new Float32Array(buffer, HEADER + 12 * v, 3 * v),
    sky: new Uint8Array(buffer, skyAt, v),
    indices: new Uint32Array(buffer, indexAt, i),
    buffers: [buffer],
  };
}

/** A density block: `min` is the world voxel of sample (0, 0, 0). */
export function decodeDensity(buffer) {
  const view = check(buffer, 'MKCD');
  const size = [view.getUint32(8, true), view.getUint32(12, true), view.getUint32(16, true)];
  const count = size[0] * size[1] * size[2];
  expectLength(buffer, HEADER + 4 * (count + size[0] * size[2]), 'MKCD');
  return {
    min: origin(view, 24),
    size,
    generatorVersion: view.getUint32(20, true),
    uniform: false,
    densities: new Float32Array(buffer, HEADER, count),
    surface: new Float32Array(buffer, HEADER + 4 * count, size[0] * size[2]),
    buffers: [buffer],
  };
}

/** `Server-Timing: gen;dur=1.2, mesh;dur=0.4` → `{ gen: 1.2, mesh: 0.4 }` (ms). */
export function serverTiming(header) {
  const out = {};
  if (!header) return out;
  for (const part of header.split(',')) {
    const [name, ...fields] = part.trim().split(';');
    const dur = fields.map((f) => f.trim()).find((f) => f.startsWith('dur='));
    if (name && dur) out[name] = Number(dur.slice(4));
  }
  return out;
}
