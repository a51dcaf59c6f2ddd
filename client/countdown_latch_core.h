// The count-down latch as something an Acquisition can wait for: one attempt reads the count
// (open at zero or when not set); a closed one waits for any message on
// redisson_countdownlatch__channel__{name}, with no TTL to bound the sleep.
#pragma once

#include "client/lock_core.h"

namespace redlab::client {

struct CountDownLatchCore : LockCore {
  CountDownLatchCore(std::shared_ptr<ClientCore> client, size_t node, std::string name);

  void TryAcquireOnce(ThreadId t, const AcquireRequest& request,
                      std::function<void(AcquireOutcome)> done) override;
};

/// Redisson's latch channel: the braces are always added, even to a name that has some.
std::string LatchChannel(const std::string& name);

}  // namespace redlab::client
