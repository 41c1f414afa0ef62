-- wrk script: Roblox game servers. Each connection is one game server
-- sending POST /v1/roblox/chunks every PERIOD_MS (200 ms = 300 requests a
-- minute, the client's ceiling) with BATCH chunks. MODE=cold: every chunk
-- is new (players exploring: generation); MODE=warm: chunks cycle through
-- 64 already generated ones (players around a shared spawn: cache hits).
-- PLANET comes from the environment (see roblox.sh).
local planet = os.getenv("PLANET") or "1"
local mode = os.getenv("MODE") or "cold"
local batch = tonumber(os.getenv("BATCH") or "4")
local period = tonumber(os.getenv("PERIOD_MS") or "200")
-- Rows of the atlas this run starts at: each run of roblox.sh gets its own,
-- so a cold run never meets chunks an earlier run generated.
local offset = tonumber(os.getenv("OFFSET") or "0")
local counter = 0

function setup(thread)
  thread:set("id", counter)
  counter = counter + 1
end

function init(args)
  n = 0
end

function delay()
  return period
end

function request()
  n = n + 1
  local chunks = {}
  for k = 0, batch - 1 do
    local i = n * batch + k
    if mode == "warm" then
      i = i % 64
    end
    local cx = 10000 + (i % 200)
    local cy = 10000 + offset + id * 2000 + math.floor(i / 200)
    chunks[#chunks + 1] = string.format("[%d,%d]", cx, cy)
  end
  local body = string.format(
    '{"planet":%s,"chunks":[%s],"layers":["height","material"],"edge":"shared"}',
    planet, table.concat(chunks, ","))
  return wrk.format("POST", "/v1/roblox/chunks", {["Content-Type"] = "application/json"}, body)
end

function done(summary, latency, requests)
  local secs = summary.duration / 1e6
  io.write(string.format("requests %d in %.1f s = %.2f req/s (%.1f chunks/s); errors: status %d, timeout %d, connect %d\n",
    summary.requests, secs, summary.requests / secs, summary.requests * batch / secs,
    summary.errors.status, summary.errors.timeout, summary.errors.connect))
  io.write(string.format("latency p50 %.1f ms  p90 %.1f ms  p99 %.1f ms  max %.1f ms\n",
    latency:percentile(50) / 1000, latency:percentile(90) / 1000,
    latency:percentile(99) / 1000, latency.max / 1000))
end
