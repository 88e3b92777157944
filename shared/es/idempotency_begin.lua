-- KEYS[1] record; ARGV: token, fingerprint, proposed id, lease ms, ttl ms.
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local h = redis.call('HMGET', KEYS[1], 'fp', 'state', 'until', 'id', 'status', 'body', 'location', 'etag')
if not h[1] then
  redis.call('HSET', KEYS[1], 'fp', ARGV[2], 'state', 'pending', 'token', ARGV[1],
             'until', now + tonumber(ARGV[4]), 'id', ARGV[3])
  redis.call('PEXPIRE', KEYS[1], ARGV[5])
  return {'fresh', ARGV[3]}
end
if h[1] ~= ARGV[2] then
  return {'mismatch'}
end
if h[2] == 'done' then
  return {'done', h[4], h[5], h[6], h[7], h[8]}
end
if tonumber(h[3]) > now then
  return {'busy', tostring(tonumber(h[3]) - now)}
end
redis.call('HSET', KEYS[1], 'token', ARGV[1], 'until', now + tonumber(ARGV[4]))
return {'resumed', h[4]}
