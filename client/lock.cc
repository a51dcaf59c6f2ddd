#include "client/lock.h"

#include <type_traits>

#include "client/acquisition.h"
#include "client/lock_core.h"

namespace redlab {

using client::Acquisition;
using client::CallAsync;
using client::ClientCore;
using client::EvalAsync;
using client::LockCore;
using client::NodeLink;

namespace {

// An Acquisition started from any thread: whether it acquired (T = bool), or just that it did
// (T = void: Lock, which only ends acquired or failed).
template <typename T>
std::future<T> StartLock(const std::shared_ptr<LockCore>& core, ThreadId owner,
                         Acquisition::Params params) {
  return client::StartAcquisition<T>(core, owner, std::move(params),
                                     [](bool acquired, int64_t) { return acquired; });
}

}  // namespace

std::future<bool> ReentrantLock::Acquire(std::optional<Millis> lease, std::optional<Millis> wait,
                                         bool once, ThreadId owner) {
  Acquisition::Params params;
  params.lease = lease;
  params.wait = wait;
  params.once = once;
  return StartLock<bool>(core_, owner, std::move(params));
}

void ReentrantLock::Lock() { Lock(ThreadId::Current()); }
void ReentrantLock::Lock(Millis lease) { Lock(lease, ThreadId::Current()); }
void ReentrantLock::Lock(ThreadId owner) { core_->client->Await(LockAsync(owner)); }
void ReentrantLock::Lock(Millis lease, ThreadId owner) {
  core_->client->Await(LockAsync(lease, owner));
}

void ReentrantLock::LockInterruptibly(std::stop_token stop) {
  LockInterruptibly(std::move(stop), Millis(-1), ThreadId::Current());
}

void ReentrantLock::LockInterruptibly(std::stop_token stop, Millis lease) {
  LockInterruptibly(std::move(stop), lease, ThreadId::Current());
}

void ReentrantLock::LockInterruptibly(std::stop_token stop, ThreadId owner) {
  LockInterruptibly(std::move(stop), Millis(-1), owner);
}

void ReentrantLock::LockInterruptibly(std::stop_token stop, Millis lease, ThreadId owner) {
  core_->client->CheckNotLoopThread();
  if (stop.stop_requested()) {
    // Java's lockInterruptibly: an interrupted thread does not even try.
    throw LockInterrupted("lock '" + core_->name + "': interrupted before acquiring");
  }
  auto interrupt = std::make_shared<client::InterruptHandle>();
  Acquisition::Params params;
  if (lease.count() > 0) params.lease = lease;
  params.interrupt = interrupt;
  std::future<void> done = StartLock<void>(core_, owner, std::move(params));
  std::stop_callback on_stop(stop, [core = core_, interrupt] {
    core->client->loop.Post([interrupt] {
      interrupt->requested = true;
      if (auto a = interrupt->target.lock()) a->Interrupt();
    });
  });
  done.get();
}

bool ReentrantLock::TryLock() { return core_->client->Await(TryLockAsync()); }
bool ReentrantLock::TryLock(ThreadId owner) { return core_->client->Await(TryLockAsync(owner)); }
bool ReentrantLock::TryLock(Millis wait) { return core_->client->Await(TryLockAsync(wait)); }
bool ReentrantLock::TryLock(Millis wait, Millis lease) {
  return core_->client->Await(TryLockAsync(wait, lease));
}
bool ReentrantLock::TryLock(Millis wait, Millis lease, ThreadId owner) {
  return core_->client->Await(TryLockAsync(wait, lease, owner));
}
bool ReentrantLock::TryLock(Millis wait, ThreadId owner) {
  return core_->client->Await(TryLockAsync(wait, owner));
}

void ReentrantLock::Unlock() { Unlock(ThreadId::Current()); }
void ReentrantLock::Unlock(ThreadId owner) { core_->client->Await(UnlockAsync(owner)); }

void ReentrantLock::unlock() noexcept {
  try {
    Unlock();
  } catch (...) {
    // Documented in lock.h: losses reach OnLost (Watchdog::EndRelease); the rest is dropped.
  }
}

bool ReentrantLock::ForceUnlock() { return core_->client->Await(ForceUnlockAsync()); }
bool ReentrantLock::IsLocked() { return core_->client->Await(IsLockedAsync()); }
bool ReentrantLock::IsHeldByCurrentThread() { return IsHeldByThread(ThreadId::Current()); }
bool ReentrantLock::IsHeldByThread(ThreadId owner) {
  return core_->client->Await(IsHeldByThreadAsync(owner));
}
int ReentrantLock::GetHoldCount() { return GetHoldCount(ThreadId::Current()); }
int ReentrantLock::GetHoldCount(ThreadId owner) {
  return core_->client->Await(GetHoldCountAsync(owner));
}
ReentrantLock::Millis ReentrantLock::RemainTimeToLive() {
  return core_->client->Await(RemainTimeToLiveAsync());
}
bool ReentrantLock::Expire(Millis ttl) { return core_->client->Await(ExpireAsync(ttl)); }

std::future<void> ReentrantLock::LockAsync() { return LockAsync(ThreadId::Current()); }
std::future<void> ReentrantLock::LockAsync(Millis lease) {
  return LockAsync(lease, ThreadId::Current());
}
std::future<void> ReentrantLock::LockAsync(ThreadId owner) { return LockAsync(Millis(-1), owner); }
std::future<void> ReentrantLock::LockAsync(Millis lease, ThreadId owner) {
  Acquisition::Params params;
  if (lease.count() > 0) params.lease = lease;
  return StartLock<void>(core_, owner, std::move(params));
}

std::future<bool> ReentrantLock::TryLockAsync() { return TryLockAsync(ThreadId::Current()); }
std::future<bool> ReentrantLock::TryLockAsync(ThreadId owner) {
  return Acquire(std::nullopt, std::nullopt, true, owner);
}
std::future<bool> ReentrantLock::TryLockAsync(Millis wait) {
  return TryLockAsync(wait, ThreadId::Current());
}
std::future<bool> ReentrantLock::TryLockAsync(Millis wait, ThreadId owner) {
  return Acquire(std::nullopt, wait, false, owner);
}
std::future<bool> ReentrantLock::TryLockAsync(Millis wait, Millis lease) {
  return TryLockAsync(wait, lease, ThreadId::Current());
}
std::future<bool> ReentrantLock::TryLockAsync(Millis wait, Millis lease, ThreadId owner) {
  std::optional<Millis> lease_opt;
  if (lease.count() > 0) lease_opt = lease;
  return Acquire(lease_opt, wait, false, owner);
}

std::future<void> ReentrantLock::UnlockAsync() { return UnlockAsync(ThreadId::Current()); }
std::future<void> ReentrantLock::UnlockAsync(ThreadId owner) {
  return core_->client->Submit<void>([core = core_, owner](std::shared_ptr<std::promise<void>> p) {
    core->Release(owner, [p](std::exception_ptr error) {
      if (error) {
        p->set_exception(error);
      } else {
        p->set_value();
      }
    });
  });
}

std::future<bool> ReentrantLock::ForceUnlockAsync() {
  return core_->client->Submit<bool>([core = core_](std::shared_ptr<std::promise<bool>> p) {
    core->ForceRelease([p](std::exception_ptr error, bool deleted) {
      if (error) {
        p->set_exception(error);
      } else {
        p->set_value(deleted);
      }
    });
  });
}

std::future<bool> ReentrantLock::IsLockedAsync() {
  return CallAsync<bool>(core_, {"EXISTS", core_->name},
                         [](const Reply& r) { return r.integer == 1; });
}

std::future<bool> ReentrantLock::IsHeldByCurrentThreadAsync() {
  return IsHeldByThreadAsync(ThreadId::Current());
}

std::future<bool> ReentrantLock::IsHeldByThreadAsync(ThreadId owner) {
  return CallAsync<bool>(core_, {"HEXISTS", core_->name, core_->Field(owner)},
                         [](const Reply& r) { return r.integer == 1; });
}

std::future<int> ReentrantLock::GetHoldCountAsync() {
  return GetHoldCountAsync(ThreadId::Current());
}

std::future<int> ReentrantLock::GetHoldCountAsync(ThreadId owner) {
  return CallAsync<int>(core_, {"HGET", core_->name, core_->Field(owner)},
                        [](const Reply& r) { return r.is_nil() ? 0 : std::stoi(r.str); });
}

std::future<ReentrantLock::Millis> ReentrantLock::RemainTimeToLiveAsync() {
  return CallAsync<Millis>(core_, {"PTTL", core_->name},
                           [](const Reply& r) { return Millis(r.integer); });
}

std::future<bool> ReentrantLock::ExpireAsync(Millis ttl) {
  // RedissonExpirable.expireAsync: KEYS the object's keys (a lock: its hash); ARGV the TTL in
  // milliseconds and PEXPIRE's option, '' for none. Safe to repeat.
  auto set = [](const Reply& r) { return r.integer == 1; };
  return EvalAsync<bool>(core_, core_->client->scripts.expire, {core_->name},
                         {std::to_string(ttl.count()), ""}, /*idempotent=*/true, set, set);
}

void ReentrantLock::OnLost(std::function<void(const LockLost&)> callback) {
  core_->client->SetOnLost(core_->node, core_->BookName(), std::move(callback));
}

void ReentrantLock::OnRenewed(std::function<void(const LockRenewed&)> callback) {
  core_->client->SetOnRenewed(core_->node, core_->BookName(), std::move(callback));
}

const std::string& ReentrantLock::name() const { return core_->name; }

std::string ReentrantLock::OwnerId(ThreadId owner) const { return core_->Field(owner); }

}  // namespace redlab
