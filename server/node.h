// The in-process API of redlab-server: a Node is one Redis-compatible server (an event-loop
// thread with its own keyspace, command table, clock and clients) listening on its own port.
// A process may run many nodes.
//
//   auto node = redlab::server::Node::Start({.port = 0});   // returns once it accepts clients
//   connect to 127.0.0.1:node->port() ...
//   node->Stop();
#pragma once

#include <functional>
#include <future>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace redlab::server {

namespace engine {
class Engine;
}
class NodeRegistry;

struct NodeOptions {
  // Loopback for nodes started in a process (tests, the lab); redlab-server's own default is
  // redis-server's "* -::*".
  std::string bind = "127.0.0.1";
  int port = 6379;          // 0 binds an ephemeral port; see Node::port()
  std::string requirepass;  // empty: no password
  std::string loglevel = "notice";
  // Further settings as Redis config names and values ("maxclients", "10"), applied at startup
  // like redis-server's `--name value` arguments; bind/port/requirepass/loglevel above win.
  // ("replicaof", "host port") is taken as `replicaof` below.
  std::vector<std::pair<std::string, std::string>> settings;
  // "host port": start as a replica of that master (redlab-server --replicaof HOST PORT).
  std::string replicaof;
  // The process's node registry (TOPOLOGY NODES, TOPOLOGY RESTART); a node started without one
  // gets its own, where it is alone.
  std::shared_ptr<NodeRegistry> registry;
  // A sentinel (redis-server --sentinel): Sentinel's command table, and the `sentinel ...`
  // directives of `settings` (("sentinel", "monitor mymaster 127.0.0.1 6379 2")) configure
  // what it monitors.
  bool sentinel = false;
  // Snapshots of the data kept for TOPOLOGY RESTART LOSE (fault/history.h): a serialisation of
  // the dataset every cron tick while it changes. Benchmarks turn it off.
  bool keep_history = true;
  // The configuration file the node started from, as an absolute path ("" for none): CONFIG
  // REWRITE rewrites it, and a sentinel (redlab-server sentinel.conf --sentinel) keeps its state
  // there as Redis's sentinelFlushConfig does.
  std::string config_file;
};

class Node {
 public:
  // Starts the node and returns once it is listening. Throws std::runtime_error when it cannot
  // bind (the message says why, as Redis's startup error would).
  static std::unique_ptr<Node> Start(const NodeOptions& options);
  ~Node();  // stops the node if it is running
  Node(const Node&) = delete;
  Node& operator=(const Node&) = delete;

  int port() const;
  // Stops the node: closes its port and connections and joins its thread. Idempotent; callable
  // from any thread but the node's own.
  void Stop();
  // Asks the node to stop without waiting for it (safe from any thread, signal threads too).
  void RequestStop();
  // Blocks until the node has stopped (by Stop(), or SHUTDOWN from a client).
  void WaitUntilStopped();
  bool stopped() const;

  // Faults, in process, exactly as the FAULT command sets them: `args` are FAULT's arguments,
  // e.g. {"REPL", "DELAY", "100"}, {"CLOCK", "JUMP", "-5000"}, {"CRASH"}. Throws
  // std::runtime_error with Redis-style error text when they are wrong.
  void Fault(std::vector<std::string> args);
  // FAULT LIST.
  std::vector<std::string> ListFaults();
  // FAULT CRASH: the node dies now (its port and connections close; what was not replicated is
  // lost). The Node object stays, to be restarted.
  void Crash();
  // TOPOLOGY RESTART: a crashed node comes back on its port, empty (a restart without
  // persistence), with its data (`keep_data`), or with `lose_ms` >= 0 (LOSE) with its data as it
  // was that long before the crash. Throws std::runtime_error when it cannot.
  void Restart(bool keep_data, int64_t lose_ms = -1);
  bool crashed() const;

  // Runs one command on the node's loop as a client of its own would (the default user,
  // authenticated, RESP2, db 0; replicated and counted as any client's command) and returns the
  // reply's bytes, e.g.
  // "+OK\r\n". For setting up and resetting state in tests (FLUSHALL, REPLICAOF, CONFIG SET);
  // a command that would block (BLPOP, WAIT with replicas behind) is answered
  // "-ERR the command blocked: Node::Command runs only commands that answer at once\r\n".
  // Throws std::runtime_error when the node has stopped or crashed.
  std::string Command(std::vector<std::string> args);

  // Runs `fn(engine)` on the node's loop thread and returns its result: the way tests and
  // tools reach a node's internals safely. Must not be called from the node's own thread.
  template <typename Fn>
  auto Call(Fn&& fn) -> std::invoke_result_t<Fn, engine::Engine&> {
    using R = std::invoke_result_t<Fn, engine::Engine&>;
    auto task = std::make_shared<std::packaged_task<R(engine::Engine&)>>(std::forward<Fn>(fn));
    std::future<R> result = task->get_future();
    Post([task](engine::Engine& e) { (*task)(e); });
    return result.get();
  }

  class Impl;

 private:
  explicit Node(std::unique_ptr<Impl> impl);
  void Post(std::function<void(engine::Engine&)> task);

  std::unique_ptr<Impl> impl_;
};

}  // namespace redlab::server
