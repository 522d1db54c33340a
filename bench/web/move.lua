-- bench/web/move.lua: wrk script for POST /api/games/{id}/move. Each wrk thread plays into its own slice of
-- the pre-made 16x16k16 games (ids one per line in the file given after --), cell after cell in reading
-- order, so that every request is a legal move wherever its answer arrives (no line of 16 forms).
local per_thread = tonumber(os.getenv("GAMES_PER_THREAD") or "100")
local next_thread = 0

function setup(thread)
  thread:set("first", next_thread * per_thread)
  next_thread = next_thread + 1
end

local ids, cells, n, game = {}, {}, 0, 0
local headers = { ["Content-Type"] = "application/json" }

function init(args)
  for line in io.lines(args[1]) do ids[#ids + 1] = line end
  for r = 1, 16 do for c = 1, 16 do cells[#cells + 1] = string.char(96 + c) .. r end end
end

function request()
  n = n + 1
  if n > #cells then n, game = 1, game + 1 end
  local id = ids[first + (game % per_thread) + 1]
  return wrk.format("POST", "/api/games/" .. id .. "/move", headers, '{"move": "' .. cells[n] .. '"}')
end
