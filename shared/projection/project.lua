-- Writes one event's effect on a read model, as its service's C++ fold
-- decided it (projection::Effect), atomically with the position of the record
-- that carried it. Every read model's one script: it knows no event type and
-- no field, only versions, positions and the commands it is handed.
--
-- KEYS[1]  hash of applied positions ("<topic>:<partition>" -> offset)
-- KEYS[2]  the read model's ready marker (projection::Readiness)
-- ARGV[1]  position field, or '' when the write path applies its own event
-- ARGV[2]  '<offset>/<previous>': the record's offset, and the offset of the
--          record this consumer applied before it in the partition (-1 when
--          it started at the partition's beginning). Ignored without a field
-- ARGV[3]  the aggregate's hash, '' for a record that is not an event (only
--          its position is recorded)
-- ARGV[4]  the event's version (its CloudEvents sequence)
-- ARGV[5]  the event in CloudEvents' structured JSON, for the history
-- ARGV[6]  how many commands apply the event; then those commands, each as
--          its argument count and its arguments; then the count of the
--          commands to run also when the event was applied before (a claim
--          the write path releases with it), and those.
-- Returns 'applied', 'duplicate', 'behind' (write path: the aggregate's
-- previous event is not applied yet), 'gap' or 'skipped'.

local field, key = ARGV[1], ARGV[3]
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

-- Runs the `n` commands that start at ARGV[i]; returns the index after them.
local function run(i, n)
  for _ = 1, n do
    local argc = tonumber(ARGV[i])
    redis.call(unpack(ARGV, i + 1, i + argc))
    i = i + 1 + argc
  end
  return i
end

-- Where the commands to run in any case start, past those that apply.
local function settle_at()
  local i, n = 7, tonumber(ARGV[6])
  for _ = 1, n do
    i = i + 1 + tonumber(ARGV[i])
  end
  return i
end

if key == '' then
  record_position()
  return 'skipped'
end

-- Per-aggregate versions make applying idempotent: an event at or below the
-- aggregate's version changes nothing; on the write path, an event that is
-- not the next one must wait for the projection.
local version = tonumber(ARGV[4])
local current = tonumber(redis.call('HGET', key, 'version') or '0')
if version <= current then
  record_position()
  local s = settle_at()
  run(s + 1, tonumber(ARGV[s]))
  return 'duplicate'
end
if field == '' and version ~= current + 1 then
  return 'behind'
end

-- The aggregate's history: score = version, which GET .../history pages
-- through (readmodel::History). It outlives the aggregate's deletion.
redis.call('ZADD', key .. ':history', version, ARGV[5])
local s = run(7, tonumber(ARGV[6]))
run(s + 1, tonumber(ARGV[s]))
redis.call('HSET', key, 'version', version)
record_position()
return 'applied'
