-- Records a position without applying anything: for a record that is not a
-- valid event of ours (logged by the caller), so one bad record cannot stall
-- the projection forever.
-- KEYS[1] hash of applied positions; ARGV[1] field; ARGV[2] offset.
local seen = tonumber(redis.call('HGET', KEYS[1], ARGV[1]) or '-1')
if tonumber(ARGV[2]) > seen then
  redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
end
return 'skipped'
