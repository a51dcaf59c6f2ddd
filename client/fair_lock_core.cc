#include "client/fair_lock_core.h"

#include <chrono>

namespace redlab::client {
namespace {

constexpr char kUnlockMessage[] = "0";

std::string NowMs() {
  return std::to_string(std::chrono::duration_cast<std::chrono::milliseconds>(
                            std::chrono::system_clock::now().time_since_epoch())
                            .count());
}

}  // namespace

int64_t FairLockCore::WaitMs(const AcquireRequest& r) const {
  return r.wait && r.wait->count() > 0 ? r.wait->count()
                                       : client->config.fair_lock_wait_timeout.count();
}

FairLockCore::FairLockCore(std::shared_ptr<ClientCore> c, size_t node, std::string name)
    : LockCore(c, node, name),
      queue(PrefixName("redisson_lock_queue", this->name)),
      timeouts(PrefixName("redisson_lock_timeout", this->name)) {}

ScriptCall FairLockCore::AcquireCall(ThreadId t, int64_t ttl, const AcquireRequest& r) const {
  if (r.once) {
    // tryLock() without waiting never queues (the EVAL_NULL_BOOLEAN form).
    return {&client->scripts.fair_try_acquire,
            {name, queue, timeouts},
            {std::to_string(ttl), Owner(t), NowMs(), std::to_string(WaitMs(r))}};
  }
  return {&client->scripts.fair_acquire,
          {name, queue, timeouts},
          {std::to_string(ttl), Owner(t), std::to_string(WaitMs(r)), NowMs()}};
}

ScriptCall FairLockCore::ReleaseCall(ThreadId t, int64_t restart_ms, const std::string& latch,
                                     int64_t latch_ms) const {
  return {&client->scripts.fair_release,
          {name, queue, timeouts, channel, latch},
          {kUnlockMessage, std::to_string(restart_ms), Owner(t), NowMs(), kPublishCommand,
           std::to_string(latch_ms)}};
}

ScriptCall FairLockCore::ForceReleaseCall() const {
  return {&client->scripts.fair_force_release,
          {name, queue, timeouts, channel},
          {kUnlockMessage, NowMs(), kPublishCommand}};
}

void FairLockCore::GaveUp(ThreadId t, const AcquireRequest& r) {
  if (r.once) return;  // never queued
  // Redisson's acquireFailed: leave the queue, moving those behind up one allowance.
  link().EvalWrite(
      client->scripts.fair_leave_queue, {queue, timeouts}, {Owner(t), std::to_string(WaitMs(r))},
      /*idempotent=*/true, [](const Reply&) { return true; }, [](WriteResult) {});
}

}  // namespace redlab::client
