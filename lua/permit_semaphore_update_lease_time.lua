-- Permit-expirable semaphore, a new expiry for a held permit (Redisson's
-- RPermitExpirableSemaphore updateLeaseTime): expired permits go back first (announced).
-- KEYS[1]  the semaphore: a string holding the free permits
-- KEYS[2]  its timeout zset, {name}:timeout
-- KEYS[3]  its channel, redisson_sc:{name}
-- ARGV[1]  the permit's id (16 bytes)
-- ARGV[2]  its new expiry date (unix ms; 922337203685477: none)
-- ARGV[3]  the caller's time now (unix ms)
-- ARGV[4]  the publish command (PUBLISH or SPUBLISH)
-- Returns 1 when the permit was held (not expired), else 0.
--@include permit_semaphore_expire
return_expired_permits(KEYS[1], KEYS[2], KEYS[3], ARGV[3], -1, ARGV[4]);
local value = redis.call('zscore', KEYS[2], ARGV[1]);
if (value ~= false) then
  redis.call('zadd', KEYS[2], ARGV[2], ARGV[1]);
  return 1;
end;
return 0;
