-- Fenced lock, acquire (Redisson's RFencedLock): the reentrant lock, plus a fencing token that
-- every acquisition, re-entries included, draws from a counter that only grows.
-- KEYS[1]  the lock: a hash of owner -> hold count
-- KEYS[2]  the token counter, redisson_lock_token:{name} (a string, no expiry)
-- ARGV[1]  lease in milliseconds (the watchdog timeout when the caller gives none)
-- ARGV[2]  owner, "<client uuid>:<thread id>"
-- Returns {-1, token} when the caller now holds the lock (the lease restarted), else
-- {holder's PTTL, -1} and the counter untouched. A holder without expiry answers {-1, -1}:
-- Redisson's tryLockAndGetToken tests the first element (-1) and takes that for an acquisition
-- with token -1; the redlab client reads the -1 token as "not acquired".
-- Released by lock_release.lua, like the reentrant lock.
if (redis.call('exists', KEYS[1]) == 0) or (redis.call('hexists', KEYS[1], ARGV[2]) == 1) then
  local token = redis.call('incr', KEYS[2])
  redis.call('hincrby', KEYS[1], ARGV[2], 1)
  redis.call('pexpire', KEYS[1], ARGV[1])
  return {-1, token}
end
return {redis.call('pttl', KEYS[1]), -1}
