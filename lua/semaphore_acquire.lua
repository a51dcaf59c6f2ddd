-- Semaphore, try to take permits (Redisson's RSemaphore tryAcquire): all or nothing, never
-- waits (a waiter listens on redisson_sc:{name} and tries again).
-- KEYS[1]  the semaphore: a string holding the free permits
-- ARGV[1]  permits to take (Redisson never sends 0 or less: it answers those itself)
-- Returns 1 when the permits were taken, 0 when fewer are free or the semaphore was never set
-- (no key is created).
local free = redis.call('get', KEYS[1])
if (free ~= false) and (tonumber(free) >= tonumber(ARGV[1])) then
  redis.call('decrby', KEYS[1], ARGV[1])
  return 1
end
return 0
