-- Fenced lock, acquire without returning the token (Redisson's RedissonFencedLock
-- tryLockInnerAsync, behind plain lock() / tryLock()): the reentrant lock, and the token counter
-- still advances on every acquisition, so the next token handed out stays above this holder's.
-- KEYS[1]  the lock: a hash of owner -> hold count
-- KEYS[2]  the token counter, redisson_lock_token:{name} (a string, no expiry)
-- ARGV[1]  lease in milliseconds (the watchdog timeout when the caller gives none)
-- ARGV[2]  owner, "<client uuid>:<thread id>"
-- Returns nil when the caller now holds the lock (the lease restarted), else the holder's PTTL
-- (-1 when the holder's key has no expiry) and the counter untouched.
-- Released by lock_release.lua, like the reentrant lock.
if (redis.call('exists', KEYS[1]) == 0) or (redis.call('hexists', KEYS[1], ARGV[2]) == 1) then
  redis.call('incr', KEYS[2])
  redis.call('hincrby', KEYS[1], ARGV[2], 1)
  redis.call('pexpire', KEYS[1], ARGV[1])
  return nil
end
return redis.call('pttl', KEYS[1])
