-- wrk script: every request asks for a chunk never asked before (a cache
-- miss), walking the tangent-cube atlas row by row. PLANET, PIN and
-- FORMAT come from the environment (see run.sh).
local planet = os.getenv("PLANET") or "1"
local pin = os.getenv("PIN") or ""
local format = os.getenv("FORMAT") or "bin"
local width = 3000
local counter = 0

function setup(thread)
  thread:set("offset", counter * 1000000)
  counter = counter + 1
end

function init(args)
  n = 0
end

function request()
  local k = offset + n
  n = n + 1
  local cx, cy = k % width, math.floor(k / width)
  local path = string.format("/v1/planets/%s/chunks/tangent_cube/0/%d/%d?format=%s&%s", planet, cx, cy, format, pin)
  return wrk.format("GET", path)
end

function done(summary, latency, requests)
  io.write(string.format("p50 %.2f ms  p99 %.2f ms\n", latency:percentile(50) / 1000, latency:percentile(99) / 1000))
end
