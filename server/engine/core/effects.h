// A write's effects, as Redis propagates them: the commands that replay it on a replica.
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

}  // namespace redlab::server::engine
