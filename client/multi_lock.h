// redlab::MultiLock: Redisson's RedissonMultiLock in C++: several locks (of one client or of
// several, on one master or several) taken as one: all of them, or none.
//
//   redlab::MultiLock both({client_a.GetLock("from-account"), client_b.GetLock("to-account")});
//   if (both.TryLock(std::chrono::seconds(2), std::chrono::seconds(30))) { ...; both.Unlock(); }
#pragma once

#include <chrono>
#include <future>
#include <optional>
#include <vector>

#include "client/ids.h"
#include "client/lock.h"

namespace redlab {

/// The locks are taken one after another, in the order given (give every MultiLock of the same
/// locks the same order); when one cannot be had, those taken are released and, within the
/// wait, the whole round starts again (Redisson's tryLock with failedLocksLimit 0). A lock whose
/// attempt fails with an error counts as not acquired, as in Redisson (after a TimeoutError it
/// is also released, since the attempt may have taken it). Each lock is held by the same owner
/// (ThreadId) on its own client, with its client's watchdog, or with a lease: as Redisson does,
/// with a wait too each lock is first taken with twice the wait as its lease (so an early lock
/// cannot run out while a later one is awaited, whatever the lease), and once all are held each
/// is shortened to the lease by RExpirable's expire script (ReentrantLock::Expire); without a
/// wait each is taken with the lease, and shortened to it all the same.
class MultiLock {
 public:
  using Millis = std::chrono::milliseconds;

  explicit MultiLock(std::vector<ReentrantLock> locks);

  /// Until all are held: rounds of TryLock(N x 1.5 s) without a lease; with one, each round
  /// waits a random time within [lease / 2, lease) when the lease is at most N x 1.5 s, else
  /// within [N x 1.5 s, lease), as Redisson's lock(leaseTime).
  void Lock();
  void Lock(Millis lease);
  void Lock(Millis lease, ThreadId owner);
  /// One round, no waiting.
  bool TryLock();
  bool TryLock(ThreadId owner);
  /// Rounds until all are held or `wait` is spent; with the watchdog, or `lease`.
  bool TryLock(Millis wait);
  bool TryLock(Millis wait, Millis lease);
  bool TryLock(Millis wait, Millis lease, ThreadId owner);
  /// Releases every lock; the first error (IllegalMonitorState when one was not held) is thrown
  /// after all were tried.
  void Unlock();
  void Unlock(ThreadId owner);

  /// The same on a thread of their own (the locks may live on several clients' loops); the
  /// MultiLock must outlive the future.
  std::future<bool> TryLockAsync(Millis wait, Millis lease, ThreadId owner);
  std::future<void> UnlockAsync(ThreadId owner);

  // C++ Lockable.
  void lock() { Lock(); }
  bool try_lock() { return TryLock(); }
  void unlock() noexcept;

  const std::vector<ReentrantLock>& locks() const { return locks_; }

 private:
  // One round after another until all are held; `wait` none: a single round.
  bool Acquire(std::optional<Millis> wait, std::optional<Millis> lease, ThreadId owner);
  void ReleaseAll(const std::vector<ReentrantLock*>& held, ThreadId owner);
  // Every lock's key gets `lease` (all sent at once); the first error is thrown.
  void Shorten(Millis lease);

  std::vector<ReentrantLock> locks_;
};

}  // namespace redlab
