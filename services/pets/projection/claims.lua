-- Claims a category for a pet about to be created in it (or moved to it), so
-- a concurrent delete of the category cannot slip in between the existence
-- check and the append. The claim expires with the command's lease.
-- KEYS[1] category hash; KEYS[2] its claims set; ARGV[1] token; ARGV[2] lease ms.
-- Returns 'ok', 'deleted', 'missing' (not in the read model: no such
-- category, or one the projection has not applied yet) or 'closing' (being
-- deleted).
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local c = redis.call('HMGET', KEYS[1], 'deleted', 'closingUntil')
if not c[1] then
  return 'missing'
end
if c[1] ~= '0' then
  return 'deleted'
end
if c[2] and tonumber(c[2]) > now then
  return 'closing'
end
redis.call('ZADD', KEYS[2], now + tonumber(ARGV[2]), ARGV[1])
return 'ok'
