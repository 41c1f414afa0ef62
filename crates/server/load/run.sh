#!/usr/bin/env bash
# Load run on loopback: `mangekyo serve` (release) against a fresh SQLite
# store, an Earth-sized planet (the newest generator version, or
# GENERATOR_VERSION=1|2|3), whose coarse tier it waits for (and times),
# then wrk with cold (every chunk new) and warm (64 cached chunks) request
# streams. Prints chunks/s, p50/p99 and the server's memory afterwards.
#
#   [GENERATOR_VERSION=v] crates/server/load/run.sh [BIN] [WORKERS] [SECONDS] [CACHE_MIB]
#
# BIN defaults to $CARGO_TARGET_DIR/release/mangekyo (or target/release).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
bin="${1:-${CARGO_TARGET_DIR:-target}/release/mangekyo}"
workers="${2:-1}"
seconds="${3:-20}"
cache_mib="${4:-256}"
port=18199
db="$(mktemp -d)/load.db"
RUST_LOG=warn "$bin" serve --db "$db" --addr "127.0.0.1:$port" --workers "$workers" --cache-mib "$cache_mib" &
pid=$!
trap 'kill $pid 2>/dev/null || true' EXIT
for _ in $(seq 50); do curl -sf "http://127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.1; done
version="${GENERATOR_VERSION:+, \"generator_version\": $GENERATOR_VERSION}"
planet=$(curl -sf -XPOST "http://127.0.0.1:$port/v1/planets" -H 'content-type: application/json' \
  -d "{\"name\": \"Load\", \"params\": {\"seed\": 42$version}}")
id=$(echo "$planet" | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')
start=$(date +%s.%N)
until curl -sf "http://127.0.0.1:$port/v1/planets/$id/status" | grep -qE '"state":"(ready|not_needed)"'; do sleep 0.2; done
echo "coarse tier ready after $(python3 -c "import time; print(round(time.time() - $start, 2))") s"
pin=$(echo "$planet" | python3 -c 'import json,sys; print(json.load(sys.stdin)["links"]["chunk"].split("?")[1])')
export PLANET=$id PIN=$pin
echo "server pid $pid, workers $workers, cache $cache_mib MiB, planet $id ($pin)"
rss() { grep -E 'VmRSS|VmHWM' "/proc/$pid/status" | tr -s ' ' | tr '\n' ' '; echo; }
for format in bin json; do
  export FORMAT=$format
  echo "== cold, format=$format (every chunk new: generation)"
  wrk -t1 -c"$((workers * 4))" -d"${seconds}s" --latency -s "$here/cold.lua" "http://127.0.0.1:$port" | grep -E 'Requests/sec|Transfer/sec|p50|Non-2xx|Socket errors' || true
  rss
  for k in $(seq 0 63); do
    curl -sf -o /dev/null "http://127.0.0.1:$port/v1/planets/$id/chunks/tangent_cube/0/$((10000 + k % 8))/$((10000 + k / 8))?format=$format&$pin"
  done
  echo "== warm, format=$format (64 cached chunks)"
  wrk -t1 -c32 -d"${seconds}s" --latency -s "$here/warm.lua" "http://127.0.0.1:$port" | grep -E 'Requests/sec|Transfer/sec|p50|Non-2xx|Socket errors' || true
  rss
done
curl -s "http://127.0.0.1:$port/metrics" | grep -E '^mangekyo_(cache_lookups_total|generation_rejected_total|cache_bytes)' || true
curl -s "http://127.0.0.1:$port/metrics" | grep -E '^mangekyo_generation_duration_seconds_(sum|count)' || true
