-- Read lock, release, idempotent under retries (Redisson's RedissonReadLock unlock).
-- KEYS[1]  the lock hash
-- KEYS[2]  the read/write lock's channel, redisson_rwlock:{name}
-- KEYS[3]  this owner's timeout key prefix, {name}:<owner>:rwlock_timeout
-- KEYS[4]  the prefix of every owner's timeout keys, {name} (KEYS[4]:<owner>:rwlock_timeout:<n>)
-- KEYS[5]  the unlock latch of this release request, redisson_unlock_latch:{name}:<request id>
-- ARGV[1]  the unlock message: Redisson sends "0" (wake one waiter) on a read release
-- ARGV[2]  owner
-- ARGV[3]  the publish command (PUBLISH or SPUBLISH)
-- ARGV[4]  how long the latch lives, in milliseconds
-- Returns nil when the owner holds no read lock (IllegalMonitorState; when there is no lock at
-- all, waiters are still told and the latch says 1, as Redisson since 2025), 0 when the lock is
-- still held (by this owner's other holds, other readers, or the writer), 1 when the lock is now
-- free and waiters told. A retry finds the latch and returns its answer.
--@include rwlock_release_start
local over, answer = start_rwlock_release(KEYS[1], KEYS[2], ARGV[1], ARGV[3], KEYS[5], ARGV[4])
if over then
  return answer
end
local mode = answer
if redis.call('hexists', KEYS[1], ARGV[2]) == 0 then
  return nil
end
local counter = redis.call('hincrby', KEYS[1], ARGV[2], -1)
if counter == 0 then
  redis.call('hdel', KEYS[1], ARGV[2])
end
-- This owner's newest hold goes with its timeout key.
redis.call('del', KEYS[3] .. ':' .. (counter + 1))

if redis.call('hlen', KEYS[1]) > 1 then
  -- Holds remain: the hash now lives as long as the longest of their timeout keys.
  local longest = -3
  local fields = redis.call('hkeys', KEYS[1])
  for _, field in ipairs(fields) do
    local holds = tonumber(redis.call('hget', KEYS[1], field))
    if type(holds) == 'number' then
      for n = holds, 1, -1 do
        local ttl = redis.call('pttl', KEYS[4] .. ':' .. field .. ':rwlock_timeout:' .. n)
        longest = math.max(ttl, longest)
      end
    end
  end
  if longest > 0 then
    redis.call('pexpire', KEYS[1], longest)
    redis.call('set', KEYS[5], 0, 'px', ARGV[4])
    return 0
  end
  -- No read hold alive, but the writer holds on.
  if mode == 'write' then
    redis.call('set', KEYS[5], 0, 'px', ARGV[4])
    return 0
  end
end
redis.call('del', KEYS[1])
redis.call(ARGV[3], KEYS[2], ARGV[1])
redis.call('set', KEYS[5], 1, 'px', ARGV[4])
return 1
