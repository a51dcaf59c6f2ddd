// FAULT REPLY's targets and rules (redlab's own; Redis has no counterpart).
#include "server/fault/reply_faults.h"

#include <fmt/format.h>

#include <algorithm>

namespace redlab::server::fault {

bool ReplyTarget::Matches(uint64_t client_id, std::string_view peer, std::string_view name) const {
  switch (kind) {
    case Kind::kAll:
      return true;
    case Kind::kClient:
      return id == client_id;
    case Kind::kAddr:
      return text == peer;
    case Kind::kName:
      return !name.empty() && text == name;
  }
  return false;
}

std::string ReplyTarget::Describe() const {
  switch (kind) {
    case Kind::kAll:
      return "";
    case Kind::kClient:
      return fmt::format(" CLIENT {}", id);
    case Kind::kAddr:
      return " ADDR " + text;
    case Kind::kName:
      return " NAME " + text;
  }
  return "";
}

ReplyRule* ReplyFaults::For(uint64_t client_id, std::string_view peer, std::string_view name) {
  ReplyRule* best = nullptr;
  for (ReplyRule& r : rules_) {
    if (!r.active() || !r.target.Matches(client_id, peer, name)) continue;
    // The narrower target wins: CLIENT, then ADDR, then NAME, then every client.
    auto rank = [](ReplyTarget::Kind k) {
      switch (k) {
        case ReplyTarget::Kind::kClient:
          return 3;
        case ReplyTarget::Kind::kAddr:
          return 2;
        case ReplyTarget::Kind::kName:
          return 1;
        case ReplyTarget::Kind::kAll:
          return 0;
      }
      return 0;
    };
    if (best == nullptr || rank(r.target.kind) > rank(best->target.kind)) best = &r;
  }
  return best;
}

ReplyRule& ReplyFaults::RuleFor(const ReplyTarget& target) {
  for (ReplyRule& r : rules_) {
    if (r.target == target) return r;
  }
  rules_.push_back(ReplyRule{.target = target});
  return rules_.back();
}

void ReplyFaults::Prune() {
  rules_.erase(
      std::remove_if(rules_.begin(), rules_.end(), [](const ReplyRule& r) { return !r.active(); }),
      rules_.end());
}

}  // namespace redlab::server::fault
