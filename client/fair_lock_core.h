// Redisson's RedissonFairLock as a LockCore: the reentrant lock's hash plus a queue of waiters
// (list redisson_lock_queue:{name}) with their deadlines (zset redisson_lock_timeout:{name}),
// each waiter listening on its own channel redisson_lock__channel:{name}:<owner>, which a
// release tells when it is first in line. Deadlines are the clients' clock (Unix ms).
#pragma once

#include "client/lock_core.h"

namespace redlab::client {

struct FairLockCore : LockCore {
  FairLockCore(std::shared_ptr<ClientCore> client, size_t node, std::string name);

  ScriptCall AcquireCall(ThreadId t, int64_t ttl, const AcquireRequest& request) const override;
  ScriptCall ReleaseCall(ThreadId t, int64_t restart_ms, const std::string& latch,
                         int64_t latch_ms) const override;
  ScriptCall ForceReleaseCall() const override;
  std::string WaitChannel(ThreadId t) const override { return channel + ":" + Owner(t); }
  void GaveUp(ThreadId t, const AcquireRequest& request) override;

  /// Redisson's threadWaitTime: each waiter's allowance, the caller's wait when it gives one,
  /// else Config::fair_lock_wait_timeout (Redisson's fairLockWaitTimeout, 5 min).
  int64_t WaitMs(const AcquireRequest& request) const;

  const std::string queue;     // redisson_lock_queue:{name}
  const std::string timeouts;  // redisson_lock_timeout:{name}
};

}  // namespace redlab::client
