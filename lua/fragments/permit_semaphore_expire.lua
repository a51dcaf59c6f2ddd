-- Fragment of the permit-expirable semaphore's scripts (Redisson's RedissonPermitExpirableSemaphore,
-- the prologue of its scripts): permits whose expiry date has passed go back to the free count.
-- It reads no KEYS or ARGV itself; the including script passes them:
--   semaphore  the semaphore: a string holding the free permits
--   timeouts   its timeout zset, {name}:timeout: permit id -> expiry date (unix ms)
--   channel    its channel, redisson_sc:{name}
--   now        the caller's time now (unix ms)
--   most       how many expired permits to take back at most (-1: all)
--   publish    the publish command (PUBLISH or SPUBLISH)
-- Returns the free permits after the expired ones went back (announced on the channel when
-- positive), or nil when none had expired.
local function return_expired_permits(semaphore, timeouts, channel, now, most, publish)
  local expiredIds = redis.call('zrangebyscore', timeouts, 0, now, 'limit', 0, most);
  if #expiredIds == 0 then
    return nil;
  end;
  redis.call('zrem', timeouts, unpack(expiredIds));
  local value = redis.call('incrby', semaphore, #expiredIds);
  if tonumber(value) > 0 then
    redis.call(publish, channel, value);
  end;
  return value;
end;
