#!/usr/bin/env bash
# Roblox load run on loopback: `mangekyo serve` (release) over a fresh
# SQLite store, an Earth-sized planet at Roblox voxel resolution (1.12 m),
# then wrk with G connections, each one game server posting a batch of
# BATCH chunks every 200 ms (300 requests a minute), for G in GAMES.
# Prints throughput, p50/p90/p99 per run: the headroom is the largest G
# whose throughput still matches the offered G x 5 requests/s.
#
#   crates/server/load/roblox.sh [BIN] [WORKERS] [SECONDS] [MODE] [GAMES...]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
bin="${1:-${CARGO_TARGET_DIR:-target}/release/mangekyo}"
workers="${2:-2}"
seconds="${3:-20}"
mode="${4:-cold}"
shift $(( $# < 4 ? $# : 4 ))
games=("${@:-1 2 4 8}")
port=18299
db="$(mktemp -d)/roblox-load.db"
RUST_LOG=warn "$bin" serve --db "$db" --addr "127.0.0.1:$port" --workers "$workers" &
pid=$!
trap 'kill $pid 2>/dev/null || true' EXIT
for _ in $(seq 100); do curl -sf "http://127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.1; done
planet=$(curl -sf -XPOST "http://127.0.0.1:$port/v1/planets" -H 'content-type: application/json' \
  -d '{"name": "Roblox load", "params": {"seed": 42, "pixel_size": 1.12}}')
id=$(echo "$planet" | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')
export PLANET=$id MODE=$mode BATCH="${BATCH:-4}"
echo "server pid $pid, workers $workers, planet $id, mode $mode, batch $BATCH chunks, period 200 ms"
if [ "$mode" = warm ]; then
  # Generate the 64 shared chunks once (thread 0's rows).
  PERIOD_MS=0 wrk -t1 -c1 -d3s -s "$here/roblox.lua" "http://127.0.0.1:$port" >/dev/null
fi
for g in ${games[*]}; do
  # Cold runs start on rows no earlier run touched; warm runs share the 64.
  if [ "$mode" = cold ]; then export OFFSET=$((g * 5000)); else export OFFSET=0; fi
  echo "== $g game server(s): offered $((g * 5)) requests/s ($((g * 5 * BATCH)) chunks/s)"
  wrk -t1 -c"$g" -d"${seconds}s" --timeout 30s -s "$here/roblox.lua" "http://127.0.0.1:$port" | grep -E '^(requests|latency)'
done
grep -E 'VmRSS|VmHWM' "/proc/$pid/status" | tr -s ' ' | tr '\n' ' '; echo
curl -s "http://127.0.0.1:$port/metrics" | grep -E '^mangekyo_generation_duration_seconds_(sum|count)\{kind="roblox_chunk"' || true
