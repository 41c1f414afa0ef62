// Caves mode against the real server (chunks generated in the workers by
// the WebAssembly package, the default): chunks stream in and draw, W flies
// the drone forward, flying down into the ground or sideways into a wall
// stops at it (the path stays in air by the server's own density), the viewer's density equals
// the server's bit for bit, going below the surface darkens the scene and
// the headlight (R) brightens it again, terrain casts shadows that are
// absent with shadows off, and the frame time is measured with 100+
// chunks loaded, with shadows and without. One page serves every test, in order.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  assertNoErrors, BASE, canvasShot, colourClasses, findCave, holdUntil, luminanceAt, holdUntilStill, launch, openPage, pictureDifference, screenshot,
  waitFor, waitReady,
} from './harness.mjs';

let browser;
let page;
const debug = () => page.evaluate(() => window.mangekyo.debug());
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function holdKey(key, ms) {
  await page.keyboard.down(key);
  await sleep(ms);
  await page.keyboard.up(key);
}

async function serverDensity(x, y, z) {
  const r = await fetch(`${BASE}/v1/caves/42/density?x=${x}&y=${y}&z=${z}`);
  assert.equal(r.status, 200);
  return r.json();
}

/**
 * Colour classes, mean brightness and variance of the 3D view: the canvas
 * alone, with the HUD and help boxes hidden.
 */
async function viewStats(name) {
  const png = await canvasShot(page, name, '#view canvas');
  return colourClasses(page, png);
}

before(async () => {
  browser = await launch();
  page = await openPage(browser, '#caves?seed=42');
  await waitReady(page, 'caves');
});
after(async () => {
  await browser.close();
});

test('chunks stream in and the view is not blank', async () => {
  const chunks = await waitFor(page, () => {
    const c = window.mangekyo.debug().chunks;
    return c && c.meshed >= 12 && c.densities >= 6 ? c : null;
  });
  assert.equal(chunks.errors, 0, `chunk errors: ${chunks.lastError}`);
  await sleep(500);
  const stats = await viewStats('caves_surface');
  assert.ok(stats.variance > 50, `the canvas shows something (variance ${stats.variance.toFixed(1)})`);
  // Terrain (grass or rock) fills a good part of the view, not only sky.
  assert.ok(stats.green + stats.earth > 0.1, `terrain colours drawn: ${JSON.stringify(stats)}`);
  const hud = await page.locator('#hud').textContent();
  assert.match(hud, /chunks \d+/);
  // Generated in the workers (the default), or Server-Timing with chunks
  // the server generated for this request: on the fresh server run.sh
  // starts, every chunk here is.
  if ((await debug()).source === 'wasm') assert.match(hud, /gen [\d.]+ ms \(wasm\)/);
  else assert.match(hud, process.env.MANGEKYO_FRESH ? /gen [\d.]+ ms\s+mesh [\d.]+ ms/ : /gen ([\d.]+|–) ms/);
  assert.equal((await debug()).source, 'wasm', 'the default source, with web/pkg built');
  await screenshot(page, 'caves');
  assertNoErrors(assert, page);
});

test('a click locks the pointer; the mouse turns the camera, pitch clamped to −π/2.1…π/4', async () => {
  const box = await page.locator('#view canvas').boundingBox();
  const [cx, cy] = [box.x + box.width / 2, box.y + box.height / 2];
  await page.mouse.click(cx, cy);
  await page.waitForFunction(() => document.pointerLockElement === document.querySelector('#view canvas'));
  const yaw0 = (await debug()).yaw;
  await page.mouse.move(cx + 200, cy, { steps: 4 });
  const yaw1 = (await debug()).yaw;
  assert.ok(yaw1 < yaw0 - 0.2, `moving right turns the camera (yaw ${yaw0} → ${yaw1})`);
  // 650 px is 1.6 rad: past the top from level, past the bottom from −0.5.
  const [top, bottom] = [box.y + 20, box.y + box.height - 20];
  await page.evaluate(() => window.mangekyo.api.look(0, 0));
  await page.mouse.move(cx, bottom);
  await page.evaluate(() => window.mangekyo.api.look(0, 0));
  await page.mouse.move(cx, top, { steps: 6 });
  assert.equal((await debug()).pitch.toFixed(6), (Math.PI / 4).toFixed(6));
  await page.evaluate(() => window.mangekyo.api.look(0, -0.5));
  await page.mouse.move(cx, bottom, { steps: 6 });
  assert.equal((await debug()).pitch.toFixed(6), (-Math.PI / 2.1).toFixed(6));
  // (Escape is the browser's own key for this; synthetic keys don't reach it.)
  await page.evaluate(() => document.exitPointerLock());
  await page.waitForFunction(() => document.pointerLockElement === null);
  assertNoErrors(assert, page);
});

