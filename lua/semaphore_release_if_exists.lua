-- Semaphore, give permits back only to a semaphore that exists (Redisson's RSemaphore
-- releaseIfExists): a semaphore deleted or expired meanwhile is not created again.
-- KEYS[1]  the semaphore: a string holding the free permits
-- KEYS[2]  its channel, redisson_sc:{name}
-- ARGV[1]  permits to give back
-- ARGV[2]  the publish command (PUBLISH or SPUBLISH)
-- Returns 1 and publishes the permits now free, or 0 when there is no semaphore.
if redis.call('exists', KEYS[1]) == 0 then
  return 0
end
local free = redis.call('incrby', KEYS[1], ARGV[1])
redis.call(ARGV[2], KEYS[2], free)
return 1
