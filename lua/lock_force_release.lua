-- Reentrant lock, forced release whoever holds it.
-- KEYS[1]  the lock hash
-- KEYS[2]  its unlock channel
-- ARGV[1]  the unlock message ("0")
-- ARGV[2]  the publish command (PUBLISH or SPUBLISH)
-- Returns 1 when a lock was deleted (and waiters told), 0 when there was none.
if redis.call('del', KEYS[1]) == 1 then
  redis.call(ARGV[2], KEYS[2], ARGV[1])
  return 1
end
return 0
