-- wrk script: creates pets in the category given as the first argument.
local category = "1"
local n = 0

local api_key = os.getenv("PETSTORE_API_KEY")

function init(args)
  category = args[1]
end

function request()
  n = n + 1
  local body = '{"name":"bench-' .. n .. '","categoryId":' .. category .. '}'
  return wrk.format("POST", "/pets", {["Content-Type"] = "application/json", ["X-API-Key"] = api_key}, body)
end
