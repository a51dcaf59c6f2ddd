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
--@include permit_semaphore_expire
return_expired_permits(KEYS[1], KEYS[2], KEYS[3], ARGV[3], -1, ARGV[4]);
local value = redis.call('zscore', KEYS[2], ARGV[1]);
if (value ~= false) then
  return tonumber(value) == tonumber(ARGV[2]) and -1 or tonumber(value) - tonumber(ARGV[3]);
end;
return 0;
