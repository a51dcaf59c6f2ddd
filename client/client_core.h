// The shared state behind a Client and the locks it hands out: configuration, identity, the
// loop thread and, per master, its NodeLink and watchdog. Lock handles keep it alive; Client's
// destructor shuts it down.
#pragma once

#include <atomic>
#include <future>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "client/config.h"
#include "client/errors.h"
#include "client/event_loop.h"
#include "client/node_link.h"
#include "client/script.h"

namespace redlab::client {

class Acquisition;
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

  struct Node {
    std::unique_ptr<NodeLink> link;
    std::unique_ptr<Watchdog> watchdog;
  };

  const Config config;
  const std::string id;  // the client's UUID: the first half of every owner id
  const LockScripts scripts;
  EventLoop loop;
  std::vector<Node> nodes;  // one per master; built and used on the loop thread

  // Acquisitions under way, kept alive while they wait (loop thread only).
  std::map<Acquisition*, std::shared_ptr<Acquisition>> acquisitions;

 private:
  std::atomic<bool> shut_down_{false};
};

}  // namespace redlab::client
