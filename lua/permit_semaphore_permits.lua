-- Permit-expirable semaphore, all its permits, free and taken (Redisson's
-- RPermitExpirableSemaphore getPermits): expired permits go back first (announced).
-- KEYS[1]  the semaphore: a string holding the free permits
-- KEYS[2]  its timeout zset, {name}:timeout
-- KEYS[3]  its channel, redisson_sc:{name}
-- ARGV[1]  the caller's time now (unix ms)
-- ARGV[2]  the publish command (PUBLISH or SPUBLISH)
-- Returns the free permits plus the permits taken; 0 when the permits were never set.
local expiredIds = redis.call('zrangebyscore', KEYS[2], 0, ARGV[1], 'limit', 0, -1);
if #expiredIds > 0 then
  redis.call('zrem', KEYS[2], unpack(expiredIds));
  local value = redis.call('incrby', KEYS[1], #expiredIds);
  if tonumber(value) > 0 then
    redis.call(ARGV[2], KEYS[3], value);
  end;
end;
local available = redis.call('get', KEYS[1]);
if available == false then
  return 0
end;
local acquired = redis.call('zcount', KEYS[2], 0, '+inf');
if acquired == false then
  return tonumber(available)
end;
return tonumber(available) + acquired;
