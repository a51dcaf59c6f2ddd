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
local done = redis.call('get', KEYS[5])
if done ~= false then
  return tonumber(done)
end

local now = tonumber(ARGV[4])
while true do
  local head = redis.call('lindex', KEYS[2], 0)
  if head == false then
    break
  end
  local deadline = redis.call('zscore', KEYS[3], head)
  if deadline == false or tonumber(deadline) > now then
    break
  end
  redis.call('zrem', KEYS[3], head)
  redis.call('lpop', KEYS[2])
end

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
if redis.call('hexists', KEYS[1], ARGV[3]) == 0 then
  return nil
end
local counter = redis.call('hincrby', KEYS[1], ARGV[3], -1)
if counter > 0 then
  redis.call('pexpire', KEYS[1], ARGV[2])
  redis.call('set', KEYS[5], 0, 'px', ARGV[6])
  return 0
end
redis.call('del', KEYS[1])
redis.call('set', KEYS[5], 1, 'px', ARGV[6])
wake_first_waiter()
return 1
