// redlab::ReentrantLock (alias redlab::Lock): Redisson's RLock in C++, sharing its keys and
// protocol with Redisson. Obtained from Client::GetLock(name).
//
//   redlab::Client client(redlab::Config::SingleServer("redis://127.0.0.1:6379"));
//   redlab::Lock lock = client.GetLock("orders");
//   {
//     std::lock_guard<redlab::Lock> hold(lock);   // Lock() ... Unlock(), watchdog meanwhile
//     ...
//   }
//   if (lock.TryLock(std::chrono::seconds(2), std::chrono::seconds(30))) { ...; lock.Unlock(); }
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <future>
#include <memory>
#include <optional>
#include <stop_token>
#include <string>

#include "client/ids.h"

namespace redlab {

namespace client {
struct LockCore;
}

/// What OnLost reports: a lock the watchdog was keeping found gone or taken over (by a
/// renewal, or by a release that found no hold).
struct LockLost {
  std::string name;   // the lock
  ThreadId thread;    // the owner that held it
  std::string owner;  // "<client uuid>:<thread id>", the field that disappeared
};

/// What OnRenewed reports: the result of one watchdog renewal of a lock it keeps.
struct LockRenewed {
  std::string name;     // the lock
  ThreadId thread;      // the owner whose hold was renewed
  std::string owner;    // "<client uuid>:<thread id>", the hash field renewed
  int64_t lease_ms = 0; // the TTL the renewal gives the key (lock_watchdog_timeout)
  /// true: the server renewed it. false with `error` empty: the server found the lock gone or
  /// held by someone else (OnLost follows, unless a release of it is in flight). false with
  /// `error` set: no answer (a transport error or timeout; the renewal may have run, the
  /// watchdog keeps the lock and tries again).
  bool ok = false;
  std::string error;
  std::chrono::steady_clock::time_point sent;  // when the renewal was sent
};

/// A distributed reentrant lock (Redisson's RedissonLock):
/// - the lock is a hash `name` with one field, "<client uuid>:<thread id>" -> hold count;
/// - Lock/TryLock without a lease give it Config::lock_watchdog_timeout and a watchdog renews
///   it every third of that while held; with a lease it simply expires then;
/// - a waiting thread sleeps until an unlock message on `redisson_lock__channel:{name}`, or at
///   most the holder's remaining TTL, and tries again;
/// - every operation may name its owner explicitly (ThreadId{n}), for async and cross-thread
///   use; the overloads without one use ThreadId::Current();
/// - the TTL each write gives the key is Redisson's internalLockLeaseTime, kept per owner and
///   per hold: a release that leaves holds restarts the TTL they need (the watchdog timeout
///   while one of them has no lease, else the latest one's lease), never a lease left over
///   from an earlier or a failed acquisition.
/// Handles are cheap to copy; every handle of one name on one client is the same lock (holds
/// and OnLost are per client, name and owner). Errors are the types of client/errors.h, thrown
/// on the calling thread (by std::future::get for async calls). Synchronous calls must not be
/// made from an OnLost callback (they throw).
class ReentrantLock {
 public:
  using Millis = std::chrono::milliseconds;

  /// Waits as long as it takes (Redisson's lock()).
  void Lock();
  /// As Lock(), with a lease instead of the watchdog (lock(leaseTime)).
  void Lock(Millis lease);
  void Lock(ThreadId owner);
  void Lock(Millis lease, ThreadId owner);
  /// As Lock(), but gives up with LockInterrupted when `stop` is requested (before or while
  /// waiting): Java's lockInterruptibly (Redisson's lockInterruptibly(leaseTime)).
  void LockInterruptibly(std::stop_token stop);
  void LockInterruptibly(std::stop_token stop, Millis lease);
  void LockInterruptibly(std::stop_token stop, ThreadId owner);
  void LockInterruptibly(std::stop_token stop, Millis lease, ThreadId owner);

  /// One attempt, no waiting (tryLock()).
  bool TryLock();
  bool TryLock(ThreadId owner);
  /// Waits at most `wait`, with the watchdog (tryLock(waitTime)).
  bool TryLock(Millis wait);
  /// Waits at most `wait`; the lock then expires after `lease` (tryLock(waitTime, leaseTime)).
  /// The budget is spent as Redisson spends it: the attempts, the subscription and the sleeps
  /// all count, and no attempt starts once it is used up.
  bool TryLock(Millis wait, Millis lease);
  bool TryLock(Millis wait, Millis lease, ThreadId owner);
  bool TryLock(Millis wait, ThreadId owner);

