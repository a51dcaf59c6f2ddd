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
--@include lock_release_reentrant
local done = redis.call('get', KEYS[3])
if done ~= false then
  return tonumber(done)
end
return release_reentrant(KEYS[1], ARGV[3], ARGV[2], KEYS[3], ARGV[5], function()
  redis.call(ARGV[4], KEYS[2], ARGV[1])
end)
