-- Compare-and-append a command's events to a game's stream, atomically.
-- KEYS[1] stream  g:{id}:events
-- KEYS[2] meta    g:{id}:meta     (hash; field "version" is the stream's last version)
-- KEYS[3] idem    g:{id}:idem:... (only read/written when ARGV[2] == "1")
-- ARGV: expected_version, use_idem, idem_ttl_seconds, idem_record,
--       n_meta, meta field/value pairs...,
--       n_events, then per event: n_fields, field/value pairs...
-- Returns {"ok", last_version} | {"conflict", current_version} | {"duplicate", idem_record}
local stream, meta, idem = KEYS[1], KEYS[2], KEYS[3]
local use_idem = ARGV[2] == "1"
if use_idem then
  local prior = redis.call("GET", idem)
  if prior then return {"duplicate", prior} end
end
local current = tonumber(redis.call("HGET", meta, "version") or "0")
if current ~= tonumber(ARGV[1]) then return {"conflict", tostring(current)} end

local i = 5
local n_meta = tonumber(ARGV[i]); i = i + 1
local meta_fields = {"version"}
meta_fields[2] = "" -- filled below once the last version is known
for _ = 1, n_meta * 2 do meta_fields[#meta_fields + 1] = ARGV[i]; i = i + 1 end

local version = current
local n_events = tonumber(ARGV[i]); i = i + 1
for _ = 1, n_events do
  local n_fields = tonumber(ARGV[i]); i = i + 1
  local fields = {}
  for _ = 1, n_fields * 2 do fields[#fields + 1] = ARGV[i]; i = i + 1 end
  version = version + 1
  redis.call("XADD", stream, version .. "-0", unpack(fields))
end
meta_fields[2] = tostring(version)
redis.call("HSET", meta, unpack(meta_fields))
if use_idem then redis.call("SET", idem, ARGV[4], "EX", tonumber(ARGV[3])) end
return {"ok", tostring(version)}
