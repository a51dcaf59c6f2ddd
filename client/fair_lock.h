// redlab::FairLock: Redisson's RedissonFairLock in C++: the reentrant lock served in the order
// the waiters first asked. Obtained from Client::GetFairLock(name).
#pragma once

#include "client/lock.h"

namespace redlab {

/// Every ReentrantLock operation (Lockable too). A waiter joins the queue
/// redisson_lock_queue:{name} with a deadline in redisson_lock_timeout:{name} (the one before
/// it, or the holder's lease, plus its allowance: the wait it gave, or 5 minutes), and listens
/// on its own channel redisson_lock__channel:{name}:<owner>, told by a release when it is first
/// in line. A waiter that gives up leaves the queue; one that vanishes is dropped when its
/// deadline passes. TryLock() without a wait never queues. Deadlines use this machine's clock
/// (Unix ms), as Redisson's: the clients' clocks must agree.
class FairLock : public ReentrantLock {
 private:
  friend class Client;
  explicit FairLock(std::shared_ptr<client::LockCore> core) : ReentrantLock(std::move(core)) {}
};

}  // namespace redlab
