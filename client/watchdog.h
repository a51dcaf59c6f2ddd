// The lock watchdog of one master, and the book of this client's holds on it. Per lock name and
// owner it remembers each hold, in the order taken, with its lease (or none: the watchdog keeps
// it). From that book come the TTL each lock write gives the key (Redisson's
// internalLockLeaseTime, but per owner and per hold, so one lease does not leak into the next
// acquisition) and the renewals: while a hold without a lease is held, renew the lock every
// lock_watchdog_timeout / 3, many locks per EVAL (lua/lock_renew.lua). When a renewal finds a
// lock gone it drops it and reports the loss, unless a release of it is in flight (then the
// release's answer decides). Errors keep the entries and try again after retry_interval. Each
// renewal's result, per lock and owner, goes to RenewedFn (a lock found gone before its loss).
// Loop thread only.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "client/config.h"
#include "client/event_loop.h"
#include "client/ids.h"
#include "client/lock.h"
#include "client/node_link.h"

namespace redlab::client {

class Watchdog {
 public:
  /// Called when a hold the watchdog kept is found lost (loop thread).
  using LostFn = std::function<void(const std::string& name, ThreadId t)>;

  /// Called with each renewal's result for a hold the watchdog keeps (loop thread; `owner`
  /// left empty: the caller knows the client's id).
  using RenewedFn = std::function<void(LockRenewed event)>;

  Watchdog(EventLoop& loop, NodeLink& link, const Config& config, const Script& renew,
           const Script& read_renew, LostFn on_lost, RenewedFn on_renewed = {});

  /// The TTL an acquisition by `t` sends: its lease, or lock_watchdog_timeout without one. A
  /// lease never shortens a lock the watchdog keeps for `t` (it would expire under the outer
  /// hold before the next renewal): then the watchdog timeout.
  int64_t AcquireTtl(const std::string& name, ThreadId t, int64_t lease_ms) const;
  /// `t` acquired `name` once more (the server said so); `lease_ms` <= 0: the watchdog keeps
  /// this hold (Redisson's scheduleExpirationRenewal). `owner` is its hash field, `key` the
  /// lock's key (empty: `name`); `read_prefix` (a read lock's {name}) renews it by
  /// read_lock_renew.lua, restarting the owner's read-hold timeout keys too.
  void Acquired(const std::string& name, ThreadId t, int64_t lease_ms, std::string owner,
                std::string key = {}, std::string read_prefix = {});

  /// What BeginRelease took off the book, for EndRelease.
  struct Ticket {
    uint64_t generation = 0;  // 0: no hold of `t` was on the book
    bool watched = false;     // the hold released was kept by the watchdog
    int64_t restart_ms = 0;   // the TTL the release gives the holds left
  };
  /// A release of one of `t`'s holds is being sent: takes the latest hold off the book and
  /// says which TTL the holds left need (the watchdog timeout while one of them is watched,
  /// else the latest one's lease). Until EndRelease a renewal that finds the lock gone does
  /// not report it: the release may have deleted it.
  Ticket BeginRelease(const std::string& name, ThreadId t);
  /// The TTL a release restarts without taking a hold off the book (taking back an
  /// acquisition that never reached it).
  int64_t RestartTtl(const std::string& name, ThreadId t) const;

  enum class ReleaseOutcome {
    kReleased,   // 1: the last hold went, the key is deleted
    kStillHeld,  // 0: holds remain
    kNotHeld,    // nil: `t` held nothing (IllegalMonitorState)
    kFailed,     // no answer (transport error): as Redisson, the hold is forgotten anyway
  };
  /// The release's answer. kNotHeld for a lock the watchdog was keeping is a loss, reported
  /// as one (the Lockable unlock() swallows its IllegalMonitorState).
  void EndRelease(const std::string& name, ThreadId t, const Ticket& ticket,
                  ReleaseOutcome outcome);

  /// Forgets `name` for every owner (forceUnlock).
  void RemoveAll(const std::string& name);
  /// Stops everything: held locks then expire.
  void Close();

  /// Locks (name and owner) with at least one hold the watchdog keeps.
  size_t size() const;

 private:
  using Key = std::pair<std::string, uint64_t>;  // lock name, thread id
  using Clock = std::chrono::steady_clock;
  struct Entry {
    std::string owner;
    std::string key;             // the lock's key
    std::string read_prefix;     // read locks: {name}, renewed by read_lock_renew.lua
    std::vector<int64_t> holds;  // oldest first: each hold's lease, 0 when watched
    int watched = 0;             // zeros in `holds`
    int releasing = 0;           // releases sent, unanswered
    int releasing_watched = 0;   // of those, releases of watched holds
    bool gone_seen = false;      // a renewal found the lock gone while releasing
    uint64_t generation = 0;     // tells this entry from one created after it was dropped
    // With only leased holds: after this the key has surely expired (our last write's TTL
    // counted from its answer), so a new acquisition starts a new book.
    Clock::time_point lease_ends{};

    bool kept() const { return watched + releasing_watched > 0; }
  };

  // Leased holds are forgotten once their lease surely ended (the key expired), so locks left
  // to expire do not pile up here: an index of lease ends, swept by a timer.
  void NoteLeaseEnd(const Key& key, Clock::time_point when);
  void DropExpiredLeases();
  Entry* Find(const std::string& name, ThreadId t);
  const Entry* Find(const std::string& name, ThreadId t) const;
  // The TTL the holds of `e` need: the watchdog timeout while one is watched, else the
  // latest lease; the watchdog timeout when none is known.
  int64_t Needed(const Entry* e) const;
  void EraseIfIdle(std::map<Key, Entry>::iterator it);
  void Lost(std::map<Key, Entry>::iterator it);
  void Renewed(const Key& key, bool ok, const std::string& error, Clock::time_point sent);
  void Schedule(std::chrono::milliseconds delay);
  void Renew();

  EventLoop& loop_;
  NodeLink& link_;
  const Config& config_;
  const Script& renew_;
  const Script& read_renew_;
  LostFn on_lost_;
  RenewedFn on_renewed_;
  std::map<Key, Entry> entries_;
  std::multimap<Clock::time_point, Key> lease_ends_;  // may hold stale ends: checked when due
  Timer timer_;
  Timer lease_timer_;
  bool renewing_ = false;  // a round of renewals is in flight
  bool closed_ = false;
  uint64_t next_generation_ = 1;
};

}  // namespace redlab::client
