-- Reentrant lock, release, idempotent under retries.
-- KEYS[1]  the lock hash
-- KEYS[2]  its unlock channel, redisson_lock__channel:{name}
-- KEYS[3]  the unlock latch of this release request, redisson_unlock_latch:{name}:<request id>
-- ARGV[1]  the unlock message ("0")
-- ARGV[2]  lease in milliseconds, restarted when the release leaves holds behind
-- ARGV[3]  owner, "<client uuid>:<thread id>"
-- ARGV[4]  the publish command: PUBLISH, or SPUBLISH with sharded pub/sub (Redisson passes it)
-- ARGV[5]  how long the latch lives, in milliseconds (covers the client's retries)
-- Returns nil when the owner does not hold the lock, 0 when it still holds it (re-entrant),
-- 1 when the lock was released and waiters told. A retry of a release that already ran (its
-- reply lost) finds the latch and returns the first answer again instead of nil.
local done = redis.call('get', KEYS[3])
if done ~= false then
  return tonumber(done)
end
if redis.call('hexists', KEYS[1], ARGV[3]) == 0 then
  return nil
end
local counter = redis.call('hincrby', KEYS[1], ARGV[3], -1)
if counter > 0 then
  redis.call('pexpire', KEYS[1], ARGV[2])
  redis.call('set', KEYS[3], 0, 'px', ARGV[5])
  return 0
end
redis.call('del', KEYS[1])
redis.call(ARGV[4], KEYS[2], ARGV[1])
redis.call('set', KEYS[3], 1, 'px', ARGV[5])
return 1
