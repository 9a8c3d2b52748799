-- Rate limits and compare-and-append in one atomic call: a command costs one round trip.
-- events/store.py loads this after gcra.lua and append.lua, each wrapped unchanged as a local
-- function of (KEYS, ARGV) named `gcra` and `append`, so both keep one source each.
-- Only on a plain Redis: on Redis Cluster the limiter's keys and the game's lie in different slots.
-- KEYS: the n limit keys (as gcra.lua), then the append's three (as append.lua)
-- ARGV: n, then 2n limit arguments (as gcra.lua), then the append's arguments (as append.lua) as
--       one JSON array of strings: a client packs one argument much faster than forty (redis-py)
-- The limits are taken first: refused, nothing is written ({"limited", verdicts...}); allowed,
-- they are taken whatever the append then says, so a request pays once even if it is retried
-- after a conflict: {append's status, append's value, verdicts}.
-- Verdicts: gcra.lua's flat list, 4 numbers per limit, as one string of integers separated by spaces
-- (redis-py reads one string far faster than a dozen array elements).
local n = tonumber(ARGV[1])
local limit_keys, limit_args, append_keys = {}, {}, {}
for i = 1, #KEYS do
  if i <= n then limit_keys[#limit_keys + 1] = KEYS[i] else append_keys[#append_keys + 1] = KEYS[i] end
end
for i = 2, 2 * n + 1 do limit_args[#limit_args + 1] = ARGV[i] end
local append_args = cjson.decode(ARGV[2 * n + 2])
local verdicts = gcra(limit_keys, limit_args)
local reply = {}
for i = 1, n do
  if verdicts[4 * i - 3] == 1 then reply = {"limited", ""} end
end
if #reply == 0 then reply = append(append_keys, append_args) end
local numbers = {}
for i, value in ipairs(verdicts) do numbers[i] = string.format("%.0f", value) end
reply[3] = table.concat(numbers, " ")
return reply
