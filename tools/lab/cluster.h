// The lab's targets: the nodes a scenario runs against, and the mechanics of their faults.
//   embedded — redlab nodes in the lab's process (server/topology.h); faults are FAULT's, a
//              crash is FAULT CRASH, a restart TOPOLOGY RESTART.
//   redis    — real redis-server processes on free ports; each replica reaches its master
//              through a fault proxy (tools/proxy), a crash is SIGKILL, a restart a new process
//              on the same port. A node's clock cannot be moved (SupportsClock() is false).
// With sentinels, both watch the master as "mymaster" with a majority quorum: embedded, redlab
// sentinels in the process (TopologyOptions::sentinels); redis, `redis-server sentinel.conf
// --sentinel` processes. Their periods are shortened with SENTINEL DEBUG on both.
// Promotion is REPLICAOF NO ONE on both. The Nemesis (nemesis.h) records what is done here.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace redlab::lab {

enum class Target { kEmbedded, kRedis };
const char* TargetName(Target t);

struct ClusterSpec {
  int masters = 1;    // independent masters ("m0".."m4"); with replicas, one master
  int replicas = 0;   // replicas of the master ("r0", "r1")
  int sentinels = 0;  // sentinels monitoring the master as kSentinelMaster (with one master)
};

inline constexpr char kSentinelMaster[] = "mymaster";
// The sentinels' down-after-milliseconds.
inline constexpr int64_t kSentinelDownAfterMs = 400;

class Cluster {
 public:
  // Starts the nodes and waits until every replica is in sync. Throws std::runtime_error.
  static std::unique_ptr<Cluster> Start(Target target, const ClusterSpec& spec);
  virtual ~Cluster() = default;

  Target target() const { return target_; }
  // Nodes: masters first ("m0", ...), then replicas ("r0", ...).
  size_t size() const { return names_.size(); }
  const std::string& Name(size_t node) const { return names_.at(node); }
  int Port(size_t node) const { return ports_.at(node); }
  std::string Url(size_t node) const { return "redis://127.0.0.1:" + std::to_string(Port(node)); }
  size_t Master(size_t i = 0) const { return i; }
  size_t Replica(size_t i) const { return static_cast<size_t>(spec_.masters) + i; }
  // Sentinels are not nodes: they hold no data and take no faults.
  size_t num_sentinels() const { return sentinel_ports_.size(); }
  int SentinelPort(size_t i) const { return sentinel_ports_.at(i); }
  // SENTINEL GET-MASTER-ADDR-BY-NAME mymaster on sentinel `i`: the master's port as it names
  // it. Throws std::runtime_error when it cannot be asked.
  int SentinelMasterPort(size_t i) const;

  // The replication link of replica `node` to its master.
  virtual void HoldLink(size_t node) = 0;     // the stream (both ways) stops; the link stays up
  virtual void ReleaseLink(size_t node) = 0;  // what was held is delivered, in order
  virtual void DelayLink(size_t node, int64_t ms) = 0;  // 0: no delay
  virtual void Crash(size_t node) = 0;                  // dies now, unreplicated writes lost
  virtual void Restart(size_t node) = 0;                // back on its port, empty
  virtual bool SupportsClock() const = 0;
  virtual void JumpClock(size_t node, int64_t ms) = 0;
  // FAULT PARTITION (embedded only: real processes cannot be partitioned from each other): the
  // nodes and sentinels listening on `ports` are cut off from the others; empty heals.
  virtual void Partition(const std::vector<int>& ports) = 0;
  // REPLICAOF NO ONE.
  void Promote(size_t node);
  // Waits until every replica that is up has acknowledged everything its master wrote.
  bool WaitForSync(std::chrono::milliseconds timeout);

 protected:
  Cluster(Target target, const ClusterSpec& spec);
  Target target_;
  ClusterSpec spec_;
  std::vector<std::string> names_;
  std::vector<int> ports_;
  std::vector<int> sentinel_ports_;

 private:
  // Shortens the sentinels' periods and waits until each knows every replica and every other
  // sentinel (the hello messages), so a failover can be agreed.
  bool WaitForSentinels(std::chrono::milliseconds timeout);
};

// One command to 127.0.0.1:`port` on a fresh connection: the reply as text (a status, a bulk
// string, an integer in decimal, "" for nil, an array's elements one a line). Throws
// std::runtime_error on an error reply or when the node cannot be reached within `timeout`.
std::string AdminCommand(int port, const std::vector<std::string>& args,
                         std::chrono::milliseconds timeout = std::chrono::seconds(2));

}  // namespace redlab::lab
