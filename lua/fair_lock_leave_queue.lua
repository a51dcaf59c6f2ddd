-- Fair lock, a waiter giving up (Redisson's RedissonFairLock acquireFailed): it leaves the
-- queue, and every waiter behind it is due one allowance sooner, since it no longer waits
-- behind this one.
-- KEYS[1]  the waiters, redisson_lock_queue:{name}
-- KEYS[2]  their deadlines, redisson_lock_timeout:{name}
-- ARGV[1]  owner of the waiter leaving
-- ARGV[2]  the wait allowance per waiter in milliseconds (as given to fair_lock_acquire.lua)
-- Returns nil. A waiter not in the queue changes nothing.
local queue = redis.call('lrange', KEYS[1], 0, -1)
local i = 1
while i <= #queue and queue[i] ~= ARGV[1] do
  i = i + 1
end
for j = i + 1, #queue do
  redis.call('zincrby', KEYS[2], -tonumber(ARGV[2]), queue[j])
end
redis.call('zrem', KEYS[2], ARGV[1])
redis.call('lrem', KEYS[1], 0, ARGV[1])
