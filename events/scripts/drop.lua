-- Delete an ended game's keys once it is archived, if it is still at the version archived.
-- KEYS[1] stream g:{id}:events  KEYS[2] meta g:{id}:meta  KEYS[3] snapshot g:{id}:snap
-- ARGV[1] the version the archived history ends at
-- Returns 1 when deleted; 0 when the game moved on, is not ended, or is gone already
-- (two sweepers archiving the same game: one deletes, the other finds nothing to do).
local version, status = unpack(redis.call("HMGET", KEYS[2], "version", "status"))
if version ~= ARGV[1] then return 0 end
if status ~= "finished" and status ~= "abandoned" then return 0 end
redis.call("DEL", KEYS[1], KEYS[2], KEYS[3])
return 1
