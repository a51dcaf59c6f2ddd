-- Fragment of the read/write lock's forced releases (Redisson's RedissonReadLock and
-- RedissonWriteLock forceUnlockAsync): deletes the lock when it is in the given mode, whoever
-- holds it.
-- It reads no KEYS or ARGV itself; the including script passes them:
--   lock       the lock hash, its field 'mode' 'read' or 'write'
--   mode       the mode to release, 'read' or 'write'
--   channel    the read/write lock's channel, redisson_rwlock:{name}
--   message    the unlock message
--   publish    the publish command (PUBLISH or SPUBLISH)
-- Returns 1 when the lock was deleted (and waiters told), else 0.
local function force_release_in_mode(lock, mode, channel, message, publish)
  if redis.call('hget', lock, 'mode') == mode then
    redis.call('del', lock)
    redis.call(publish, channel, message)
    return 1
  end
  return 0
end
