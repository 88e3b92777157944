-- Changes an issued key's record in place, only if the key exists, so every
-- replica's next request (limit.lua reads the record) sees the change.
-- KEYS[1] the key's record
-- ARGV[1] 'replan' or 'revoke'
--   replan: ARGV[2] plan  ARGV[3] per_minute  ARGV[4] per_day
--           ARGV[5] minute_window_s  ARGV[6] day_window_s
--   revoke: ARGV[2] revoked_at (kept: a revoked key stays listed)
-- Returns 0 when there is no such key, -1 when a replan finds it revoked,
-- else the record's fields and values (HGETALL).
if redis.call('EXISTS', KEYS[1]) == 0 then
  return 0
end
if ARGV[1] == 'replan' then
  if redis.call('HEXISTS', KEYS[1], 'revoked_at') == 1 then
    return -1
  end
  redis.call('HSET', KEYS[1], 'plan', ARGV[2], 'per_minute', ARGV[3], 'per_day', ARGV[4],
             'minute_window_s', ARGV[5], 'day_window_s', ARGV[6])
elseif redis.call('HEXISTS', KEYS[1], 'revoked_at') == 0 then
  redis.call('HSET', KEYS[1], 'revoked_at', ARGV[2])
end
return redis.call('HGETALL', KEYS[1])
