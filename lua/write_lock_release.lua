-- Write lock, release, idempotent under retries (Redisson's RedissonWriteLock unlock).
-- KEYS[1]  the lock hash
-- KEYS[2]  the read/write lock's channel, redisson_rwlock:{name}
-- KEYS[3]  the unlock latch of this release request, redisson_unlock_latch:{name}:<request id>
-- ARGV[1]  the unlock message: Redisson sends "1" (wake every waiter: readers may all go in)
-- ARGV[2]  lease in milliseconds, restarted when the release leaves write holds behind
-- ARGV[3]  owner as a writer, "<client uuid>:<thread id>:write"
-- ARGV[4]  the publish command (PUBLISH or SPUBLISH)
-- ARGV[5]  how long the latch lives, in milliseconds
-- Returns nil when the owner does not hold the write lock (when there is no lock at all,
-- waiters are still told and the latch says 1, as Redisson since 2025), 0 when it still does
-- (re-entrant), 1 when its last write hold is gone: the lock is free and waiters told, or the
-- owner's own read holds remain and the lock turns into a read lock (nothing published). A
-- retry finds the latch and returns its answer.
--@include rwlock_release_start
--@include lock_release_hold
local over, answer = start_rwlock_release(KEYS[1], KEYS[2], ARGV[1], ARGV[4], KEYS[3], ARGV[5])
if over then
  return answer
end
local mode = answer
if (mode ~= 'write') or (redis.call('hexists', KEYS[1], ARGV[3]) == 0) then
  return nil
end
if release_one_hold(KEYS[1], ARGV[3], ARGV[2], KEYS[3], ARGV[5]) then
  return 0
end
redis.call('hdel', KEYS[1], ARGV[3])
if redis.call('hlen', KEYS[1]) == 1 then
  redis.call('del', KEYS[1])
  redis.call(ARGV[4], KEYS[2], ARGV[1])
else
  -- The writer's own read holds remain.
  redis.call('hset', KEYS[1], 'mode', 'read')
end
redis.call('set', KEYS[3], 1, 'px', ARGV[5])
return 1
