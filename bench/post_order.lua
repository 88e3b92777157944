-- wrk script: places one-unit orders for the pets given as arguments, each
-- request for one of them at random (one argument: every order for that
-- pet). Each pet is stocked with enough units that every order is reserved.
local pets = {"1"}

local api_key = os.getenv("PETSTORE_API_KEY")

function init(args)
  if #args > 0 then
    pets = args
  end
  math.randomseed(os.time() + tonumber(tostring({}):match("0x(%x+)"), 16) % 100000)
end

function request()
  local pet = pets[math.random(#pets)]
  return wrk.format("POST", "/store/orders", {["Content-Type"] = "application/json", ["X-API-Key"] = api_key},
                    '{"petId":' .. pet .. ',"quantity":1}')
end