test('holding W flies the drone forward (relative to the camera yaw)', async () => {
  await page.evaluate(() => window.mangekyo.api.look(0, -0.35));
  await page.evaluate(() => {
    const [x, y, z] = window.mangekyo.debug().position;
    window.mangekyo.api.teleport(x, y + 4, z);
  });
  await sleep(300);
  const before = (await debug()).position;
  // Until it has gone 3 voxels, however slow the frames (or 20 s).
  await holdUntil(page, 'w', async () => before[2] - (await debug()).position[2] > 3);
  const after = (await debug()).position;
  // Yaw 0 looks along −z.
  assert.ok(before[2] - after[2] > 3, `z went from ${before[2]} to ${after[2]}`);
  assert.ok(Math.abs(after[0] - before[0]) < 0.5, `x stayed (${before[0]} → ${after[0]})`);
  assertNoErrors(assert, page);
});

test('flying down into the ground stops at it, and the path stays in air', async () => {
  // A column of plain ground (not a shaft) near the drone, by the densities the viewer holds.
  const column = await page.evaluate(() => {
    const api = window.mangekyo.api;
    const [px, , pz] = window.mangekyo.debug().position;
    for (let r = 0; r < 24; r += 2) {
      for (const [x, z] of [[px + r, pz], [px - r, pz], [px, pz + r], [px, pz - r]]) {
        const top = api.surfaceAt(x, z);
        if (top === null) continue;
        let y = Math.floor(top + 6);
        while (y > top - 6 && api.voxel(Math.floor(x), y, Math.floor(z)) <= 0) y--;
        if (y >= top - 2) return [x, top + 6, z];
      }
    }
    return null;
  });
  assert.ok(column, 'plain ground lies near the drone');
  await page.evaluate(([x, y, z]) => window.mangekyo.api.teleport(x, y, z), column);
  // Space with no chunk loaded counts as rock (the drone never flies into the
  // unknown), so on a slow machine it would stop at a chunk still on its way
  // and then fall on once it lands: wait for every chunk on the way down.
  await waitFor(page, ([x, y, z]) => {
    const api = window.mangekyo.api;
    const [cx, cz] = [Math.floor(x / 32), Math.floor(z / 32)];
    for (let cy = Math.floor((y - 14) / 32); cy <= Math.floor(y / 32); cy++) {
      if (!api.hasDensity(cx, cy, cz)) return false;
    }
    return true;
  }, column);
  await sleep(300);
  const start = (await debug()).position;
  // Down until the drone stops (it has landed), however slow the frames.
  await holdUntilStill(page, 'q', async () => -(await debug()).position[1], { settle: 8 });
  const landed = (await debug()).position;
  await holdKey('q', 800);
  const still = (await debug()).position;
  assert.ok(start[1] - landed[1] > 2, `the drone descended (${start[1]} → ${landed[1]})`);
  assert.ok(Math.abs(still[1] - landed[1]) < 0.3, `the ground stops it (${landed[1]} → ${still[1]})`);
  // By the server's field: every point on the way down is air, and just
  // under the drone there is rock.
  for (let t = 0; t <= 1; t += 0.125) {
    const y = start[1] + (still[1] - start[1]) * t;
    const d = await serverDensity(still[0], y, still[2]);
    assert.ok(d.air, `(${still[0]}, ${y}, ${still[2]}) is rock (${d.density}): the drone passed through`);
  }
  const below = await serverDensity(still[0], still[1] - 2, still[2]);
  assert.ok(!below.air, 'rock lies just below where the drone stopped');
  assertNoErrors(assert, page);
});

