-- Count-down latch, delete (Redisson's RCountDownLatch delete).
-- KEYS[1]  the latch: a string holding the count
-- KEYS[2]  its channel, redisson_countdownlatch__channel__{name}
-- ARGV[1]  the new-count message ("1")
-- ARGV[2]  the publish command (PUBLISH or SPUBLISH)
-- Returns 1 and publishes ARGV[1] when a latch was deleted, else 0.
if redis.call('del', KEYS[1]) == 1 then
  redis.call(ARGV[2], KEYS[2], ARGV[1])
  return 1
end
return 0
