-- Fragment of the fair lock's scripts (Redisson's RedissonFairLock, the loop that opens its
-- scripts): waiters at the head of the queue whose deadline has passed gave up; drop them (the
-- others keep theirs). A head without a deadline stops the pruning, as in Redisson.
-- It reads no KEYS or ARGV itself; the including script passes them:
--   queue      the waiters, redisson_lock_queue:{name} (a list, oldest first)
--   deadlines  their deadlines, redisson_lock_timeout:{name} (a zset, score = deadline in Unix ms)
--   now        the caller's clock, Unix ms (a number)
local function drop_expired_waiters(queue, deadlines, now)
  while true do
    local head = redis.call('lindex', queue, 0)
    if head == false then
      break
    end
    local deadline = redis.call('zscore', deadlines, head)
    if deadline == false or tonumber(deadline) > now then
      break
    end
    redis.call('zrem', deadlines, head)
    redis.call('lpop', queue)
  end
end
