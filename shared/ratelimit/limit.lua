-- One rate-limit decision in one round trip: checks the per-minute and the
-- per-day window together, counts the request only if both admit it (a
-- denied request consumes no quota), and bans a key that keeps sending
-- after being denied. Time is Redis' own, so every replica agrees.
-- Windows are fixed and aligned to multiples of their length since the
-- epoch: with the defaults, the minute starts at :00 and the day at 00:00 UTC.
-- All keys share one hash tag (the API key's), so this runs on Redis Cluster.
--
-- KEYS[1] minute counter   KEYS[2] day counter   KEYS[3] recent denials
-- KEYS[4] ban              KEYS[5] offence count
-- ARGV[1] per-minute limit ARGV[2] per-day limit
-- ARGV[3] denials that trigger a ban   ARGV[4] within this many seconds
-- ARGV[5] first ban (s)    ARGV[6] longest ban (s)   ARGV[7] offences remembered (s)
-- ARGV[8] short window (s, 60 by default)             ARGV[9] long window (s, 86400)
-- Returns {verdict, now_ms, minute_used, day_used, minute_end_ms, day_end_ms, ban_ms}
-- verdict: 1 admitted, 0 denied, 2 banned.
local t = redis.call('TIME')
local now_s = tonumber(t[1])
local now_ms = now_s * 1000 + math.floor(tonumber(t[2]) / 1000)
local short_w, long_w = tonumber(ARGV[8]), tonumber(ARGV[9])
local minute_end = (math.floor(now_s / short_w) + 1) * short_w * 1000
local day_end = (math.floor(now_s / long_w) + 1) * long_w * 1000

local ban_ms = redis.call('PTTL', KEYS[4])
if ban_ms > 0 then
  return {2, now_ms, 0, 0, minute_end, day_end, ban_ms}
end

local minute_used = tonumber(redis.call('GET', KEYS[1]) or '0')
local day_used = tonumber(redis.call('GET', KEYS[2]) or '0')

if minute_used >= tonumber(ARGV[1]) or day_used >= tonumber(ARGV[2]) then
  local denials = redis.call('INCR', KEYS[3])
  if denials == 1 then
    redis.call('PEXPIRE', KEYS[3], tonumber(ARGV[4]) * 1000)
  end
  if denials >= tonumber(ARGV[3]) then
    local offences = redis.call('INCR', KEYS[5])
    redis.call('PEXPIRE', KEYS[5], tonumber(ARGV[7]) * 1000)
    local ban_s = math.min(tonumber(ARGV[5]) * 2 ^ (offences - 1), tonumber(ARGV[6]))
    redis.call('SET', KEYS[4], offences, 'PX', math.floor(ban_s * 1000))
    redis.call('DEL', KEYS[3])
    return {2, now_ms, minute_used, day_used, minute_end, day_end, math.floor(ban_s * 1000)}
  end
  return {0, now_ms, minute_used, day_used, minute_end, day_end, 0}
end

minute_used = redis.call('INCR', KEYS[1])
if minute_used == 1 then
  redis.call('PEXPIREAT', KEYS[1], minute_end)
end
day_used = redis.call('INCR', KEYS[2])
if day_used == 1 then
  redis.call('PEXPIREAT', KEYS[2], day_end)
end
return {1, now_ms, minute_used, day_used, minute_end, day_end, 0}
