// The reentrant lock's operations on the loop thread, each one script or command: Redisson's
// tryLockInnerAsync, unlockInnerAsync (with the unlock latch) and forceUnlockAsync, with the
// watchdog bookkeeping and replica-sync handling around them. The public ReentrantLock wraps
// these in futures.
#pragma once

#include <chrono>
#include <exception>
#include <functional>
#include <future>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "client/client_core.h"
#include "client/ids.h"

namespace redlab::client {

/// The publish command the scripts are given: Redisson's getPublishCommand(), the command's
/// name as RedisCommands spells it ("PUBLISH"; "SPUBLISH" only with sharded pub/sub in a
/// cluster, which the client does not use).
inline constexpr char kPublishCommand[] = "PUBLISH";

/// Redisson's prefixName: `prefix:{name}`, or `prefix:name` when name already has braces.
std::string PrefixName(std::string_view prefix, std::string_view name);

struct AcquireOutcome {
  std::exception_ptr error;
  bool acquired = false;
  int64_t ttl = 0;     // when not acquired: the holder's PTTL (-1: no expiry)
  int64_t token = -1;  // when acquired with the token (fenced lock): the fencing token

  /// When `r` failed (an I/O error, or an error reply: ReplyError), records it in `error` and
  /// returns true; false when `r` holds a reply to read.
  bool Failed(const CommandResult& r);
};

/// What one acquisition attempt asks for.
struct AcquireRequest {
  std::optional<std::chrono::milliseconds> lease;  // none: the watchdog keeps it
  bool with_token = false;                         // fenced lock: report the token
  int64_t permits = 1;                             // semaphore: how many
  std::optional<std::chrono::milliseconds> wait;   // fair lock: the caller's wait, if given
  bool once = false;                               // fair lock: tryLock() without waiting
};

/// One script call: what a primitive sends for an acquisition or a release.
struct ScriptCall {
  const Script* script = nullptr;
  std::vector<std::string> keys;
  std::vector<std::string> args;
};

/// Something a thread can wait for with an Acquisition: the reentrant lock (and the fenced
/// lock, which is one), or another primitive overriding TryAcquireOnce and naming its channel
/// (a semaphore, a latch).
struct LockCore : std::enable_shared_from_this<LockCore> {
  /// `token_key` (redisson_lock_token:{name}) makes it a fenced lock: every acquisition
  /// advances that counter. Empty: the reentrant lock.
  LockCore(std::shared_ptr<ClientCore> client, size_t node, std::string name,
           std::string token_key = {});
  /// Another primitive: waiters listen on `channel`, grouped under `waiter_key` (the name a
  /// lock of the same name does not use); `wake_all`: every message wakes every waiter.
  LockCore(std::shared_ptr<ClientCore> client, size_t node, std::string name, std::string channel,
           std::string waiter_key, bool wake_all);
  virtual ~LockCore() = default;

  std::string Owner(ThreadId t) const { return client->id + ":" + std::to_string(t.value); }
  /// The hash field of `t`'s holds: Owner(t) (a write lock adds ":write").
  virtual std::string Field(ThreadId t) const { return Owner(t); }
  /// The acquisition `t` sends with TTL `ttl` (the reentrant lock's script; not for fenced).
  virtual ScriptCall AcquireCall(ThreadId t, int64_t ttl, const AcquireRequest& request) const;
  /// The release `t` sends: `restart_ms` for the holds left, the latch and its TTL.
  virtual ScriptCall ReleaseCall(ThreadId t, int64_t restart_ms, const std::string& latch,
                                 int64_t latch_ms) const;
  /// The forced release (whoever holds it): the reentrant lock's script.
  virtual ScriptCall ForceReleaseCall() const;
  /// The name its holds are kept under in the watchdog's book (and OnLost): the name; a read
  /// lock's differs, so one owner's read and write holds of a lock are two entries.
  virtual std::string BookName() const { return name; }
  /// For the watchdog: the read-lock timeout-key prefix ({name}) when its renewal must restart
  /// the read holds' timeout keys too (read_lock_renew.lua); empty for the others.
  virtual std::string ReadRenewPrefix() const { return {}; }
  /// The channel `t` waits on (the fair lock's is per waiter); waiters are grouped by it.
  virtual std::string WaitChannel(ThreadId) const { return channel; }
  /// An acquisition by `t` ended without the lock after a failed attempt (its wait ran out,
  /// it was interrupted or failed): the fair lock leaves its queue here. Loop thread.
  virtual void GaveUp(ThreadId, const AcquireRequest&) {}
  NodeLink& link() const { return *client->nodes[node].link; }
  Watchdog& watchdog() const { return *client->nodes[node].watchdog; }

