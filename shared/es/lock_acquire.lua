-- KEYS[1] lock, KEYS[2] (optional) the read model's ready marker;
-- ARGV[1] token, ARGV[2] lease ms.
-- Returns {1, died} when taken (died = 1 if a stale lock was taken over),
-- {0, ms_left} when another holder's lease is still running, {2, 0} when the
-- read model is not ready.
if KEYS[2] and redis.call('EXISTS', KEYS[2]) == 0 then
  return {2, 0}
end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local cur = redis.call('GET', KEYS[1])
local died = 0
if cur then
  local sep = string.find(cur, '|', 1, true)
  local lease_end = tonumber(string.sub(cur, sep + 1))
  if lease_end > now then
    return {0, lease_end - now}
  end
  died = 1
end
-- No TTL: the lease is in the value, and a dead holder's lock must stay for
-- the next holder to see, which Redis' volatile-lru would not let a key
-- with a TTL do. At most one such key per aggregate is left.
redis.call('SET', KEYS[1], ARGV[1] .. '|' .. (now + tonumber(ARGV[2])))
return {1, died}
