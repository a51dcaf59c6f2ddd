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

// The append-only file's side of propagation (Redis's feedAppendOnlyFile): each flush's effects
// with their grouping.
class EffectLog {
 public:
  virtual ~EffectLog() = default;
  virtual void Append(std::span<const Effect> effects, EffectGrouping grouping) = 0;
};

// The effects of the command running now, on their way to their consumers (Redis's
// also_propagate and propagatePendingCommands): the replication's sink and the AOF, when on.
// Nothing is gathered without a consumer, nor while the AOF is being loaded (Redis runs the
// loaded commands unpropagated).
class Propagation {
 public:
  void set_sink(EffectSink* sink) { sink_ = sink; }
  void set_log(EffectLog* log) { log_ = log; }  // null: the AOF is off
  void set_suspended(bool suspended) { suspended_ = suspended; }
  bool active() const { return !suspended_ && (sink_ != nullptr || log_ != nullptr); }
  // Adds an effect to those of the command running now.
  void Add(int db, std::vector<std::string> args) {
    if (!active()) return;
    pending_.push_back(Effect{db, std::move(args)});
  }
  // Sends the pending effects to the sink, grouped as `grouping` says, and to the AOF.
  void Flush(EffectGrouping grouping = EffectGrouping::kTransaction) {
    if (pending_.empty()) return;
    if (sink_ != nullptr) {
      if (grouping == EffectGrouping::kTransaction) {
        sink_->OnEffects(pending_);
      } else {
        for (const Effect& e : pending_) sink_->OnEffects({&e, 1});
      }
    }
    if (log_ != nullptr) log_->Append(pending_, grouping);
    pending_.clear();
  }

 private:
  EffectSink* sink_ = nullptr;
  EffectLog* log_ = nullptr;
  bool suspended_ = false;
  std::vector<Effect> pending_;
};

}  // namespace redlab::server::engine
