// The nemesis: every fault a scenario injects goes through it, so each is applied to the target
// and recorded in the history on the lab's clock (a lasting fault as a band from Begin to End).
// Its random choices come from the run's seed, so a run can be repeated.
#pragma once

#include <cstdint>
#include <map>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "tools/lab/cluster.h"
#include "tools/lab/history.h"

namespace redlab::lab {

class Nemesis {
 public:
  Nemesis(Cluster& cluster, History& history, uint64_t seed)
      : cluster_(cluster), history_(history), rng_(seed) {}

  void HoldLink(size_t replica);
  void ReleaseLink(size_t replica);
  void DelayLink(size_t replica, int64_t ms);  // 0 ends the band
  void Crash(size_t node);
  void Restart(size_t node);
  void Promote(size_t node);
  void JumpClock(size_t node, int64_t ms);
  // A network partition (embedded only): `nodes` and the sentinels `sentinels` (indexes) on one
  // side, every other node and sentinel on the other, until Heal(). Recorded as a band on the
  // first node's lane.
  void Partition(const std::vector<size_t>& nodes, const std::vector<size_t>& sentinels);
  void Heal();
  // Faults on clients, applied by the scenario itself (a pause, a partition through a proxy):
  // recorded as bands on the client's lane.
  void BeginClientFault(const std::string& kind, const std::string& client,
                        const std::string& detail = {});
  void EndClientFault(const std::string& kind, const std::string& client);

  // A seeded choice in [lo, hi].
  int64_t Uniform(int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng_);
  }
  bool Coin() { return Uniform(0, 1) == 1; }
  std::mt19937_64& rng() { return rng_; }
  Cluster& cluster() { return cluster_; }

 private:
  void Begin(const std::string& kind, const std::string& target, const std::string& detail);
  void End(const std::string& kind, const std::string& target);

  Cluster& cluster_;
  History& history_;
  std::mt19937_64 rng_;
  std::map<std::pair<std::string, std::string>, size_t> open_;  // (kind, target) -> event
  std::string partitioned_;  // the lane of the partition's band
};

}  // namespace redlab::lab
