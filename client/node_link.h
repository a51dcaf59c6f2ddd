// Everything the client keeps for one master: a pool of command connections, the pub/sub
// connection, the lock waiters and the watchdog's connection to it. Commands go through
// Call / EvalWrite, which retry as Config says, send scripts by EVALSHA with the EVAL fallback,
// and follow lock writes with WAIT when replicas are configured. Loop thread only.
#pragma once

#include <chrono>
#include <functional>
#include <list>
#include <memory>
#include <string>
#include <vector>

#include "client/config.h"
#include "client/connection.h"
#include "client/lock_waiters.h"
#include "client/script.h"
#include "client/subscriber.h"

namespace redlab::client {

/// A lock write's outcome: the script's reply and, with replicas, how many acknowledged it.
struct WriteResult {
  CommandResult result;
  int64_t replicas = 0;  // connected_slaves when written (0: no WAIT was needed)
  int64_t synced = -1;   // WAIT's answer; -1 when no WAIT ran
  /// Replicas were expected but none acknowledged within slaves_sync_timeout.
  bool unsynced() const { return replicas > 0 && synced == 0; }
};

class NodeLink {
 public:
  NodeLink(EventLoop& loop, const Config& config, const ServerAddress& address);
  ~NodeLink();
  NodeLink(const NodeLink&) = delete;
  NodeLink& operator=(const NodeLink&) = delete;

  struct CallOptions {
    /// Safe to repeat after a timeout or a dropped connection (the command may have run).
    /// Commands that never reached the server are always tried again.
    bool idempotent = true;
    /// False: one attempt only, whatever Config::retry_attempts says.
    bool retry = true;
    std::chrono::milliseconds extra_timeout{0};
  };

  /// A command on the least busy connection, with retries.
  void Call(std::vector<std::string> args, CallOptions options, ResultCallback cb);

  /// A lock script: EVALSHA (EVAL on NOSCRIPT) on one connection, with retries; with replicas
  /// (master-replica mode) INFO replication first and, when `wrote(reply)` says the script
  /// changed something, WAIT <connected_slaves> <slaves_sync_timeout> on the same connection.
  /// `attempts`: retries after a transport failure; -1: Config::retry_attempts (RedLock sends
  /// 0: a node that does not answer at once is counted out, not waited for).
  /// `lane`: -1, the least busy connection; else always the same one (lane modulo the pool),
  /// so that writes given one lane run on the server in the order sent even while earlier ones
  /// are unanswered (RedLock: a release must not overtake the acquisition still in flight).
  void EvalWrite(const Script& script, std::vector<std::string> keys, std::vector<std::string> args,
                 bool idempotent, std::function<bool(const Reply&)> wrote,
                 std::function<void(WriteResult)> cb, int attempts = -1, int lane = -1);

  /// Connects every command connection and waits for none: Client's constructor checks the
  /// first reply instead.
  void ConnectAll();
  /// Fails everything pending with ClientClosed and closes every connection.
  void Close();
  /// Sentinel mode, the master moved: every connection is dropped and made again at `address`
  /// (commands in flight fail as after a dropped connection, and are retried as Config says),
  /// the pub/sub connection too, with every channel subscribed again there.
  void Retarget(const ServerAddress& address);
  /// Sentinel mode: lock writes WAIT for `count()` replicas (those the sentinels list as up)
  /// instead of reading INFO's connected_slaves.
  void SetReplicaCount(std::function<int64_t()> count) { replica_count_ = std::move(count); }

  LockWaiters& waiters() { return *waiters_; }
  Subscriber& subscriber() { return *subscriber_; }
  const ServerAddress& address() const { return address_; }
  EventLoop& loop() { return loop_; }

 private:
  struct Retry;
  using Attempt = std::function<void(Connection&, std::function<void(CommandResult)>)>;

  // The least busy connection, or lane's (see EvalWrite).
  Connection& PickConnection(int lane = -1);
  // Runs `attempt` until it succeeds, fails for good, or retries run out.
  void WithRetries(Attempt attempt, bool idempotent, std::function<void(CommandResult)> done,
                   int attempts = -1, int lane = -1);
  void RunAttempt(std::shared_ptr<Retry> retry);
  static bool IsNoScript(const CommandResult& r);

  EventLoop& loop_;
  const Config& config_;
  ServerAddress address_;
  bool sync_replicas_;
  std::function<int64_t()> replica_count_;  // sentinel mode; else INFO is asked
  std::vector<std::unique_ptr<Connection>> pool_;
  std::unique_ptr<Subscriber> subscriber_;
  std::unique_ptr<LockWaiters> waiters_;
  std::list<std::shared_ptr<Retry>> retries_;  // waiting for their retry interval
  bool closed_ = false;
};

}  // namespace redlab::client
