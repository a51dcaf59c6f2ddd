// The shared state behind a Client and the locks it hands out: configuration, identity, the
// loop thread and, per master, its NodeLink and watchdog. Lock handles keep it alive; Client's
// destructor shuts it down.
#pragma once

#include <atomic>
#include <functional>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "client/config.h"
#include "client/errors.h"
#include "client/event_loop.h"
#include "client/ids.h"
#include "client/node_link.h"
#include "client/script.h"

namespace redlab {
struct LockLost;
struct LockRenewed;
}

namespace redlab::client {

class Acquisition;
class RedLocks;
class SentinelWatch;
class Watchdog;

struct ClientCore : std::enable_shared_from_this<ClientCore> {
  explicit ClientCore(Config config);
  ~ClientCore();

  /// Starts the loop, the links to every master, and checks each answers (PING).
  void Start();
  /// Fails everything pending with ClientClosed, closes every connection and joins the loop
  /// thread. Held locks are not released: without the watchdog they expire. Idempotent.
  void Shutdown();

  /// Runs `fn(promise)` on the loop thread; the future fails with ClientClosed when the
  /// client is shut down. `fn` must fulfil the promise exactly once.
  template <typename T, typename Fn>
  std::future<T> Submit(Fn fn) {
    auto promise = std::make_shared<std::promise<T>>();
    std::future<T> future = promise->get_future();
    if (!loop.Post([fn = std::move(fn), promise]() mutable { fn(promise); })) {
      promise->set_exception(std::make_exception_ptr(ClientClosed("the client was shut down")));
    }
    return future;
  }

  /// Waits for a future on the caller's thread. A synchronous call from the loop thread (an
  /// OnLost callback) would wait for itself: it throws instead.
  template <typename T>
  T Await(std::future<T> future) const {
    CheckNotLoopThread();
    return future.get();
  }
  void CheckNotLoopThread() const;

  using LostCallback = std::function<void(const LockLost&)>;
  /// Sets (or, empty, clears) the OnLost callback of lock `name` on master `node`: one per
  /// lock and client, whichever handle set it, since the watchdog keeps a lock per name and
  /// owner, not per handle. Any thread. Dropped once the client is shut down, so a callback
  /// holding a lock handle (which holds this core) cannot keep the two alive.
  void SetOnLost(size_t node, const std::string& name, LostCallback callback);
  /// Calls the OnLost callback of `name` for owner `t`, if there is one (loop thread).
  void NotifyLost(size_t node, const std::string& name, ThreadId t);
  using RenewedCallback = std::function<void(const LockRenewed&)>;
  /// As SetOnLost, for the OnRenewed callback (same bookkeeping, dropped at shutdown too).
  void SetOnRenewed(size_t node, const std::string& name, RenewedCallback callback);
  /// Calls the OnRenewed callback of `name` with `event` (its owner filled in), if there is
  /// one (loop thread).
  void NotifyRenewed(size_t node, LockRenewed event);

  struct Node {
    std::unique_ptr<NodeLink> link;
    std::unique_ptr<Watchdog> watchdog;
  };

  const Config config;
  const std::string id;  // the client's UUID: the first half of every owner id
  const LockScripts scripts;
  EventLoop loop;
  std::vector<Node> nodes;              // one per master; built and used on the loop thread
  std::unique_ptr<RedLocks> red_locks;  // RedLock holds over every master (loop thread)
  std::unique_ptr<SentinelWatch> sentinels;  // sentinel mode: finds and follows the master

  // Acquisitions under way, kept alive while they wait (loop thread only).
  std::map<Acquisition*, std::shared_ptr<Acquisition>> acquisitions;

 private:
  // Builds master `address`'s link and watchdog (loop thread).
  void AddNode(const ServerAddress& address);

  std::atomic<bool> shut_down_{false};

  std::mutex on_lost_mu_;
  std::map<std::pair<size_t, std::string>, std::shared_ptr<const LostCallback>>
      on_lost_;                  // guarded by on_lost_mu_
  std::map<std::pair<size_t, std::string>, std::shared_ptr<const RenewedCallback>>
      on_renewed_;               // guarded by on_lost_mu_
  bool on_lost_closed_ = false;  // guarded by on_lost_mu_: shut down, callbacks dropped
};

}  // namespace redlab::client
