-- KEYS[1]; ARGV: token, status, body, location, etag, ttl ms.
if redis.call('HGET', KEYS[1], 'token') ~= ARGV[1] then
  return 0
end
redis.call('HSET', KEYS[1], 'state', 'done', 'status', ARGV[2], 'body', ARGV[3],
           'location', ARGV[4], 'etag', ARGV[5])
redis.call('PEXPIRE', KEYS[1], ARGV[6])
return 1
