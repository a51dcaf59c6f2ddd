-- Permit-expirable semaphore, give several permits back by their ids (Redisson's
-- RPermitExpirableSemaphore tryRelease(permitsIds); release(permitsIds) throws unless all went).
-- KEYS[1]  the semaphore: a string holding the free permits
-- KEYS[2]  its channel, redisson_sc:{name}
-- KEYS[3]  its timeout zset, {name}:timeout
-- ARGV[1]  how many ids follow
-- ARGV[2]  the caller's time now (unix ms)
-- ARGV[3]  the publish command (PUBLISH or SPUBLISH)
-- ARGV[4..] the permits' ids (16 bytes each)
-- Returns 0, changing nothing, when one of the ids is not held or has expired; else the expired
-- permits go back first (announced), then the listed ones (announced with their number), and
-- the number given back.
--@include permit_semaphore_expire
for i = 4, #ARGV, 1 do
  local expire = redis.call('zscore', KEYS[3], ARGV[i]);
  if expire == false or tonumber(expire) <= tonumber(ARGV[2]) then
    return 0;
  end;
end;
return_expired_permits(KEYS[1], KEYS[3], KEYS[2], ARGV[2], -1, ARGV[3]);
local keys = {};
for i = 4, #ARGV, 1 do
  table.insert(keys, ARGV[i]);
end;
local removed = redis.call('zrem', KEYS[3], unpack(keys));
redis.call('incrby', KEYS[1], removed);
redis.call(ARGV[3], KEYS[2], removed);
return removed;
