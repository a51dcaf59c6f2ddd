-- Read lock, forced release (Redisson's RedissonReadLock forceUnlock): deletes the lock when it
-- is in read mode, whoever reads.
-- KEYS[1]  the lock hash
-- KEYS[2]  the read/write lock's channel, redisson_rwlock:{name}
-- ARGV[1]  the unlock message ("0")
-- ARGV[2]  the publish command (PUBLISH or SPUBLISH)
-- Returns 1 when a read lock was deleted (and waiters told), else 0.
--@include rwlock_force_release
return force_release_in_mode(KEYS[1], 'read', KEYS[2], ARGV[1], ARGV[2])
