// Replicated topologies for the conformance suite: a master with replicas, of the current target,
// and the failures the failover tests need. Two backends produce them:
//   redlab (embedded or spawned redlab-server): the FAULT command (REPL PAUSE/CUT/DELAY, CRASH,
//     CLOCK) and TOPOLOGY RESTART, sent over TCP like any client would;
//   real redis-server processes: a fault proxy on each replica's link to the master (hold,
//     release, delay, cut), SIGKILL for a crash, a new process for a restart.
// Promotion is REPLICAOF NO ONE on both. A fault one backend cannot produce (a clock jump on real
// Redis) is reported by Supports*() so the test can skip with the reason.
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "conformance/harness/client.h"
#include "conformance/harness/target.h"

namespace redlab::conformance {

struct TopologyOptions {
  int replicas = 1;
  // Real Redis only: put a fault proxy on each replica's link (needed for the replication
  // faults); false links the replicas to the master directly (benchmarks).
  bool fault_proxy = true;
  // Settings for every node, as Redis config names and values.
  std::vector<std::pair<std::string, std::string>> config;
};

class Topology {
 public:
  virtual ~Topology() = default;

  // The master: the one started, or the replica promoted by Promote().
  int master_port() const { return master_port_; }
  int replica_port(size_t i) const { return replica_ports_.at(i); }
  size_t num_replicas() const { return replica_ports_.size(); }
  Client ConnectMaster() { return Client(master_port_); }
  Client ConnectReplica(size_t i) { return Client(replica_port(i)); }

  // Waits until every live replica's link to the master is up and it has acknowledged the
  // whole stream (WAIT with all replicas).
  bool WaitForSync(std::chrono::milliseconds timeout = std::chrono::seconds(10));

  // Replication-link faults, on every replica's link to the master.
  virtual void HoldReplication() = 0;             // the stream stops (the link stays up)
  virtual void ReleaseReplication() = 0;          // what was held is delivered, in order
  virtual void DelayReplication(int64_t ms) = 0;  // 0 removes the delay
  virtual void CutReplication() = 0;              // the link breaks and cannot be made again...
  virtual void HealReplication() = 0;             // ...until healed
  // The master dies now, losing what it had not replicated.
  virtual void CrashMaster() = 0;
  // Replica i becomes the master (REPLICAOF NO ONE); master_port() follows it.
  void Promote(size_t i);
  // The crashed master comes back on its port, empty, as a master (a restart without
  // persistence); returns its port.
  virtual int RestartCrashedMaster() = 0;

  // Node clock faults (redlab only).
  virtual bool SupportsClockFaults() const = 0;
  virtual void JumpClock(int port, int64_t ms) = 0;

 protected:
  int master_port_ = 0;
  int crashed_port_ = 0;
  std::vector<int> replica_ports_;
};

// A master with `options.replicas` replicas of the current target (REDLAB_TARGET).
std::unique_ptr<Topology> StartTopology(const TopologyOptions& options = {});
// The same for a given target (benchmarks run both side by side).
std::unique_ptr<Topology> StartTopologyOf(Target target, const TopologyOptions& options = {});

// A suite's base: one topology for the whole suite (the default has one replica; a suite wanting
// another calls StartSuiteTopology from its own SetUpTestSuite), its master emptied and every
// replica in sync before each test.
class ReplicatedTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { StartSuiteTopology(); }
  static void StartSuiteTopology(const TopologyOptions& options = {});
  static void TearDownTestSuite();
  void SetUp() override;

  static Topology* topology_;
};

}  // namespace redlab::conformance
