-- Marks a read model ready once it holds every record a rebuild set out to
-- apply, checked and set in one step so that a wipe cannot fall between
-- the check and the mark (projection::Readiness).
-- KEYS[1] hash of applied positions; KEYS[2] the ready marker
-- ARGV[1] the generation to mark it with; then pairs of a position field
-- ("<topic>:<partition>") and the offset of the partition's last record.
-- Returns {1 if ready, the position of each pair (-1 if none)}.
local out = {0}
local done = true
for i = 2, #ARGV, 2 do
  local position = tonumber(redis.call('HGET', KEYS[1], ARGV[i]) or '-1')
  out[#out + 1] = position
  if position < tonumber(ARGV[i + 1]) then
    done = false
  end
end
if redis.call('EXISTS', KEYS[2]) == 1 then
  out[1] = 1
elseif done then
  redis.call('SET', KEYS[2], ARGV[1])
  out[1] = 1
end
return out
