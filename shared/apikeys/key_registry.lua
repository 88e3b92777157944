-- Appended to apply_prelude.lua by apikeys::KeyRegistry: applies one event
-- of the keys topic to the key registry, the records limit.lua reads, so the
-- registry is a projection of the log like every read model.
--
-- ARGV[3]  the registry's key base, "<prefix>:apikey:"; a key's record is
--          "<base>{<id>}" (its id as hash tag: limit.lua keeps the key's
--          counters in the same hash, in the same slot)
-- KEYS[3]  the index of ids by issue time, "<prefix>:apikeys"
-- The prelude has checked the position and decoded the event (event, data,
-- subject, version, time, integer()); version_verdict makes applying
-- idempotent per key (every service's projection applies the keys topic to
-- this one registry, and each replays it after a wipe).

local key = base .. '{' .. subject .. '}'

-- The event's time (RFC 3339, as text::parse_time_ms reads it, which
-- KeyRegistry::check has run on it) in milliseconds since the epoch: the
-- index's score. Fractions are truncated to the millisecond, a leap second
-- counts as :59, and the date goes through Howard Hinnant's days_from_civil.
local function epoch_ms(t)
  local y, mo, d, h, mi, s, rest = string.match(t, '^(%d%d%d%d)-(%d%d)-(%d%d)[Tt](%d%d):(%d%d):(%d%d)(.*)$')
  y, mo, d, h, mi, s = tonumber(y), tonumber(mo), tonumber(d), tonumber(h), tonumber(mi), math.min(tonumber(s), 59)
  local frac, zone = string.match(rest, '^%.(%d+)(.*)$')
  if not frac then
    frac, zone = '', rest
  end
  local offset_min = 0
  local sign, oh, om = string.match(zone, '^([+-])(%d%d):(%d%d)$')
  if sign then
    offset_min = (sign == '+' and 1 or -1) * (tonumber(oh) * 60 + tonumber(om))
  end
  if mo <= 2 then
    y = y - 1
  end
  local era = math.floor(y / 400)
  local yoe = y - era * 400
  local doy = math.floor((153 * ((mo + 9) % 12) + 2) / 5) + d - 1
  local days = era * 146097 + yoe * 365 + math.floor(yoe / 4) - math.floor(yoe / 100) + doy - 719468
  local ms = tonumber(string.sub(frac .. '000', 1, 3))
  return (((days * 24 + h) * 60 + mi - offset_min) * 60 + s) * 1000 + ms
end

local verdict = version_verdict(key, version)
if verdict then
  return verdict
end

local function set_plan()
  redis.call('HSET', key, 'plan', data.plan,
             'per_minute', integer(data.perMinute),
             'per_day', integer(data.perDay),
             'minute_window_s', integer(data.minuteWindowSeconds),
             'day_window_s', integer(data.dayWindowSeconds))
end

if event.type == 'io.petstore.apikey.issued' then
  redis.call('HSET', key, 'digest', data.digest, 'name', data.name, 'created_at', event.time)
  set_plan()
  redis.call('ZADD', KEYS[3], integer(epoch_ms(time)), subject)
elseif event.type == 'io.petstore.apikey.replanned' then
  set_plan()
elseif event.type == 'io.petstore.apikey.revoked' then
  -- A revoked key stays listed, with the time of its revocation.
  redis.call('HSET', key, 'revoked_at', event.time)
end
redis.call('HSET', key, 'version', version)
record_position()
return 'applied'
