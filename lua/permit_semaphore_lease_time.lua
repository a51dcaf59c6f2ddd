-- Permit-expirable semaphore, the lease left on a permit (Redisson's RPermitExpirableSemaphore
-- getLeaseTime): expired permits go back first (announced).
-- KEYS[1]  the semaphore: a string holding the free permits
-- KEYS[2]  its timeout zset, {name}:timeout
-- KEYS[3]  its channel, redisson_sc:{name}
-- ARGV[1]  the permit's id (16 bytes)
-- ARGV[2]  the "no lease" date, 922337203685477
-- ARGV[3]  the caller's time now (unix ms)
-- ARGV[4]  the publish command (PUBLISH or SPUBLISH)
-- Returns -1 for a permit without a lease, the milliseconds left for one with a lease, 0 when
-- the permit is not held (Redisson throws IllegalArgumentException on 0).
local expiredIds = redis.call('zrangebyscore', KEYS[2], 0, ARGV[3], 'limit', 0, -1);
if #expiredIds > 0 then
  redis.call('zrem', KEYS[2], unpack(expiredIds));
  local value = redis.call('incrby', KEYS[1], #expiredIds);
  if tonumber(value) > 0 then
    redis.call(ARGV[4], KEYS[3], value);
  end;
end;
local value = redis.call('zscore', KEYS[2], ARGV[1]);
if (value ~= false) then
  return tonumber(value) == tonumber(ARGV[2]) and -1 or tonumber(value) - tonumber(ARGV[3]);
end;
return 0;