test('flying sideways into a wall stops at it; sliding keeps the free axis', async () => {
  // The collision rule on its own, in the page (it imports three): a wall
  // at x = 10 stops an oblique move on x and lets z go on; a wall 0.3
  // voxels thin is not tunnelled through by one long frame.
  const pure = await page.evaluate(async () => {
    const THREE = await import('three');
    const { slide } = await import('./src/modes/caves/movement.js');
    const wall = (x) => x - 10;
    const p = new THREE.Vector3(5, 0, 0);
    const blocked = slide(p, new THREE.Vector3(20, 0, 3), wall, 0.5);
    const thin = (x) => (x >= 10 && x <= 10.3 ? 1 : -1);
    const q = new THREE.Vector3(5, 0, 0);
    slide(q, new THREE.Vector3(30, 0, 0), thin, 0.5);
    return { x: p.x, z: p.z, blocked, thinX: q.x };
  });
  assert.ok(pure.x <= 9.5 + 1e-9 && pure.x > 9, `stopped before the wall at x ${pure.x}`);
  assert.ok(Math.abs(pure.z - 3) < 1e-9 && pure.blocked.x && !pure.blocked.z, `slid along it: ${JSON.stringify(pure)}`);
  assert.ok(pure.thinX < 10, `no tunnelling through a thin wall (x ${pure.thinX})`);

  // In the world: a line of voxels near the drone, air for 5 to 23
  // voxels and then rock (a tunnel wall or a hillside), found in the
  // densities the viewer holds. The drone starts on a voxel exactly, so
  // along the line the field is the voxels' linear blend.
  const spot = await page.evaluate(() => {
    const api = window.mangekyo.api;
    const [px, , pz] = window.mangekyo.debug().position;
    // Yaw 0 looks along −z, π/2 along −x, π along +z, −π/2 along +x.
    const dirs = [[0, -1, 0], [-1, 0, Math.PI / 2], [0, 1, Math.PI], [1, 0, -Math.PI / 2]];
    for (let r = 0; r <= 40; r += 2) {
      for (const [x, z] of [[px + r, pz], [px - r, pz], [px, pz + r], [px, pz - r]]) {
        const [ix, iz] = [Math.floor(x), Math.floor(z)];
        const top = api.surfaceAt(ix, iz);
        if (top === null) continue;
        for (let y = Math.floor(top) + 4; y >= 3; y--) {
          for (const [dx, dz, yaw] of dirs) {
            let k = 0;
            while (k < 24 && api.voxel(ix + dx * k, y, iz + dz * k) < -0.3) k++;
            if (k >= 5 && k < 24 && api.voxel(ix + dx * k, y, iz + dz * k) > 0.3) {
              // Real rock, not a chunk still on its way (which also
              // counts as rock): every chunk along the line is loaded.
              const cells = [];
              for (let j = 0; j <= k + 1; j++) {
                for (const yy of [y - 1, y, y + 1]) {
                  cells.push([Math.floor((ix + dx * j) / 32), Math.floor(yy / 32), Math.floor((iz + dz * j) / 32)]);
                }
              }
              if (cells.every(([cx, cy, cz]) => api.hasDensity(cx, cy, cz))) {
                return { at: [ix, y, iz], dir: [dx, dz], yaw, rock: k, cells };
              }
            }
          }
        }
      }
    }
    return null;
  });
  assert.ok(spot, 'a wall lies near the drone');
  await page.evaluate(({ at: [x, y, z], yaw }) => {
    window.mangekyo.api.teleport(x, y, z);
    window.mangekyo.api.look(yaw, 0);
  }, spot);
  // The teleport moves the loaded window: wait until the chunks along the
  // line are (still) there, so the drone meets the rock and not the unknown.
  await waitFor(page, (cells) => cells.every(([cx, cy, cz]) => window.mangekyo.api.hasDensity(cx, cy, cz)), spot.cells);
  await sleep(300);
  const start = (await debug()).position;
  const along = (p) => (p[0] - start[0]) * spot.dir[0] + (p[2] - start[2]) * spot.dir[1];
  // Forward until the drone stops moving (at the wall), however slow the frames.
  await holdUntilStill(page, 'w', async () => along((await debug()).position), { settle: 8 });
  const stopped = (await debug()).position;
  await holdKey('w', 600);
  const still = (await debug()).position;
  assert.ok(along(stopped) > 2, `the drone flew towards the wall (${along(stopped).toFixed(2)} voxels)`);
  assert.ok(along(stopped) < spot.rock, `and stopped before the rock ${spot.rock} voxels ahead (${along(stopped).toFixed(2)})`);
  assert.ok(Math.abs(along(still) - along(stopped)) < 0.3, 'holding W further does not push it through');
  for (let t = 0; t <= 1; t += 0.125) {
    const p = start.map((s, a) => s + (still[a] - s) * t);
    const d = await serverDensity(...p);
    assert.ok(d.air, `(${p.join(', ')}) is rock (${d.density}): the drone passed through`);
  }
  assertNoErrors(assert, page);
});

