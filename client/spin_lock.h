// redlab::SpinLock: Redisson's RSpinLock (RedissonSpinLock) in C++: the reentrant lock's hash,
// acquisition, leases and watchdog, but a waiter never subscribes to a channel: it tries again
// after an exponential back-off with jitter (1 ms, then x2 plus a random part below the number
// of failures, at most 128 ms, as LockOptions.ExponentialBackOff). For many short locks, where
// a subscription per waiter costs more than a few retries. Obtained from Client::GetSpinLock.
#pragma once

#include "client/lock.h"

namespace redlab {

/// Every ReentrantLock operation, with the waiting done by back-off (see above). Releases are
/// RedissonSpinLock's (lua/spin_lock_release.lua, spin_lock_force_release.lua): they publish
/// nothing, so a getLock waiter of the same name learns of a spin release only when its sleep
/// (at most the holder's PTTL) ends, as with Redisson.
class SpinLock : public ReentrantLock {
 private:
  friend class Client;
  explicit SpinLock(std::shared_ptr<client::LockCore> core) : ReentrantLock(std::move(core)) {}
};

}  // namespace redlab
