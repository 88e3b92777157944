-- Records where a consumer stands in several partitions at once
-- (projection::record_positions), never moving a position backwards, and
-- never over a read model that lost what the consumer applied: a partition
-- whose recorded position is below the one the consumer last recorded or
-- applied there is left alone (the consumer replays it; project.lua
-- refuses the same way).
-- KEYS[1] hash of positions
-- ARGV[1] JSON array: {"partition": "<topic>:<partition>", "offset": "<n>",
--         "previous": "<n>"} per partition. Strings: offsets are 64-bit,
--         and cjson reads numbers as doubles.
local positions = cjson.decode(ARGV[1])
for _, p in ipairs(positions) do
  local seen = tonumber(redis.call('HGET', KEYS[1], p.partition) or '-1')
  if seen >= tonumber(p.previous) and tonumber(p.offset) > seen then
    redis.call('HSET', KEYS[1], p.partition, p.offset)
  end
end
return 'recorded'
