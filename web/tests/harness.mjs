// Shared pieces of the browser tests: one headless Chromium per test file,
// pages that fail their test on any console error, and picture statistics
// computed by the browser itself from a screenshot (no PNG library).

import { chromium } from 'playwright-core';
import { mkdirSync } from 'node:fs';
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
 * exceptions in `page.errors` (checked by `assertNoErrors`).
 */
export async function openPage(browser, path) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  const page = await context.newPage();
  page.errors = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') page.errors.push(`console: ${msg.text()}`);
  });
  page.on('pageerror', (err) => page.errors.push(`page: ${err.message}`));
  page.on('requestfailed', (req) => {
    // Aborted fetches are how the viewer cancels chunks it no longer needs.
    const failure = req.failure();
    if (failure && !/ERR_ABORTED|aborted/i.test(failure.errorText)) {
      page.errors.push(`request: ${req.url()} ${failure.errorText}`);
    }
  });
  await page.goto(`${BASE}/${path}`);
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

/** Polls `fn` in the page until it returns a truthy value. */
export async function waitFor(page, fn, arg, timeout = 60_000) {
  const handle = await page.waitForFunction(fn, arg, { timeout, polling: 100 });
  return handle.jsonValue();
}
