-- KEYS[1] key prefix; ARGV[1] instance id, ARGV[2] ttl ms, ARGV[3] count.
for n = 0, tonumber(ARGV[3]) - 1 do
  if redis.call('SET', KEYS[1] .. n, ARGV[1], 'NX', 'PX', ARGV[2]) then
    return n
  end
end
return -1