test("the viewer's density is the server's, bit for bit", async () => {
  const p = (await debug()).position;
  const points = [];
  for (let i = 0; i < 24; i++) {
    points.push([p[0] + Math.sin(i * 1.7) * 9.3, p[1] + Math.cos(i * 2.3) * 5.1, p[2] + Math.sin(i * 0.9 + 1) * 9.7]);
  }
  points.push([Math.floor(p[0]), Math.floor(p[1]) - 1, Math.floor(p[2])]);
  const server = await Promise.all(points.map(([x, y, z]) => serverDensity(x, y, z)));
  const mine = await page.evaluate((points) => points.map(([x, y, z]) => {
    const d = window.mangekyo.api.densityAt(x, y, z);
    return new Uint32Array(new Float32Array([d]).buffer)[0];
  }), points);
  points.forEach(([x, y, z], i) => {
    assert.equal(mine[i], server[i].density_bits,
      `density at (${x}, ${y}, ${z}): viewer bits ${mine[i]}, server ${server[i].density_bits}`);
  });
});

test('below the surface the scene darkens; the headlight (R) lights it', async () => {
  // The earlier tests may leave the drone in a tunnel (the wall they fly
  // into can be underground), so the lit view is taken above the ground
  // here, looking down at it, whatever came before.
  await page.evaluate(() => {
    const api = window.mangekyo.api;
    const [px, , pz] = window.mangekyo.debug().position;
    api.teleport(px, api.surfaceAt(px, pz) + 8, pz);
    api.look(0.6, -0.35);
  });
  await waitFor(page, () => window.mangekyo.debug().depthFactor === 0);
  await sleep(800);
  const surface = await viewStats('caves_surface_lit');
  const cave = await findCave(page);
  assert.ok(cave, 'a cave lies within the loaded chunks');
  await page.evaluate(([x, y, z]) => window.mangekyo.api.teleport(x, y, z), cave);
  await waitFor(page, () => window.mangekyo.debug().depthFactor === 1);
  await sleep(800);
  const dark = await viewStats('caves_underground');
  const state = await debug();
  assert.equal(state.fogDensity.toFixed(3), '0.040');
  assert.equal(state.ambient.toFixed(2), '0.05');
  assert.equal(state.sun, 0);
  assert.ok(dark.mean < surface.mean * 0.5, `mean brightness ${surface.mean.toFixed(1)} at the surface, ${dark.mean.toFixed(1)} below`);
  await page.keyboard.press('r');
  await sleep(800);
  const lit = await viewStats('caves_headlight');
  assert.equal((await debug()).spotlight, true);
  assert.ok(lit.mean > dark.mean * 1.3, `headlight: mean ${dark.mean.toFixed(1)} → ${lit.mean.toFixed(1)}`);
  await screenshot(page, 'caves_underground_page');
  assertNoErrors(assert, page);
});

