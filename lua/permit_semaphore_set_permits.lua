-- Permit-expirable semaphore, set the total of its permits, free and taken (Redisson's
-- RPermitExpirableSemaphore setPermits): the free count moves by the difference.
-- KEYS[1]  the semaphore: a string holding the free permits
-- KEYS[2]  its channel, redisson_sc:{name}
-- KEYS[3]  its timeout zset, {name}:timeout
-- ARGV[1]  the total
-- ARGV[2]  the publish command (PUBLISH or SPUBLISH)
-- Returns nil; publishes the total when the semaphore was not set, or when the total changed.
local available = redis.call('get', KEYS[1]);
if (available == false) then
  redis.call('set', KEYS[1], ARGV[1]);
  redis.call(ARGV[2], KEYS[2], ARGV[1]);
  return;
end;
local acquired = redis.call('zcount', KEYS[3], 0, '+inf');
local maximum = (acquired == false and 0 or acquired) + tonumber(available);
if (maximum == tonumber(ARGV[1])) then
  return;
end;
redis.call('incrby', KEYS[1], tonumber(ARGV[1]) - maximum);
redis.call(ARGV[2], KEYS[2], ARGV[1]);
