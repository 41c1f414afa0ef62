// Talking to `mangekyo serve`: JSON and text fetches whose failures carry
// the server's JSON error message (it names the parameter at fault).

/** Thrown for a non-2xx answer; `body` is the server's JSON error if any. */
export class ApiError extends Error {
  constructor(url, status, body) {
    super(body && body.message ? body.message : `${url}: HTTP ${status}`);
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

/** GET (or `init`) a JSON document. */
export async function getJson(url, init = {}) {
  const response = await fetch(url, init);
  return (await check(url, response)).json();
}

/** GET a text document (SVG, ASCII). */
export async function getText(url, init = {}) {
  const response = await fetch(url, init);
  return (await check(url, response)).text();
}

/** GET raw bytes. */
export async function getBytes(url, init = {}) {
  const response = await fetch(url, init);
  return (await check(url, response)).arrayBuffer();
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
