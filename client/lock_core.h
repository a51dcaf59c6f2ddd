// The reentrant lock's operations on the loop thread, each one script or command: Redisson's
// tryLockInnerAsync, unlockInnerAsync (with the unlock latch) and forceUnlockAsync, with the
// watchdog bookkeeping and replica-sync handling around them. The public ReentrantLock wraps
// these in futures.
#pragma once

#include <chrono>
#include <exception>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "client/client_core.h"
#include "client/ids.h"

namespace redlab::client {

/// The publish command the scripts are given (Redisson's getPublishCommand(): SPUBLISH only
/// with sharded pub/sub in a cluster, which the client does not use).
inline constexpr char kPublishCommand[] = "publish";

/// Redisson's prefixName: `prefix:{name}`, or `prefix:name` when name already has braces.
std::string PrefixName(std::string_view prefix, std::string_view name);

struct AcquireOutcome {
  std::exception_ptr error;
  bool acquired = false;
  int64_t ttl = 0;     // when not acquired: the holder's PTTL (-1: no expiry)
  int64_t token = -1;  // when acquired with the token (fenced lock): the fencing token
};

struct LockCore : std::enable_shared_from_this<LockCore> {
  /// `token_key` (redisson_lock_token:{name}) makes it a fenced lock: every acquisition
  /// advances that counter. Empty: the reentrant lock.
  LockCore(std::shared_ptr<ClientCore> client, size_t node, std::string name,
           std::string token_key = {});

  std::string Owner(ThreadId t) const { return client->id + ":" + std::to_string(t.value); }
  NodeLink& link() const { return *client->nodes[node].link; }
  Watchdog& watchdog() const { return *client->nodes[node].watchdog; }

  /// One acquisition attempt. Without a lease the lock gets lock_watchdog_timeout and the
  /// watchdog renews it; with one it expires then. `with_token` (fenced lock only): the
  /// outcome carries the fencing token. Loop thread.
  void TryAcquireOnce(ThreadId t, std::optional<std::chrono::milliseconds> lease, bool with_token,
                      std::function<void(AcquireOutcome)> done);
  /// One release (one hold). IllegalMonitorState when `t` does not hold it. Loop thread.
  /// `on_book`: the hold is on the watchdog's book of holds (the latest one goes); false when
  /// taking back an acquisition that never reached it.
  void Release(ThreadId t, std::function<void(std::exception_ptr)> done, bool on_book = true);
  /// Deletes the lock whoever holds it; true when there was one. Loop thread.
  void ForceRelease(std::function<void(std::exception_ptr, bool)> done);

  const std::shared_ptr<ClientCore> client;
  const size_t node;
  const std::string name;
  const std::string channel;    // redisson_lock__channel:{name}
  const std::string token_key;  // fenced lock: redisson_lock_token:{name}; else empty
};

}  // namespace redlab::client
