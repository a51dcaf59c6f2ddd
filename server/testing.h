// GoogleTest helpers for your own suites: every test gets a fresh in-process redlab node or
// topology (replicas, independent masters, sentinels), its port and a redis:// URL for the code
// under test, and fault helpers; as miniredis's RunT(t) does for Go. Header-only: link GTest.
//
//   class CartTest : public redlab::testing::Test {};          // one node per test
//   TEST_F(CartTest, Checkout) {
//     MyService service(url());                                // "redis://127.0.0.1:<port>"
//     redlab().PauseReplication();                             // faults: see Server
//   }
//   class FailoverTest : public redlab::testing::Test {
//    protected:
//     FailoverTest() : Test({.replicas = 1}) {}
//   };
//
// Without an Environment, each test starts its own nodes and stops them at its end. With one
// registered for the same Options (main(), or a global `AddGlobalTestEnvironment`), the tests
// share its nodes, put back to a fresh state before each test (Server::Reset).
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "server/topology.h"

namespace redlab::testing {

// What to start: designated-initializer friendly, `{.replicas = 2}`. Every port is a free one.
struct Options {
  int replicas = 0;         // replicas of the master
  int masters = 1;          // independent masters (RedLock); no replicas then
  int sentinels = 0;        // sentinels monitoring the master as "mymaster", quorum a majority
  std::string requirepass;  // the default user's password (replicas authenticate with it)
  // Further Redis settings every node gets, as redis-server's `--name value`.
  std::vector<std::pair<std::string, std::string>> settings;
  std::string loglevel = "warning";
  std::string logfile = "/dev/null";  // where the nodes log (Redis's format); "" for stdout
  int64_t down_after_ms = 30000;      // the sentinels' down-after-milliseconds
  int64_t failover_timeout_ms = 180000;
  // How long a start or a reset may wait for replicas to be in sync.
  std::chrono::milliseconds sync_timeout{10000};

  bool operator==(const Options&) const = default;

  server::TopologyOptions ToTopologyOptions() const {
    server::TopologyOptions t;
    t.base.port = 0;
    t.base.requirepass = requirepass;
    t.base.loglevel = loglevel;
    if (!logfile.empty()) t.base.settings.emplace_back("logfile", logfile);
    t.base.settings.insert(t.base.settings.end(), settings.begin(), settings.end());
    t.port = 0;
    t.replicas = replicas;
    t.masters = masters;
    t.sentinels = sentinels;
    t.sentinel_port = 0;
    t.down_after_ms = down_after_ms;
    t.failover_timeout_ms = failover_timeout_ms;
    return t;
  }
};

// A running topology, its addresses, its faults, and Reset.
class Server {
 public:
  explicit Server(Options options = {})
      : options_(std::move(options)),
        topology_(server::Topology::Start(options_.ToTopologyOptions())) {
    WaitForReplicas();
  }

  const Options& options() const { return options_; }
  server::Topology& topology() { return *topology_; }
  server::Node& master(size_t i = 0) { return topology_->master(i); }
  server::Node& replica(size_t i) { return topology_->replica(i); }
  server::Node& sentinel(size_t i) { return topology_->sentinel(i); }

  // The (first) master's port and URL, to hand to the code under test.
  int port() { return master().port(); }
  std::string url() { return UrlOf(master()); }
  // "redis://[:password@]127.0.0.1:<port>" of any node.
  std::string UrlOf(server::Node& node) const {
    std::string auth = options_.requirepass.empty() ? "" : ":" + options_.requirepass + "@";
    return "redis://" + auth + "127.0.0.1:" + std::to_string(node.port());
  }
  // Every master's URL (RedLock's servers).
  std::vector<std::string> urls() {
    std::vector<std::string> out;
    for (size_t i = 0; i < topology_->num_masters(); ++i) out.push_back(UrlOf(master(i)));
    return out;
  }

