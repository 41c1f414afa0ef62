// Shared pieces of the browser tests: one headless Chromium per test file,
// pages that fail their test on any console error, picture statistics
// computed by the browser itself from a screenshot (no PNG library), and a
// `mangekyo serve` of a test's own (another --web directory).

import { chromium } from 'playwright-core';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const BASE = process.env.MANGEKYO_URL || 'http://127.0.0.1:8080';
export const SCREENSHOTS = join(dirname(fileURLToPath(import.meta.url)), 'screenshots');

/**
 * Chromium without a GPU: Chrome no longer falls back to SwiftShader by
 * itself, so WebGL needs it asked for explicitly (else context creation
 * fails and a canvas test would pass on nothing).
 */
const FLAGS = [
  '--headless', '--no-sandbox', '--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--disable-gpu-sandbox',
  '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run',
  '--ignore-gpu-blocklist', '--disable-renderer-backgrounding', '--disable-background-timer-throttling',
];

export async function launch() {
  return chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: FLAGS, headless: true });
}

/**
 * A fresh page at 1280×720 that records console errors and uncaught
 * exceptions in `page.errors` (checked by `assertNoErrors`). A 503 is the
 * server saying "the coarse tier is computing, retry after N s", which the
 * viewer does (`fetchRetrying`); the browser logs each one as a console
 * error, so they are counted in `page.waits` instead. A 503 that the
 * viewer gave up on still fails the test: what it was loading never
 * arrives.
 */
export async function openPage(browser, path, base = BASE) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  const page = await context.newPage();
  page.errors = [];
  page.waits = 0;
  page.on('console', (msg) => {
    if (msg.type() !== 'error') return;
    if (/status of 503 \(Service Unavailable\)/.test(msg.text())) page.waits++;
    else page.errors.push(`console: ${msg.text()}`);
  });
  page.on('pageerror', (err) => page.errors.push(`page: ${err.message}`));
  page.on('requestfailed', (req) => {
    // Aborted fetches are how the viewer cancels chunks it no longer needs.
    const failure = req.failure();
    if (failure && !/ERR_ABORTED|aborted/i.test(failure.errorText)) {
      page.errors.push(`request: ${req.url()} ${failure.errorText}`);
    }
  });
  await page.goto(`${base}/${path}`);
  return page;
}

/** Waits until the mode says its first picture is drawn. */
export async function waitReady(page, mode, timeout = 60_000) {
  await page.waitForFunction((m) => window.mangekyo && window.mangekyo.mode === m && window.mangekyo.ready, mode, {
    timeout,
    polling: 100,
  });
}

export function assertNoErrors(assert, page) {
  assert.deepEqual(page.errors, [], `console errors:\n${page.errors.join('\n')}`);
}

/** Saves a screenshot of the page (or of `selector`) and returns its PNG bytes. */
export async function screenshot(page, name, selector = null) {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const path = join(SCREENSHOTS, `${name}.png`);
  if (selector) return page.locator(selector).screenshot({ path });
  return page.screenshot({ path });
}

/**
 * Mean and variance of luminance (0–255) of a PNG, over an optional
 * region `[x, y, w, h]` in image pixels, decoded by the browser.
 */
export async function imageStats(page, png, region = null) {
  const { mean, variance } = await colourClasses(page, png, region);
  return { mean, variance };
}

/** The viewer's overlays: text boxes drawn over the canvas. */
const OVERLAYS = '#hud, #status, .overlay-help';

/**
 * A screenshot of `selector` (a canvas) with every overlay hidden, so its
 * statistics measure the picture alone: the HUD and help boxes by
 * themselves give a flat sky a variance of ~350. Returns the PNG bytes.
 */
export async function canvasShot(page, name, selector) {
  await page.evaluate((sel) => {
    for (const e of document.querySelectorAll(sel)) e.dataset.testHidden = e.style.visibility || 'unset';
    for (const e of document.querySelectorAll(sel)) e.style.visibility = 'hidden';
  }, OVERLAYS);
  // Two frames, so the hidden overlays are off the composited picture.
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  try {
    return await screenshot(page, name, selector);
  } finally {
    await page.evaluate((sel) => {
      for (const e of document.querySelectorAll(sel)) {
        e.style.visibility = e.dataset.testHidden === 'unset' ? '' : e.dataset.testHidden;
        delete e.dataset.testHidden;
      }
    }, OVERLAYS);
  }
}

