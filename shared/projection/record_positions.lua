-- Records where a reactor stands in each partition of a handled batch,
-- never moving a position backwards, each with its partition's epoch
-- (es::EpochRule) as of that position. One call for the whole batch: a
-- batch spans several partitions, and a round trip for each was a large
-- part of a reactor's time per batch.
-- KEYS[1] hash of positions
-- ARGV[1] JSON array: {"partition": "<topic>:<partition>", "offset": "<n>",
--         "epoch": "<n>"} per partition. Strings: offsets are 64-bit, and
--         cjson reads numbers as doubles.
local positions = cjson.decode(ARGV[1])
for _, p in ipairs(positions) do
  local seen = tonumber(redis.call('HGET', KEYS[1], p.partition) or '-1')
  if tonumber(p.offset) > seen then
    redis.call('HSET', KEYS[1], p.partition, p.offset, p.partition .. '@epoch', p.epoch)
  end
end
return 'recorded'
