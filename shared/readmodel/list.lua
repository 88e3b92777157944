-- One page of a cursor-paginated list in one round trip.
-- KEYS[1] sorted set of ids (score = id)
-- ARGV[1] cursor: ids strictly above it are listed
-- ARGV[2] how many ids at most
-- ARGV[3] hash key prefix (the id is appended)
-- ARGV[4..] hash fields to return for each id
-- Returns a flat array: id, field values..., id, field values...
local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '(' .. ARGV[1], '+inf', 'LIMIT', 0, tonumber(ARGV[2]))
local fields = {}
for i = 4, #ARGV do
  fields[#fields + 1] = ARGV[i]
end
local out = {}
for _, id in ipairs(ids) do
  out[#out + 1] = id
  local values = redis.call('HMGET', ARGV[3] .. id, unpack(fields))
  for j = 1, #fields do
    out[#out + 1] = values[j] or false
  end
end
return out
