#include "client/red_lock.h"

#include <type_traits>

#include "client/client_core.h"
#include "client/red_lock_core.h"

namespace redlab {

using client::ClientCore;

namespace {

std::optional<RedLock::Millis> LeaseOf(RedLock::Millis lease) {
  if (lease.count() > 0) return lease;
  return std::nullopt;  // the watchdog
}

// Runs `fn(red_locks, promise)` on the loop; ClientClosed once the client is shut down.
template <typename T, typename Fn>
std::future<T> OnLoop(const std::shared_ptr<ClientCore>& core, Fn fn) {
  return core->Submit<T>([core, fn = std::move(fn)](std::shared_ptr<std::promise<T>> p) mutable {
    if (!core->red_locks) {
      return p->set_exception(std::make_exception_ptr(ClientClosed("the client is closed")));
    }
    fn(*core->red_locks, p);
  });
}

// An acquisition: whether it acquired (T = bool), or that it did (T = void: Lock).
template <typename T>
std::future<T> Start(const std::shared_ptr<ClientCore>& core, const std::string& name,
                     std::optional<RedLock::Millis> lease, std::optional<RedLock::Millis> wait,
                     ThreadId owner) {
  return OnLoop<T>(core, [name, lease, wait, owner](client::RedLocks& locks,
                                                    std::shared_ptr<std::promise<T>> p) {
    locks.Acquire(name, owner, lease, wait, [p](std::exception_ptr error, bool acquired) {
      if (error) {
        p->set_exception(error);
      } else if constexpr (std::is_void_v<T>) {
        p->set_value();
      } else {
        p->set_value(acquired);
      }
    });
  });
}

}  // namespace

void RedLock::Lock() { Lock(ThreadId::Current()); }
void RedLock::Lock(Millis lease) { Lock(lease, ThreadId::Current()); }
void RedLock::Lock(ThreadId owner) { core_->Await(LockAsync(owner)); }
void RedLock::Lock(Millis lease, ThreadId owner) { core_->Await(LockAsync(lease, owner)); }
bool RedLock::TryLock() { return TryLock(ThreadId::Current()); }
bool RedLock::TryLock(ThreadId owner) { return core_->Await(TryLockAsync(owner)); }
bool RedLock::TryLock(Millis wait) { return TryLock(wait, ThreadId::Current()); }
bool RedLock::TryLock(Millis wait, ThreadId owner) {
  return core_->Await(TryLockAsync(wait, owner));
}
bool RedLock::TryLock(Millis wait, Millis lease) {
  return TryLock(wait, lease, ThreadId::Current());
}
bool RedLock::TryLock(Millis wait, Millis lease, ThreadId owner) {
  return core_->Await(TryLockAsync(wait, lease, owner));
}
void RedLock::Unlock() { Unlock(ThreadId::Current()); }
void RedLock::Unlock(ThreadId owner) { core_->Await(UnlockAsync(owner)); }

void RedLock::unlock() noexcept {
  try {
    Unlock();
  } catch (...) {
    // As ReentrantLock::unlock(): a hold that expired is left to its TTL; errors are dropped.
  }
}

RedLock::Millis RedLock::Validity() { return Validity(ThreadId::Current()); }
RedLock::Millis RedLock::Validity(ThreadId owner) {
  return core_->Await(OnLoop<Millis>(
      core_,
      [name = name_, owner](client::RedLocks& locks, std::shared_ptr<std::promise<Millis>> p) {
        p->set_value(locks.Validity(name, owner));
      }));
}
bool RedLock::IsHeldByCurrentThread() { return IsHeldByThread(ThreadId::Current()); }
bool RedLock::IsHeldByThread(ThreadId owner) {
  return core_->Await(OnLoop<bool>(
      core_, [name = name_, owner](client::RedLocks& locks, std::shared_ptr<std::promise<bool>> p) {
        p->set_value(locks.Holds(name, owner));
      }));
}

std::future<void> RedLock::LockAsync() { return LockAsync(ThreadId::Current()); }
std::future<void> RedLock::LockAsync(Millis lease) { return LockAsync(lease, ThreadId::Current()); }
std::future<void> RedLock::LockAsync(ThreadId owner) { return LockAsync(Millis(-1), owner); }
std::future<void> RedLock::LockAsync(Millis lease, ThreadId owner) {
  return Start<void>(core_, name_, LeaseOf(lease), std::nullopt, owner);
}
std::future<bool> RedLock::TryLockAsync() { return TryLockAsync(ThreadId::Current()); }
std::future<bool> RedLock::TryLockAsync(ThreadId owner) {
  return Start<bool>(core_, name_, std::nullopt, Millis(0), owner);
}
std::future<bool> RedLock::TryLockAsync(Millis wait) {
  return TryLockAsync(wait, ThreadId::Current());
}
std::future<bool> RedLock::TryLockAsync(Millis wait, ThreadId owner) {
  return Start<bool>(core_, name_, std::nullopt, wait, owner);
}
std::future<bool> RedLock::TryLockAsync(Millis wait, Millis lease) {
  return TryLockAsync(wait, lease, ThreadId::Current());
}
std::future<bool> RedLock::TryLockAsync(Millis wait, Millis lease, ThreadId owner) {
  return Start<bool>(core_, name_, LeaseOf(lease), wait, owner);
}

std::future<void> RedLock::UnlockAsync() { return UnlockAsync(ThreadId::Current()); }
std::future<void> RedLock::UnlockAsync(ThreadId owner) {
  return OnLoop<void>(
      core_, [name = name_, owner](client::RedLocks& locks, std::shared_ptr<std::promise<void>> p) {
        locks.Release(name, owner, [p](std::exception_ptr error) {
          if (error) {
            p->set_exception(error);
          } else {
            p->set_value();
          }
        });
      });
}

void RedLock::OnLost(std::function<void(const LockLost&)> callback) {
  core_->SetOnLost(client::kRedLockNode, name_, std::move(callback));
}

size_t RedLock::quorum() const { return core_->config.masters.size() / 2 + 1; }

std::string RedLock::OwnerId(ThreadId owner) const {
  return core_->id + ":" + std::to_string(owner.value);
}

}  // namespace redlab
