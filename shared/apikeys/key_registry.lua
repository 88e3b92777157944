-- Appended to apply_prelude.lua by apikeys::KeyRegistry: applies one event
-- of the keys topic to the key registry, the records limit.lua reads, so the
-- registry is a projection of the log like every read model.
--
-- ARGV[3]  the registry's key base, "<prefix>:apikey:"; a key's record is
--          "<base>{<id>}" (its id as hash tag: limit.lua keeps the key's
--          counters in the same hash, in the same slot)
-- ARGV[4]  the event, CloudEvents structured JSON (decoded here with cjson)
-- ARGV[5]  the index of ids by issue time, "<prefix>:apikeys"
-- ARGV[6]  the event's time in milliseconds since the epoch (the index's score)
--
-- The prelude has checked the position; version_verdict makes applying
-- idempotent per key (every service's projection applies the keys topic to
-- this one registry, and each replays it after a wipe).

local event = cjson.decode(cloudevent)
local data = event.data
local key = base .. '{' .. event.subject .. '}'
local version = tonumber(event.sequence)

local verdict = version_verdict(key, version)
if verdict then
  return verdict
end

local function set_plan()
  redis.call('HSET', key, 'plan', data.plan,
             'per_minute', string.format('%d', data.perMinute),
             'per_day', string.format('%d', data.perDay),
             'minute_window_s', string.format('%d', data.minuteWindowSeconds),
             'day_window_s', string.format('%d', data.dayWindowSeconds))
end

if event.type == 'io.petstore.apikey.issued' then
  redis.call('HSET', key, 'digest', data.digest, 'name', data.name, 'created_at', event.time)
  set_plan()
  redis.call('ZADD', ARGV[5], ARGV[6], event.subject)
elseif event.type == 'io.petstore.apikey.replanned' then
  set_plan()
elseif event.type == 'io.petstore.apikey.revoked' then
  -- A revoked key stays listed, with the time of its revocation.
  redis.call('HSET', key, 'revoked_at', event.time)
end
redis.call('HSET', key, 'version', version)
record_position()
return 'applied'
