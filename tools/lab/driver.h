// The workload's one way to reach a lock: a LockDriver. Each lock library the lab can drive is
// one adapter — the built-in reentrant lock (below), the fenced lock and RedLock once the client
// has them, an external process speaking JSON lines. A driver is one client (one owner); the lab
// records every call it makes in the history (see Actor in workload.h).
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "client/config.h"
#include "tools/lab/history.h"

namespace redlab::lab {

using Millis = std::chrono::milliseconds;

struct DriverResult {
  Outcome outcome = Outcome::kUnknown;  // ok, fail (certainly not done), unknown (may be done)
  std::optional<int64_t> token;         // a fencing token, from locks that give one
  std::string error;
};

// One renewal of a lock the driver keeps (a watchdog's), as the driver reports it.
struct DriverRenewal {
  Outcome outcome = Outcome::kUnknown;  // ok: renewed; fail: the lock was gone; unknown: no answer
  int64_t lease_ms = 0;                 // the TTL the renewal gives the lock
  std::chrono::steady_clock::time_point sent;  // when the renewal was sent
  std::string error;
};

class LockDriver {
 public:
  virtual ~LockDriver() = default;
  // "reentrant", "fenced", "redlock", "external"
  virtual std::string kind() const = 0;
  // The owner id the driver takes `lock` as ("<uuid>:<thread>").
  virtual std::string OwnerId(const std::string& lock) = 0;
  // Waits up to `wait` for the lock; `lease` 0 means the driver keeps it (a watchdog).
  virtual DriverResult Acquire(const std::string& lock, Millis wait, Millis lease) = 0;
  virtual DriverResult Release(const std::string& lock) = 0;
  // Called (on any thread) when the driver learns it lost `lock` it was keeping. Drivers
  // without such a notice ignore it.
  virtual void OnLost(const std::string& lock, std::function<void()> callback) {
    (void)lock;
    (void)callback;
  }
  // Called (on any thread) with each renewal of `lock` the driver makes on its own (a
  // watchdog's). Drivers without such a notice ignore it.
  virtual void OnRenewed(const std::string& lock, std::function<void(const DriverRenewal&)> callback) {
    (void)lock;
    (void)callback;
  }
  // A stop-the-world pause of the client (true) and its end (false). A driver process is
  // stopped with SIGSTOP and continued with SIGCONT; the built-in client lives in the lab's
  // process, where the workload's thread pausing is the pause.
  virtual void Pause(bool stop) { (void)stop; }
};

// Redisson's reentrant lock from the built-in client (client/lock.h), one owner per driver.
// Errors map to outcomes as their meaning says: false / NoSyncedReplicas / IllegalMonitorState
// are certain failures, and so is an IoError that never connected; other IoErrors, TimeoutError
// and ClientClosed are unknown (the command may have run).
struct ReentrantOptions {
  // When > 0: after each acquisition, WAIT for this many replicas on the lock write's connection
  // (the lab's configs have one command connection per master); fewer acknowledging within
  // wait_replicas_timeout undoes the acquisition and fails it. The client itself trusts a lock
  // one replica acknowledged, as Redisson does.
  int wait_replicas = 0;
  Millis wait_replicas_timeout{200};
};
std::unique_ptr<LockDriver> MakeReentrantDriver(const Config& config,
                                                const ReentrantOptions& options = {});

// Redisson's fenced lock (client/fenced_lock.h): the reentrant lock, each acquisition returning
// a fencing token. Outcomes as the reentrant driver's.
std::unique_ptr<LockDriver> MakeFencedDriver(const Config& config);

// The built-in RedLock (client/red_lock.h) over the independent masters of `config`
// (Config::IndependentMasters). Outcomes as the reentrant driver's.
std::unique_ptr<LockDriver> MakeRedLockDriver(const Config& config);

// An external driver: `command` run by /bin/sh, speaking JSON lines on its stdin and stdout (the
// protocol is in the README, "Other lock libraries"); it is told the servers' URLs first. Its
// tokens, if it gives any, are recorded as fencing tokens. A request it does not answer within
// wait + 5 s is unknown. Throws std::runtime_error when it cannot start or refuses the servers.
std::unique_ptr<LockDriver> MakeExternalDriver(const std::string& command,
                                               const std::vector<std::string>& servers);

// The client settings the lab's scenarios use: short timeouts and no retries, so a dead node
// answers in milliseconds, not Redisson's seconds.
Config LabConfig(Config config);

}  // namespace redlab::lab
