// Faults on the reply path (FAULT REPLY DELAY / DROP), node-wide or aimed at one client by its
// id, its address or its name. The net layer asks For() on every reply and every push (pub/sub
// messages, keyspace notifications, tracking invalidations) it sends to a client that is not a
// replica (the replication stream has its own faults).
#pragma once

#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

namespace redlab::server::fault {

// Who a reply fault is for.
struct ReplyTarget {
  enum class Kind { kAll, kClient, kAddr, kName };
  Kind kind = Kind::kAll;
  uint64_t id = 0;   // kClient: CLIENT ID
  std::string text;  // kAddr: "ip:port" as CLIENT LIST's addr=; kName: CLIENT SETNAME's name

  bool Matches(uint64_t client_id, std::string_view peer, std::string_view name) const;
  // " CLIENT 7", " ADDR 127.0.0.1:5000", " NAME worker", or "" for every client.
  std::string Describe() const;
  bool operator==(const ReplyTarget& o) const {
    return kind == o.kind && id == o.id && text == o.text;
  }
};

struct ReplyRule {
  ReplyTarget target;
  int64_t delay_ms = 0;         // every reply leaves this much later (order kept)
  double drop_probability = 0;  // each reply is lost with this probability (the command ran)
  std::optional<uint64_t> seed;
  std::mt19937_64 rng{std::random_device{}()};

  bool active() const { return delay_ms > 0 || drop_probability > 0; }
  // Decides whether the next reply is lost.
  bool DropNext() {
    if (drop_probability <= 0) return false;
    if (drop_probability >= 1) return true;
    return std::uniform_real_distribution<double>(0, 1)(rng) < drop_probability;
  }
};

class ReplyFaults {
 public:
  // The rule that applies to a client: one aimed at its id, else at its address, else at its
  // name, else the node-wide one; null when none is active.
  ReplyRule* For(uint64_t client_id, std::string_view peer, std::string_view name);
  // The rule for `target`, made when there is none.
  ReplyRule& RuleFor(const ReplyTarget& target);
  // Forgets rules that no longer do anything.
  void Prune();
  void Clear() { rules_.clear(); }
  bool any() const { return !rules_.empty(); }
  const std::vector<ReplyRule>& rules() const { return rules_; }

 private:
  std::vector<ReplyRule> rules_;  // in the order they were set
};

}  // namespace redlab::server::fault
