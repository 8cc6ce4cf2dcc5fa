-- Citations in a Lua engine.
-- CR 701.68a: blight N puts N -1/-1 counters on a creature you control
local function blight(n) end

--[[
  CR 704.5l: state-based action that does not exist (letters skip l)
]]
local function nothing() end

local note = "(see rule 601.2b)"  -- announce modes, X and costs
local ip = "192.168.1.1"
