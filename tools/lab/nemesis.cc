// The nemesis: faults applied and recorded.
#include "tools/lab/nemesis.h"

namespace redlab::lab {

void Nemesis::Begin(const std::string& kind, const std::string& target, const std::string& detail) {
  End(kind, target);
  open_[{kind, target}] = history_.Begin(kind, target, detail);
}

void Nemesis::End(const std::string& kind, const std::string& target) {
  auto it = open_.find({kind, target});
  if (it == open_.end()) return;
  history_.End(it->second);
  open_.erase(it);
}

void Nemesis::HoldLink(size_t replica) {
  cluster_.HoldLink(replica);
  Begin("repl-hold", cluster_.Name(replica), "replication link held");
}

void Nemesis::ReleaseLink(size_t replica) {
  cluster_.ReleaseLink(replica);
  End("repl-hold", cluster_.Name(replica));
}

void Nemesis::DelayLink(size_t replica, int64_t ms) {
  cluster_.DelayLink(replica, ms);
  if (ms > 0) {
    Begin("repl-delay", cluster_.Name(replica), std::to_string(ms) + " ms");
  } else {
    End("repl-delay", cluster_.Name(replica));
  }
}

void Nemesis::Crash(size_t node) {
  cluster_.Crash(node);
  history_.Mark("crash", cluster_.Name(node));
  // A crashed node's lasting faults end with it.
  End("repl-hold", cluster_.Name(node));
  End("repl-delay", cluster_.Name(node));
}

void Nemesis::Restart(size_t node) {
  cluster_.Restart(node);
  history_.Mark("restart", cluster_.Name(node), "empty");
}

void Nemesis::Promote(size_t node) {
  cluster_.Promote(node);
  history_.Mark("promote", cluster_.Name(node), "REPLICAOF NO ONE");
}

void Nemesis::JumpClock(size_t node, int64_t ms) {
  cluster_.JumpClock(node, ms);
  history_.Mark("clock-jump", cluster_.Name(node),
                (ms >= 0 ? "+" : "") + std::to_string(ms) + " ms");
}

void Nemesis::Partition(const std::vector<size_t>& nodes, const std::vector<size_t>& sentinels) {
  std::vector<int> ports;
  std::string side;
  for (size_t node : nodes) {
    ports.push_back(cluster_.Port(node));
    side += (side.empty() ? "" : ", ") + cluster_.Name(node);
  }
  for (size_t s : sentinels) {
    ports.push_back(cluster_.SentinelPort(s));
    side += (side.empty() ? "sentinel " : ", sentinel ") + std::to_string(s);
  }
  cluster_.Partition(ports);
  if (!partitioned_.empty()) End("partition", partitioned_);  // replaced by this one
  partitioned_ = nodes.empty() ? "lab" : cluster_.Name(nodes.front());
  Begin("partition", partitioned_, side + " cut off from the other nodes and sentinels");
}

void Nemesis::Heal() {
  if (partitioned_.empty()) return;
  cluster_.Partition({});
  End("partition", partitioned_);
  partitioned_.clear();
}

void Nemesis::BeginClientFault(const std::string& kind, const std::string& client,
                               const std::string& detail) {
  Begin(kind, client, detail);
}

void Nemesis::EndClientFault(const std::string& kind, const std::string& client) {
  End(kind, client);
}

}  // namespace redlab::lab
