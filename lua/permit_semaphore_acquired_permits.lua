-- Permit-expirable semaphore, the permits taken and not expired (Redisson's
-- RPermitExpirableSemaphore acquiredPermits): expired permits go back first (announced).
-- KEYS[1]  the semaphore: a string holding the free permits
-- KEYS[2]  its timeout zset, {name}:timeout
-- KEYS[3]  its channel, redisson_sc:{name}
-- ARGV[1]  the caller's time now (unix ms)
-- ARGV[2]  the publish command (PUBLISH or SPUBLISH)
-- Returns the number of permits taken.
--@include permit_semaphore_expire
return_expired_permits(KEYS[1], KEYS[2], KEYS[3], ARGV[1], -1, ARGV[2]);
local acquired = redis.call('zcount', KEYS[2], 0, '+inf');
return acquired == false and 0 or acquired;
