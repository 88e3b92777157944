-- wrk script: places one-unit orders for the pet given as the first argument
-- (stocked with enough units that every order is reserved).
local pet = "1"

local api_key = os.getenv("PETSTORE_API_KEY")

function init(args)
  pet = args[1]
end

function request()
  return wrk.format("POST", "/store/orders", {["Content-Type"] = "application/json", ["X-API-Key"] = api_key},
                    '{"petId":' .. pet .. ',"quantity":1}')
end
