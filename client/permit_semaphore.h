// redlab::PermitExpirableSemaphore: Redisson's RPermitExpirableSemaphore
// (RedissonPermitExpirableSemaphore) in C++: a string `name` holding the free permits, a zset
// {name}:timeout of the permits taken (id -> expiry date), and the channel redisson_sc:{name}.
// Obtained from Client::GetPermitExpirableSemaphore(name).
//
//   redlab::PermitExpirableSemaphore slots = client.GetPermitExpirableSemaphore("gpu");
//   slots.TrySetPermits(2);
//   std::string id = slots.Acquire(std::chrono::seconds(30));  // back by itself after 30 s
//   ...
//   slots.Release(id);
#pragma once

#include <chrono>
#include <cstdint>
#include <future>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace redlab {

namespace client {
struct PermitSemaphoreCore;
}

/// Each permit taken has an id (32 hex digits; its 16 bytes are the zset member) and an expiry
/// date: the lease, or none. Any call that reads or takes permits first gives the expired ones
/// back (announcing the count). A waiter tries again on each message on redisson_sc:{name}, and
/// at the latest when the nearest lease ends. Dates are the callers' clocks (unix ms), as in
/// Redisson.
class PermitExpirableSemaphore {
 public:
  using Millis = std::chrono::milliseconds;

  /// Waits as long as it takes for a permit; its id (acquire(), acquire(leaseTime)).
  std::string Acquire(std::optional<Millis> lease = std::nullopt);
  /// `permits` permits, all or none (acquire(permits, leaseTime)).
  std::vector<std::string> Acquire(int64_t permits, std::optional<Millis> lease);
  /// One attempt: the id, or none (tryAcquire()).
  std::optional<std::string> TryAcquire();
  /// Waits at most `wait` (tryAcquire(waitTime[, leaseTime])).
  std::optional<std::string> TryAcquire(Millis wait, std::optional<Millis> lease = std::nullopt);
  /// `permits` permits within `wait`; empty when not had (tryAcquire(permits, wait, lease)).
  std::vector<std::string> TryAcquire(int64_t permits, Millis wait, std::optional<Millis> lease);
  /// Gives permit `id` back; false when it was unknown (released, or expired and reclaimed) or
  /// had expired (then it is given back all the same) (tryRelease).
  bool TryRelease(const std::string& id);
  /// TryRelease, throwing Error("Permit with id <id> has already been released or doesn't
  /// exist") when it answers false, as Redisson's release throws IllegalArgumentException.
  void Release(const std::string& id);
  /// Gives several permits back, all or nothing: how many went back; 0 (nothing changed) when
  /// one of them is not held or has expired (tryRelease(permitsIds)). Throws Error("permitIds
  /// can't be null or empty") for an empty list, as Redisson.
  int64_t TryRelease(const std::vector<std::string>& ids);
  /// TryRelease(ids), throwing Error("Permits with ids [<id>, <id>] have already been released
  /// or don't exist") unless all went back, as Redisson's release(permitsIds).
  void Release(const std::vector<std::string>& ids);
  /// A new lease for a permit still held, from now (none: no expiry); false when it is not
  /// held (updateLeaseTime).
  bool UpdateLeaseTime(const std::string& id, std::optional<Millis> lease);
  /// The lease left on permit `id` in milliseconds, -1 for a permit without a lease; throws
  /// Error("Permit with id <id> has already been released or doesn't exist") when it is not
  /// held (getLeaseTime).
  int64_t GetLeaseTime(const std::string& id);
  /// The free permits, expired ones given back first (availablePermits).
  int64_t AvailablePermits();
  /// Free plus taken permits; 0 when never set (getPermits).
  int64_t GetPermits();
  /// The permits taken and not expired (acquiredPermits).
  int64_t AcquiredPermits();
  /// Sets the total, free plus taken: the free count moves by the difference (setPermits).
  void SetPermits(int64_t permits);
  /// Sets the permits when none are set (trySetPermits); false when they were.
  bool TrySetPermits(int64_t permits);
  /// Adds (negative: removes) free permits (addPermits).
  void AddPermits(int64_t permits);
  /// Deletes the semaphore and its timeout zset; true when something existed.
  bool Delete();

  std::future<std::vector<std::string>> AcquireAsync(int64_t permits, std::optional<Millis> lease);
  std::future<std::vector<std::string>> TryAcquireAsync(int64_t permits, std::optional<Millis> wait,
                                                        std::optional<Millis> lease);
  std::future<bool> TryReleaseAsync(const std::string& id);

  const std::string& name() const;
  /// {name}:timeout.
  const std::string& timeout_name() const;
  /// redisson_sc:{name}.
  const std::string& channel() const;

 private:
  friend class Client;
  explicit PermitExpirableSemaphore(std::shared_ptr<client::PermitSemaphoreCore> core)
      : core_(std::move(core)) {}

  std::shared_ptr<client::PermitSemaphoreCore> core_;
};

}  // namespace redlab
