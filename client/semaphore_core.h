// The semaphore as something an Acquisition can wait for: one attempt is Redisson's
// tryAcquire script (all the permits asked, or none); a failed one waits for any message on
// redisson_sc:{name}, with no TTL to bound the sleep.
#pragma once

#include "client/lock_core.h"

namespace redlab::client {

struct SemaphoreCore : LockCore {
  SemaphoreCore(std::shared_ptr<ClientCore> client, size_t node, std::string name);

  void TryAcquireOnce(ThreadId t, const AcquireRequest& request,
                      std::function<void(AcquireOutcome)> done) override;
};

/// RSemaphore's trySetPermits on the semaphore of `core` (its name and channel), from any
/// thread: true when it set them (there were none). RPermitExpirableSemaphore sends it too.
std::future<bool> TrySetPermitsAsync(const std::shared_ptr<LockCore>& core, int64_t permits);

/// addPermits on the semaphore of `core` from any thread: `script` is RSemaphore's or
/// RPermitExpirableSemaphore's (they differ, but take the same keys and arguments). Never
/// repeated: it would add twice.
std::future<void> AddPermitsAsync(const std::shared_ptr<LockCore>& core, const Script& script,
                                  int64_t permits);

}  // namespace redlab::client
