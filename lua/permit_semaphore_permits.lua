-- Permit-expirable semaphore, all its permits, free and taken (Redisson's
-- RPermitExpirableSemaphore getPermits): expired permits go back first (announced).
-- KEYS[1]  the semaphore: a string holding the free permits
-- KEYS[2]  its timeout zset, {name}:timeout
-- KEYS[3]  its channel, redisson_sc:{name}
-- ARGV[1]  the caller's time now (unix ms)
-- ARGV[2]  the publish command (PUBLISH or SPUBLISH)
-- Returns the free permits plus the permits taken; 0 when the permits were never set.
--@include permit_semaphore_expire
return_expired_permits(KEYS[1], KEYS[2], KEYS[3], ARGV[1], -1, ARGV[2]);
local available = redis.call('get', KEYS[1]);
if available == false then
  return 0
end;
local acquired = redis.call('zcount', KEYS[2], 0, '+inf');
if acquired == false then
  return tonumber(available)
end;
return tonumber(available) + acquired;
