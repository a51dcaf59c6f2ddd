-- Count-down latch, setting its count (Redisson's RCountDownLatch trySetCount): only when the
-- latch is not counting already (it is deleted when it reaches zero, so it can be used again).
-- KEYS[1]  the latch: a string holding the count
-- KEYS[2]  its channel, redisson_countdownlatch__channel__{name} (braces always added)
-- ARGV[1]  the new-count message ("1": waiters close their local latch)
-- ARGV[2]  the count
-- ARGV[3]  the publish command (PUBLISH or SPUBLISH)
-- Returns 1 and publishes ARGV[1] when the count was set, else 0 (unchanged).
if redis.call('exists', KEYS[1]) == 0 then
  redis.call('set', KEYS[1], ARGV[2])
  redis.call(ARGV[3], KEYS[2], ARGV[1])
  return 1
end
return 0
