-- wrk script: places one-unit orders for the pet given as the first argument
-- (stocked with enough units that every order is reserved).
local pet = "1"

function init(args)
  pet = args[1]
end

function request()
  return wrk.format("POST", "/store/orders", {["Content-Type"] = "application/json"},
                    '{"petId":' .. pet .. ',"quantity":1}')
end
