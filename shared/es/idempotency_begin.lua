-- KEYS[1] record; ARGV: token, fingerprint, lease ms, ttl ms.
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local h = redis.call('HMGET', KEYS[1], 'fp', 'state', 'until', 'status', 'body', 'location', 'etag')
if not h[1] then
  redis.call('HSET', KEYS[1], 'fp', ARGV[2], 'state', 'pending', 'token', ARGV[1],
             'until', now + tonumber(ARGV[3]))
  redis.call('PEXPIRE', KEYS[1], ARGV[4])
  return {'fresh'}
end
if h[1] ~= ARGV[2] then
  return {'mismatch'}
end
if h[2] == 'done' then
  return {'done', h[4], h[5], h[6], h[7]}
end
if tonumber(h[3]) > now then
  return {'busy', tostring(tonumber(h[3]) - now)}
end
redis.call('HSET', KEYS[1], 'token', ARGV[1], 'until', now + tonumber(ARGV[3]))
return {'resumed'}
