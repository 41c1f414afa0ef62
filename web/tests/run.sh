#!/usr/bin/env bash
# The web viewer's browser tests: builds the WebAssembly package and dist/
# (scripts/build-dist), builds and starts the real
# `mangekyo serve` (debug build, a free loopback port, SQLite in a temporary
# directory, the viewer from web/), waits for /healthz, runs every
# web/tests/*.test.mjs in headless Chromium (Debian's, driven by
# playwright-core), then stops the server. Screenshots of each mode land in
# web/tests/screenshots/ (gitignored).
#
# Needs Node.js ≥ 20 and the Rust toolchain; installs Debian's chromium and
# a Japanese font if they are missing (as root) and playwright-core from
# package-lock.json.
# MANGEKYO_URL=http://host:port skips the build and tests a running server
# (first_run.test.mjs still starts one of its own: MANGEKYO_BIN, else the
# debug build in CARGO_TARGET_DIR or target/).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
cd "$here"

export CHROMIUM="${CHROMIUM:-/usr/bin/chromium}"
if [ ! -x "$CHROMIUM" ]; then
  echo "installing Debian's chromium"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi

# The viewer's title and the island's Japanese names need a Japanese font,
# or the screenshots show empty boxes (IPA Gothic: 3.5 MB).
if [ -z "$(fc-list :lang=ja 2>/dev/null)" ]; then
  echo "installing a Japanese font (fonts-ipafont-gothic)"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq fonts-ipafont-gothic >/dev/null
fi

if [ ! -d node_modules/playwright-core ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund --loglevel=error
fi

# The WebAssembly package the viewer's workers generate caves with
# (web/pkg) and the static build (dist/) that static.test.mjs serves.
(cd "$root" && scripts/build-dist)

tmp="$(mktemp -d)"
server_pid=""
cleanup() {
  if [ -n "$server_pid" ]; then
    kill "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
  fi
  rm -rf "$tmp"
}
trap cleanup EXIT

if [ -z "${MANGEKYO_URL:-}" ]; then
  (cd "$root" && cargo build --locked --quiet -p mangekyo)
  bin="${CARGO_TARGET_DIR:-$root/target}/debug/mangekyo"
  # Port 0: the kernel picks a free port and the server prints it.
  RUST_LOG="${RUST_LOG:-warn}" "$bin" serve --addr 127.0.0.1:0 --db "$tmp/viewer.db" --web "$root/web" \
    2>"$tmp/server.log" &
  server_pid=$!
  for _ in $(seq 1 200); do
    addr="$(sed -n 's/^mangekyo serving on \(http:[^ ]*\).*/\1/p' "$tmp/server.log" | head -n1)"
    if [ -n "$addr" ] && curl -fsS "$addr/healthz" >/dev/null 2>&1; then break; fi
    if ! kill -0 "$server_pid" 2>/dev/null; then
      echo "mangekyo serve exited:" >&2
      cat "$tmp/server.log" >&2
      exit 1
    fi
    sleep 0.1
  done
  [ -n "$addr" ] || { echo "mangekyo serve did not start" >&2; cat "$tmp/server.log" >&2; exit 1; }
  export MANGEKYO_URL="$addr" MANGEKYO_FRESH=1
  # first_run.test.mjs starts a server of its own (web/ without pkg/).
  export MANGEKYO_BIN="${MANGEKYO_BIN:-$bin}"
fi
echo "testing the viewer at $MANGEKYO_URL"

mkdir -p screenshots
status=0
node --test --test-concurrency=1 --test-reporter=spec "$here"/*.test.mjs || status=$?
if [ "$status" -ne 0 ] && [ -n "$server_pid" ]; then
  echo "--- server log (last 40 lines)" >&2
  tail -n 40 "$tmp/server.log" >&2
fi
exit "$status"
