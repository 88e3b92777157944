-- Prepended by projection::ScriptApplier to every service's apply.lua: the
-- part of applying an event that is the same for every service.
--
-- KEYS[1]  hash of applied positions ("<topic>:<partition>" -> offset)
-- KEYS[2]  the read model's ready marker (projection::Readiness)
-- ARGV[1]  position field, or '' when the write path applies its own event
-- ARGV[2]  '<offset>/<previous>': the record's offset, and the offset of
--          the record this consumer applied before it in the partition (-1
--          when it started at the partition's beginning). Ignored without a
--          field
-- ARGV[3]  key base of the service, e.g. "petstore:{pets}:"
-- ARGV[4]  the event in CloudEvents' structured JSON, kept as history; ''
--          to only record the position of a record that is not an event
-- KEYS[3..] and ARGV[5..] are the service script's own: keys it touches
-- beyond its key base, and what the write path knows besides the event (a
-- claim to release). Nothing of the event travels positionally: the script
-- reads the event itself, decoded here (event, etype, subject, version,
-- time, data, with integer() and optional() to read data's members).

local field, base, cloudevent = ARGV[1], ARGV[3], ARGV[4]
local offset, previous = 0, -1

if field ~= '' then
  local o, p = string.match(ARGV[2], '^(%d+)/(%-?%d+)$')
  offset, previous = tonumber(o), tonumber(p)
  local seen = tonumber(redis.call('HGET', KEYS[1], field) or '-1')
  -- A record at or below the applied position was applied already.
  if offset <= seen then
    return 'duplicate'
  end
  -- The read model no longer holds what this consumer applied: Redis was
  -- wiped, failed over or restored from an older snapshot. Applying this
  -- record would record a position past events the read model lacks, so it
  -- is refused; the consumer replays from the recorded position (or the
  -- beginning), and the read model stops being ready until it has.
  if seen < previous then
    redis.call('DEL', KEYS[2])
    return 'gap'
  end
end

local function record_position()
  if field ~= '' then
    redis.call('HSET', KEYS[1], field, offset)
  end
end

if cloudevent == '' then
  record_position()
  return 'skipped'
end

-- The event, with Redis' cjson. Its numbers arrive as Lua doubles. Every
-- integer an event holds is within +-(2^53 - 1) (json::EventFields refuses
-- the rest), so each is exact, but tostring(), '..' and redis.call() would
-- write a large one in exponent form (%.14g): integer() writes the digits.
-- C++ has decoded the event before (ScriptApplier::check), but cjson is not
-- RapidJSON: what one takes and the other refuses (nesting beyond cjson's
-- 1000 levels in a member no decoder reads) is skipped like any invalid
-- record, never retried forever.
local decoded, event = pcall(cjson.decode, cloudevent)
if not decoded or type(event) ~= 'table' or type(event.data) ~= 'table' then
  record_position()
  return 'skipped'
end
local etype, subject, time, data = event.type, event.subject, event.time, event.data
local version = tonumber(event.sequence)

local function integer(v)
  return string.format('%d', v)
end

-- An optional member of data: nil when absent or null.
local function optional(v)
  if v == cjson.null then
    return nil
  end
  return v
end

-- Per-aggregate versions make applying idempotent: an event at or below the
-- aggregate's version changes nothing ('duplicate'); on the write path, an
-- event that is not the next one must wait for the projection ('behind').
-- Returns nil when the event is to be applied, after adding it to the
-- aggregate's history: the sorted set "<key>:history", score = version,
-- which GET .../history pages through (readmodel::History). It outlives the
-- aggregate's deletion, so a deleted pet's trail stays readable.
local function version_verdict(key, version)
  local current = tonumber(redis.call('HGET', key, 'version') or '0')
  if version <= current then
    record_position()
    return 'duplicate'
  end
  if field == '' and version ~= current + 1 then
    return 'behind'
  end
  redis.call('ZADD', key .. ':history', version, cloudevent)
  return nil
end
