// redlab::Semaphore: Redisson's RSemaphore (RedissonSemaphore) in C++: a string `name` holding
// the free permits, and the channel redisson_sc:{name} announcing every change. Obtained from
// Client::GetSemaphore(name).
//
//   redlab::Semaphore slots = client.GetSemaphore("render-slots");
//   slots.TrySetPermits(4);           // once, by whoever comes first
//   slots.Acquire();                  // waits for a permit
//   ...
//   slots.Release();
#pragma once

#include <chrono>
#include <cstdint>
#include <future>
#include <memory>
#include <optional>
#include <string>

namespace redlab {

namespace client {
struct LockCore;
}

/// Permits are not owned: anyone may release them, as with Java's Semaphore and Redisson's.
/// A waiter tries again on every message on redisson_sc:{name} (a release, an addition, a
/// first setting), all or nothing for the permits it asks. A semaphore never set has no
/// permits: Acquire waits until TrySetPermits, AddPermits or Release makes some.
class Semaphore {
 public:
  using Millis = std::chrono::milliseconds;

  /// Waits as long as it takes for `permits` (acquire(permits)).
  void Acquire(int64_t permits = 1);
  /// One attempt (tryAcquire(permits)).
  bool TryAcquire(int64_t permits = 1);
  /// Waits at most `wait` (tryAcquire(permits, waitTime)).
  bool TryAcquire(int64_t permits, Millis wait);
  /// Gives `permits` back (creating the semaphore if it is gone) and announces the count.
  void Release(int64_t permits = 1);
  /// Gives them back only to a semaphore that exists; false otherwise (releaseIfExists).
  bool ReleaseIfExists(int64_t permits = 1);
  /// Sets the permits when the semaphore has none set; false when it had (trySetPermits),
  /// optionally with a time to live.
  bool TrySetPermits(int64_t permits);
  bool TrySetPermits(int64_t permits, Millis ttl);
  /// Adds (negative: removes) permits whatever is free (addPermits).
  void AddPermits(int64_t permits);
  /// Takes every free permit; how many (drainPermits).
  int64_t DrainPermits();
  /// The free permits now (availablePermits); 0 when not set.
  int64_t AvailablePermits();
  /// Deletes the semaphore; true when it existed.
  bool Delete();

  std::future<void> AcquireAsync(int64_t permits = 1);
  std::future<bool> TryAcquireAsync(int64_t permits = 1);
  std::future<bool> TryAcquireAsync(int64_t permits, Millis wait);
  std::future<void> ReleaseAsync(int64_t permits = 1);
  std::future<bool> TrySetPermitsAsync(int64_t permits);
  std::future<int64_t> AvailablePermitsAsync();

  const std::string& name() const;
  /// redisson_sc:{name}.
  const std::string& channel() const;

 private:
  friend class Client;
  explicit Semaphore(std::shared_ptr<client::LockCore> core) : core_(std::move(core)) {}
  std::future<bool> Start(int64_t permits, std::optional<Millis> wait, bool once);

  std::shared_ptr<client::LockCore> core_;
};

}  // namespace redlab
