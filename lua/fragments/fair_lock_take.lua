-- Fragment of the fair lock's acquiring scripts (Redisson's RedissonFairLock tryLockInnerAsync,
-- the part shared by its waiting and no-queue forms): take the lock, or re-enter it.
-- It reads no KEYS or ARGV itself; the including script passes them:
--   lock       the lock: a hash of owner -> hold count
--   queue      the waiters, redisson_lock_queue:{name} (a list, oldest first)
--   deadlines  their deadlines, redisson_lock_timeout:{name} (a zset, score = deadline in Unix ms)
--   owner      "<client uuid>:<thread id>"
--   lease      lease in milliseconds
--   wait       the wait allowance per waiter in milliseconds (a number)
-- Returns true when the owner now holds the lock (first hold or re-entry, the lease restarted),
-- false when it changed nothing.
local function take_or_reenter(lock, queue, deadlines, owner, lease, wait)
  -- Free, and no one ahead of the caller: take it, and move every waiter up one place.
  if (redis.call('exists', lock) == 0) and
      ((redis.call('exists', queue) == 0) or (redis.call('lindex', queue, 0) == owner)) then
    redis.call('lpop', queue)
    redis.call('zrem', deadlines, owner)
    local waiters = redis.call('zrange', deadlines, 0, -1)
    for i = 1, #waiters do
      redis.call('zincrby', deadlines, -wait, waiters[i])
    end
    redis.call('hset', lock, owner, 1)
    redis.call('pexpire', lock, lease)
    return true
  end
  if redis.call('hexists', lock, owner) == 1 then
    redis.call('hincrby', lock, owner, 1)
    redis.call('pexpire', lock, lease)
    return true
  end
  return false
end
