-- Write lock, forced release (Redisson's RedissonWriteLock forceUnlock): deletes the lock when
-- it is in write mode, whoever writes.
-- KEYS[1]  the lock hash
-- KEYS[2]  the read/write lock's channel, redisson_rwlock:{name}
-- ARGV[1]  the unlock message ("1": every waiter)
-- ARGV[2]  the publish command (PUBLISH or SPUBLISH)
-- Returns 1 when a write lock was deleted (and waiters told), else 0.
if redis.call('hget', KEYS[1], 'mode') == 'write' then
  redis.call('del', KEYS[1])
  redis.call(ARGV[2], KEYS[2], ARGV[1])
  return 1
end
return 0
