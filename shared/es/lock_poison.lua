-- Keeps the key (so the next holder sees a dead lease) but ends the lease now.
local cur = redis.call('GET', KEYS[1])
if cur and string.sub(cur, 1, #ARGV[1] + 1) == ARGV[1] .. '|' then
  redis.call('SET', KEYS[1], ARGV[1] .. '|0', 'KEEPTTL')
  return 1
end
return 0
