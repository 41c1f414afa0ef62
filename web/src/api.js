// Talking to `mangekyo serve`: JSON and text fetches whose failures carry
// the server's JSON error message (it names the parameter at fault).

/** Where this browser keeps the access token the operator gave. */
const TOKEN_KEY = 'mangekyo.token';

/**
 * The access token to send, if any. A server that needs one (creating
 * planets on a public server, anything on a private one) is opened once as
 * `/?token=…`: the token is kept in this browser's storage and taken out of
 * the address bar (so it is not bookmarked or shared with the link).
 */
export function accessToken() {
  try {
    const url = new URL(window.location.href);
    const given = url.searchParams.get('token');
    if (given !== null) {
      if (given) window.localStorage.setItem(TOKEN_KEY, given);
      else window.localStorage.removeItem(TOKEN_KEY);
      url.searchParams.delete('token');
      window.history.replaceState(null, '', url);
    }
    return window.localStorage.getItem(TOKEN_KEY) || null;
  } catch {
    return null; // no window (a worker) or no storage
  }
}

/** What to tell someone a 401/403 refused. */
function accessHint(status, body) {
  if (status === 401) {
    return accessToken()
      ? ' (the token this browser keeps was refused: open the viewer as /?token=… with a valid one, or /?token= to forget it)'
      : ' (this server needs an access token: ask its operator for one and open the viewer once as /?token=YOUR_TOKEN)';
  }
  if (status === 403 && body && body.code === 'insufficient_scope') {
    return ' (ask the operator for a token with that scope and open the viewer as /?token=…)';
  }
  return '';
}

/** Thrown for a non-2xx answer; `body` is the server's JSON error if any. */
export class ApiError extends Error {
  constructor(url, status, body) {
    // A 404 without the server's JSON error is a static host (dist/): the
    // route is not missing, the server is.
    const noServer = status === 404 && !body && url.startsWith('/v1');
    super(body && body.message ? body.message + accessHint(status, body)
      : noServer ? `${url}: no mangekyo server here (HTTP 404); this mode needs \`mangekyo serve\``
        : `${url}: HTTP ${status}${accessHint(status, body)}`);
    this.url = url;
    this.status = status;
    this.body = body;
  }
}

async function check(url, response) {
  if (response.ok) return response;
  let body = null;
  try {
    const json = await response.json();
    // The server's errors are `{"error": {"code", "message", …}}`.
    body = json && json.error ? json.error : json;
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
  const token = accessToken();
  if (token) init = { ...init, headers: { ...(init.headers || {}), authorization: `Bearer ${token}` } };
  for (;;) {
    const response = await fetch(url, init);
    if (response.status !== 503 || init.method === 'POST') return response;
    const seconds = Math.min(Math.max(Number(response.headers.get('retry-after')) || 1, 1), 30);
    if (Date.now() - start + seconds * 1000 > RETRY_BUDGET_MS) return response;
    onWait(seconds);
    await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  }
}

/**
 * A `"seed"` member's string token and the integer after it (other strings
 * are matched whole and left alone, so a `"seed"` inside a string value is
 * never taken for a member).
 */
const SEED_MEMBER = /("[^"\\]*(?:\\.[^"\\]*)*")(?:(\s*:\s*)(-?\d+)(?=\s*[,}\]]))?/g;

/**
 * JSON text parsed with every `"seed"` number kept as its decimal text.
 * Seeds are 64-bit (a text seed hashes to any u64) and a JavaScript
 * number holds 53 bits: `JSON.parse` would round 18446744073709551557 to
 * 18446744073709552000, the viewer would show that, and a seed posted back
 * would name another planet. The server reads a seed given as digits as
 * that number, so the text goes back as it came.
 */
export function parseJson(text) {
  if (!text.includes('"seed"')) return JSON.parse(text);
  return JSON.parse(text.replace(SEED_MEMBER, (all, key, colon, digits) =>
    (key === '"seed"' && digits !== undefined ? `${key}${colon}"${digits}"` : all)));
}

/** GET (or `init`) a JSON document (seeds as text, see `parseJson`). */
export async function getJson(url, init = {}, onWait) {
  const response = await fetchRetrying(url, init, onWait);
  return parseJson(await (await check(url, response)).text());
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
