-- Applies one orders-service event to the read model, atomically with the
-- position that produced it (the projection) or without one (the write path
-- applying its own just-acknowledged event). Versions make it idempotent.
--
-- The prelude (shared/projection/apply_prelude.lua, prepended) has checked
-- the position and decoded the event: etype, subject, version, time, data
-- (docs/events.md has each type's data), integer(), optional(), base,
-- record_position, version_verdict.
-- Returns 'applied', 'duplicate', or 'behind' (write path only).

local id = subject
local pet, qty = integer(data.petId), integer(data.quantity)
local ship = optional(data.shipDate) or ''  -- order.placed (optional) and order.completed
local reason = data.reason                   -- order.rejected

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

-- Only the indexes whose membership changes: an order stays in the list
-- of all orders, its pet's, and (until it completes) the open ones, so
-- placed -> reserved is 2 removals and 2 additions, not 6 and 6.
local new_indexes = indexes(status)
local now_in = {}
for _, k in ipairs(new_indexes) do
  now_in[k] = true
end
local was_in = {}
if old_status then
  for _, k in ipairs(indexes(old_status)) do
    was_in[k] = true
    if not now_in[k] then
      redis.call('ZREM', k, id)
    end
  end
end
for _, k in ipairs(new_indexes) do
  if not was_in[k] then
    redis.call('ZADD', k, id, id)
  end
end
redis.call('HSET', key, 'status', status, 'version', version, 'updatedAt', time)

record_position()
return 'applied'
