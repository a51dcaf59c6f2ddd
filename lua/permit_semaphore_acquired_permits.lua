-- Permit-expirable semaphore, the permits taken and not expired (Redisson's
-- RPermitExpirableSemaphore acquiredPermits): expired permits go back first (announced).
-- KEYS[1]  the semaphore: a string holding the free permits
-- KEYS[2]  its timeout zset, {name}:timeout
-- KEYS[3]  its channel, redisson_sc:{name}
-- ARGV[1]  the caller's time now (unix ms)
-- ARGV[2]  the publish command (PUBLISH or SPUBLISH)
-- Returns the number of permits taken.
local expiredIds = redis.call('zrangebyscore', KEYS[2], 0, ARGV[1], 'limit', 0, -1);
if #expiredIds > 0 then
  redis.call('zrem', KEYS[2], unpack(expiredIds));
  local value = redis.call('incrby', KEYS[1], #expiredIds);
  if tonumber(value) > 0 then
    redis.call(ARGV[2], KEYS[3], value);
  end;
end;
local acquired = redis.call('zcount', KEYS[2], 0, '+inf');
return acquired == false and 0 or acquired;
