-- Read lock, isLocked (Redisson's RedissonReadLock isLocked): read mode, or write mode where the
-- hash has more than the mode and the writer (the writer also reads). The write side's isLocked
-- is HGET name mode == "write".
-- KEYS[1]  the lock hash
-- Returns 1 or 0.
local mode = redis.call('hget', KEYS[1], 'mode')
if (mode == 'read') or (mode == 'write' and redis.call('hlen', KEYS[1]) > 2) then
  return 1
end
return 0
