-- Rate limits by GCRA (the generic cell rate algorithm, a token bucket kept as one number).
-- Each key holds its TAT, the "theoretical arrival time" (µs since the epoch) at which the
-- bucket would be full again.  A request is allowed when every limit allows it; only then are
-- the keys updated, so a refused request costs its client nothing and it gets through as soon
-- as its rate allows: a client just over its rate waits about one interval, never a window.
-- The clock is Redis's own (TIME), so web nodes with skewed clocks agree.
-- KEYS[i]: a limit's key (all of one call share a hash tag, for Redis Cluster)
-- ARGV[2i-1]: that limit's emission interval (µs per request); ARGV[2i]: its burst capacity (µs)
-- Returns per key: refused (0/1), wait (µs until it would allow), remaining (requests now), reset (µs to full)
local clock = redis.call("TIME")
local now = tonumber(clock[1]) * 1000000 + tonumber(clock[2])
local out, updates, refused = {}, {}, false
for i, key in ipairs(KEYS) do
  local interval = tonumber(ARGV[2 * i - 1])
  local capacity = tonumber(ARGV[2 * i])
  local tat = math.max(tonumber(redis.call("GET", key) or "0"), now)
  local new_tat = tat + interval
  local allow_at = new_tat - capacity
  if allow_at > now then
    refused = true
    table.insert(out, {1, math.ceil(allow_at - now), 0, math.ceil(tat - now)})
  else
    updates[key] = new_tat
    table.insert(out, {0, 0, math.floor((now - allow_at) / interval), math.ceil(new_tat - now)})
  end
end
if not refused then
  for key, new_tat in pairs(updates) do
    -- the key expires once the bucket is full again: an idle client leaves nothing behind
    redis.call("SET", key, string.format("%.0f", new_tat), "PX", math.ceil((new_tat - now) / 1000) + 1)
  end
end
local flat = {}
for _, row in ipairs(out) do
  for _, value in ipairs(row) do table.insert(flat, value) end
end
return flat
