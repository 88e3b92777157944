-- One rate-limit decision in one round trip. Everything about a subject is in
-- one hash, read with one HMGET and written with at most one HSET, because
-- each call a script makes costs Redis more than the call itself:
--   for an API key, its record "<prefix>:apikey:{<id>}" (the limits, so a
--   revocation or a new plan acts on the very next request on every replica,
--   and the counters beside them);
--   for an address, "<prefix>:rl:{addr:<ip>}" (counters only; it expires).
-- Both windows are checked together and the request is counted in both only
-- if both admit it: a denied request consumes no quota. A subject that keeps
-- sending after being denied is banned. Time is Redis' own, so every replica
-- agrees. Windows are fixed and aligned to multiples of their length since the
-- epoch: by default the minute starts at :00 and the day at 00:00 UTC. The
-- script touches one key, so it runs unchanged on Redis Cluster.
--
-- Counter fields: mw/mc and dw/dc (short and long window: index, count),
-- nu/nc (recent denials: until ms, count), bu (ban until ms), ou/oc (offences:
-- until ms, count).
--
-- KEYS[1] the subject's hash
-- ARGV[1] short-window limit   ARGV[2] long-window limit
-- ARGV[3] short window (s)     ARGV[4] long window (s)
-- ARGV[5] the API key's SHA-256, or '' for an address (ARGV[1..4] then apply;
--         for a key, its record's limits and windows do)
-- ARGV[6] denials that trigger a ban   ARGV[7] within this many seconds
-- ARGV[8] first ban (s)   ARGV[9] longest ban (s)   ARGV[10] offences remembered (s)
-- Returns {verdict, now_ms, short_used, long_used, short_end_ms, long_end_ms,
--          ban_ms, short_limit, long_limit, short_window_s, long_window_s, plan}
-- (plan: the key record's, '' for an address)
-- verdict: 1 admitted, 0 denied, 2 banned, 3 unknown key, 4 revoked key.
local t = redis.call('TIME')
local now_s = tonumber(t[1])
local now_ms = now_s * 1000 + math.floor(tonumber(t[2]) / 1000)
local h = redis.call('HMGET', KEYS[1], 'mw', 'mc', 'dw', 'dc', 'nu', 'nc', 'bu', 'ou', 'oc',
                     'digest', 'per_minute', 'per_day', 'minute_window_s', 'day_window_s', 'revoked_at', 'plan')
local short_limit, long_limit = tonumber(ARGV[1]), tonumber(ARGV[2])
local short_w, long_w = tonumber(ARGV[3]), tonumber(ARGV[4])
local is_key = ARGV[5] ~= ''
if is_key then
  if h[10] ~= ARGV[5] then
    return {3, now_ms}
  end
  if h[15] then
    return {4, now_ms, 0, 0, 0, 0, 0, 0, 0, 0, 0, h[16] or ''}
  end
  short_limit, long_limit = tonumber(h[11]), tonumber(h[12])
  short_w, long_w = tonumber(h[13]), tonumber(h[14])
end

local short_index = math.floor(now_s / short_w)
local long_index = math.floor(now_s / long_w)
local short_end = (short_index + 1) * short_w * 1000
local long_end = (long_index + 1) * long_w * 1000
local function answer(verdict, short_used, long_used, ban_ms)
  return {verdict, now_ms, short_used, long_used, short_end, long_end, ban_ms,
          short_limit, long_limit, short_w, long_w, is_key and (h[16] or '') or ''}
end

local ban_until = tonumber(h[7] or '0')
if ban_until > now_ms then
  return answer(2, 0, 0, ban_until - now_ms)
end

-- A counter of a past window counts as zero.
local short_used = tonumber(h[1] or '-1') == short_index and tonumber(h[2]) or 0
local long_used = tonumber(h[3] or '-1') == long_index and tonumber(h[4]) or 0

if short_used >= short_limit or long_used >= long_limit then
  local denials = 1
  local denials_until = now_ms + tonumber(ARGV[7]) * 1000
  if tonumber(h[5] or '0') > now_ms then
    denials = tonumber(h[6]) + 1
    denials_until = tonumber(h[5])
  end
  if denials >= tonumber(ARGV[6]) then
    local offences = tonumber(h[8] or '0') > now_ms and tonumber(h[9]) + 1 or 1
    local ban_ms = math.floor(math.min(tonumber(ARGV[8]) * 2 ^ (offences - 1), tonumber(ARGV[9])) * 1000)
    redis.call('HSET', KEYS[1], 'nu', 0, 'nc', 0, 'bu', now_ms + ban_ms,
               'ou', now_ms + tonumber(ARGV[10]) * 1000, 'oc', offences)
    if not is_key then
      redis.call('PEXPIREAT', KEYS[1], math.max(long_end, now_ms + tonumber(ARGV[10]) * 1000))
    end
    return answer(2, short_used, long_used, ban_ms)
  end
  redis.call('HSET', KEYS[1], 'nu', denials_until, 'nc', denials)
  return answer(0, short_used, long_used, 0)
end

short_used = short_used + 1
long_used = long_used + 1
redis.call('HSET', KEYS[1], 'mw', short_index, 'mc', short_used, 'dw', long_index, 'dc', long_used)
-- An address's counters go when its long window ends (unless a ban or an
-- offence record needs them longer); a key's record stays.
if not is_key and long_used == 1 then
  redis.call('PEXPIREAT', KEYS[1], math.max(long_end, tonumber(h[8] or '0')))
end
return answer(1, short_used, long_used, 0)
