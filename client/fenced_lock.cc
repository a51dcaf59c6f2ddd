#include "client/fenced_lock.h"

#include "client/acquisition.h"
#include "client/lock_core.h"

namespace redlab {

using client::Acquisition;
using client::CallAsync;

namespace {

std::optional<ReentrantLock::Millis> LeaseOf(ReentrantLock::Millis lease) {
  if (lease.count() > 0) return lease;
  return std::nullopt;  // 0 or negative: the watchdog, as Redisson's -1
}

}  // namespace

std::future<std::optional<int64_t>> FencedLock::AcquireWithToken(std::optional<Millis> lease,
                                                                 std::optional<Millis> wait,
                                                                 bool once, ThreadId owner) {
  Acquisition::Params params;
  params.lease = lease;
  params.wait = wait;
  params.once = once;
  params.with_token = true;
  return client::StartAcquisition<std::optional<int64_t>>(
      core_, owner, std::move(params), [](bool acquired, int64_t token) {
        return acquired ? std::optional<int64_t>(token) : std::nullopt;
      });
}

int64_t FencedLock::LockWithToken() { return LockWithToken(ThreadId::Current()); }
int64_t FencedLock::LockWithToken(Millis lease) {
  return LockWithToken(lease, ThreadId::Current());
}
int64_t FencedLock::LockWithToken(ThreadId owner) {
  return core_->client->Await(LockWithTokenAsync(owner));
}
int64_t FencedLock::LockWithToken(Millis lease, ThreadId owner) {
  return core_->client->Await(LockWithTokenAsync(lease, owner));
}

std::optional<int64_t> FencedLock::TryLockWithToken() {
  return TryLockWithToken(ThreadId::Current());
}
std::optional<int64_t> FencedLock::TryLockWithToken(ThreadId owner) {
  return core_->client->Await(TryLockWithTokenAsync(owner));
}
std::optional<int64_t> FencedLock::TryLockWithToken(Millis wait) {
  return TryLockWithToken(wait, ThreadId::Current());
}
std::optional<int64_t> FencedLock::TryLockWithToken(Millis wait, ThreadId owner) {
  return core_->client->Await(TryLockWithTokenAsync(wait, owner));
}
std::optional<int64_t> FencedLock::TryLockWithToken(Millis wait, Millis lease) {
  return TryLockWithToken(wait, lease, ThreadId::Current());
}
std::optional<int64_t> FencedLock::TryLockWithToken(Millis wait, Millis lease, ThreadId owner) {
  return core_->client->Await(TryLockWithTokenAsync(wait, lease, owner));
}
std::optional<int64_t> FencedLock::Token() { return core_->client->Await(TokenAsync()); }

std::future<int64_t> FencedLock::LockWithTokenAsync() {
  return LockWithTokenAsync(ThreadId::Current());
}
std::future<int64_t> FencedLock::LockWithTokenAsync(Millis lease) {
  return LockWithTokenAsync(lease, ThreadId::Current());
}
std::future<int64_t> FencedLock::LockWithTokenAsync(ThreadId owner) {
  return LockWithTokenAsync(Millis(-1), owner);
}
std::future<int64_t> FencedLock::LockWithTokenAsync(Millis lease, ThreadId owner) {
  Acquisition::Params params;
  params.lease = LeaseOf(lease);
  params.with_token = true;
  // Lock waits until it acquires: it ends with a token or an error.
  return client::StartAcquisition<int64_t>(core_, owner, std::move(params),
                                           [](bool, int64_t token) { return token; });
}

std::future<std::optional<int64_t>> FencedLock::TryLockWithTokenAsync() {
  return TryLockWithTokenAsync(ThreadId::Current());
}
std::future<std::optional<int64_t>> FencedLock::TryLockWithTokenAsync(ThreadId owner) {
  return AcquireWithToken(std::nullopt, std::nullopt, true, owner);
}
std::future<std::optional<int64_t>> FencedLock::TryLockWithTokenAsync(Millis wait) {
  return TryLockWithTokenAsync(wait, ThreadId::Current());
}
std::future<std::optional<int64_t>> FencedLock::TryLockWithTokenAsync(Millis wait, ThreadId owner) {
  return AcquireWithToken(std::nullopt, wait, false, owner);
}
std::future<std::optional<int64_t>> FencedLock::TryLockWithTokenAsync(Millis wait, Millis lease) {
  return TryLockWithTokenAsync(wait, lease, ThreadId::Current());
}
std::future<std::optional<int64_t>> FencedLock::TryLockWithTokenAsync(Millis wait, Millis lease,
                                                                      ThreadId owner) {
  return AcquireWithToken(LeaseOf(lease), wait, false, owner);
}

std::future<std::optional<int64_t>> FencedLock::TokenAsync() {
  using Result = std::optional<int64_t>;
  return CallAsync<Result>(core_, {"GET", core_->token_key}, [name = core_->name](const Reply& r) {
    if (r.is_nil()) return Result();
    try {
      return Result(std::stoll(r.str));
    } catch (...) {
      throw ReplyError("fenced lock '" + name + "': token is not a number: " + r.str);
    }
  });
}

const std::string& FencedLock::token_key() const { return core_->token_key; }

}  // namespace redlab
