-- KEYS[1] idempotency record; ARGV[1] our token. Drops the record while it is
-- still ours and pending, so a retry with the key starts afresh.
local h = redis.call('HMGET', KEYS[1], 'token', 'state')
if h[1] == ARGV[1] and h[2] == 'pending' then
  return redis.call('DEL', KEYS[1])
end
return 0
