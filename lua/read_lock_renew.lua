-- Read lock, watchdog renewal of many read locks in one call (Redisson's renewal/ReadLockTask):
-- for each lock, restarts the read-hold timeout keys of the listed owners that still hold it,
-- and the hash's lease when one of them does.
-- KEYS[2i-1]  a lock hash
-- KEYS[2i]    the prefix of its owners' timeout keys, {name} (.. ':' .. owner .. ':rwlock_timeout:' .. n)
-- ARGV[1]     the lease to restart, in milliseconds
-- then, per lock in KEYS order: the number of owners n, followed by the n owners
-- Returns an array with, per lock, 1 when one of its listed owners still held it (leases
-- restarted), 0 otherwise.
local result = {}
local arg = 2
for i = 1, #KEYS, 2 do
  local alive = false
  local owners = tonumber(ARGV[arg])
  arg = arg + 1
  for k = 1, owners do
    local holds = redis.call('hget', KEYS[i], ARGV[arg])
    if holds ~= false then
      alive = true
      for n = holds, 1, -1 do
        redis.call('pexpire', KEYS[i + 1] .. ':' .. ARGV[arg] .. ':rwlock_timeout:' .. n, ARGV[1])
      end
    end
    arg = arg + 1
  end
  if alive then
    redis.call('pexpire', KEYS[i], ARGV[1])
    table.insert(result, 1)
  else
    table.insert(result, 0)
  end
end
return result
