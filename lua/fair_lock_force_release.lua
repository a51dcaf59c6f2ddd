-- Fair lock, forced release whoever holds it (Redisson's RedissonFairLock forceUnlock): prunes
-- the waiters past their deadline, deletes the lock and wakes the first waiter on its channel.
-- KEYS[1]  the lock hash
-- KEYS[2]  the waiters, redisson_lock_queue:{name}
-- KEYS[3]  their deadlines, redisson_lock_timeout:{name}
-- KEYS[4]  the unlock channel prefix, redisson_lock__channel:{name} (waiter: .. ':' .. owner)
-- ARGV[1]  the unlock message ("0")
-- ARGV[2]  the caller's clock, Unix ms
-- ARGV[3]  the publish command (PUBLISH or SPUBLISH)
-- Returns 1 when a lock was deleted, 0 when there was none.
--@include fair_lock_prune
drop_expired_waiters(KEYS[2], KEYS[3], tonumber(ARGV[2]))
if redis.call('del', KEYS[1]) == 1 then
  local next_owner = redis.call('lindex', KEYS[2], 0)
  if next_owner ~= false then
    redis.call(ARGV[3], KEYS[4] .. ':' .. next_owner, ARGV[1])
  end
  return 1
end
return 0
