-- Write lock, acquire (Redisson's RReadWriteLock.writeLock()): one writer, re-entrant, and no
-- reader, not even the same owner (Redisson does not upgrade a read lock).
-- KEYS[1]  the lock: a hash with mode = "read" | "write" and owner -> hold count
-- ARGV[1]  lease in milliseconds
-- ARGV[2]  owner as a writer, "<client uuid>:<thread id>:write"
-- Returns nil when the caller now holds the write lock, else the lock's PTTL. A re-entry adds
-- the lease to what is left of the current one, as Redisson does.
local mode = redis.call('hget', KEYS[1], 'mode')
if mode == false then
  redis.call('hset', KEYS[1], 'mode', 'write')
  redis.call('hset', KEYS[1], ARGV[2], 1)
  redis.call('pexpire', KEYS[1], ARGV[1])
  return nil
end
if (mode == 'write') and (redis.call('hexists', KEYS[1], ARGV[2]) == 1) then
  redis.call('hincrby', KEYS[1], ARGV[2], 1)
  local remaining = redis.call('pttl', KEYS[1])
  redis.call('pexpire', KEYS[1], remaining + ARGV[1])
  return nil
end
return redis.call('pttl', KEYS[1])
