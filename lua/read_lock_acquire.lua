-- Read lock, acquire (Redisson's RReadWriteLock.readLock()): many readers at once, or the
-- writer reading under its own write lock. Each read hold also gets its own timeout key, so a
-- release can shorten the shared hash's TTL to the longest hold still alive.
-- KEYS[1]  the lock: a hash with mode = "read" | "write" and owner -> hold count
-- KEYS[2]  this owner's timeout key prefix, {name}:<owner>:rwlock_timeout (hold n lives in
--          KEYS[2] .. ':' .. n, a string "1" with the lease as TTL)
-- ARGV[1]  lease in milliseconds
-- ARGV[2]  owner, "<client uuid>:<thread id>"
-- ARGV[3]  the same owner as a writer, "<client uuid>:<thread id>:write"
-- Returns nil when the caller now holds a read lock, else the lock's PTTL (a writer holds it).
local mode = redis.call('hget', KEYS[1], 'mode')
if mode == false then
  redis.call('hset', KEYS[1], 'mode', 'read')
  redis.call('hset', KEYS[1], ARGV[2], 1)
  redis.call('set', KEYS[2] .. ':1', 1)
  redis.call('pexpire', KEYS[2] .. ':1', ARGV[1])
  redis.call('pexpire', KEYS[1], ARGV[1])
  return nil
end
if (mode == 'read') or (mode == 'write' and redis.call('hexists', KEYS[1], ARGV[3]) == 1) then
  local hold = redis.call('hincrby', KEYS[1], ARGV[2], 1)
  local timeout_key = KEYS[2] .. ':' .. hold
  redis.call('set', timeout_key, 1)
  redis.call('pexpire', timeout_key, ARGV[1])
  -- The hash lives as long as its longest hold: never shorten it here.
  local remaining = redis.call('pttl', KEYS[1])
  redis.call('pexpire', KEYS[1], math.max(remaining, ARGV[1]))
  return nil
end
return redis.call('pttl', KEYS[1])
