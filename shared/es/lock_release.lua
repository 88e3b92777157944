-- KEYS[1] lock; ARGV[1] our token. Frees the lock only while it is ours.
local cur = redis.call('GET', KEYS[1])
if cur and string.sub(cur, 1, #ARGV[1] + 1) == ARGV[1] .. '|' then
  return redis.call('DEL', KEYS[1])
end
return 0
