-- Semaphore, add (or, negative, remove) permits whatever is free (Redisson's RSemaphore
-- addPermits): a semaphore not set counts from 0.
-- KEYS[1]  the semaphore: a string holding the free permits
-- KEYS[2]  its channel, redisson_sc:{name}
-- ARGV[1]  permits to add
-- ARGV[2]  the publish command (PUBLISH or SPUBLISH)
-- Returns nil; publishes the new count.
local free = redis.call('get', KEYS[1])
if free == false then
  free = 0
end
redis.call('set', KEYS[1], free + ARGV[1])
redis.call(ARGV[2], KEYS[2], free + ARGV[1])