  // ---- Faults (FAULT's arguments; see the README's table). Each acts on `node`, the master
  // unless said otherwise, and is cleared by Reset.
  void Fault(std::vector<std::string> args) { master().Fault(std::move(args)); }
  // The replication stream stalls (both directions) until ResumeReplication: a write made
  // meanwhile is on the master only, and WAIT counts no replica.
  void PauseReplication() { master().Fault({"REPL", "PAUSE"}); }
  void ResumeReplication() { master().Fault({"REPL", "RESUME"}); }
  void DelayReplication(std::chrono::milliseconds delay) {
    master().Fault({"REPL", "DELAY", std::to_string(delay.count())});
  }
  void CutReplication() { master().Fault({"REPL", "CUT"}); }
  void HealReplication() { master().Fault({"REPL", "HEAL"}); }
  // The node's clock leaps (TTLs, TIME, WAIT timeouts follow it).
  void JumpClock(std::chrono::milliseconds by) { JumpClock(master(), by); }
  void JumpClock(server::Node& node, std::chrono::milliseconds by) {
    node.Fault({"CLOCK", "JUMP", std::to_string(by.count())});
  }
  // The node's clock stops, then moves only by AdvanceClock: deterministic expiry.
  void FreezeClock(server::Node& node) { node.Fault({"CLOCK", "MANUAL"}); }
  void FreezeClock() { FreezeClock(master()); }
  void AdvanceClock(server::Node& node, std::chrono::milliseconds by) {
    node.Fault({"CLOCK", "ADVANCE", std::to_string(by.count())});
  }
  void AdvanceClock(std::chrono::milliseconds by) { AdvanceClock(master(), by); }
  // Replies leave late, or are lost (the command ran).
  void DelayReplies(std::chrono::milliseconds delay) {
    master().Fault({"REPLY", "DELAY", std::to_string(delay.count())});
  }
  void DropReplies(double probability, uint64_t seed = 1) {
    master().Fault({"REPLY", "DROP", std::to_string(probability), "SEED", std::to_string(seed)});
  }
  // The node dies (its port closes, what was not replicated is lost) and comes back.
  void Crash(server::Node& node) { node.Crash(); }
  void Crash() { Crash(master()); }
  void Restart(server::Node& node, bool keep_data = false) { node.Restart(keep_data); }
  // REPLICAOF NO ONE on a replica: it becomes a master (a failover's promotion).
  void Promote(server::Node& replica) { Expect(replica, {"REPLICAOF", "NO", "ONE"}, "+OK\r\n"); }

  // Back to a fresh state: crashed nodes restarted empty, faults cleared and clocks real on
  // every node, clients unpaused, each master a master and each replica replicating the first
  // master again, data, functions and scripts flushed, and the replicas in sync. Configuration
  // changed by CONFIG SET, ACL users and connections of the test stay: a test that changes
  // those should start its own nodes (no Environment).
  void Reset() {
    std::vector<server::Node*> data = topology_->nodes();
    for (server::Node* n : data) {
      if (n->crashed()) n->Restart(/*keep_data=*/false);
    }
    for (size_t i = 0; i < topology_->num_sentinels(); ++i) {
      if (sentinel(i).crashed()) sentinel(i).Restart(/*keep_data=*/false);
      sentinel(i).Fault({"RESET"});
    }
    for (server::Node* n : data) {
      n->Fault({"RESET"});  // every fault, the clock back to real time
      Expect(*n, {"CLIENT", "UNPAUSE"}, "+OK\r\n");
    }
    for (size_t i = 0; i < topology_->num_masters(); ++i) {
      Expect(master(i), {"REPLICAOF", "NO", "ONE"}, "+OK\r\n");
    }
    for (size_t i = 0; i < topology_->num_replicas(); ++i) {
      std::string reply =
          replica(i).Command({"REPLICAOF", "127.0.0.1", std::to_string(master().port())});
      if (reply.rfind("+OK", 0) != 0) Fail(replica(i), "REPLICAOF", reply);
    }
    for (size_t i = 0; i < topology_->num_masters(); ++i) {
      Expect(master(i), {"FLUSHALL"}, "+OK\r\n");
      Expect(master(i), {"FUNCTION", "FLUSH"}, "+OK\r\n");
    }
    for (server::Node* n : data) Expect(*n, {"SCRIPT", "FLUSH"}, "+OK\r\n");
    WaitForReplicas();
  }

