-- Reentrant lock, watchdog renewal of many locks in one call.
-- KEYS[i]    a lock hash
-- ARGV[1]    the lease to restart, in milliseconds (the watchdog timeout)
-- ARGV[i+1]  the owner expected to hold KEYS[i]
-- Returns an array with, for each KEYS[i] in order, 1 when its owner still held it (lease
-- restarted) or 0 when the lock is gone or held by someone else.
local result = {}
for i = 1, #KEYS do
  if redis.call('hexists', KEYS[i], ARGV[i + 1]) == 1 then
    redis.call('pexpire', KEYS[i], ARGV[1])
    result[i] = 1
  else
    result[i] = 0
  end
end
return result
