-- Fragment of the read/write lock's release scripts (Redisson's RedissonReadLock and
-- RedissonWriteLock unlockInnerAsync, their shared opening): a retried release, or one of no lock.
-- It reads no KEYS or ARGV itself; the including script passes them:
--   lock       the lock hash, its field 'mode' 'read' or 'write'
--   channel    the read/write lock's channel, redisson_rwlock:{name}
--   message    the unlock message
--   publish    the publish command (PUBLISH or SPUBLISH)
--   latch      the unlock latch of this release request, redisson_unlock_latch:{name}:<request id>
--   latch_ttl  how long the latch lives, in milliseconds
-- Returns true and the release's answer when it is over: a retry (the latch's answer), or no
-- lock at all (nil: waiters are still told and the latch says 1, as Redisson since 2025); else
-- false and the lock's mode.
local function start_rwlock_release(lock, channel, message, publish, latch, latch_ttl)
  local done = redis.call('get', latch)
  if done ~= false then
    return true, tonumber(done)
  end
  local mode = redis.call('hget', lock, 'mode')
  if mode == false then
    redis.call(publish, channel, message)
    redis.call('set', latch, 1, 'px', latch_ttl)
    return true, nil
  end
  return false, mode
end
