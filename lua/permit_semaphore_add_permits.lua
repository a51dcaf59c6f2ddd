-- Permit-expirable semaphore, add (negative: remove) free permits (Redisson's
-- RPermitExpirableSemaphore addPermits; unlike RSemaphore's it SETs the sum, and announces only
-- an addition, with the number added).
-- KEYS[1]  the semaphore: a string holding the free permits
-- KEYS[2]  its channel, redisson_sc:{name}
-- ARGV[1]  permits to add
-- ARGV[2]  the publish command (PUBLISH or SPUBLISH)
-- Returns nil.
local value = redis.call('get', KEYS[1]);
if (value == false) then
  value = 0;
end;
redis.call('set', KEYS[1], tonumber(value) + tonumber(ARGV[1]));
if tonumber(ARGV[1]) > 0 then
  redis.call(ARGV[2], KEYS[2], ARGV[1]);
end;
