-- Permit-expirable semaphore, give one permit back by its id (Redisson's
-- RPermitExpirableSemaphore tryRelease(permitId); release(permitId) throws on 0).
-- KEYS[1]  the semaphore: a string holding the free permits
-- KEYS[2]  its channel, redisson_sc:{name}
-- KEYS[3]  its timeout zset, {name}:timeout
-- ARGV[1]  the permit's id (16 bytes)
-- ARGV[2]  1 (how many permits it stands for)
-- ARGV[3]  the caller's time now (unix ms)
-- ARGV[4]  the publish command (PUBLISH or SPUBLISH)
-- Returns 1 when the permit was held and had not expired; 0 when unknown (released, expired
-- and reclaimed) or expired (it is given back all the same, and announced).
local expire = redis.call('zscore', KEYS[3], ARGV[1]);
local removed = redis.call('zrem', KEYS[3], ARGV[1]);
if tonumber(removed) ~= 1 then
  return 0;
end;
local value = redis.call('incrby', KEYS[1], ARGV[2]);
redis.call(ARGV[4], KEYS[2], value);
if tonumber(expire) <= tonumber(ARGV[3]) then
  return 0;
end;
return 1;
