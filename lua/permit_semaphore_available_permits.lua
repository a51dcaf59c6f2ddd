-- Permit-expirable semaphore, the free permits (Redisson's RPermitExpirableSemaphore
-- availablePermits): expired permits go back first (announced).
-- KEYS[1]  the semaphore: a string holding the free permits
-- KEYS[2]  its timeout zset, {name}:timeout
-- KEYS[3]  its channel, redisson_sc:{name}
-- ARGV[1]  the caller's time now (unix ms)
-- ARGV[2]  the publish command (PUBLISH or SPUBLISH)
-- Returns the free permits (0 when never set; a string when read back unchanged, as GET gives).
--@include permit_semaphore_expire
local value = return_expired_permits(KEYS[1], KEYS[2], KEYS[3], ARGV[1], -1, ARGV[2]);
if value ~= nil then
  return value;
end;
local ret = redis.call('get', KEYS[1]);
return ret == false and 0 or ret;
