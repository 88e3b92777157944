-- Applies one inventory event to the read model, atomically with the position
-- that produced it (the projection) or without one (the write path applying
-- its own just-acknowledged event). Per-ledger versions make it idempotent.
--
-- The prelude (shared/projection/apply_prelude.lua, prepended) has checked
-- the position and decoded the event: etype, subject, version, time, data
-- (docs/events.md has each type's data), integer(), optional(), base,
-- record_position, version_verdict.
-- Returns 'applied', 'duplicate', or 'behind' (write path only).

local pet = subject
local pet_status = data.petStatus                              -- tracked, pet_status_mirrored
local pet_version = data.petVersion and integer(data.petVersion)  -- and untracked
local qty = data.quantity
local order = data.orderId and integer(data.orderId)           -- the reservation events
local reason = data.reason                                     -- refused

local key = base .. 'item:' .. pet
local orders = key .. ':orders'
local verdict = version_verdict(key, version)
if verdict then
  return verdict
end

local old = redis.call('HMGET', key, 'tracked', 'status', 'petStatus', 'quantity', 'reserved')
local was_tracked, old_status = old[1] == '1', old[2]
local tracked = was_tracked
local state = {petStatus = old[3] or 'available', quantity = tonumber(old[4] or '0'),
               reserved = tonumber(old[5] or '0')}

local function reserved_units()
  local v = redis.call('HGET', orders, order)
  if v and string.sub(v, 1, 9) == 'reserved:' then
    return tonumber(string.sub(v, 10))
  end
  return 0
end

if etype == 'io.petstore.inventory.tracked' then
  tracked = true
  state.petStatus = pet_status
  redis.call('HSET', key, 'petVersion', pet_version)
elseif etype == 'io.petstore.inventory.pet_status_mirrored' then
  state.petStatus = pet_status
  redis.call('HSET', key, 'petVersion', pet_version)
elseif etype == 'io.petstore.inventory.untracked' then
  tracked = false
  redis.call('HSET', key, 'petVersion', pet_version)
elseif etype == 'io.petstore.inventory.stock_set' then
  state.quantity = qty
elseif etype == 'io.petstore.inventory.reserved' then
  state.quantity = state.quantity - qty
  state.reserved = state.reserved + qty
  redis.call('HSET', orders, order, 'reserved:' .. integer(qty))
elseif etype == 'io.petstore.inventory.refused' then
  redis.call('HSET', orders, order, 'refused:' .. reason)
elseif etype == 'io.petstore.inventory.released' then
  local units = reserved_units()
  state.quantity = state.quantity + units
  state.reserved = state.reserved - units
  redis.call('HSET', orders, order, 'released:' .. integer(units))
elseif etype == 'io.petstore.inventory.consumed' then
  local units = reserved_units()
  state.reserved = state.reserved - units
  redis.call('HSET', orders, order, 'consumed:' .. integer(units))
else
  return redis.error_reply('unknown event type ' .. etype)
end

-- The entry's status (domain/item.cpp, effective_status, has the same rule).
local status = state.petStatus
if status == 'available' then
  if state.quantity > 0 then
    status = 'available'
  elseif state.reserved > 0 then
    status = 'pending'
  else
    status = 'sold'
  end
end

redis.call('HSET', key, 'tracked', tracked and '1' or '0', 'petStatus', state.petStatus, 'quantity',
           state.quantity, 'reserved', state.reserved, 'status', status, 'version', version, 'updatedAt', time)

-- Lists and counts show tracked entries only, each under its current
-- status; most changes (a reservation that leaves stock) keep both.
if not (was_tracked and tracked and old_status == status) then
  if was_tracked then
    redis.call('ZREM', base .. 'items:s:' .. old_status, pet)
    redis.call('HINCRBY', base .. 'items:counts', old_status, -1)
  end
  if tracked then
    redis.call('ZADD', base .. 'items:all', pet, pet)
    redis.call('ZADD', base .. 'items:s:' .. status, pet, pet)
    redis.call('HINCRBY', base .. 'items:counts', status, 1)
  else
    redis.call('ZREM', base .. 'items:all', pet)
  end
end

record_position()
return 'applied'
