-- KEYS[1] lease key; ARGV[1] instance id. Shortens our own lease to a cool-down.
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], 1000)
end
return 0
