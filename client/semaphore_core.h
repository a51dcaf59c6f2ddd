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

}  // namespace redlab::client
