-- Applies one orders-service event to the read model, atomically with the
-- position that produced it (the projection) or without one (the write path
-- applying its own just-acknowledged event). Versions make it idempotent.
--
-- KEYS[1]  hash of applied positions ("<topic>:<partition>" -> offset)
-- ARGV[1]  position field, or '' on the write path   ARGV[2] offset
-- ARGV[3]  key base, e.g. "petstore:{orders}:"
-- ARGV[4]  event type   ARGV[5] order id   ARGV[6] version   ARGV[7] time
-- ARGV[8]  pet id       ARGV[9] quantity   ARGV[10] ship date ('' for none)
-- ARGV[11] refusal reason
-- Returns 'applied', 'duplicate', or 'behind' (write path only).

local field, offset, base = ARGV[1], ARGV[2], ARGV[3]
local etype, id, version, time = ARGV[4], ARGV[5], tonumber(ARGV[6]), ARGV[7]
local pet, qty, ship, reason = ARGV[8], ARGV[9], ARGV[10], ARGV[11]

if field ~= '' then
  local seen = tonumber(redis.call('HGET', KEYS[1], field) or '-1')
  if tonumber(offset) <= seen then
    return 'duplicate'
  end
end

local function record_position()
  if field ~= '' then
    redis.call('HSET', KEYS[1], field, offset)
  end
end

local key = base .. 'order:' .. id
local current = tonumber(redis.call('HGET', key, 'version') or '0')
if version <= current then
  record_position()
  return 'duplicate'
end
if field == '' and version ~= current + 1 then
  return 'behind'
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
