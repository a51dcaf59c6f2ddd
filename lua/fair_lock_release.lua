-- Fair lock, release, idempotent under retries (Redisson's RedissonFairLock unlock): like
-- lock_release.lua, and the wake-up goes to the first waiter only, on its own channel.
-- KEYS[1]  the lock hash
-- KEYS[2]  the waiters, redisson_lock_queue:{name}
-- KEYS[3]  their deadlines, redisson_lock_timeout:{name}
-- KEYS[4]  the unlock channel prefix, redisson_lock__channel:{name}; the first waiter listens on
--          KEYS[4] .. ':' .. <its owner id>
-- KEYS[5]  the unlock latch of this release request, redisson_unlock_latch:{name}:<request id>
-- ARGV[1]  the unlock message ("0")
-- ARGV[2]  lease in milliseconds, restarted when the release leaves holds behind
-- ARGV[3]  owner
-- ARGV[4]  the caller's clock, Unix ms (to drop waiters past their deadline first)
-- ARGV[5]  the publish command (PUBLISH or SPUBLISH)
-- ARGV[6]  how long the latch lives, in milliseconds
-- Returns nil when the owner does not hold the lock, 0 when it still holds it (re-entrant), 1
-- when the lock is free: released now, or already gone (expired, forced), in which case the
-- first waiter is told all the same. A retry finds the latch and returns the first answer.
--@include fair_lock_prune
--@include lock_release_reentrant
local done = redis.call('get', KEYS[5])
if done ~= false then
  return tonumber(done)
end

drop_expired_waiters(KEYS[2], KEYS[3], tonumber(ARGV[4]))

local function wake_first_waiter()
  local next_owner = redis.call('lindex', KEYS[2], 0)
  if next_owner ~= false then
    redis.call(ARGV[5], KEYS[4] .. ':' .. next_owner, ARGV[1])
  end
end

if redis.call('exists', KEYS[1]) == 0 then
  wake_first_waiter()
  redis.call('set', KEYS[5], 1, 'px', ARGV[6])
  return 1
end
return release_reentrant(KEYS[1], ARGV[3], ARGV[2], KEYS[5], ARGV[6], wake_first_waiter)
