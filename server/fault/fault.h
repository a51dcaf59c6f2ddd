// A node's fault injection: the FAULT command and its in-process equivalent. Each fault acts
// where the real failure acts: the replication stream (lag, a held or cut link), the node's
// clock (jumps, drift, a frozen clock), the event loop (a stall), the reply path (late or lost
// replies) and the process itself (a crash). Commands are never special-cased.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "server/engine/core/engine.h"
#include "server/fault/reply_faults.h"
#include "server/replication/link_shaper.h"
#include "server/resp/writer.h"

namespace redlab::server::fault {

// What the faults act on, provided by the node.
class FaultTarget {
 public:
  virtual ~FaultTarget() = default;
  virtual engine::Engine& engine() = 0;
  virtual ReplyFaults& reply_faults() = 0;
  // The node's loop does nothing for `ms` (after the current reply has been sent).
  virtual void Stall(int64_t ms) = 0;
  // The node's clock is about to move by a fault (JUMP, ADVANCE, RATE, MANUAL, RESUME, REAL):
  // the data history takes its snapshot of the moment first, so a frozen clock's history is
  // exact (TOPOLOGY RESTART LOSE).
  virtual void BeforeClockMove() {}
  // FAULT PARTITION: the process's partition (net/partition.h) isolates the nodes on `ports`
  // (empty: healed), and the ports isolated now.
  virtual void SetPartition(std::vector<int> /*ports*/) {}
  virtual std::vector<int> PartitionedPorts() { return {}; }
  // A stall asked for but not begun yet does not happen (FAULT RESET in the same pipeline).
  virtual void CancelStall() {}
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
  std::optional<std::string> ApplyPartition(std::span<const std::string> args, FaultTarget& target);

  replication::LinkFaultTable repl_;
};

// FAULT HELP's lines.
const std::vector<std::string_view>& FaultHelp();

}  // namespace redlab::server::fault
