-- RExpirable's expire (RedissonExpirable.expireAsync): a new time to live for every key, as
-- RedissonMultiLock sends it to each lock it holds to shorten the lease to the one asked for.
-- KEYS[j]  the keys (a lock: its hash)
-- ARGV[1]  the time to live, in milliseconds
-- ARGV[2]  PEXPIRE's option (NX, XX, GT or LT), or '' for none
-- Returns 1 when some key got the time to live, else 0.
local result = 0
for j = 1, #KEYS, 1 do
  local expireSet
  if ARGV[2] ~= '' then
    expireSet = redis.call('pexpire', KEYS[j], ARGV[1], ARGV[2])
  else
    expireSet = redis.call('pexpire', KEYS[j], ARGV[1])
  end
  if expireSet == 1 then
    result = expireSet
  end
end
return result
