-- Reentrant lock, acquire (Redisson's RLock key layout).
-- KEYS[1]  the lock: a hash of owner -> hold count
-- ARGV[1]  lease in milliseconds (the watchdog timeout when the caller gives none)
-- ARGV[2]  owner, "<client uuid>:<thread id>"
-- Returns nil when the caller now holds the lock (first hold or re-entry, the lease restarted),
-- else the holder's remaining PTTL in milliseconds (-1 when the holder's key has no expiry).
if (redis.call('exists', KEYS[1]) == 0) or (redis.call('hexists', KEYS[1], ARGV[2]) == 1) then
  redis.call('hincrby', KEYS[1], ARGV[2], 1)
  redis.call('pexpire', KEYS[1], ARGV[1])
  return nil
end
return redis.call('pttl', KEYS[1])
