#include "server/fault/fault.h"

#include <fmt/format.h>

#include <cmath>

#include "server/base/numbers.h"
#include "server/base/text.h"
#include "server/engine/core/errors.h"
#include "server/replication/replication.h"
#include "server/resp/parser.h"

namespace redlab::server::fault {
namespace {

using server::EqualsIgnoreCase;

std::string WrongArgs(std::string_view what) {
  return fmt::format("Unknown subcommand or wrong number of arguments for '{}'. Try FAULT HELP.",
                     what);
}

// The longest delay, stall or link lag a fault takes: a day. Anything longer is a node that
// is gone, which CRASH and REPL CUT say better.
constexpr int64_t kMaxDelayMs = 86400000;
// The largest single clock move: 100 years either way (the clock also stays within
// Clock::kMaxUs).
constexpr int64_t kMaxClockMoveMs = 3155760000000;
constexpr char kClockLimits[] =
    "the node's clock would leave 1970-01-01 .. 9999-12-31 (FAULT CLOCK REAL brings it back)";

// As Redis's getRangeLongFromObjectOrReply, word for word ("must between" included).
std::string OutOfRange(int64_t min, int64_t max) {
  return fmt::format("value is out of range, value must between {} and {}", min, max);
}

// A number of milliseconds in [min, max]; a signed one (a clock jump) may also be written
// "+100", as in "FAULT CLOCK JUMP <+-ms>". Returns the error text: `not_number` when `s` is not
// an integer, Redis's range error when it is outside.
std::optional<std::string> ParseMs(std::string_view s, int64_t min, int64_t max,
                                   std::string_view not_number, int64_t* out) {
  if (min < 0 && s.size() > 1 && s[0] == '+' && s[1] != '-' && s[1] != '+') s.remove_prefix(1);
  if (!server::ParseInt64(s, out)) return std::string(not_number);
  if (*out < min || *out > max) return OutOfRange(min, max);
  return std::nullopt;
}

bool ParseFactor(std::string_view s, double* out) {
  std::string copy(s);
  char* end = nullptr;
  *out = std::strtod(copy.c_str(), &end);
  return !copy.empty() && end == copy.c_str() + copy.size() && std::isfinite(*out);
}

}  // namespace

const std::vector<std::string_view>& FaultHelp() {
  static const std::vector<std::string_view> lines = {
      "FAULT <subcommand> [<arg> [value] [opt] ...]. Subcommands are:",
      "REPL DELAY <ms> [JITTER <ms>] [REPLICA <port>] [TO-REPLICA|TO-MASTER]",
      "    Every byte of the replication stream reaches the other end <ms> later (lag).",
      "    REPLICA <port>: only the link of the replica listening on <port>; TO-REPLICA (the",
      "    stream) or TO-MASTER (handshake, acks): one direction only. Both apply to PAUSE",
      "    and RESUME too, REPLICA to CUT and HEAL.",
      "REPL PAUSE [REPLICA <port>] [TO-REPLICA|TO-MASTER]",
      "    Hold the replication stream; the link stays up.",
      "REPL RESUME [REPLICA <port>] [TO-REPLICA|TO-MASTER]",
      "    Deliver the held stream, in order.",
      "REPL CUT [REPLICA <port>]",
      "    Break the replication link; it cannot be made again until healed.",
      "REPL HEAL [REPLICA <port>]",
      "    Let the link be made again (the replica resynchronises).",
      "CLOCK JUMP <ms>",
      "    Move the node's clock by <ms> (+100 or 100: forward, -100: backwards), at most a",
      "    century, never outside the years 1970..9999.",
      "CLOCK RATE <factor>",
      "    Make the node's clock run <factor> (0 to 1000000) times as fast as real time.",
      "CLOCK MANUAL",
      "    Freeze the node's clock; it moves only with CLOCK ADVANCE.",
      "CLOCK ADVANCE <ms>",
      "    Move a frozen clock forward by <ms> (after CLOCK MANUAL only).",
      "CLOCK RESUME",
      "    A frozen clock runs again from where it stands, at its CLOCK RATE.",
      "CLOCK REAL",
      "    Back to real time.",
      "STALL <ms>",
      "    The node does nothing for <ms> (a GC or VM pause), then resumes. FAULT RESET or",
      "    SHUTDOWN sent on any connection, or stopping the node, ends it at once.",
      "REPLY DELAY <ms> [CLIENT <id> | ADDR <ip:port> | NAME <name>]",
      "    Every reply and push (pub/sub message, invalidation) leaves <ms> later; with a",
      "    target, only that client's (0 lifts it).",
      "REPLY DROP <probability> [SEED <n>] [CLIENT <id> | ADDR <ip:port> | NAME <name>]",
      "    Each reply or push is lost with <probability> (the command still runs).",
      "PARTITION <port> [<port> ...]",
      "    Cut the nodes on these ports (sentinels' ports too) off from the process's other",
      "    nodes and sentinels: traffic between the two sides is held (not refused) until",
      "    healed; clients reach both sides. Replaces an earlier partition. Any node or",
      "    sentinel of the process sets, lists and heals it.",
      "PARTITION HEAL",
      "    Heal the partition: held traffic flows, in order.",
      "CRASH",
      "    The node dies now; TOPOLOGY RESTART <port> [EMPTY|KEEP|LOSE <ms>] on another node",
      "    brings it back empty, with its data, or with its data of <ms> before the crash.",
      "RESET",
      "    Clear every fault (the process's partition too).",
      "LIST",
      "    List the active faults.",
      "HELP",
      "    Print this help.",
  };
  return lines;
}

void Faults::Execute(std::span<const std::string> args, resp::ReplyWriter& reply,
                     FaultTarget& target) {
  if (args.size() == 2 && EqualsIgnoreCase(args[1], "list")) {
    std::vector<std::string> lines = List(target);
    reply.ArrayHeader(lines.size());
    for (const std::string& l : lines) reply.Bulk(l);
    return;
  }
  if (args.size() == 2 && EqualsIgnoreCase(args[1], "help")) {
    reply.ArrayHeader(FaultHelp().size());
    for (std::string_view l : FaultHelp()) reply.Status(l);
    return;
  }
  if (args.size() < 2) {
    reply.Error(engine::err::WrongArity("fault"));
    return;
  }
  if (auto error = Apply(args.subspan(1), target)) {
    reply.Error(*error);
    return;
  }
  reply.Status("OK");
}

std::optional<std::string> Faults::Apply(std::span<const std::string> args, FaultTarget& target) {
  if (args.empty()) return WrongArgs("");
  std::string_view sub = args[0];
  if (EqualsIgnoreCase(sub, "repl")) return ApplyRepl(args.subspan(1), target);
  if (EqualsIgnoreCase(sub, "clock")) return ApplyClock(args.subspan(1), target);
  if (EqualsIgnoreCase(sub, "reply")) return ApplyReply(args.subspan(1), target);
  if (EqualsIgnoreCase(sub, "partition")) return ApplyPartition(args.subspan(1), target);
  if (EqualsIgnoreCase(sub, "stall") && args.size() == 2) {
    int64_t ms = 0;
    if (auto e = ParseMs(args[1], 0, kMaxDelayMs, "STALL takes a number of milliseconds", &ms)) {
      return e;
    }
    target.Stall(ms);
    return std::nullopt;
  }
  if (EqualsIgnoreCase(sub, "crash") && args.size() == 1) {
    target.Crash();
    return std::nullopt;
  }
  if (EqualsIgnoreCase(sub, "reset") && args.size() == 1) {
    Reset(target);
    return std::nullopt;
  }
  return WrongArgs(sub);
}

std::optional<std::string> Faults::ApplyRepl(std::span<const std::string> args,
                                             FaultTarget& target) {
  using replication::LinkDirection;
  if (args.empty()) return WrongArgs("REPL");
  std::string_view op = args[0];
  bool delay = EqualsIgnoreCase(op, "delay");
  bool cut = EqualsIgnoreCase(op, "cut"), heal = EqualsIgnoreCase(op, "heal");
  if (!delay && !cut && !heal && !EqualsIgnoreCase(op, "pause") &&
      !EqualsIgnoreCase(op, "resume")) {
    return WrongArgs("REPL " + std::string(op));
  }
  int64_t delay_ms = 0, jitter_ms = 0;
  size_t i = 1;
  if (delay) {
    if (args.size() < 2) return WrongArgs("REPL DELAY");
    if (auto e = ParseMs(args[1], 0, kMaxDelayMs, "REPL DELAY takes a number of milliseconds",
                         &delay_ms)) {
      return e;
    }
    i = 2;
    if (args.size() >= 4 && EqualsIgnoreCase(args[2], "jitter")) {
      if (auto e = ParseMs(args[3], 0, kMaxDelayMs, "JITTER takes a number of milliseconds",
                           &jitter_ms)) {
        return e;
      }
      i = 4;
    }
  }
  // Options: REPLICA <port> (one replica's link) and one direction (TO-REPLICA or TO-MASTER).
  int64_t replica = 0;
  std::vector<LinkDirection> dirs = {LinkDirection::kToReplica, LinkDirection::kToMaster};
  bool directed = false;
  for (; i < args.size(); ++i) {
    if (EqualsIgnoreCase(args[i], "replica") && i + 1 < args.size() && replica == 0) {
      if (!server::ParseInt64(args[i + 1], &replica)) return std::string(engine::err::kNotInteger);
      if (replica < 1 || replica > 65535) return OutOfRange(1, 65535);
      ++i;
    } else if (!directed && (EqualsIgnoreCase(args[i], "to-replica") ||
                             EqualsIgnoreCase(args[i], "to-master"))) {
      directed = true;
      dirs = {EqualsIgnoreCase(args[i], "to-replica") ? LinkDirection::kToReplica
                                                      : LinkDirection::kToMaster};
    } else {
      return "syntax error";
    }
  }
  if ((cut || heal) && directed) {
    return "REPL " + std::string(cut ? "CUT" : "HEAL") +
           " acts on the link both ways: it takes no TO-REPLICA or TO-MASTER";
  }
  replication::LinkFaultTable next = repl_;
  for (LinkDirection d : dirs) {
    replication::LinkFaults& f = next.Edit(d, replica);
    if (delay) {
      f.delay_ms = delay_ms;
      f.jitter_ms = jitter_ms;
    } else if (EqualsIgnoreCase(op, "pause")) {
      f.paused = true;
    } else if (EqualsIgnoreCase(op, "resume")) {
      f.paused = false;
    } else if (cut) {
      f.cut = d == LinkDirection::kToReplica;  // kept once, in the stream's entry
    } else {
      f.cut = false;
    }
  }
  next.Prune();
  repl_ = next;
  replication::ReplicationOf(target.engine()).SetFaults(repl_);
  return std::nullopt;
}

std::optional<std::string> Faults::ApplyClock(std::span<const std::string> args,
                                              FaultTarget& target) {
  if (args.empty()) return WrongArgs("CLOCK");
  server::Clock& clock = target.engine().clock();
  target.BeforeClockMove();
  std::string_view op = args[0];
  if (EqualsIgnoreCase(op, "jump") && args.size() == 2) {
    int64_t ms = 0;
    if (auto e = ParseMs(args[1], -kMaxClockMoveMs, kMaxClockMoveMs,
                         "CLOCK JUMP takes a number of milliseconds", &ms)) {
      return e;
    }
    if (!clock.CanMove(ms)) return kClockLimits;
    clock.Jump(ms);
  } else if (EqualsIgnoreCase(op, "rate") && args.size() == 2) {
    double factor = 0;
    if (!ParseFactor(args[1], &factor)) return "CLOCK RATE takes a factor >= 0";
    if (factor < 0 || factor > server::Clock::kMaxRate) {
      return OutOfRange(0, static_cast<int64_t>(server::Clock::kMaxRate));
    }
    // On a frozen clock the rate waits for CLOCK RESUME (FAULT LIST shows it meanwhile).
    clock.SetRate(factor);
  } else if (EqualsIgnoreCase(op, "manual") && args.size() == 1) {
    clock.SetManual();
  } else if (EqualsIgnoreCase(op, "resume") && args.size() == 1) {
    if (!clock.manual()) return "CLOCK RESUME needs a frozen clock: FAULT CLOCK MANUAL first";
    clock.SetRunning();
  } else if (EqualsIgnoreCase(op, "advance") && args.size() == 2) {
    int64_t ms = 0;
    if (auto e = ParseMs(args[1], 0, kMaxClockMoveMs,
                         "CLOCK ADVANCE takes a number of milliseconds", &ms)) {
      return e;
    }
    // A running clock does not take steps: a forward move of one is a JUMP. Refusing says so
    // instead of silently doing what the caller may not have meant.
    if (!clock.manual()) return "CLOCK ADVANCE needs a frozen clock: FAULT CLOCK MANUAL first";
    if (!clock.CanMove(ms)) return kClockLimits;
    clock.Advance(ms);
  } else if (EqualsIgnoreCase(op, "real") && args.size() == 1) {
    clock.SetReal();
  } else {
    return WrongArgs("CLOCK " + std::string(op));
  }
  // Deadlines (WAIT and blocked clients, CLIENT PAUSE) follow the clock: check them now.
  target.engine().OnTimer();
  return std::nullopt;
}

std::optional<std::string> Faults::ApplyReply(std::span<const std::string> args,
                                              FaultTarget& target) {
  if (args.empty()) return WrongArgs("REPLY");
  std::string_view op = args[0];
  bool delay = EqualsIgnoreCase(op, "delay");
  if ((!delay && !EqualsIgnoreCase(op, "drop")) || args.size() < 2) {
    return WrongArgs("REPLY " + std::string(op));
  }
  int64_t ms = 0;
  double p = 0;
  if (delay) {
    if (auto e =
            ParseMs(args[1], 0, kMaxDelayMs, "REPLY DELAY takes a number of milliseconds", &ms)) {
      return e;
    }
  } else if (!ParseFactor(args[1], &p) || p < 0 || p > 1) {
    return "REPLY DROP takes a probability between 0 and 1";
  }
  // Options, in any order: SEED <n> (DROP only) and one target.
  std::optional<uint64_t> seed;
  ReplyTarget who;
  bool targeted = false;
  for (size_t i = 2; i < args.size(); i += 2) {
    if (i + 1 >= args.size()) return "syntax error";
    std::string_view opt = args[i];
    const std::string& value = args[i + 1];
    if (!delay && EqualsIgnoreCase(opt, "seed") && !seed) {
      int64_t n = 0;
      if (!server::ParseInt64(value, &n)) return "SEED takes an integer";
      seed = static_cast<uint64_t>(n);
      continue;
    }
    if (targeted) return "syntax error";
    targeted = true;
    if (EqualsIgnoreCase(opt, "client")) {
      // As CLIENT KILL ID: a client id is a positive integer.
      int64_t id = 0;
      if (!server::ParseInt64(value, &id) || id <= 0) return "client-id should be greater than 0";
      who.kind = ReplyTarget::Kind::kClient;
      who.id = static_cast<uint64_t>(id);
    } else if (EqualsIgnoreCase(opt, "addr")) {
      size_t colon = value.rfind(':');
      int64_t port = 0;
      if (colon == std::string::npos || colon == 0 ||
          !server::ParseInt64(std::string_view(value).substr(colon + 1), &port)) {
        return "ADDR takes an ip:port, as CLIENT LIST's addr= shows it";
      }
      if (port < 0 || port > 65535) return OutOfRange(0, 65535);
      who.kind = ReplyTarget::Kind::kAddr;
      who.text = value;
    } else if (EqualsIgnoreCase(opt, "name")) {
      if (value.empty()) return "NAME takes a client name";
      who.kind = ReplyTarget::Kind::kName;
      who.text = value;
    } else {
      return "syntax error";
    }
  }
  ReplyFaults& faults = target.reply_faults();
  ReplyRule& rule = faults.RuleFor(who);
  if (delay) {
    rule.delay_ms = ms;
  } else {
    rule.drop_probability = p;
    rule.seed = seed;
    // A seed makes the sequence of lost replies repeatable.
    rule.rng.seed(seed ? *seed : std::random_device{}());
  }
  faults.Prune();  // DELAY 0 / DROP 0 lift the fault
  return std::nullopt;
}

std::optional<std::string> Faults::ApplyPartition(std::span<const std::string> args,
                                                  FaultTarget& target) {
  if (args.empty()) return WrongArgs("PARTITION");
  if (args.size() == 1 && EqualsIgnoreCase(args[0], "heal")) {
    target.SetPartition({});
    return std::nullopt;
  }
  std::vector<int> ports;
  for (const std::string& a : args) {
    int64_t port = 0;
    if (!server::ParseInt64(a, &port)) return "PARTITION takes ports of this process's nodes";
    if (port < 1 || port > 65535) return OutOfRange(1, 65535);
    ports.push_back(static_cast<int>(port));
  }
  target.SetPartition(std::move(ports));
  return std::nullopt;
}

std::vector<std::string> Faults::List(FaultTarget& target) const {
  using replication::LinkDirection;
  std::vector<std::string> out;
  // Per link (every link first, then each replica's), a fault set both ways on one line.
  std::vector<int64_t> ports;
  for (const auto& [key, f] : repl_.entries()) {
    if (ports.empty() || ports.back() != key.first) ports.push_back(key.first);
  }
  for (int64_t port : ports) {
    auto entry = [&](LinkDirection d) {
      auto it = repl_.entries().find({port, d});
      return it == repl_.entries().end() ? replication::LinkFaults{} : it->second;
    };
    replication::LinkFaults to_replica = entry(LinkDirection::kToReplica);
    replication::LinkFaults to_master = entry(LinkDirection::kToMaster);
    std::string who = port > 0 ? fmt::format(" REPLICA {}", port) : "";
    auto delay = [](const replication::LinkFaults& f) {
      return f.jitter_ms > 0 ? fmt::format("REPL DELAY {} JITTER {}", f.delay_ms, f.jitter_ms)
                             : fmt::format("REPL DELAY {}", f.delay_ms);
    };
    auto has_delay = [](const replication::LinkFaults& f) {
      return f.delay_ms > 0 || f.jitter_ms > 0;
    };
    if (to_replica.delay_ms == to_master.delay_ms && to_replica.jitter_ms == to_master.jitter_ms) {
      if (has_delay(to_replica)) out.push_back(delay(to_replica) + who);
    } else {
      if (has_delay(to_replica)) out.push_back(delay(to_replica) + who + " TO-REPLICA");
      if (has_delay(to_master)) out.push_back(delay(to_master) + who + " TO-MASTER");
    }
    if (to_replica.paused && to_master.paused) {
      out.push_back("REPL PAUSE" + who);
    } else if (to_replica.paused) {
      out.push_back("REPL PAUSE" + who + " TO-REPLICA");
    } else if (to_master.paused) {
      out.push_back("REPL PAUSE" + who + " TO-MASTER");
    }
    if (to_replica.cut || to_master.cut) out.push_back("REPL CUT" + who);
  }
  const server::Clock& clock = target.engine().clock();
  if (clock.manual()) out.push_back("CLOCK MANUAL");
  // A rate set on a frozen clock is listed too: it applies from CLOCK RESUME on.
  if (clock.rate() != 1.0) out.push_back(fmt::format("CLOCK RATE {}", clock.rate()));
  // The offset from real time, however it came about (jumps, drift, a frozen clock).
  int64_t offset = clock.OffsetMs();
  if (clock.manual() || clock.rate() != 1.0 || offset != 0) {
    out.push_back(fmt::format("CLOCK OFFSET {}", offset));
  }
  std::vector<int> isolated = target.PartitionedPorts();
  if (!isolated.empty()) {
    std::string line = "PARTITION";
    for (int p : isolated) line += " " + std::to_string(p);
    out.push_back(line);
  }
  for (const ReplyRule& rule : target.reply_faults().rules()) {
    std::string who = rule.target.Describe();
    if (rule.delay_ms > 0) out.push_back(fmt::format("REPLY DELAY {}{}", rule.delay_ms, who));
    if (rule.drop_probability > 0) {
      out.push_back(
          rule.seed ? fmt::format("REPLY DROP {} SEED {}{}", rule.drop_probability, *rule.seed, who)
                    : fmt::format("REPLY DROP {}{}", rule.drop_probability, who));
    }
  }
  return out;
}

void Faults::Reset(FaultTarget& target) {
  target.CancelStall();
  // The partition is the process's network: a RESET on any node heals it.
  if (!target.PartitionedPorts().empty()) target.SetPartition({});
  repl_ = {};
  replication::ReplicationOf(target.engine()).SetFaults(repl_);
  target.engine().clock().SetReal();
  target.engine().OnTimer();
  target.reply_faults().Clear();
}

}  // namespace redlab::server::fault