  /// Releases one hold. Throws IllegalMonitorState when the owner holds none; with replicas,
  /// NoSyncedReplicas when no replica acknowledged the release (it happened on the master).
  void Unlock();
  void Unlock(ThreadId owner);
  /// Deletes the lock whoever holds it and wakes a waiter; true when it was held.
  bool ForceUnlock();

  /// Whether anyone holds the lock (isLocked: the key exists).
  bool IsLocked();
  /// Whether the calling thread (or `owner`) holds it (isHeldByThread: its field exists).
  bool IsHeldByCurrentThread();
  bool IsHeldByThread(ThreadId owner);
  /// Holds of the calling thread (or `owner`); 0 when it holds none.
  int GetHoldCount();
  int GetHoldCount(ThreadId owner);
  /// The lock's remaining time to live: -2 ms when not locked, -1 ms when it has no expiry.
  Millis RemainTimeToLive();
  /// Gives the lock's key `ttl`, whoever holds it (RExpirable.expire: Redisson's expire script
  /// over the key, PEXPIRE without an option); true when the key existed. MultiLock shortens
  /// its locks to their lease with it, as RedissonMultiLock does.
  bool Expire(Millis ttl);

  // Async versions: the work runs on the client's loop thread; errors surface from get().
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
  std::future<bool> ForceUnlockAsync();
  std::future<bool> IsLockedAsync();
  std::future<bool> IsHeldByCurrentThreadAsync();
  std::future<bool> IsHeldByThreadAsync(ThreadId owner);
  std::future<int> GetHoldCountAsync();
  std::future<int> GetHoldCountAsync(ThreadId owner);
  std::future<Millis> RemainTimeToLiveAsync();
  std::future<bool> ExpireAsync(Millis ttl);

  // C++ Lockable, so std::lock_guard, std::unique_lock and std::scoped_lock work.
  /// Lock(); throws as it does.
  void lock() { Lock(); }
  /// TryLock(); throws as it does.
  bool try_lock() { return TryLock(); }
  /// Unlock() that never throws: the standard's Lockable unlock() must not, and guards call
  /// it from their destructors, where an exception ends in std::terminate. A failure is
  /// dropped: a lock found lost (released by no one, IllegalMonitorState) is reported to
  /// OnLost when the watchdog was keeping it, as a renewal would have; a release that could not
  /// reach the server leaves the hold to expire (the watchdog stops keeping it, as Redisson's
  /// unlock does). Call Unlock() to see errors.
  void unlock() noexcept;

  /// Called (on the client's loop thread: be quick, use async calls only) when a lock the
  /// watchdog keeps is found gone or held by someone else (the key expired during a stall,
  /// was deleted, or a failover lost it): by a renewal, or by a release that finds no hold.
  /// Redisson stays silent there. Not called for a release that went through, nor for a lease
  /// running out (that is what a lease is). One callback per lock name and client, shared by
  /// every handle of the name: setting it on any handle replaces the previous one; an empty
  /// function removes it. The client drops it at shutdown, so a callback may capture the lock
  /// handle itself without leaking the client.
  void OnLost(std::function<void(const LockLost&)> callback);
  /// Called (on the client's loop thread, as OnLost: be quick, use async calls only) with the
  /// result of each watchdog renewal of this lock, per owner whose hold the watchdog keeps; a
  /// renewal that finds the lock gone is reported (ok false) before OnLost. Holds with a lease
  /// are never renewed, so never reported. One callback per lock name and client, set and
  /// dropped as OnLost's.
  void OnRenewed(std::function<void(const LockRenewed&)> callback);

  const std::string& name() const;
  /// "<client uuid>:<thread id>", the hash field that marks `owner`'s holds.
  std::string OwnerId(ThreadId owner = ThreadId::Current()) const;

 protected:
  friend class Client;
  explicit ReentrantLock(std::shared_ptr<client::LockCore> core) : core_(std::move(core)) {}

 private:
  std::future<bool> Acquire(std::optional<Millis> lease, std::optional<Millis> wait, bool once,
                            ThreadId owner);

 protected:
  std::shared_ptr<client::LockCore> core_;
};

using Lock = ReentrantLock;

}  // namespace redlab
