// Talking to `mangekyo serve`: JSON and text fetches whose failures carry
// the server's JSON error message (it names the parameter at fault).

/** Thrown for a non-2xx answer; `body` is the server's JSON error if any. */
export class ApiError extends Error {
  constructor(url, status, body) {
    // A 404 without the server's JSON error is a static host (dist/): the
    // route is not missing, the server is.
    const noServer = status === 404 && !body && url.startsWith('/v1');
    super(body && body.message ? body.message
      : noServer ? `${url}: no mangekyo server here (HTTP 404); this mode needs \`mangekyo serve\``
        : `${url}: HTTP ${status}`);
    this.url = url;
    this.status = status;
    this.body = body;
  }
}

async function check(url, response) {
  if (response.ok) return response;
  let body = null;
  try {
    body = await response.json();
  } catch {
    body = null;
  }
  throw new ApiError(url, response.status, body);
}

/** Longest a request keeps retrying a server that answers 503, ms. */
const RETRY_BUDGET_MS = 120_000;

/**
 * `fetch`, retried while the server answers 503 (busy, or a planet's
 * coarse tier still computing), after the `Retry-After` it sends (1 s when
 * it sends none), within RETRY_BUDGET_MS. `onWait(seconds)` is told of
 * each wait, so a view can say why it is waiting.
 */
export async function fetchRetrying(url, init = {}, onWait = () => {}) {
  const start = Date.now();
  for (;;) {
    const response = await fetch(url, init);
    if (response.status !== 503 || init.method === 'POST') return response;
    const seconds = Math.min(Math.max(Number(response.headers.get('retry-after')) || 1, 1), 30);
    if (Date.now() - start + seconds * 1000 > RETRY_BUDGET_MS) return response;
    onWait(seconds);
    await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  }
}

/** GET (or `init`) a JSON document. */
export async function getJson(url, init = {}, onWait) {
  const response = await fetchRetrying(url, init, onWait);
  return (await check(url, response)).json();
}

/** GET a text document (SVG, ASCII). */
export async function getText(url, init = {}, onWait) {
  const response = await fetchRetrying(url, init, onWait);
  return (await check(url, response)).text();
}

/** GET raw bytes. */
export async function getBytes(url, init = {}, onWait) {
  const response = await fetchRetrying(url, init, onWait);
  return (await check(url, response)).arrayBuffer();
}

/** GET a picture as a blob (retrying a 503 after its Retry-After). */
export async function getBlob(url, init = {}, onWait) {
  const response = await fetchRetrying(url, init, onWait);
  return (await check(url, response)).blob();
}

/** POST a JSON body, answer as JSON. */
export async function postJson(url, body, init = {}) {
  return getJson(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    ...init,
  });
}

/** The generator versions the server runs (`{ dungeon: 1, … }`), fetched once. */
let versions = null;
export async function generatorVersions() {
  if (!versions) {
    versions = getJson('/v1').then((index) => Object.fromEntries(index.generators.map((g) => [g.name, g.version])));
  }
  return versions;
}

/** A query string from an object, skipping empty values. */
export function query(params) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== '') q.set(k, String(v));
  const s = q.toString();
  return s ? `?${s}` : '';
}