test('with shadows on, ridges cast dark regions on their lee sides that are absent with them off', async () => {
  // A world of steeper hills (amplitude 24 over scale 0.015, cave
  // parameters by name in the page's URL: the default surface is too
  // gentle to shadow itself under a 22° sun), above the ground in
  // daylight, looking down: surface points facing the
  // sun (n·l > 0.15) are split by marching from each toward the sun over
  // the heightfield: "shadowed" where terrain rises above the ray, "lit"
  // where nothing does. Their pixels are compared with shadows on and off.
  const hills = await openPage(browser, '#caves?seed=42&amplitude=24&scale=0.015');
  await waitReady(hills, 'caves');
  let found = null;
  const counts = [];
  for (let attempt = 0; attempt < 8 && !found; attempt++) {
    await hills.evaluate((dx) => {
      const api = window.mangekyo.api;
      const [px, , pz] = window.mangekyo.debug().position;
      api.teleport(px + dx, api.surfaceAt(px, pz) + 40, pz);
      api.look(0.4, -1.35);
    }, attempt ? 64 : 0);
    await waitFor(hills, () => {
      const c = window.mangekyo.debug().chunks;
      return c.pending === 0 && c.loading === 0 && c.densities >= 9;
    }, null, 120_000);
    // Where the drone ended up (the teleport's height may be clamped).
    await hills.evaluate(() => {
      const api = window.mangekyo.api;
      const [px, , pz] = window.mangekyo.debug().position;
      api.teleport(px, api.surfaceAt(px, pz) + 40, pz);
    });
    await sleep(600);
    found = await hills.evaluate(() => {
      const api = window.mangekyo.api;
      const [px, , pz] = window.mangekyo.debug().position;
      const l = window.mangekyo.debug().sunDirection;
      const shadowed = [];
      const lit = [];
      for (let x = Math.floor(px) - 20; x <= px + 20; x++) {
        for (let z = Math.floor(pz) - 20; z <= pz + 20; z++) {
          if (Math.hypot(x - px, z - pz) < 5) continue; // under the drone
          const h = api.surfaceAt(x, z);
          const hx = api.surfaceAt(x + 1, z);
          const hz = api.surfaceAt(x, z + 1);
          if ([h, hx, hz].includes(null)) continue;
          const n = [h - hx, 1, h - hz];
          const nl = (n[0] * l[0] + n[1] * l[1] + n[2] * l[2]) / Math.hypot(...n);
          if (nl < 0.15) continue;
          let blocked = false;
          let known = true;
          for (let t = 1.5; t < 30 && !blocked; t += 0.5) {
            const top = api.surfaceAt(x + l[0] * t, z + l[2] * t);
            if (top === null) {
              known = false;
              break;
            }
            blocked = top > h + 0.3 + l[1] * t + 0.5;
          }
          if (!known) continue;
          const at = api.project(x, h, z);
          if (!at) continue;
          (blocked ? shadowed : lit).push(at.map(Math.round));
        }
      }
      return { shadowed, lit };
    });
    counts.push(`${found.shadowed.length}/${found.lit.length}`);
    if (found.shadowed.length < 20 || found.lit.length < 30) found = null;
  }
  assert.ok(found, `a place with terrain shadowing itself near the drone (shadowed/lit points: ${counts.join(', ')})`);
  const on = await canvasShot(hills, 'caves_shadows_on', '#view canvas');
  await hills.evaluate(() => window.mangekyo.api.setShadows(false));
  await sleep(600);
  const off = await canvasShot(hills, 'caves_shadows_off', '#view canvas');
  await hills.evaluate(() => window.mangekyo.api.setShadows(true));
  const median = async (points) => {
    const [a, b] = [await luminanceAt(hills, on, points), await luminanceAt(hills, off, points)];
    const r = a.map((l, i) => l / Math.max(1, b[i])).sort((u, v) => u - v);
    return r[r.length >> 1];
  };
  const ratios = { shadowed: await median(found.shadowed), lit: await median(found.lit) };
  console.log(`shadows: ${found.shadowed.length} points in the lee of the terrain keep ${(ratios.shadowed * 100).toFixed(0)} % `
    + `of their brightness with shadows on, ${found.lit.length} points in the sun ${(ratios.lit * 100).toFixed(0)} % (medians)`);
  // A shadowed point keeps its sky light (hemisphere ambient 0.4) and
  // loses the sun's n·l share: about a fifth at these slopes.
  assert.ok(ratios.shadowed < 0.9, `lee points darken with shadows on (${ratios.shadowed.toFixed(2)} of their brightness)`);
  assert.ok(ratios.lit > 0.97, `points in the sun keep their light (${ratios.lit.toFixed(2)})`);
  assert.ok(ratios.lit - ratios.shadowed > 0.1, 'the dark region is the lee side, not the whole picture');
  assertNoErrors(assert, hills);
  await hills.context().close();
});

