// A write's effects, as Redis propagates them: the commands that replay it on a replica, and the
// engine's Propagation, which gathers those of the command running now for the replication layer.
#pragma once

#include <span>
#include <string>
#include <vector>

namespace redlab::server::engine {

// One effect of a write: a command that replays it on a replica (Redis's propagation).
struct Effect {
  int db;
  std::vector<std::string> args;
};

// How pending effects leave: a command's together, wrapped in MULTI/EXEC when there are several;
// the active expire cycle's and eviction's DELs each alone (Redis's propagate_no_multi).
enum class EffectGrouping { kTransaction, kEach };

// Receives the effects of each command that changed the dataset, in order: the command as
// called or as it rewrote itself (relative TTLs become absolute...), and DELs for keys that
// expired. The replication layer consumes them.
class EffectSink {
 public:
  virtual ~EffectSink() = default;
  virtual void OnEffects(std::span<const Effect> effects) = 0;
};

// The effects of the command running now, on their way to the sink (Redis's also_propagate and
// propagatePendingCommands). Without a sink (nothing replicates) nothing is gathered.
class Propagation {
 public:
  void set_sink(EffectSink* sink) { sink_ = sink; }
  bool active() const { return sink_ != nullptr; }
  // Adds an effect to those of the command running now.
  void Add(int db, std::vector<std::string> args) {
    if (sink_ == nullptr) return;
    pending_.push_back(Effect{db, std::move(args)});
  }
  // Sends the pending effects to the sink, grouped as `grouping` says.
  void Flush(EffectGrouping grouping = EffectGrouping::kTransaction) {
    if (pending_.empty()) return;
    if (sink_ != nullptr) {
      if (grouping == EffectGrouping::kTransaction) {
        sink_->OnEffects(pending_);
      } else {
        for (const Effect& e : pending_) sink_->OnEffects({&e, 1});
      }
    }
    pending_.clear();
  }

 private:
  EffectSink* sink_ = nullptr;
  std::vector<Effect> pending_;
};

}  // namespace redlab::server::engine
