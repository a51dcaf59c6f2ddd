// redlab::Client: the entry point of the lock library. One Client owns one loop thread with
// every connection to its servers; locks obtained from it share them.
//
//   redlab::Config config = redlab::Config::SingleServer("redis://127.0.0.1:6379");
//   config.lock_watchdog_timeout = std::chrono::seconds(10);
//   redlab::Client client(config);                   // connects; throws if it cannot
//   redlab::Lock lock = client.GetLock("invoice:42");
#pragma once

#include <future>
#include <memory>
#include <string>
#include <vector>

#include "client/config.h"
#include "client/countdown_latch.h"
#include "client/errors.h"
#include "client/fair_lock.h"
#include "client/fenced_lock.h"
#include "client/ids.h"
#include "client/lock.h"
#include "client/permit_semaphore.h"
#include "client/read_write_lock.h"
#include "client/red_lock.h"
#include "client/reply.h"
#include "client/semaphore.h"
#include "client/spin_lock.h"

namespace redlab {

namespace client {
struct ClientCore;
}

class Client {
 public:
  /// Connects to every master of `config` and checks each answers (independent masters: a
  /// majority, so a RedLock client starts with a minority down). Throws ConfigError, IoError,
  /// TimeoutError, or ReplyError (e.g. a wrong password).
  explicit Client(Config config);
  /// Shutdown().
  ~Client();
  Client(const Client&) = delete;
  Client& operator=(const Client&) = delete;

  /// The reentrant lock `name` (Redisson's getLock) on master `master`: the master, or in
  /// kIndependentMasters mode the first one unless given (one lock per master, RedLock-style).
  /// Every primitive but RedLock takes `master`; an index past the last throws ConfigError.
  ReentrantLock GetLock(std::string name, size_t master = 0);
  /// The fenced lock `name` (Redisson's getFencedLock): the reentrant lock `name` whose
  /// acquisitions draw tokens from redisson_lock_token:{name}.
  FencedLock GetFencedLock(std::string name, size_t master = 0);
  /// The RedLock `name` over every master of the client (Config::IndependentMasters: N
  /// masters, a majority needed; with one master, that one). Each master holds Redisson's
  /// reentrant-lock hash `name`.
  RedLock GetRedLock(std::string name);
  /// The fair lock `name` (Redisson's getFairLock): waiters served in the order they asked.
  FairLock GetFairLock(std::string name, size_t master = 0);
  /// The read/write lock `name` (Redisson's getReadWriteLock) on the (first) master.
  ReadWriteLock GetReadWriteLock(std::string name, size_t master = 0);
  /// The spin lock `name` (Redisson's getSpinLock): the reentrant lock's keys, waiters backing
  /// off instead of subscribing.
  SpinLock GetSpinLock(std::string name, size_t master = 0);
  /// The semaphore `name` (Redisson's getSemaphore) on the (first) master.
  Semaphore GetSemaphore(std::string name, size_t master = 0);
  /// The permit-expirable semaphore `name` (Redisson's getPermitExpirableSemaphore).
  PermitExpirableSemaphore GetPermitExpirableSemaphore(std::string name, size_t master = 0);
  /// The count-down latch `name` (Redisson's getCountDownLatch) on the (first) master.
  CountDownLatch GetCountDownLatch(std::string name, size_t master = 0);

  /// Runs one command on the (first) master and returns its reply; an error reply throws
  /// ReplyError. For what the lock API does not cover (and tests).
  Reply Execute(std::vector<std::string> args);
  std::future<Reply> ExecuteAsync(std::vector<std::string> args);

  /// This client's id (a UUID): the first half of its owner ids, "<id>:<thread id>".
  const std::string& id() const;
  const Config& config() const;

  /// Waiters of this client parked on lock `name` right now, waiting for an unlock message
  /// (monitoring; benchmarks use it to know a waiter is asleep).
  size_t ParkedWaiters(const std::string& name, size_t master = 0);
  /// Locks this client's watchdog keeps alive right now.
  size_t WatchedLocks(size_t master = 0);

  /// Stops the client: pending calls fail with ClientClosed, the watchdog stops (so locks it
  /// kept expire after lock_watchdog_timeout; they are not released), connections close.
  /// Idempotent; must not be called from an OnLost callback.
  void Shutdown();

 private:
  std::shared_ptr<client::ClientCore> core_;
};

}  // namespace redlab
