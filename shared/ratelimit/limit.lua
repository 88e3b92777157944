-- One rate-limit decision in one round trip: for an API key, reads the key's
-- record (so a revocation or a new plan acts on the very next request, on
-- every replica), then checks the short and the long window together, counts
-- the request only if both admit it (a denied request consumes no quota), and
-- bans a subject that keeps sending after being denied. Time is Redis' own, so
-- every replica agrees. Windows are fixed and aligned to multiples of their
-- length since the epoch: by default the minute starts at :00 and the day at
-- 00:00 UTC. All keys share one hash tag (the subject's), so this runs
-- unchanged on Redis Cluster.
--
-- KEYS[1] short-window counter  KEYS[2] long-window counter  KEYS[3] recent denials
-- KEYS[4] ban                   KEYS[5] offence count        KEYS[6] the API key's record
-- ARGV[1] short-window limit    ARGV[2] long-window limit
-- ARGV[3] denials that trigger a ban   ARGV[4] within this many seconds
-- ARGV[5] first ban (s)    ARGV[6] longest ban (s)   ARGV[7] offences remembered (s)
-- ARGV[8] short window (s)  ARGV[9] long window (s)
-- ARGV[10] the API key's SHA-256, or '' for a subject without a key (the
--          limits in ARGV then apply; with a key, its record's do)
-- Returns {verdict, now_ms, short_used, long_used, short_end_ms, long_end_ms,
--          ban_ms, short_limit, long_limit, short_window_s, long_window_s}
-- verdict: 1 admitted, 0 denied, 2 banned, 3 unknown key, 4 revoked key.
local t = redis.call('TIME')
local now_s = tonumber(t[1])
local now_ms = now_s * 1000 + math.floor(tonumber(t[2]) / 1000)
local short_limit, long_limit = tonumber(ARGV[1]), tonumber(ARGV[2])
local short_w, long_w = tonumber(ARGV[8]), tonumber(ARGV[9])

if ARGV[10] ~= '' then
  local rec = redis.call('HMGET', KEYS[6], 'digest', 'per_minute', 'per_day',
                         'minute_window_s', 'day_window_s', 'revoked_at')
  if not rec[1] or rec[1] ~= ARGV[10] then
    return {3, now_ms}
  end
  if rec[6] then
    return {4, now_ms}
  end
  short_limit, long_limit = tonumber(rec[2]), tonumber(rec[3])
  short_w, long_w = tonumber(rec[4]), tonumber(rec[5])
end

local short_end = (math.floor(now_s / short_w) + 1) * short_w * 1000
local long_end = (math.floor(now_s / long_w) + 1) * long_w * 1000
local function answer(verdict, short_used, long_used, ban_ms)
  return {verdict, now_ms, short_used, long_used, short_end, long_end, ban_ms,
          short_limit, long_limit, short_w, long_w}
end

local ban_ms = redis.call('PTTL', KEYS[4])
if ban_ms > 0 then
  return answer(2, 0, 0, ban_ms)
end

local short_used = tonumber(redis.call('GET', KEYS[1]) or '0')
local long_used = tonumber(redis.call('GET', KEYS[2]) or '0')

if short_used >= short_limit or long_used >= long_limit then
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
    return answer(2, short_used, long_used, math.floor(ban_s * 1000))
  end
  return answer(0, short_used, long_used, 0)
end

short_used = redis.call('INCR', KEYS[1])
if short_used == 1 then
  redis.call('PEXPIREAT', KEYS[1], short_end)
end
long_used = redis.call('INCR', KEYS[2])
if long_used == 1 then
  redis.call('PEXPIREAT', KEYS[2], long_end)
end
return answer(1, short_used, long_used, 0)
