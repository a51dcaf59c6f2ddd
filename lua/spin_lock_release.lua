-- Spin lock, release, idempotent under retries (Redisson's RedissonSpinLock unlockInnerAsync):
-- the reentrant lock's release without a publication, since spin-lock waiters never subscribe.
-- KEYS[1]  the lock hash
-- KEYS[2]  the unlock latch of this release request, redisson_unlock_latch:{name}:<request id>
-- ARGV[1]  lease in milliseconds, restarted when the release leaves holds behind
-- ARGV[2]  owner, "<client uuid>:<thread id>"
-- ARGV[3]  how long the latch lives, in milliseconds
-- Returns nil when the owner does not hold the lock, 0 when it still holds it (re-entrant),
-- 1 when the lock was released (nothing published). A retry finds the latch and returns the
-- first answer again.
--@include lock_release_reentrant
local done = redis.call('get', KEYS[2])
if done ~= false then
  return tonumber(done)
end
-- Spin-lock waiters never subscribe: nothing to tell them.
return release_reentrant(KEYS[1], ARGV[2], ARGV[1], KEYS[2], ARGV[3], function() end)
