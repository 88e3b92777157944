-- Applies one pets-service event to the read model, atomically with the
-- position that produced it. Called by the projection (with a position) and by
-- the write path for its own just-acknowledged event (without one), which is
-- how a 2xx guarantees read-your-writes. Per-aggregate versions make it
-- idempotent: an event at or below the applied version changes nothing.
--
-- The prelude (shared/projection/apply_prelude.lua, prepended) has checked
-- the position and decoded the event: etype, subject, version, time, data
-- (docs/events.md has each type's data), integer(), optional(), base,
-- record_position, version_verdict.
-- ARGV[5]  on the write path, the claim token to release on the category
--          (absent or '' for none): the command's, not the event's.
-- Returns 'applied', 'duplicate', or 'behind' (write path only: an earlier
-- event of this aggregate is not applied yet, so the caller must wait).

local id = subject
local name = data.name
local cat = data.categoryId and integer(data.categoryId)  -- pet.created and pet.updated
local status = data.status or data.to                    -- pet.status_changed has from and to
-- A category's description, or a pet's since schema version 2 of
-- pet.created and pet.updated; absent means none.
local description = optional(data.description)
local has_description = description ~= nil
local claim = ARGV[5] or ''

local function release_claim(category)
  if claim ~= '' and category then
    redis.call('ZREM', base .. 'cat:' .. category .. ':claims', claim)
  end
end

local is_category = string.sub(etype, 1, 21) == 'io.petstore.category.'
local key = base .. (is_category and 'cat:' or 'pet:') .. id
local verdict = version_verdict(key, version)
if verdict == 'duplicate' then
  release_claim(cat)
end
if verdict then
  return verdict
end

local function indexes(pet, category, st)
  return {base .. 'pets:all', base .. 'pets:s:' .. st, base .. 'pets:c:' .. category,
          base .. 'pets:c:' .. category .. ':s:' .. st}
end

local function index_add(pet, category, st)
  for _, k in ipairs(indexes(pet, category, st)) do
    redis.call('ZADD', k, pet, pet)
  end
end

local function index_remove(pet, category, st)
  for _, k in ipairs(indexes(pet, category, st)) do
    redis.call('ZREM', k, pet)
  end
end

-- Pet counts per category live in one hash, independent of the category's
-- own record: pets and categories are on different topics, so a replay may
-- apply a pet before its category exists.
local function count_pet(category, delta)
  redis.call('HINCRBY', base .. 'cat:counts', category, delta)
end

if etype == 'io.petstore.pet.created' then
  redis.call('HSET', key, 'name', name, 'categoryId', cat, 'status', status, 'version', version,
             'createdAt', time, 'updatedAt', time, 'deleted', '0')
  if has_description then  -- schema version 2 only
    redis.call('HSET', key, 'description', description)
  end
  index_add(id, cat, status)
  count_pet(cat, 1)
elseif etype == 'io.petstore.pet.updated' then
  local old = redis.call('HMGET', key, 'categoryId', 'status')
  if old[1] then
    index_remove(id, old[1], old[2])
    if old[1] ~= cat then
      count_pet(old[1], -1)
      count_pet(cat, 1)
    end
  end
  redis.call('HSET', key, 'name', name, 'categoryId', cat, 'status', status, 'version', version,
             'updatedAt', time)
  if has_description then  -- the full state: no description means none
    redis.call('HSET', key, 'description', description)
  else
    redis.call('HDEL', key, 'description')
  end
  index_add(id, cat, status)
elseif etype == 'io.petstore.pet.status_changed' then
  local old = redis.call('HMGET', key, 'categoryId', 'status')
  if old[1] then
    index_remove(id, old[1], old[2])
    index_add(id, old[1], status)
  end
  redis.call('HSET', key, 'status', status, 'version', version, 'updatedAt', time)
elseif etype == 'io.petstore.pet.deleted' then
  local old = redis.call('HMGET', key, 'categoryId', 'status')
  if old[1] then
    index_remove(id, old[1], old[2])
    count_pet(old[1], -1)
  end
  -- A tombstone keeps the version so a redelivered older event cannot
  -- bring the pet back.
  redis.call('DEL', key)
  redis.call('HSET', key, 'version', version, 'deleted', '1')
elseif etype == 'io.petstore.category.created' then
  redis.call('HSET', key, 'name', name, 'version', version, 'deleted', '0')
  if has_description then
    redis.call('HSET', key, 'description', description)
  end
  redis.call('ZADD', base .. 'cats:all', id, id)
elseif etype == 'io.petstore.category.updated' then
  redis.call('HSET', key, 'name', name, 'version', version)
  if has_description then
    redis.call('HSET', key, 'description', description)
  else
    redis.call('HDEL', key, 'description')
  end
elseif etype == 'io.petstore.category.deleted' then
  redis.call('ZREM', base .. 'cats:all', id)
  redis.call('DEL', key, key .. ':claims')
  redis.call('HSET', key, 'version', version, 'deleted', '1')
else
  return redis.error_reply('unknown event type ' .. etype)
end

record_position()
release_claim(cat)
return 'applied'
