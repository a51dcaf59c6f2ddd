-- Fragment of the reentrant locks' release scripts (Redisson's RedissonLock unlockInnerAsync, as
-- the reentrant, spin and fair locks send it): release one hold; the last one frees the lock.
-- It reads no KEYS or ARGV itself; the including script passes them:
--   lock, owner, lease, latch, latch_ttl  as for release_one_hold (lock_release_hold.lua)
--   tell_waiters  a function that tells the waiters the lock is free (publishes, or nothing)
-- Returns nil when the owner does not hold the lock; 0 when it still holds it (re-entrant); 1
-- when the lock was deleted and the waiters told. The latch records 0 or 1.
--@include lock_release_hold
local function release_reentrant(lock, owner, lease, latch, latch_ttl, tell_waiters)
  if redis.call('hexists', lock, owner) == 0 then
    return nil
  end
  if release_one_hold(lock, owner, lease, latch, latch_ttl) then
    return 0
  end
  redis.call('del', lock)
  tell_waiters()
  redis.call('set', latch, 1, 'px', latch_ttl)
  return 1
end
