// Topologies of nodes in one process, for tests and for redlab-server: a master and N replicas
// (failover scenarios), or N independent masters (RedLock), plus the process's node registry
// that TOPOLOGY NODES lists and TOPOLOGY RESTART / FAULT CRASH act through.
//
//   auto t = redlab::server::Topology::Start({.replicas = 2});
//   t->WaitForSync(std::chrono::seconds(5));
//   t->master().Fault({"REPL", "PAUSE"});   // hold the stream
//   t->master().Crash();                    // the lock written meanwhile is lost
//   ... REPLICAOF NO ONE on t->replica(0).port() ...
#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "server/node.h"

namespace redlab::server {

// The nodes of one process, with a snapshot of each one's state kept by the node itself (so
// listing them never waits on another node's thread).
class NodeRegistry {
 public:
  struct Entry {
    int port = 0;
    std::string role;    // "master" or "replica"
    std::string state;   // "up" or "crashed"
    std::string master;  // "host:port" of a replica's master
    bool link_up = false;
  };

  void Add(Node::Impl* node, const Entry& entry);
  void Update(Node::Impl* node, const Entry& entry);
  void Remove(Node::Impl* node);
  std::vector<Entry> Snapshot() const;
  // Restarts the crashed node that listened on `port`, from another node's thread or any other
  // thread: returns an error text, or empty on success.
  std::string Restart(int port, bool keep_data, int64_t lose_ms = -1);
  // Called (on the thread of the node that crashed last) when every node of the process has
  // crashed: no node is left to restart the others. redlab-server exits then. When they all
  // have crashed already, `fn` runs at once on the caller's thread.
  void SetOnAllCrashed(std::function<void()> fn);
  // Waits until `done` holds for the entries (checked at each change) or `deadline` passes;
  // returns what `done` last said.
  bool WaitUntil(const std::function<bool(const std::vector<Entry>&)>& done,
                 std::chrono::steady_clock::time_point deadline);
  // Wakes the waiters to look again (a node has stopped).
  void Notify();

 private:
  mutable std::mutex mu_;
  std::condition_variable changed_;
  bool AllCrashedLocked() const;

  std::vector<std::pair<Node::Impl*, Entry>> nodes_;  // in start order
  std::function<void()> on_all_crashed_;
};

struct TopologyOptions {
  // Settings every node gets (bind, requirepass, loglevel, settings); port is ignored.
  NodeOptions base;
  // The first node's port; the others take the following ones. 0: every node picks a free port.
  int port = 0;
  int replicas = 0;  // replicas of the master (with masters == 1)
  int masters = 1;   // independent masters, for RedLock (each without replicas when > 1)
  // Sentinels monitoring the (first) master as "mymaster" with a quorum of a majority of them,
  // on sentinel_port upward (0: free ports each).
  int sentinels = 0;
  int sentinel_port = 26379;
  int64_t down_after_ms = 30000;
  int64_t failover_timeout_ms = 180000;
};

class Topology {
 public:
  // Starts the nodes and returns once all listen (replicas may still be syncing: see
  // WaitForSync). Throws std::runtime_error when a port cannot be bound.
  static std::unique_ptr<Topology> Start(const TopologyOptions& options);
  ~Topology();

  Node& master(size_t i = 0) { return *masters_.at(i); }
  Node& replica(size_t i) { return *replicas_.at(i); }
  size_t num_masters() const { return masters_.size(); }
  size_t num_replicas() const { return replicas_.size(); }
  Node& sentinel(size_t i) { return *sentinels_.at(i); }
  size_t num_sentinels() const { return sentinels_.size(); }
  // Every node: masters first, then replicas.
  std::vector<Node*> nodes();
  Node* FindByPort(int port);
  const std::shared_ptr<NodeRegistry>& registry() const { return registry_; }

  // Waits until every replica's link to its master is up and in sync.
  bool WaitForSync(std::chrono::milliseconds timeout);
  // Blocks until every node has stopped (SHUTDOWN or Stop()).
  void WaitUntilStopped();
  void Stop();

 private:
  Topology() = default;
  std::shared_ptr<NodeRegistry> registry_;
  std::vector<std::unique_ptr<Node>> masters_;
  std::vector<std::unique_ptr<Node>> replicas_;
  std::vector<std::unique_ptr<Node>> sentinels_;  // not among nodes(): they hold no data
};

}  // namespace redlab::server
