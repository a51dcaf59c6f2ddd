// RedLock on the loop thread: the algorithm of Redis's "Distributed locks with Redis" page
// (beyond Redisson's deprecated RedissonRedLock), over every master of the client, with the
// reentrant lock's scripts and keys on each. An attempt asks every master at once, each given
// Config::red_lock_node_timeout to answer; it succeeds when a majority (N/2+1) granted the lock
// and the validity, lease - elapsed - drift (drift = lease x 1% + 2 ms), is positive. Otherwise
// it releases what it may have taken, waits a random delay and tries again within the wait.
// Each name's commands to a master share one connection, so the master runs them in order.
// Holds without a lease are renewed every lock_watchdog_timeout / 3, on every master, and stay
// valid while a majority renews them; else the loss goes to OnLost. Loop thread only.
#pragma once

#include <chrono>
#include <exception>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "client/connection.h"
#include "client/event_loop.h"
#include "client/ids.h"

namespace redlab::client {

struct ClientCore;
struct Script;

/// The OnLost slot of RedLocks (ClientCore::SetOnLost keys callbacks by node index).
inline constexpr size_t kRedLockNode = static_cast<size_t>(-1);

class RedLocks {
 public:
  using Millis = std::chrono::milliseconds;
  using Clock = std::chrono::steady_clock;

  explicit RedLocks(ClientCore& client);
  ~RedLocks();

  /// Acquires `name` for `t`: with `lease` (none: the watchdog), trying again until `wait`
  /// (none: until it succeeds; zero: one attempt). `done(error, acquired)` runs once. An owner
  /// that holds the lock already gets an Error: a RedLock is not reentrant.
  void Acquire(const std::string& name, ThreadId t, std::optional<Millis> lease,
               std::optional<Millis> wait, std::function<void(std::exception_ptr, bool)> done);
  /// Releases `t`'s hold on every master. IllegalMonitorState when `t` holds none here, or
  /// when no master still had it (it expired or was taken).
  void Release(const std::string& name, ThreadId t, std::function<void(std::exception_ptr)> done);
  /// Time left of `t`'s hold: its validity less the time since; zero when not held.
  Millis Validity(const std::string& name, ThreadId t) const;
  bool Holds(const std::string& name, ThreadId t) const;
  /// A majority of the masters.
  size_t quorum() const;

  /// Ends everything: operations under way fail with ClientClosed, renewals stop.
  void Close();

 private:
  // The answers of one command sent to every master at once (or to those `to` marks), each
  // within the node timeout: nullopt when a master did not answer in time. With nothing to
  // send, a plain delay.
  struct Round;
  struct Hold {
    std::vector<bool> nodes;  // masters that may hold it (granted, or no answer)
    int64_t lease_ms = 0;     // 0: the watchdog renews it
    Clock::time_point valid_until;
    uint64_t generation = 0;
    std::unique_ptr<Timer> renewal;
  };
  using Key = std::pair<std::string, uint64_t>;  // name, thread id
  using Answers = std::vector<std::optional<CommandResult>>;
  struct Attempt;

  // `enough`: the round ends as soon as the answers so far decide it (a majority granted), not
  // waiting for the slowest master; later answers are dropped (what they may hold is released
  // with the rest, every release going to every master).
  void StartRound(const Script* script, std::vector<std::string> keys,
                  std::function<std::vector<std::string>(size_t)> args, std::vector<bool> to,
                  Millis timeout, std::function<void(Answers)> done,
                  std::function<bool(const Answers&)> enough = {});
  // A majority of answers say `yes`.
  std::function<bool(const Answers&)> Majority(std::function<bool(const Reply&)> yes) const;
  void Try(std::shared_ptr<Attempt> a);
  void AfterTry(std::shared_ptr<Attempt> a, Clock::time_point started, Answers answers);
  void Renew(Key key, uint64_t generation);
  void ScheduleRenewal(const Key& key, Hold& hold);
  static int64_t Drift(int64_t lease_ms) { return lease_ms / 100 + 2; }
  std::string Owner(ThreadId t) const;
  std::string Channel(const std::string& name) const;

  ClientCore& client_;
  std::map<Key, Hold> holds_;
  std::map<Round*, std::shared_ptr<Round>> rounds_;
  std::mt19937_64 random_;
  uint64_t next_generation_ = 1;
  bool closed_ = false;
};

}  // namespace redlab::client
