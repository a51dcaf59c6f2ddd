// redlab::RedLock: a lock over N independent masters that holds while a majority of them grant
// it, as Redis's "Distributed locks with Redis" page describes the algorithm (Redisson's
// RedissonRedLock, deprecated there, is its sequential form). Obtained from
// Client::GetRedLock(name) on a Client built with Config::IndependentMasters(urls).
//
//   redlab::Client client(redlab::Config::IndependentMasters({"redis://a:6379", ...}));
//   redlab::RedLock lock = client.GetRedLock("payments");
//   if (lock.TryLock(std::chrono::seconds(1), std::chrono::seconds(10))) {
//     ... finish within lock.Validity() ...
//     lock.Unlock();
//   }
#pragma once

#include <chrono>
#include <functional>
#include <future>
#include <memory>
#include <optional>
#include <string>

#include "client/ids.h"
#include "client/lock.h"

namespace redlab {

namespace client {
struct ClientCore;
}

/// One attempt asks every master at once (Redisson's reentrant-lock script, hash `name`, field
/// "<client uuid>:<thread id>"), each within Config::red_lock_node_timeout. It succeeds when a
/// majority (N/2+1) granted the lock and the validity, lease - elapsed - drift with drift =
/// lease x 1% + 2 ms, is still positive; otherwise every master that granted it (or did not
/// answer in time) releases it, and the next attempt starts after a random delay of up to
/// Config::red_lock_retry_delay, within the wait. Each master gets the commands of one name on
/// one connection, in the order sent. Without a lease the hold gets
/// lock_watchdog_timeout and is renewed on every master each third of it; it stays valid while
/// a majority renews it, else OnLost is called. Release goes to every master.
/// Not reentrant: an owner that holds it and asks again gets an Error. Holds are per client,
/// name and owner (ThreadId), kept on the client. Errors are the types of client/errors.h.
class RedLock {
 public:
  using Millis = std::chrono::milliseconds;

  /// Tries until it succeeds, with the watchdog / with a lease.
  void Lock();
  void Lock(Millis lease);
  void Lock(ThreadId owner);
  void Lock(Millis lease, ThreadId owner);
  /// One attempt, with the watchdog.
  bool TryLock();
  bool TryLock(ThreadId owner);
  /// Attempts until one succeeds or `wait` is spent, with the watchdog.
  bool TryLock(Millis wait);
  bool TryLock(Millis wait, ThreadId owner);
  /// Attempts until one succeeds or `wait` is spent; the hold then lasts `lease`.
  bool TryLock(Millis wait, Millis lease);
  bool TryLock(Millis wait, Millis lease, ThreadId owner);
  /// Releases on every master. IllegalMonitorState when the owner holds it not (on this client),
  /// or when no master still had it (it expired).
  void Unlock();
  void Unlock(ThreadId owner);

  /// The time the owner's hold is still valid: the validity at acquisition (or at the last
  /// renewal by a majority) less the time since; zero when not held.
  Millis Validity();
  Millis Validity(ThreadId owner);
  /// Whether the owner holds it (this client's record; no master is asked).
  bool IsHeldByCurrentThread();
  bool IsHeldByThread(ThreadId owner);

  std::future<void> LockAsync();
  std::future<void> LockAsync(Millis lease);
  std::future<void> LockAsync(ThreadId owner);
  std::future<void> LockAsync(Millis lease, ThreadId owner);
  std::future<bool> TryLockAsync();
  std::future<bool> TryLockAsync(ThreadId owner);
  std::future<bool> TryLockAsync(Millis wait);
  std::future<bool> TryLockAsync(Millis wait, ThreadId owner);
  std::future<bool> TryLockAsync(Millis wait, Millis lease);
  std::future<bool> TryLockAsync(Millis wait, Millis lease, ThreadId owner);
  std::future<void> UnlockAsync();
  std::future<void> UnlockAsync(ThreadId owner);

  // C++ Lockable (std::lock_guard, std::unique_lock): unlock() never throws, as
  // ReentrantLock::unlock().
  void lock() { Lock(); }
  bool try_lock() { return TryLock(); }
  void unlock() noexcept;

  /// Called (on the client's loop thread: be quick, use async calls only) when a renewal of a
  /// hold without a lease reached fewer than a majority: the hold is then dropped. One
  /// callback per RedLock name and client; an empty function removes it.
  void OnLost(std::function<void(const LockLost&)> callback);

  const std::string& name() const { return name_; }
  /// How many masters must grant it (N/2+1).
  size_t quorum() const;
  std::string OwnerId(ThreadId owner = ThreadId::Current()) const;

 private:
  friend class Client;
  RedLock(std::shared_ptr<client::ClientCore> core, std::string name)
      : core_(std::move(core)), name_(std::move(name)) {}

  std::shared_ptr<client::ClientCore> core_;
  std::string name_;
};

}  // namespace redlab
