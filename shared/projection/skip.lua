-- Records a reactor's position in a partition, never moving it backwards,
-- with the partition's epoch (es::EpochRule) as of that position.
-- KEYS[1] hash of positions; ARGV[1] "<topic>:<partition>"; ARGV[2] offset;
-- ARGV[3] epoch.
local seen = tonumber(redis.call('HGET', KEYS[1], ARGV[1]) or '-1')
if tonumber(ARGV[2]) > seen then
  redis.call('HSET', KEYS[1], ARGV[1], ARGV[2], ARGV[1] .. '@epoch', ARGV[3])
end
return 'recorded'
