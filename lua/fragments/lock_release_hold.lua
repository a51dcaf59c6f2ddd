-- Fragment of the lock family's release scripts (Redisson's unlockInnerAsync, the step its
-- reentrant, spin, fair and write locks share): one of the owner's holds goes.
-- It reads no KEYS or ARGV itself; the including script passes them:
--   lock       the lock hash (owner -> hold count)
--   owner      the field of the releasing owner
--   lease      lease in milliseconds, restarted when holds remain
--   latch      the unlock latch of this release request, redisson_unlock_latch:{name}:<request id>
--   latch_ttl  how long the latch lives, in milliseconds
-- Returns true when holds remain: the lease restarted and the latch says 0 (the release answers
-- 0); false when that was the owner's last hold (its field is left at 0 for the caller to remove).
local function release_one_hold(lock, owner, lease, latch, latch_ttl)
  local counter = redis.call('hincrby', lock, owner, -1)
  if counter > 0 then
    redis.call('pexpire', lock, lease)
    redis.call('set', latch, 0, 'px', latch_ttl)
    return true
  end
  return false
end
