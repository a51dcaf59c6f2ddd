#include "server/replication/link_shaper.h"

#include <algorithm>

namespace redlab::server::replication {

const LinkFaults& LinkFaultTable::For(LinkDirection dir, int64_t replica_port) const {
  static const LinkFaults kNone;
  if (replica_port > 0) {
    auto it = faults_.find({replica_port, dir});
    if (it != faults_.end()) return it->second;
  }
  auto it = faults_.find({0, dir});
  return it == faults_.end() ? kNone : it->second;
}

bool LinkFaultTable::Cut(int64_t replica_port) const {
  return For(LinkDirection::kToReplica, replica_port).cut ||
         For(LinkDirection::kToMaster, replica_port).cut;
}

void LinkFaultTable::Prune() {
  for (auto it = faults_.begin(); it != faults_.end();) {
    if (!it->second.Shaping() && !it->second.cut) {
      it = faults_.erase(it);
    } else {
      ++it;
    }
  }
}

void LinkShaper::Push(int64_t now_ms, const LinkFaults& faults, std::string_view bytes) {
  if (bytes.empty()) return;
  int64_t due = now_ms + faults.delay_ms;
  if (faults.jitter_ms > 0) {
    due += std::uniform_int_distribution<int64_t>(0, faults.jitter_ms)(rng_);
  }
  // TCP keeps order: a chunk never overtakes the one before it.
  if (!queue_.empty()) due = std::max(due, queue_.back().due_ms);
  if (!queue_.empty() && queue_.back().due_ms == due) {
    queue_.back().bytes.append(bytes);
  } else {
    queue_.push_back(Chunk{due, std::string(bytes)});
  }
  held_bytes_ += bytes.size();
}

void LinkShaper::TakeDue(int64_t now_ms, const LinkFaults& faults, std::string* out) {
  if (faults.paused) return;
  while (!queue_.empty() && queue_.front().due_ms <= now_ms) {
    out->append(queue_.front().bytes);
    held_bytes_ -= queue_.front().bytes.size();
    queue_.pop_front();
  }
}

int64_t LinkShaper::NextDueMs(const LinkFaults& faults) const {
  if (faults.paused || queue_.empty()) return -1;
  return queue_.front().due_ms;
}

void LinkShaper::Clear() {
  queue_.clear();
  held_bytes_ = 0;
}

}  // namespace redlab::server::replication