  /// One acquisition attempt. Without a lease the lock gets lock_watchdog_timeout and the
  /// watchdog renews it; with one it expires then. `with_token` (fenced lock only): the
  /// outcome carries the fencing token. Loop thread.
  virtual void TryAcquireOnce(ThreadId t, const AcquireRequest& request,
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
  const std::string channel;     // redisson_lock__channel:{name}
  const std::string token_key;   // fenced lock: redisson_lock_token:{name}; else empty
  const std::string waiter_key;  // the waiters' group in LockWaiters (the name, for locks)
  const bool wake_all = false;   // any message wakes every waiter (semaphores, latches)

  /// Redisson's RSpinLock: waiters never subscribe; they try again after an exponential
  /// back-off with jitter (LockOptions.ExponentialBackOff: from 1 ms, x2 plus a random part
  /// below the number of failures, at most 128 ms); its releases (lua/spin_lock_*.lua)
  /// publish nothing. Set once, before any use.
  struct Spin {
    int64_t initial_ms = 1;
    int64_t max_ms = 128;
    int64_t multiplier = 2;
  };
  std::optional<Spin> spin;
};

/// Settles `p` with a command's result: its I/O error, ReplyError for an error reply, else
/// `convert(reply)` (for T = void, `convert` runs for what it checks and the value is set);
/// an exception `convert` throws settles `p` with it.
template <typename T, typename Convert>
void Settle(const std::shared_ptr<std::promise<T>>& p, const CommandResult& r,
            const Convert& convert) {
  if (r.error) return p->set_exception(r.error);
  if (r.reply.is_error()) {
    return p->set_exception(std::make_exception_ptr(ReplyError(r.reply.str)));
  }
  try {
    if constexpr (std::is_void_v<T>) {
      convert(r.reply);
      p->set_value();
    } else {
      p->set_value(convert(r.reply));
    }
  } catch (...) {
    p->set_exception(std::current_exception());
  }
}

/// One script on `core`'s master from any thread, its reply converted by `convert` (on the
/// loop thread; it may throw). An error reply throws ReplyError. For the primitives' plain
/// operations (semaphore release, latch count down...). `wrote` tells whether a reply
/// means the write took effect (see NodeLink::EvalWrite); by default any reply does.
template <typename T, typename Convert, typename DoneWhen>
std::future<T> EvalAsync(const std::shared_ptr<LockCore>& core, const Script& script,
                         std::vector<std::string> keys, std::vector<std::string> args,
                         bool idempotent, Convert convert, DoneWhen wrote) {
  return core->client->template Submit<T>(
      [core, &script, keys = std::move(keys), args = std::move(args), idempotent, convert,
       wrote](std::shared_ptr<std::promise<T>> p) mutable {
        core->link().EvalWrite(script, std::move(keys), std::move(args), idempotent, wrote,
                               [p, convert](WriteResult w) { Settle(p, w.result, convert); });
      });
}
template <typename T, typename Convert>
std::future<T> EvalAsync(const std::shared_ptr<LockCore>& core, const Script& script,
                         std::vector<std::string> keys, std::vector<std::string> args,
                         bool idempotent, Convert convert) {
  return EvalAsync<T>(core, script, std::move(keys), std::move(args), idempotent,
                      std::move(convert), [](const Reply&) { return true; });
}

/// One command on `core`'s master from any thread (a read: GET, PTTL...), its reply converted
/// by `convert` on the loop thread, as EvalAsync.
template <typename T, typename Convert>
std::future<T> CallAsync(const std::shared_ptr<LockCore>& core, std::vector<std::string> args,
                         Convert convert) {
  return core->client->template Submit<T>(
      [core, args = std::move(args), convert](std::shared_ptr<std::promise<T>> p) mutable {
        core->link().Call(std::move(args), {},
                          [p, convert](CommandResult r) { Settle(p, r, convert); });
      });
}

}  // namespace redlab::client
