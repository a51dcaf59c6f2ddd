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
--@include fair_lock_prune
--@include fair_lock_take
drop_expired_waiters(KEYS[2], KEYS[3], tonumber(ARGV[3]))
if take_or_reenter(KEYS[1], KEYS[2], KEYS[3], ARGV[2], ARGV[1], tonumber(ARGV[4])) then
  return nil
end
return 1
