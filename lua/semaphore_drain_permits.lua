-- Semaphore, take every free permit (Redisson's RSemaphore drainPermits).
-- KEYS[1]  the semaphore: a string holding the free permits
-- Returns the permits taken (the count becomes 0; its TTL goes, as SET drops it), 0 when the
-- semaphore is not set.
local free = redis.call('get', KEYS[1])
if free == false then
  return 0
end
redis.call('set', KEYS[1], 0)
return free
