-- Fair lock, acquire (Redisson's RedissonFairLock, the waiting form): the lock goes to waiters
-- in the order they first asked. Waiters queue in a list; each has a deadline in a zset, the
-- previous waiter's deadline (or the holder's PTTL) plus the wait allowance, so a waiter that
-- stops asking drops out of the queue when its deadline passes instead of blocking the rest.
-- KEYS[1]  the lock: a hash of owner -> hold count
-- KEYS[2]  the waiters, redisson_lock_queue:{name} (a list, oldest first)
-- KEYS[3]  their deadlines, redisson_lock_timeout:{name} (a zset, score = deadline in Unix ms)
-- ARGV[1]  lease in milliseconds
-- ARGV[2]  owner, "<client uuid>:<thread id>"
-- ARGV[3]  the wait allowance per waiter in milliseconds (Redisson's threadWaitTime, 300000
--          unless the caller gives a wait time)
-- ARGV[4]  the caller's clock, Unix ms: deadlines are the clients' time, never the server's
-- Returns nil when the caller now holds the lock (first hold or re-entry, the lease restarted),
-- else an estimate of the wait in milliseconds: for a new waiter, the time until the waiter
-- before it runs out (the holder's PTTL when it is first, or when the last waiter has no
-- deadline); for one already queued, the holder's PTTL, at least 0 (current Redisson).
-- The no-queue form (tryLock() without waiting) is fair_lock_try_acquire.lua.
--@include fair_lock_prune
--@include fair_lock_take
local wait = tonumber(ARGV[3])
local now = tonumber(ARGV[4])

drop_expired_waiters(KEYS[2], KEYS[3], now)
if take_or_reenter(KEYS[1], KEYS[2], KEYS[3], ARGV[2], ARGV[1], wait) then
  return nil
end

-- Already queued: the holder's PTTL, never negative.
if redis.call('zscore', KEYS[3], ARGV[2]) ~= false then
  return math.max(0, redis.call('pttl', KEYS[1]))
end

-- Join at the tail, due one allowance after the waiter before (or after the holder's lease).
local last = redis.call('lindex', KEYS[2], -1)
local ttl
if last ~= false and last ~= ARGV[2] and redis.call('zscore', KEYS[3], last) ~= false then
  ttl = tonumber(redis.call('zscore', KEYS[3], last)) - now
else
  ttl = redis.call('pttl', KEYS[1])
end
if redis.call('zadd', KEYS[3], ttl + wait + now, ARGV[2]) == 1 then
  redis.call('rpush', KEYS[2], ARGV[2])
end
return ttl
