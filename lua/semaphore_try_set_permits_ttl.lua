-- Semaphore, first setting of its permits with a time to live (Redisson's RSemaphore
-- trySetPermits(permits, timeToLive)).
-- KEYS[1]  the semaphore: a string holding the free permits
-- KEYS[2]  its channel, redisson_sc:{name}
-- ARGV[1]  permits
-- ARGV[2]  the publish command (PUBLISH or SPUBLISH)
-- ARGV[3]  the time to live, in milliseconds
-- Returns 1 and publishes the permits when the semaphore had none set, else 0 (unchanged).
if redis.call('get', KEYS[1]) == false then
  redis.call('set', KEYS[1], ARGV[1], 'px', ARGV[3])
  redis.call(ARGV[2], KEYS[2], ARGV[1])
  return 1
end
return 0
