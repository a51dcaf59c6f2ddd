// Sentinel tests' fixture (the harness of conformance/sentinel_failover_test.cc and
// sentinel_partition_test.cc, as Redis's tests/sentinel/tests/includes/init-tests.tcl): a master
// with two replicas, sentinels monitoring it as "mymaster" with Sentinel's periods shortened by
// SENTINEL DEBUG and down-after-milliseconds 1 s, and a client on each sentinel subscribed to all
// its events.
#pragma once

#include <algorithm>
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "conformance/fields.h"
#include "conformance/harness/fixture.h"
#include "conformance/harness/topology.h"

namespace redlab::conformance {

// `args` on a fresh connection to `port`; an empty reply when the connection fails or is closed
// (a sentinel's transaction ends with CLIENT KILL TYPE normal, and may be sent again while the
// node still reports the old role).
inline Reply Ask(int port, const std::vector<std::string>& args) {
  try {
    Client c(port);
    return c.Call(args);
  } catch (const std::exception&) {
    return Reply{};
  }
}

struct SentinelEvent {
  std::string channel, message;
};

class SentinelFixture : public ::testing::Test {
 protected:
  // A master with two replicas (linked directly, so a sentinel's REPLICAOF reaches them);
  // replica 0 gets replica-priority `priority0`.
  void StartNodes(int priority0 = 100) {
    topology_ = StartTopology({.replicas = 2, .fault_proxy = false});
    Client r0 = topology_->ConnectReplica(0);
    ASSERT_EQ(r0({"CONFIG", "SET", "replica-priority", std::to_string(priority0)}), Status("OK"));
    ASSERT_TRUE(topology_->WaitForSync());
    master_ = std::to_string(topology_->master_port());
  }

  // `n` sentinels monitoring the master with quorum `quorum`, each with a client subscribed to
  // all its events.
  void StartSentinels(int n, int quorum) {
    for (int i = 0; i < n; ++i) {
      ServerOptions o;
      o.sentinel = true;
      o.config = {{"sentinel", "monitor mymaster 127.0.0.1 " + master_ + " " +
                                   std::to_string(quorum)},
                  {"sentinel", "down-after-milliseconds mymaster 1000"},
                  {"sentinel", "failover-timeout mymaster 3000"}};
      sentinels_.push_back(StartServer(o));
      Client c(sentinels_.back()->port());
      EXPECT_EQ(c({"SENTINEL", "DEBUG", "publish-period", "200", "ask-period", "100",
                   "info-period", "500", "ping-period", "250"}),
                Status("OK"));
      ids_.push_back(c({"SENTINEL", "MYID"}).str);
      subs_.emplace_back(sentinels_.back()->port());
      EXPECT_EQ(subs_.back()({"PSUBSCRIBE", "*"}),
                Array({Bulk("psubscribe"), Bulk("*"), Int(1)}));
      events_.emplace_back();
    }
  }
  Client Sentinel(size_t i) { return Client(sentinels_.at(i)->port()); }
  // Whether every sentinel knows the two replicas and the two other sentinels.
  bool EverySentinelKnowsTheOthers() {
    for (size_t i = 0; i < sentinels_.size(); ++i) {
      auto m = Fields(Sentinel(i)({"SENTINEL", "MASTER", "mymaster"}));
      if (m["num-slaves"] != "2" || m["num-other-sentinels"] != "2") return false;
    }
    return true;
  }

  // Reads the events of every sentinel until `done` holds; false at the deadline.
  bool WaitFor(const std::function<bool()>& done,
               std::chrono::milliseconds within = std::chrono::seconds(30)) {
    auto deadline = std::chrono::steady_clock::now() + within;
    while (!done()) {
      if (std::chrono::steady_clock::now() > deadline) return false;
      bool any = false;
      for (size_t i = 0; i < subs_.size(); ++i) {
        while (subs_[i].Readable(std::chrono::milliseconds(any ? 0 : 5))) {
          Reply m = subs_[i].Read();
          any = true;
          if (m.elements.size() == 4 && m.elements[0].str == "pmessage") {
            events_[i].push_back({m.elements[2].str, m.elements[3].str});
          }
        }
      }
    }
    return true;
  }
  // The index of the first event of sentinel `i` on `channel` (and with `message`, unless empty)
  // from `from` on; -1 when none.
  int Find(size_t i, const std::string& channel, const std::string& message = {},
           int from = 0) const {
    for (size_t k = static_cast<size_t>(from); k < events_[i].size(); ++k) {
      if (events_[i][k].channel == channel && (message.empty() || events_[i][k].message == message))
        return static_cast<int>(k);
    }
    return -1;
  }
  int Leader() const {
    for (size_t i = 0; i < events_.size(); ++i) {
      if (Find(i, "+elected-leader") >= 0) return static_cast<int>(i);
    }
    return -1;
  }
  std::string Slave(int port, const std::string& master_port) const {
    std::string p = std::to_string(port);
    return "slave 127.0.0.1:" + p + " 127.0.0.1 " + p + " @ mymaster 127.0.0.1 " + master_port;
  }
  // The channels of sentinel `i`'s events in order, among `wanted`.
  std::vector<std::string> Sequence(size_t i, const std::vector<std::string>& wanted) const {
    std::vector<std::string> out;
    for (const SentinelEvent& e : events_[i]) {
      if (std::find(wanted.begin(), wanted.end(), e.channel) != wanted.end()) {
        out.push_back(e.channel);
      }
    }
    return out;
  }

  std::unique_ptr<Topology> topology_;
  std::vector<std::unique_ptr<Server>> sentinels_;
  std::vector<Client> subs_;
  std::vector<std::vector<SentinelEvent>> events_;
  std::vector<std::string> ids_;
  std::string master_;
};

}  // namespace redlab::conformance
