-- wrk script: requests cycle over 64 chunks that warmup.sh fetched first
-- (cache hits).
local planet = os.getenv("PLANET") or "1"
local pin = os.getenv("PIN") or ""
local format = os.getenv("FORMAT") or "bin"

function init(args)
  n = 0
end

function request()
  local k = n % 64
  n = n + 1
  local path = string.format("/v1/planets/%s/chunks/tangent_cube/0/%d/%d?format=%s&%s", planet, 10000 + k % 8, 10000 + math.floor(k / 8), format, pin)
  return wrk.format("GET", path)
end

function done(summary, latency, requests)
  io.write(string.format("p50 %.2f ms  p99 %.2f ms\n", latency:percentile(50) / 1000, latency:percentile(99) / 1000))
end
