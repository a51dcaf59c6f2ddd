// The two sides of Redisson's RReadWriteLock as LockCores: one hash `name` with a `mode` field,
// the channel redisson_rwlock:{name} for both (a write release publishes "1": every waiter; a
// read release "0": one), the writer's field "<uuid>:<thread>:write", and per read hold a
// timeout key {name}:<owner>:rwlock_timeout:<n> (lua/read_lock_*.lua, lua/write_lock_*.lua).
#pragma once

#include "client/lock_core.h"

namespace redlab::client {

/// Redisson's suffixName: "{name}:suffix", or "name:suffix" when name already has braces.
std::string SuffixName(std::string_view name, std::string_view suffix);

struct WriteLockCore : LockCore {
  WriteLockCore(std::shared_ptr<ClientCore> client, size_t node, std::string name);
  std::string Field(ThreadId t) const override { return Owner(t) + ":write"; }
  ScriptCall AcquireCall(ThreadId t, int64_t ttl, const AcquireRequest& request) const override;
  ScriptCall ReleaseCall(ThreadId t, int64_t restart_ms, const std::string& latch,
                         int64_t latch_ms) const override;
  ScriptCall ForceReleaseCall() const override;
};

struct ReadLockCore : LockCore {
  ReadLockCore(std::shared_ptr<ClientCore> client, size_t node, std::string name);
  ScriptCall AcquireCall(ThreadId t, int64_t ttl, const AcquireRequest& request) const override;
  ScriptCall ReleaseCall(ThreadId t, int64_t restart_ms, const std::string& latch,
                         int64_t latch_ms) const override;
  ScriptCall ForceReleaseCall() const override;
  /// The watchdog keeps read holds apart from the same owner's write holds of the lock.
  std::string BookName() const override { return name + " (read)"; }
  std::string ReadRenewPrefix() const override { return key_prefix; }

  /// `t`'s read-hold timeout keys: {name}:<owner>:rwlock_timeout (then :<n>).
  std::string TimeoutPrefix(ThreadId t) const;
  const std::string key_prefix;  // {name}: what every owner's timeout keys start with
};

}  // namespace redlab::client
