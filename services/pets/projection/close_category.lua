-- First step of deleting a category: refuses while pets use it or live claims
-- exist, else marks it closing (no new claims) for the command's lease.
-- KEYS[1] category hash; KEYS[2] its claims set; KEYS[3] pet counts hash;
-- ARGV[1] lease ms; ARGV[2] '1' to reopen; ARGV[3] category id.
-- Returns {'ok'}, {'missing'}, {'claimed', n} or {'in_use', n}.
if ARGV[2] == '1' then
  redis.call('HDEL', KEYS[1], 'closingUntil')
  return {'ok'}
end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local c = {redis.call('HGET', KEYS[1], 'deleted'), redis.call('HGET', KEYS[3], ARGV[3])}
if c[1] ~= '0' then
  return {'missing'}
end
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
local live = redis.call('ZCARD', KEYS[2])
if live > 0 then
  return {'claimed', live}
end
if tonumber(c[2] or '0') > 0 then
  return {'in_use', tonumber(c[2])}
end
redis.call('HSET', KEYS[1], 'closingUntil', now + tonumber(ARGV[1]))
return {'ok'}