 private:
  void Expect(server::Node& node, std::vector<std::string> args, const std::string& expected) {
    std::string what = args[0];
    std::string reply = node.Command(std::move(args));
    if (reply != expected) Fail(node, what, reply);
  }
  [[noreturn]] static void Fail(server::Node& node, const std::string& what,
                                const std::string& reply) {
    throw std::runtime_error("redlab::testing: " + what + " on port " +
                             std::to_string(node.port()) + " answered " + reply);
  }
  static long long Offset(server::Node& node) {
    std::string info = node.Command({"INFO", "replication"});
    size_t at = info.find("master_repl_offset:");
    return at == std::string::npos ? -1 : std::stoll(info.substr(at + 19));
  }
  // Every replica's link up and its offset at the master's: what the master wrote (the reset's
  // flush included) is on every replica.
  void WaitForReplicas() {
    if (topology_->num_replicas() == 0) return;
    auto deadline = std::chrono::steady_clock::now() + options_.sync_timeout;
    if (!topology_->WaitForSync(options_.sync_timeout)) {
      throw std::runtime_error("redlab::testing: the replicas did not sync in time");
    }
    for (;;) {
      long long target = Offset(master());
      bool synced = true;
      for (size_t i = 0; i < topology_->num_replicas(); ++i) {
        synced = synced && Offset(replica(i)) == target;
      }
      if (synced) return;
      if (std::chrono::steady_clock::now() > deadline) {
        throw std::runtime_error("redlab::testing: the replicas did not reach the master's offset");
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(1));  // a condition with a deadline
    }
  }

  Options options_;
  std::unique_ptr<server::Topology> topology_;
};

// Shares one topology among the tests whose fixture asks for the same Options:
//   ::testing::AddGlobalTestEnvironment(new redlab::testing::Environment({.replicas = 1}));
class Environment : public ::testing::Environment {
 public:
  explicit Environment(Options options = {}) : options_(std::move(options)) {}
  void SetUp() override {
    server_ = std::make_unique<Server>(options_);
    Active().push_back(this);
  }
  void TearDown() override {
    std::erase(Active(), this);
    server_.reset();
  }
  const Options& options() const { return options_; }
  Server& server() { return *server_; }

  // The environment set up for `options`, or null.
  static Environment* For(const Options& options) {
    for (Environment* e : Active()) {
      if (e->options_ == options) return e;
    }
    return nullptr;
  }

 private:
  static std::vector<Environment*>& Active() {
    static std::vector<Environment*> active;
    return active;
  }
  Options options_;
  std::unique_ptr<Server> server_;
};

// The fixture: a fresh Server for each test (an Environment's, reset, or its own).
class Test : public ::testing::Test {
 protected:
  Test() = default;
  explicit Test(Options options) : options_(std::move(options)) {}

  void SetUp() override {
    if (Environment* shared = Environment::For(options_)) {
      server_ = &shared->server();
      server_->Reset();
    } else {
      owned_ = std::make_unique<Server>(options_);
      server_ = owned_.get();
    }
  }
  void TearDown() override {
    owned_.reset();
    server_ = nullptr;
  }

  Server& redlab() { return *server_; }
  int port() { return server_->port(); }
  std::string url() { return server_->url(); }
  server::Node& master(size_t i = 0) { return server_->master(i); }
  server::Node& replica(size_t i) { return server_->replica(i); }
  server::Node& sentinel(size_t i) { return server_->sentinel(i); }
  // FAULT's arguments, on the master: Fault({"REPL", "DELAY", "100"}).
  void Fault(std::vector<std::string> args) { server_->Fault(std::move(args)); }

 private:
  Options options_;
  Server* server_ = nullptr;
  std::unique_ptr<Server> owned_;
};

}  // namespace redlab::testing
