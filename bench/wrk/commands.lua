-- wrk script for the HTTP benches: run with one thread per connection
-- (wrk -t N -c N), so that each thread's Lua state drives exactly one connection.
--
--   wrk -t32 -c32 -d6s -s commands.lua URL -- healthz
--       GET /healthz on every request (the baseline, through this same script).
--   wrk -t32 -c32 -d6s -s commands.lua URL -- plan PLAN.tsv GAMES.tsv
--       PLAN.tsv:  one line per command of a seeded game: <seat>\t<JSON body>
--       GAMES.tsv: <thread>\t<game id>\t<commands already applied>\t<token,token,...>
--       Thread n walks the plan on its own game(s) (several when the plan ends a game),
--       starting after the commands already applied.  A command's answer must be 200
--       to move on; anything else is counted as failed and the same command is re-sent.
--   wrk -t32 -c32 -d6s -s commands.lua URL -- rotate PLAN.tsv GAMES.tsv
--       As `plan`, but thread n sends each request to the next of its games in turn (every game
--       moves on together, as many tables played at once do), each at its own place in the plan;
--       a game whose plan is done is left out, and a failed command is re-sent on its next turn.
--
-- done() prints one line, `BENCH {json}`, read by bench/common.py:run_wrk.

local threads = {}
local count = 0

function setup(thread)
  thread:set("index", count)
  count = count + 1
  table.insert(threads, thread)
end

local function split(text, sep)
  local out, start = {}, 1
  while true do
    local at = string.find(text, sep, start, true)
    if not at then
      out[#out + 1] = string.sub(text, start)
      return out
    end
    out[#out + 1] = string.sub(text, start, at - 1)
    start = at + 1
  end
end

local function lines(path)
  local out = {}
  for line in io.lines(path) do
    if #line > 0 then out[#out + 1] = line end
  end
  return out
end

-- per-thread globals (read back in done() through thread:get)
position, ok, failed, exhausted, planned = 1, 0, 0, 0, 0
local requests, static, fallback = {}, false, nil
local rotate, plan, games, cursor, current = false, {}, {}, 0, nil

function init(args)
  fallback = wrk.format("GET", "/healthz")
  if args[1] == "healthz" then
    static = true
    requests[1] = fallback
    return
  end
  for _, line in ipairs(lines(args[2])) do
    local tab = string.find(line, "\t", 1, true)
    plan[#plan + 1] = { seat = tonumber(string.sub(line, 1, tab - 1)) + 1, body = string.sub(line, tab + 1) }
  end
  if args[1] == "rotate" then
    rotate = true
    for _, line in ipairs(lines(args[3])) do
      local f = split(line, "\t")
      if tonumber(f[1]) == index then
        games[#games + 1] = { path = "/v1/games/" .. f[2] .. "/commands", tokens = split(f[4], ","),
                              position = tonumber(f[3]) + 1 }
        planned = planned + #plan - tonumber(f[3])
      end
    end
    return
  end
  for _, line in ipairs(lines(args[3])) do
    local f = split(line, "\t")
    if tonumber(f[1]) == index then
      local tokens = split(f[4], ",")
      local path = "/v1/games/" .. f[2] .. "/commands"
      for i = tonumber(f[3]) + 1, #plan do
        local step = plan[i]
        requests[#requests + 1] = wrk.format("POST", path,
          { ["Content-Type"] = "application/json", ["Authorization"] = "Bearer " .. tokens[step.seat] }, step.body)
      end
    end
  end
  planned = #requests
end

local function next_in_rotation()
  for _ = 1, #games do
    cursor = cursor % #games + 1
    local game = games[cursor]
    local step = plan[game.position]
    if step then
      current = game
      return wrk.format("POST", game.path, { ["Content-Type"] = "application/json",
        ["Authorization"] = "Bearer " .. game.tokens[step.seat] }, step.body)
    end
  end
  current = nil
  exhausted = exhausted + 1
  return fallback
end

function request()
  if static then return requests[1] end
  if rotate then return next_in_rotation() end
  local r = requests[position]
  if r == nil then
    exhausted = exhausted + 1
    return fallback
  end
  return r
end

function response(status, headers, body)
  if rotate then
    if current == nil then return end  -- every game of this thread is done: /healthz, not counted
    if status == 200 then
      ok = ok + 1
      current.position = current.position + 1
    else
      failed = failed + 1
    end
    return
  end
  if status ~= 200 then
    failed = failed + 1
  elseif static then
    ok = ok + 1
  elseif requests[position] ~= nil then
    ok = ok + 1
    position = position + 1
  end
end

function done(summary, latency, requests)
  local total_ok, total_failed, total_exhausted, min_planned = 0, 0, 0, nil
  for _, t in ipairs(threads) do
    total_ok = total_ok + t:get("ok")
    total_failed = total_failed + t:get("failed")
    total_exhausted = total_exhausted + t:get("exhausted")
    local p = t:get("planned")
    if min_planned == nil or p < min_planned then min_planned = p end
  end
  local e = summary.errors
  io.write(string.format(
    'BENCH {"requests": %d, "completed": %d, "failed": %d, "plan_exhausted": %d, "min_planned": %d, ' ..
    '"duration_us": %d, "p50_ms": %.3f, "p90_ms": %.3f, "p99_ms": %.3f, "mean_ms": %.3f, "max_ms": %.3f, ' ..
    '"errors": {"connect": %d, "read": %d, "write": %d, "status": %d, "timeout": %d}}\n',
    total_ok, summary.requests, total_failed, total_exhausted, min_planned or 0, summary.duration,
    latency:percentile(50) / 1000, latency:percentile(90) / 1000, latency:percentile(99) / 1000,
    latency.mean / 1000, latency.max / 1000,
    e.connect, e.read, e.write, e.status, e.timeout))
end