test('frame time with 100+ chunks loaded', async () => {
  await page.evaluate(() => window.mangekyo.api.teleport(0.5, 60, 0.5));
  await page.evaluate(() => window.mangekyo.api.look(0.6, -0.5));
  // Every chunk around the new position (not the old one) is in.
  const chunks = await waitFor(page, () => {
    const { chunks: c, position } = window.mangekyo.debug();
    const here = c && c.centre && c.centre[0] === Math.floor(position[0] / 32) && c.centre[2] === Math.floor(position[2] / 32);
    return here && c.loaded >= 100 && c.pending === 0 ? c : null;
  }, undefined, 120_000);
  await sleep(500);
  const shadowed = await page.evaluate(() => window.mangekyo.api.measureFrames(30));
  const withShadows = await debug();
  console.log(`caves frame time with shadows (sun 1024², spotlight off): median ${shadowed.median.toFixed(1)} ms, `
    + `p90 ${shadowed.p90.toFixed(1)} ms (renderer.render ${shadowed.renderMedian.toFixed(1)} ms, ${withShadows.drawCalls} draw calls)`);
  // The rest is measured without: draw calls then count the camera's chunks alone.
  await page.evaluate(() => window.mangekyo.api.setShadows(false));
  await sleep(300);
  const frames = await page.evaluate(() => window.mangekyo.api.measureFrames(30));
  const state = await debug();
  console.log(`caves frame time with ${chunks.loaded} chunks loaded (${chunks.meshed} meshed, ${state.triangles} triangles, `
    + `${state.drawCalls} draw calls) at 1280×720 in headless Chromium (SwiftShader, CPU): `
    + `median ${frames.median.toFixed(1)} ms, p90 ${frames.p90.toFixed(1)} ms over ${frames.frames} frames `
    + `(main thread in renderer.render: median ${frames.renderMedian.toFixed(1)} ms); `
    + (state.source === 'wasm' ? `generation ${chunks.genMs.toFixed(2)} ms per chunk, density and mesh (median; WebAssembly in the workers)`
      : `server gen ${chunks.genMs} ms, mesh ${chunks.meshMs} ms per chunk (median)`));
  await screenshot(page, 'caves_overview');
  // The same view at a quarter of the pixels: how much of the frame is fill.
  await page.setViewportSize({ width: 640, height: 360 });
  await sleep(400);
  const small = await page.evaluate(() => window.mangekyo.api.measureFrames(20));
  console.log(`  … at 640×360: median ${small.median.toFixed(1)} ms, p90 ${small.p90.toFixed(1)} ms over ${small.frames} frames`);
  await page.setViewportSize({ width: 1280, height: 720 });
  await sleep(400);
  assert.ok(chunks.loaded >= 100);
  assert.ok(state.triangles > 10_000, `the measured frames drew the loaded terrain (${state.triangles} triangles)`);
  // Culling by chunk box: only chunks in view are drawn.
  const chunkDraws = state.drawCalls - state.droneMeshes;
  assert.ok(chunkDraws < chunks.meshed, `${chunkDraws} of ${chunks.meshed} chunk meshes drawn`);
  await page.evaluate(() => window.mangekyo.api.setShadows(true));
  assertNoErrors(assert, page);
});

