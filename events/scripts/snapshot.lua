-- Keep the newest snapshot only: a slow writer never replaces a newer one.
-- KEYS[1] g:{id}:snap   ARGV: version, state_json, table_json
local held = tonumber(redis.call("HGET", KEYS[1], "v") or "0")
if tonumber(ARGV[1]) <= held then return 0 end
redis.call("HSET", KEYS[1], "v", ARGV[1], "s", ARGV[2], "t", ARGV[3])
return 1
