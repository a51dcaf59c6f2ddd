-- Permit-expirable semaphore, try to take permits (Redisson's RPermitExpirableSemaphore
-- tryAcquire, RedissonPermitExpirableSemaphore.tryAcquireAsync(ids, timeoutDate)): expired
-- permits first go back to the free count (announced), then all the permits asked or none; each
-- taken permit is a member of the timeout zset scored with its expiry date.
-- KEYS[1]  the semaphore: a string holding the free permits
-- KEYS[2]  its timeout zset, {name}:timeout: permit id -> expiry date (unix ms)
-- KEYS[3]  its channel, redisson_sc:{name}
-- ARGV[1]  permits to take
-- ARGV[2]  their expiry date (unix ms; 922337203685477 when without a lease)
-- ARGV[3]  the caller's time now (unix ms)
-- ARGV[4]  the "no lease" date, 922337203685477
-- ARGV[5]  the publish command (PUBLISH or SPUBLISH)
-- ARGV[6..] the new permits' ids (16 random bytes each, as Redisson sends them: not hex)
-- Returns 'OK' when taken; else ':<date>' of the nearest expiring permit with a lease (the
-- waiter sleeps until then at most), or nil.
--@include permit_semaphore_expire
return_expired_permits(KEYS[1], KEYS[2], KEYS[3], ARGV[3], ARGV[1], ARGV[5]);
local value = redis.call('get', KEYS[1]);
if (value ~= false and tonumber(value) >= tonumber(ARGV[1])) then
  redis.call('decrby', KEYS[1], ARGV[1]);
  for i = 6, #ARGV, 1 do
    redis.call('zadd', KEYS[2], ARGV[2], ARGV[i]);
  end;
  local ttl = redis.call('pttl', KEYS[1]);
  if ttl > 0 then
    redis.call('pexpire', KEYS[2], ttl);
  end;
  return 'OK';
end;
local v = redis.call('zrange', KEYS[2], 0, 0, 'WITHSCORES');
if v[1] ~= nil and v[2] ~= ARGV[4] then
  return ':' .. tostring(v[2]);
end
return nil;
