-- Fair lock, a single attempt that never queues (Redisson's RedissonFairLock tryLock() without
-- waiting, the EVAL_NULL_BOOLEAN form): prunes the waiters past their deadline, then takes the
-- lock when it is free and no one else is first in line, or re-enters it.
-- KEYS[1]  the lock: a hash of owner -> hold count
-- KEYS[2]  the waiters, redisson_lock_queue:{name}
-- KEYS[3]  their deadlines, redisson_lock_timeout:{name}
-- ARGV[1]  lease in milliseconds
-- ARGV[2]  owner, "<client uuid>:<thread id>"
-- ARGV[3]  the caller's clock, Unix ms
-- ARGV[4]  the wait allowance per waiter in milliseconds
-- Returns nil when the caller now holds the lock, else 1 (nothing queued).
while true do
  local head = redis.call('lindex', KEYS[2], 0)
  if head == false then
    break
  end
  local deadline = redis.call('zscore', KEYS[3], head)
  if deadline ~= false and tonumber(deadline) <= tonumber(ARGV[3]) then
    redis.call('zrem', KEYS[3], head)
    redis.call('lpop', KEYS[2])
  else
    break
  end
end
if (redis.call('exists', KEYS[1]) == 0) and
    ((redis.call('exists', KEYS[2]) == 0) or (redis.call('lindex', KEYS[2], 0) == ARGV[2])) then
  redis.call('lpop', KEYS[2])
  redis.call('zrem', KEYS[3], ARGV[2])
  local waiters = redis.call('zrange', KEYS[3], 0, -1)
  for i = 1, #waiters do
    redis.call('zincrby', KEYS[3], -tonumber(ARGV[4]), waiters[i])
  end
  redis.call('hset', KEYS[1], ARGV[2], 1)
  redis.call('pexpire', KEYS[1], ARGV[1])
  return nil
end
if redis.call('hexists', KEYS[1], ARGV[2]) == 1 then
  redis.call('hincrby', KEYS[1], ARGV[2], 1)
  redis.call('pexpire', KEYS[1], ARGV[1])
  return nil
end
return 1