test('the seed field regenerates the world', async () => {
  // The drone's rotors spin on every frame, so two pictures of the same
  // world differ a little: that is the baseline a new world must exceed.
  const before = await canvasShot(page, 'caves_seed_before', '#view canvas');
  await sleep(300);
  const again = await canvasShot(page, 'caves_seed_again', '#view canvas');
  const baseline = await pictureDifference(page, before, again);
  await page.fill('#controls input[type=text]', 'karst');
  await page.press('#controls input[type=text]', 'Enter');
  await waitFor(page, () => window.mangekyo.debug().seed === 'karst' && window.mangekyo.debug().chunks?.meshed >= 12);
  await sleep(500);
  const after = await canvasShot(page, 'caves_seed_after', '#view canvas');
  const changed = await pictureDifference(page, before, after);
  console.log(`caves reseed: picture difference ${changed.toFixed(2)} (same world: ${baseline.toFixed(2)})`);
  assert.ok(changed > Math.max(4 * baseline, 4), `a new world is drawn: difference ${changed.toFixed(2)}, same world ${baseline.toFixed(2)}`);
  const stats = await viewStats('caves_karst');
  assert.ok(stats.green + stats.earth > 0.1, `terrain colours drawn: ${JSON.stringify(stats)}`);
  assert.match(page.url(), /seed=karst/);
  assertNoErrors(assert, page);
});

test('chunks the drone leaves behind are cancelled, not uploaded', async () => {
  // Two jumps in one task: the first starts fetches for land no one has
  // asked the server for, the second leaves before any answer can arrive
  // (answers are handled between tasks), so every job in flight at the
  // first place must be cancelled. Waiting between the jumps would race
  // the server, which can answer a whole disc within one slow frame.
  await waitFor(page, () => {
    const c = window.mangekyo.debug().chunks;
    return c.pending === 0 && c.inFlight === 0;
  });
  const jumped = await page.evaluate(() => {
    const [x, y, z] = window.mangekyo.debug().position;
    const before = window.mangekyo.debug().chunks;
    window.mangekyo.api.teleport(x + 4000, y, z);
    const there = window.mangekyo.debug().chunks;
    window.mangekyo.api.teleport(x + 8000, y, z);
    const after = window.mangekyo.debug().chunks;
    return { before, there, after, away: x + 8000 };
  });
  assert.ok(jumped.there.loading > 0, `the first jump started fetches (${jumped.there.loading} in flight)`);
  assert.equal(jumped.after.cancelled - jumped.before.cancelled, jumped.there.loading,
    'every fetch in flight at the place left behind is cancelled');
  // The new place streams in, and nothing of the old one comes back.
  await waitFor(page, () => window.mangekyo.debug().chunks.loaded >= 4);
  await sleep(500);
  const held = await page.evaluate(() => {
    const [cx, , cz] = window.mangekyo.debug().chunks.centre;
    const far = (x, z) => Math.hypot(x - cx, z - cz) > 6;
    return {
      records: window.mangekyo.api.chunkCoords().filter(([x, , z]) => far(x, z)).length,
      meshes: window.mangekyo.api.meshCoords().filter(([x, , z]) => far(x, z)).length,
      drawn: window.mangekyo.api.meshCoords().length,
    };
  });
  assert.ok(held.drawn > 0, 'the new place is drawn');
  assert.equal(held.records, 0, 'no chunk of the old place is kept');
  assert.equal(held.meshes, 0, 'no mesh of the old place reaches the scene');
  assertNoErrors(assert, page);
});

test('the blocky mesher draws the same world in cubes', async () => {
  await page.selectOption('#controls select >> nth=1', 'blocky');
  await waitFor(page, () => window.mangekyo.debug().mesher === 'blocky' && window.mangekyo.debug().chunks?.meshed >= 12);
  await sleep(500);
  const stats = await viewStats('caves_blocky');
  assert.ok(stats.variance > 50, `the blocky view shows something (variance ${stats.variance.toFixed(1)})`);
  assert.ok(stats.green + stats.earth > 0.1, `terrain colours drawn in cubes: ${JSON.stringify(stats)}`);
  assertNoErrors(assert, page);
});
