-- Records a position, never moving it backwards: for a record the projection
-- skips (not a valid event of ours, logged by the caller) so one bad record
-- cannot stall it, and for every event a reactor has handled.
-- KEYS[1] hash of positions; ARGV[1] "<topic>:<partition>"; ARGV[2] offset.
local seen = tonumber(redis.call('HGET', KEYS[1], ARGV[1]) or '-1')
if tonumber(ARGV[2]) > seen then
  redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
end
return 'recorded'
