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
for i = 4, #ARGV, 1 do
  local expire = redis.call('zscore', KEYS[3], ARGV[i]);
  if expire == false or tonumber(expire) <= tonumber(ARGV[2]) then
    return 0;
  end;
end;
local expiredIds = redis.call('zrangebyscore', KEYS[3], 0, ARGV[2], 'limit', 0, -1);
if #expiredIds > 0 then
  redis.call('zrem', KEYS[3], unpack(expiredIds));
  local value = redis.call('incrby', KEYS[1], #expiredIds);
  if tonumber(value) > 0 then
    redis.call(ARGV[3], KEYS[2], value);
  end;
end;
local keys = {};
for i = 4, #ARGV, 1 do
  table.insert(keys, ARGV[i]);
end;
local removed = redis.call('zrem', KEYS[3], unpack(keys));
redis.call('incrby', KEYS[1], removed);
redis.call(ARGV[3], KEYS[2], removed);
return removed;
