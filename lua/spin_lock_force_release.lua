-- Spin lock, forced release whoever holds it (Redisson's RedissonSpinLock forceUnlockAsync):
-- deletes the lock and publishes nothing.
-- KEYS[1]  the lock hash
-- Returns 1 when a lock was deleted, 0 when there was none.
if redis.call('del', KEYS[1]) == 1 then
  return 1
end
return 0
