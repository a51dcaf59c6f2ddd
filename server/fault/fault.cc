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

// A number of milliseconds; a signed one (a clock jump) may also be written "+100", as in
// "FAULT CLOCK JUMP <+-ms>".
bool ParseMs(std::string_view s, bool allow_negative, int64_t* out) {
  if (allow_negative && s.size() > 1 && s[0] == '+' && s[1] != '-' && s[1] != '+') {
    s.remove_prefix(1);
  }
  return server::ParseInt64(s, out) && (allow_negative || *out >= 0);
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
      "REPL DELAY <ms> [JITTER <ms>]",
      "    Every byte of the replication stream reaches the other end <ms> later (lag).",
      "REPL PAUSE",
      "    Hold the replication stream; the link stays up.",
      "REPL RESUME",
      "    Deliver the held stream, in order.",
      "REPL CUT",
      "    Break the replication link; it cannot be made again until healed.",
      "REPL HEAL",
      "    Let the link be made again (the replica resynchronises).",
      "CLOCK JUMP <ms>",
      "    Move the node's clock by <ms> (+100 or 100: forward, -100: backwards).",
      "CLOCK RATE <factor>",
      "    Make the node's clock run <factor> times as fast as real time.",
      "CLOCK MANUAL",
      "    Freeze the node's clock; it moves only with CLOCK ADVANCE.",
      "CLOCK ADVANCE <ms>",
      "    Move a frozen clock forward by <ms> (after CLOCK MANUAL only).",
      "CLOCK REAL",
      "    Back to real time.",
      "STALL <ms>",
      "    The node does nothing for <ms> (a GC or VM pause), then resumes.",
      "REPLY DELAY <ms>",
      "    Every reply leaves <ms> later.",
      "REPLY DROP <probability> [SEED <n>]",
      "    Each reply is lost with <probability> (the command still runs).",
      "CRASH",
      "    The node dies now; TOPOLOGY RESTART on another node brings it back.",
      "RESET",
      "    Clear every fault.",
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
  if (EqualsIgnoreCase(sub, "stall") && args.size() == 2) {
    int64_t ms = 0;
    if (!ParseMs(args[1], false, &ms)) return "STALL takes a number of milliseconds";
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
  if (args.empty()) return WrongArgs("REPL");
  replication::LinkFaults next = repl_;
  std::string_view op = args[0];
  if (EqualsIgnoreCase(op, "delay") && (args.size() == 2 || args.size() == 4)) {
    if (!ParseMs(args[1], false, &next.delay_ms))
      return "REPL DELAY takes a number of milliseconds";
    next.jitter_ms = 0;
    if (args.size() == 4) {
      if (!EqualsIgnoreCase(args[2], "jitter")) return "syntax error";
      if (!ParseMs(args[3], false, &next.jitter_ms)) return "JITTER takes a number of milliseconds";
    }
  } else if (EqualsIgnoreCase(op, "pause") && args.size() == 1) {
    next.paused = true;
  } else if (EqualsIgnoreCase(op, "resume") && args.size() == 1) {
    next.paused = false;
  } else if (EqualsIgnoreCase(op, "cut") && args.size() == 1) {
    next.cut = true;
  } else if (EqualsIgnoreCase(op, "heal") && args.size() == 1) {
    next.cut = false;
  } else {
    return WrongArgs("REPL " + std::string(op));
  }
  repl_ = next;
  replication::ReplicationOf(target.engine()).SetFaults(repl_);
  return std::nullopt;
}

std::optional<std::string> Faults::ApplyClock(std::span<const std::string> args,
                                              FaultTarget& target) {
  if (args.empty()) return WrongArgs("CLOCK");
  server::Clock& clock = target.engine().clock();
  std::string_view op = args[0];
  if (EqualsIgnoreCase(op, "jump") && args.size() == 2) {
    int64_t ms = 0;
    if (!ParseMs(args[1], true, &ms)) return "CLOCK JUMP takes a number of milliseconds";
    clock.Jump(ms);
  } else if (EqualsIgnoreCase(op, "rate") && args.size() == 2) {
    double factor = 0;
    if (!ParseFactor(args[1], &factor) || factor < 0) return "CLOCK RATE takes a factor >= 0";
    clock.SetRate(factor);
  } else if (EqualsIgnoreCase(op, "manual") && args.size() == 1) {
    clock.SetManual();
  } else if (EqualsIgnoreCase(op, "advance") && args.size() == 2) {
    int64_t ms = 0;
    if (!ParseMs(args[1], false, &ms)) return "CLOCK ADVANCE takes a number of milliseconds";
    // A running clock does not take steps: a forward move of one is a JUMP. Refusing says so
    // instead of silently doing what the caller may not have meant.
    if (!clock.manual()) return "CLOCK ADVANCE needs a frozen clock: FAULT CLOCK MANUAL first";
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
  ReplyFaults& faults = target.reply_faults();
  std::string_view op = args[0];
  if (EqualsIgnoreCase(op, "delay") && args.size() == 2) {
    int64_t ms = 0;
    if (!ParseMs(args[1], false, &ms)) return "REPLY DELAY takes a number of milliseconds";
    faults.delay_ms = ms;
    return std::nullopt;
  }
  if (EqualsIgnoreCase(op, "drop") && (args.size() == 2 || args.size() == 4)) {
    double p = 0;
    if (!ParseFactor(args[1], &p) || p < 0 || p > 1) {
      return "REPLY DROP takes a probability between 0 and 1";
    }
    std::optional<uint64_t> seed;
    if (args.size() == 4) {
      int64_t n = 0;
      if (!EqualsIgnoreCase(args[2], "seed")) return "syntax error";
      if (!server::ParseInt64(args[3], &n)) return "SEED takes an integer";
      seed = static_cast<uint64_t>(n);
    }
    faults.drop_probability = p;
    faults.seed = seed;
    // A seed makes the sequence of lost replies repeatable.
    faults.rng.seed(seed ? *seed : std::random_device{}());
    return std::nullopt;
  }
  return WrongArgs("REPLY " + std::string(op));
}

std::vector<std::string> Faults::List(FaultTarget& target) const {
  std::vector<std::string> out;
  if (repl_.delay_ms > 0 || repl_.jitter_ms > 0) {
    out.push_back(repl_.jitter_ms > 0
                      ? fmt::format("REPL DELAY {} JITTER {}", repl_.delay_ms, repl_.jitter_ms)
                      : fmt::format("REPL DELAY {}", repl_.delay_ms));
  }
  if (repl_.paused) out.push_back("REPL PAUSE");
  if (repl_.cut) out.push_back("REPL CUT");
  const server::Clock& clock = target.engine().clock();
  if (clock.manual()) out.push_back("CLOCK MANUAL");
  if (!clock.manual() && clock.rate() != 1.0)
    out.push_back(fmt::format("CLOCK RATE {}", clock.rate()));
  // The offset from real time, however it came about (jumps, drift, a frozen clock).
  int64_t offset = clock.OffsetMs();
  if (clock.manual() || clock.rate() != 1.0 || offset != 0) {
    out.push_back(fmt::format("CLOCK OFFSET {}", offset));
  }
  const ReplyFaults& reply = target.reply_faults();
  if (reply.delay_ms > 0) out.push_back(fmt::format("REPLY DELAY {}", reply.delay_ms));
  if (reply.drop_probability > 0) {
    out.push_back(reply.seed
                      ? fmt::format("REPLY DROP {} SEED {}", reply.drop_probability, *reply.seed)
                      : fmt::format("REPLY DROP {}", reply.drop_probability));
  }
  return out;
}

void Faults::Reset(FaultTarget& target) {
  repl_ = {};
  replication::ReplicationOf(target.engine()).SetFaults(repl_);
  target.engine().clock().SetReal();
  target.engine().OnTimer();
  ReplyFaults& reply = target.reply_faults();
  reply.delay_ms = 0;
  reply.drop_probability = 0;
  reply.seed.reset();
}

}  // namespace redlab::server::fault
