// A node's fault injection: the FAULT command and its in-process equivalent. Each fault acts
// where the real failure acts: the replication stream (lag, a held or cut link), the node's
// clock (jumps, drift, a frozen clock), the event loop (a stall), the reply path (late or lost
// replies) and the process itself (a crash). Commands are never special-cased.
#pragma once

#include <cstdint>
#include <optional>
#include <random>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "server/engine/core/engine.h"
#include "server/replication/link_shaper.h"
#include "server/resp/writer.h"

namespace redlab::server::fault {

// Faults on the reply path, applied by the net layer to every client connection but replicas'
// (the replication stream has its own faults).
struct ReplyFaults {
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

// What the faults act on, provided by the node.
class FaultTarget {
 public:
  virtual ~FaultTarget() = default;
  virtual engine::Engine& engine() = 0;
  virtual ReplyFaults& reply_faults() = 0;
  // The node's loop does nothing for `ms` (after the current reply has been sent).
  virtual void Stall(int64_t ms) = 0;
  // The node dies now: its port and connections close, unreplicated data is lost.
  virtual void Crash() = 0;
};

class Faults {
 public:
  // FAULT <subcommand> ...: applies it and writes the reply (args[0] is "FAULT").
  void Execute(std::span<const std::string> args, resp::ReplyWriter& reply, FaultTarget& target);
  // The same from C++: returns the error text (without "ERR ") when the arguments are wrong.
  // `args` are FAULT's arguments without "FAULT", e.g. {"REPL", "PAUSE"}.
  std::optional<std::string> Apply(std::span<const std::string> args, FaultTarget& target);

  // Every active fault, as the FAULT arguments that would set it (FAULT LIST).
  std::vector<std::string> List(FaultTarget& target) const;
  // Clears every fault: the replication stream flows again (held bytes are delivered), a cut
  // link heals, the clock is real again, replies are neither late nor lost.
  void Reset(FaultTarget& target);
  // Forgets every fault without touching the node (after a crash: a new process has none).
  void Forget() { repl_ = {}; }

 private:
  std::optional<std::string> ApplyRepl(std::span<const std::string> args, FaultTarget& target);
  std::optional<std::string> ApplyClock(std::span<const std::string> args, FaultTarget& target);
  std::optional<std::string> ApplyReply(std::span<const std::string> args, FaultTarget& target);

  replication::LinkFaults repl_;
};

// FAULT HELP's lines.
const std::vector<std::string_view>& FaultHelp();

}  // namespace redlab::server::fault
