// redlab::FencedLock: Redisson's RFencedLock (RedissonFencedLock) in C++: the reentrant lock
// plus a fencing token per acquisition, from the counter redisson_lock_token:{name}.
//
//   redlab::FencedLock lock = client.GetFencedLock("ledger");
//   int64_t token = lock.LockWithToken();      // hand `token` to the guarded resource, which
//   ...                                        // refuses writes with a smaller one
//   lock.Unlock();
#pragma once

#include <cstdint>
#include <future>
#include <optional>

#include "client/lock.h"

namespace redlab {

/// A reentrant lock whose every acquisition (re-entries included) draws a token from a counter
/// that only grows, `redisson_lock_token:{name}` (a string with no expiry): a later holder's
/// token is always greater, so a resource that remembers the largest token it saw can refuse a
/// holder that lost the lock without knowing (a stall, a lease run out, a failover).
/// - `LockWithToken` / `TryLockWithToken` return the token (Redisson's lockAndGetToken /
///   tryLockAndGetToken, by the script answering {-1, token} or {pttl, -1});
/// - the inherited `Lock` / `TryLock` (and Lockable) take it by Redisson's other script, which
///   advances the counter too and answers nil or the PTTL;
/// - release, renewal, waiting, OnLost and the watchdog are the reentrant lock's.
class FencedLock : public ReentrantLock {
 public:
  /// Waits as long as it takes; the token of this acquisition.
  int64_t LockWithToken();
  /// With a lease instead of the watchdog (Redisson's lockAndGetToken(leaseTime), which ignores
  /// the lease: here it is used).
  int64_t LockWithToken(Millis lease);
  int64_t LockWithToken(ThreadId owner);
  int64_t LockWithToken(Millis lease, ThreadId owner);
  /// One attempt: the token, or nullopt when someone else holds the lock.
  std::optional<int64_t> TryLockWithToken();
  std::optional<int64_t> TryLockWithToken(ThreadId owner);
  /// Waits at most `wait`, with the watchdog.
  std::optional<int64_t> TryLockWithToken(Millis wait);
  std::optional<int64_t> TryLockWithToken(Millis wait, ThreadId owner);
  /// Waits at most `wait`; the lock then expires after `lease`.
  std::optional<int64_t> TryLockWithToken(Millis wait, Millis lease);
  std::optional<int64_t> TryLockWithToken(Millis wait, Millis lease, ThreadId owner);
  /// The counter now: the token of the latest acquisition by anyone (Redisson's getToken);
  /// nullopt before the first one.
  std::optional<int64_t> Token();

  std::future<int64_t> LockWithTokenAsync();
  std::future<int64_t> LockWithTokenAsync(Millis lease);
  std::future<int64_t> LockWithTokenAsync(ThreadId owner);
  std::future<int64_t> LockWithTokenAsync(Millis lease, ThreadId owner);
  std::future<std::optional<int64_t>> TryLockWithTokenAsync();
  std::future<std::optional<int64_t>> TryLockWithTokenAsync(ThreadId owner);
  std::future<std::optional<int64_t>> TryLockWithTokenAsync(Millis wait);
  std::future<std::optional<int64_t>> TryLockWithTokenAsync(Millis wait, ThreadId owner);
  std::future<std::optional<int64_t>> TryLockWithTokenAsync(Millis wait, Millis lease);
  std::future<std::optional<int64_t>> TryLockWithTokenAsync(Millis wait, Millis lease,
                                                            ThreadId owner);
  std::future<std::optional<int64_t>> TokenAsync();

  /// The token counter's key, redisson_lock_token:{name}.
  const std::string& token_key() const;

 private:
  friend class Client;
  explicit FencedLock(std::shared_ptr<client::LockCore> core) : ReentrantLock(std::move(core)) {}

  std::future<std::optional<int64_t>> AcquireWithToken(std::optional<Millis> lease,
                                                       std::optional<Millis> wait, bool once,
                                                       ThreadId owner);
};

}  // namespace redlab
