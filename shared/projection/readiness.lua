-- Whether a read model holds every record up to the targets a replica took
-- from the log's ends, and if so, marks it ready (when a wipe took the
-- marker), checked and set in one step so that a wipe cannot fall between
-- the check and the mark (projection::Readiness).
-- KEYS[1] hash of applied positions; KEYS[2] the ready marker
-- ARGV[1] the generation to mark it with; then pairs of a position field
-- ("<topic>:<partition>") and the offset of the partition's last record.
-- Returns {1 if every target is reached and the marker is set, then the
-- position of each pair (-1 if none)}.
local out = {0}
local reached = true
for i = 2, #ARGV, 2 do
  local position = tonumber(redis.call('HGET', KEYS[1], ARGV[i]) or '-1')
  out[#out + 1] = position
  if position < tonumber(ARGV[i + 1]) then
    reached = false
  end
end
if reached then
  if redis.call('EXISTS', KEYS[2]) == 0 then
    redis.call('SET', KEYS[2], ARGV[1])
  end
  out[1] = 1
end
return out