/**
 * What a picture shows, decoded by the browser: the fraction of pixels
 * in each colour class (`sky` light blue, `water` deep blue, `green`,
 * `earth` brown/tan/grey rock, `dark` near black, `white` near white) and
 * the luminance mean and variance, over an optional region [x, y, w, h].
 */
export async function colourClasses(page, png, region = null) {
  return page.evaluate(
    async ({ b64, region }) => {
      const img = new Image();
      img.src = `data:image/png;base64,${b64}`;
      await img.decode();
      const [x, y, w, h] = region || [0, 0, img.naturalWidth, img.naturalHeight];
      const c = new OffscreenCanvas(w, h);
      const g = c.getContext('2d');
      g.drawImage(img, -x, -y);
      const d = g.getImageData(0, 0, w, h).data;
      const n = w * h;
      const count = { sky: 0, water: 0, green: 0, earth: 0, dark: 0, white: 0 };
      let sum = 0;
      let sq = 0;
      for (let i = 0; i < d.length; i += 4) {
        const [r, gr, b] = [d[i], d[i + 1], d[i + 2]];
        const l = 0.2126 * r + 0.7152 * gr + 0.0722 * b;
        sum += l;
        sq += l * l;
        if (l < 30) count.dark++;
        else if (r > 225 && gr > 225 && b > 225) count.white++;
        else if (b > r + 25 && b >= gr && l > 120) count.sky++;
        else if (b > r + 25 && b >= gr) count.water++;
        else if (gr > r + 8 && gr > b + 8) count.green++;
        else if (r >= b && gr >= b - 10) count.earth++;
      }
      const mean = sum / n;
      const fractions = Object.fromEntries(Object.entries(count).map(([k, v]) => [k, v / n]));
      return { ...fractions, mean, variance: sq / n - mean * mean };
    },
    { b64: Buffer.from(png).toString('base64'), region },
  );
}

/**
 * Defines `window.testPixels(b64)` in the page: a PNG (base64) decoded by
 * the browser into `{ data, width }` (RGBA bytes).
 */
export async function definePixels(page) {
  await page.evaluate(() => {
    window.testPixels ||= async (b64) => {
      const img = new Image();
      img.src = `data:image/png;base64,${b64}`;
      await img.decode();
      const c = new OffscreenCanvas(img.naturalWidth, img.naturalHeight);
      const g = c.getContext('2d');
      g.drawImage(img, 0, 0);
      return { data: g.getImageData(0, 0, img.naturalWidth, img.naturalHeight).data, width: img.naturalWidth };
    };
  });
}

/** Luminance (0–255) of a PNG at each `[x, y]` of `points`, decoded by the browser. */
export async function luminanceAt(page, png, points) {
  await definePixels(page);
  return page.evaluate(async ({ b64, points }) => {
    const { data, width } = await window.testPixels(b64);
    return points.map(([x, y]) => {
      const i = (y * width + x) * 4;
      return 0.2126 * data[i] + 0.7152 * data[i + 1] + 0.0722 * data[i + 2];
    });
  }, { b64: Buffer.from(png).toString('base64'), points });
}

/**
 * Mean absolute difference per pixel and channel (0–255) between two PNGs
 * of the same size, decoded by the browser.
 */
export async function pictureDifference(page, a, b) {
  await definePixels(page);
  return page.evaluate(
    async ({ a64, b64 }) => {
      const [p, q] = [(await window.testPixels(a64)).data, (await window.testPixels(b64)).data];
      if (p.length !== q.length) return 255;
      let sum = 0;
      for (let i = 0; i < p.length; i += 4) {
        sum += Math.abs(p[i] - q[i]) + Math.abs(p[i + 1] - q[i + 1]) + Math.abs(p[i + 2] - q[i + 2]);
      }
      return sum / ((p.length / 4) * 3);
    },
    { a64: Buffer.from(a).toString('base64'), b64: Buffer.from(b).toString('base64') },
  );
}

/**
 * Holds `key` until `progress()` (a number read from the page) stops
 * changing by more than `eps` for `settle` consecutive polls, or `timeout`
 * ms pass: movement tests wait for the drone to stop, not for a fixed
 * time, so they do not depend on the frame rate.
 */
