-- bench/web/move.lua: wrk script for POST /api/games/{id}/move. Each wrk thread plays into its own slice of
-- the pre-made 16x16k16 games (ids one per line in the file given after --), cell after cell in reading
-- order through the top 15 rows only, so that every request is a legal move in whatever order the answers
-- arrive: no line of 16 can be completed without the bottom row, so no game ends. Games are reused: one
-- undo request (plies=240) empties the next game while the thread starts on the current one: 1 request in
-- 241 is an undo.
local per_thread = tonumber(os.getenv("GAMES_PER_THREAD") or "100")
local next_thread = 0

function setup(thread)
  thread:set("first", next_thread * per_thread)
  next_thread = next_thread + 1
end

local ids, cells, n, game, rounds = {}, {}, 0, 0, 0
local headers = { ["Content-Type"] = "application/json" }

function init(args)
  for line in io.lines(args[1]) do ids[#ids + 1] = line end
  for r = 1, 15 do for c = 1, 16 do cells[#cells + 1] = string.char(96 + c) .. r end end
end

local function game_id(g) return ids[first + (g % per_thread) + 1] end

local primed = false

function request()
  -- wrk asks each thread for one request it never sends (this wrk, 4.1): make it a harmless read, so that the
  -- count of moves in each game stays exact.
  if not primed then
    primed = true
    return wrk.format("GET", "/api/games/" .. game_id(0))
  end
  if n == #cells then
    n, game = 0, game + 1
    -- The game after this one was filled in an earlier round: empty it now, 240 requests before it is needed
    -- (emptying this one would race with its first move on another connection).
    if game + 1 >= per_thread then
      return wrk.format("POST", "/api/games/" .. game_id(game + 1) .. "/undo", headers,
                        '{"plies": ' .. #cells .. '}')
    end
  end
  n = n + 1
  return wrk.format("POST", "/api/games/" .. game_id(game) .. "/move", headers, '{"move": "' .. cells[n] .. '"}')
end
