-- Semaphore, give permits back (Redisson's RSemaphore release): any caller may, whoever took
-- them; the waiters on the channel learn the new count.
-- KEYS[1]  the semaphore: a string holding the free permits (created when missing)
-- KEYS[2]  its channel, redisson_sc:{name}
-- ARGV[1]  permits to give back
-- ARGV[2]  the publish command (PUBLISH or SPUBLISH)
-- Returns nil; publishes the permits now free.
local free = redis.call('incrby', KEYS[1], ARGV[1])
redis.call(ARGV[2], KEYS[2], free)