export async function holdUntilStill(page, key, progress, { eps = 0.01, settle = 4, poll = 150, timeout = 20_000 } = {}) {
  await page.keyboard.down(key);
  const start = Date.now();
  let last = await progress();
  let still = 0;
  let moved = false;
  try {
    while (Date.now() - start < timeout) {
      await new Promise((r) => setTimeout(r, poll));
      const now = await progress();
      if (Math.abs(now - last) > eps) {
        moved = true;
        still = 0;
      } else if (moved && ++still >= settle) break;
      last = now;
    }
  } finally {
    await page.keyboard.up(key);
  }
  return last;
}

/** Holds `key` until `done()` resolves truthy, or `timeout` ms pass. */
export async function holdUntil(page, key, done, { poll = 100, timeout = 20_000 } = {}) {
  await page.keyboard.down(key);
  const start = Date.now();
  try {
    while (Date.now() - start < timeout) {
      if (await done()) return true;
      await new Promise((r) => setTimeout(r, poll));
    }
    return false;
  } finally {
    await page.keyboard.up(key);
  }
}

/** Polls `fn` in the page until it returns a truthy value. */
export async function waitFor(page, fn, arg, timeout = 60_000) {
  const handle = await page.waitForFunction(fn, arg, { timeout, polling: 100 });
  return handle.jsonValue();
}

/**
 * In caves mode: the centre of a roomy cave (air two voxels around) at
 * least 17 voxels below the surface, nearest the drone within ±30 voxels
 * of loaded densities, or null.
 */
export async function findCave(page) {
  return page.evaluate(() => {
    const api = window.mangekyo.api;
    const [px, , pz] = window.mangekyo.debug().position;
    const roomy = (x, y, z) => [[0, 0, 0], [2, 0, 0], [-2, 0, 0], [0, 2, 0], [0, -2, 0], [0, 0, 2], [0, 0, -2]]
      .every(([dx, dy, dz]) => api.voxel(x + dx, y + dy, z + dz) < -0.5);
    let best = null;
    for (let x = Math.floor(px) - 30; x <= px + 30; x += 2) {
      for (let z = Math.floor(pz) - 30; z <= pz + 30; z += 2) {
        const top = api.surfaceAt(x, z);
        if (top === null) continue;
        for (let y = 4; y < top - 17; y++) {
          const d = Math.hypot(x - px, z - pz);
          if ((!best || d < best.d) && roomy(x, y, z)) best = { d, at: [x + 0.5, y + 0.5, z + 0.5] };
        }
      }
    }
    return best && best.at;
  });
}

/** The repository's root. */
export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * The `mangekyo` binary for tests that start a server of their own:
 * `MANGEKYO_BIN` (run.sh sets it to the one it built), else the debug
 * build in CARGO_TARGET_DIR or target/.
 */
export function mangekyoBinary() {
  return process.env.MANGEKYO_BIN || join(process.env.CARGO_TARGET_DIR || join(ROOT, 'target'), 'debug', 'mangekyo');
}

/**
 * Starts `mangekyo serve` on a free loopback port with `args` (`--web`,
 * `--db`, …); resolves to `{ base, stop() }` once it answers /healthz.
 */
export async function startServer(args) {
  const bin = mangekyoBinary();
  if (!existsSync(bin)) throw new Error(`no mangekyo binary at ${bin}: build it (cargo build -p mangekyo) or set MANGEKYO_BIN`);
  const child = spawn(bin, ['serve', '--addr', '127.0.0.1:0', ...args], {
    env: { ...process.env, RUST_LOG: process.env.RUST_LOG || 'warn' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let log = '';
  const base = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`mangekyo serve did not start:\n${log}`)), 30_000);
    child.stderr.on('data', (chunk) => {
      log += chunk;
      // The whole address: stderr may arrive in pieces mid-line.
      const m = /mangekyo serving on (http:\/\/\S+)\s/.exec(log);
      if (m) {
        clearTimeout(timer);
        resolve(m[1].replace(/\/$/, ''));
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`mangekyo serve exited (${code}):\n${log}`));
    });
  });
  for (let i = 0; i < 100; i++) {
    if (await fetch(`${base}/healthz`).then((r) => r.ok, () => false)) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    base,
    stop: () => new Promise((resolve) => {
      if (child.exitCode !== null) resolve();
      else {
        child.once('exit', resolve);
        child.kill('SIGTERM');
      }
    }),
  };
}

/** Whether two bounding boxes (`{x, y, width, height}`) overlap. */
export function overlaps(a, b) {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}
