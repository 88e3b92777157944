-- Applies one orders-service event to the read model, atomically with the
-- position that produced it (the projection) or without one (the write path
-- applying its own just-acknowledged event). Versions make it idempotent.
--
-- KEYS and ARGV[1..4] as in shared/projection/apply_prelude.lua, which is
-- prepended and defines field, offset, base, record_position, version_verdict.
-- ARGV[5]  event type   ARGV[6] order id   ARGV[7] version   ARGV[8] time
-- ARGV[9]  pet id       ARGV[10] quantity   ARGV[11] ship date ('' for none)
-- ARGV[12] refusal reason
-- Returns 'applied', 'duplicate', or 'behind' (write path only).

local etype, id, version, time = ARGV[5], ARGV[6], tonumber(ARGV[7]), ARGV[8]
local pet, qty, ship, reason = ARGV[9], ARGV[10], ARGV[11], ARGV[12]

local key = base .. 'order:' .. id
local verdict = version_verdict(key, version)
if verdict then
  return verdict
end

-- Every index an order of this pet and status belongs to (OrderKeys::index).
local function indexes(st)
  local c = st == 'completed' and 'c:1' or 'c:0'
  local p = base .. 'orders:p:' .. pet .. ':'
  return {base .. 'orders:all', base .. 'orders:s:' .. st, base .. 'orders:' .. c, p .. 'all', p .. 's:' .. st,
          p .. c}
end

local old_status = redis.call('HGET', key, 'status')
local status
if etype == 'io.petstore.order.placed' then
  status = 'placed'
  redis.call('HSET', key, 'petId', pet, 'quantity', qty, 'createdAt', time)
  if ship ~= '' then
    redis.call('HSET', key, 'shipDate', ship)
  end
elseif etype == 'io.petstore.order.reserved' then
  status = 'reserved'
elseif etype == 'io.petstore.order.rejected' then
  status = 'rejected'
  redis.call('HSET', key, 'rejection', reason)
elseif etype == 'io.petstore.order.completed' then
  status = 'completed'
  redis.call('HSET', key, 'shipDate', ship)
elseif etype == 'io.petstore.order.cancelled' then
  status = 'cancelled'
else
  return redis.error_reply('unknown event type ' .. etype)
end

if old_status then
  for _, k in ipairs(indexes(old_status)) do
    redis.call('ZREM', k, id)
  end
end
for _, k in ipairs(indexes(status)) do
  redis.call('ZADD', k, id, id)
end
redis.call('HSET', key, 'status', status, 'version', version, 'updatedAt', time)

record_position()
return 'applied'
