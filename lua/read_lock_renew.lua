-- Read lock, watchdog renewal (Redisson's RedissonReadLock renewExpiration): restarts the hash's
-- lease and every read hold's timeout key, whoever's they are.
-- KEYS[1]  the lock hash
-- KEYS[2]  the prefix of every owner's timeout keys, {name}
-- ARGV[1]  the lease to restart, in milliseconds
-- ARGV[2]  the owner expected to hold the lock
-- Returns 1 when the owner still holds it (leases restarted), 0 otherwise.
if redis.call('hget', KEYS[1], ARGV[2]) == false then
  return 0
end
redis.call('pexpire', KEYS[1], ARGV[1])
if redis.call('hlen', KEYS[1]) > 1 then
  local fields = redis.call('hkeys', KEYS[1])
  for _, field in ipairs(fields) do
    local holds = tonumber(redis.call('hget', KEYS[1], field))
    if type(holds) == 'number' then
      for n = holds, 1, -1 do
        redis.call('pexpire', KEYS[2] .. ':' .. field .. ':rwlock_timeout:' .. n, ARGV[1])
      end
    end
  end
end
return 1
