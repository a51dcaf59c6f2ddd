-- Count-down latch, one count down (Redisson's RCountDownLatch countDown).
-- KEYS[1]  the latch: a string holding the count
-- KEYS[2]  its channel, redisson_countdownlatch__channel__{name}
-- ARGV[1]  the zero-count message ("0": waiters open)
-- ARGV[2]  the publish command (PUBLISH or SPUBLISH)
-- Returns nil. The latch is deleted once its count is zero or less; reaching exactly zero also
-- publishes ARGV[1]. Counting down a latch that is not set deletes the -1 it makes, silently.
local count = redis.call('decr', KEYS[1])
if count <= 0 then
  redis.call('del', KEYS[1])
end
if count == 0 then
  redis.call(ARGV[2], KEYS[2], ARGV[1])
end
