// Commands that observe the server: SLOWLOG, LATENCY and MONITOR (Redis's slowlog.c,
// latency.c, server.c). What they report is collected by the engine (diagnostics.cc).
#include <string>

#include "server/base/text.h"
#include "server/command/command_table.h"
#include "server/engine/core/context.h"
#include "server/engine/core/engine.h"
#include "server/engine/core/help.h"

namespace redlab::server::engine {
namespace {

void SlowlogGetCommand(CommandContext& ctx) {
  if (ctx.argc() > 3) {
    ReplySubcommandSyntaxError(ctx);
    return;
  }
  const SlowLog& log = ctx.engine().diagnostics().slowlog();
  int64_t count = 10;
  if (ctx.argc() == 3) {
    constexpr std::string_view kError = "count should be greater than or equal to -1";
    if (!ctx.IntArg(2, &count, kError)) return;
    if (count < -1) {
      ctx.ReplyError(kError);
      return;
    }
    if (count == -1) count = static_cast<int64_t>(log.size());
  }
  size_t n = std::min(static_cast<size_t>(count), log.size());
  resp::ReplyWriter& r = ctx.reply();
  r.ArrayHeader(n);
  for (size_t i = 0; i < n; ++i) {
    const SlowLog::Entry& e = log.entries()[i];
    r.ArrayHeader(6);
    r.Integer(e.id);
    r.Integer(e.time_s);
    r.Integer(e.duration_us);
    r.ArrayHeader(e.args.size());
    for (const std::string& arg : e.args) r.Bulk(arg);
    r.Bulk(e.peer);
    r.Bulk(e.name);
  }
}

void SlowlogLenCommand(CommandContext& ctx) {
  ctx.reply().Integer(static_cast<int64_t>(ctx.engine().diagnostics().slowlog().size()));
}

void SlowlogResetCommand(CommandContext& ctx) {
  ctx.engine().diagnostics().slowlog().Reset();
  ctx.ReplyOk();
}

void SlowlogHelpCommand(CommandContext& ctx) { ReplyHelp(ctx, kSlowlogHelp); }

void LatencyHistoryCommand(CommandContext& ctx) {
  const LatencyMonitor::Series* ts = ctx.engine().diagnostics().latency_monitor().Find(ctx.arg(2));
  resp::ReplyWriter& r = ctx.reply();
  if (ts == nullptr) {
    r.EmptyArray();
    return;
  }
  size_t at = r.BeginDeferred();
  size_t n = 0;
  for (size_t j = 0; j < LatencyMonitor::kHistory; ++j) {
    const auto& s = ts->samples[(ts->next + j) % LatencyMonitor::kHistory];
    if (s.time_s == 0) continue;
    r.ArrayHeader(2);
    r.Integer(s.time_s);
    r.Integer(s.latency_ms);
    ++n;
  }
  r.EndDeferredArray(at, n);
}

void LatencyGraphCommand(CommandContext& ctx) {
  const LatencyMonitor::Series* ts = ctx.engine().diagnostics().latency_monitor().Find(ctx.arg(2));
  if (ts == nullptr) {
    std::string_view event = ctx.arg(2);
    ctx.ReplyError("No samples available for event '" +
                   std::string(event.substr(0, event.find('\0'))) + "'");
    return;
  }
  ctx.reply().Verbatim(LatencyMonitor::Graph(*ts, ctx.engine().clock().NowMs() / 1000));
}

void LatencyLatestCommand(CommandContext& ctx) {
  const auto& events = ctx.engine().diagnostics().latency_monitor().events();
  resp::ReplyWriter& r = ctx.reply();
  r.ArrayHeader(events.size());
  for (const auto& ts : events) {
    r.ArrayHeader(4);
    r.Bulk(ts->event);
    r.Integer(ts->latest().time_s);
    r.Integer(ts->latest().latency_ms);
    r.Integer(ts->max);
  }
}

void LatencyDoctorCommand(CommandContext& ctx) {
  Engine& engine = ctx.engine();
  const ServerConfig& config = engine.config();
  ctx.reply().Verbatim(engine.diagnostics().latency_monitor().Doctor(
      {config.latency_monitor_threshold, config.slowlog_log_slower_than, config.hz,
       engine.clock().NowMs() / 1000}));
}

void LatencyResetCommand(CommandContext& ctx) {
  LatencyMonitor& monitor = ctx.engine().diagnostics().latency_monitor();
  size_t resets = 0;
  if (ctx.argc() == 2) {
    resets = monitor.Reset({});
  } else {
    for (size_t j = 2; j < ctx.argc(); ++j) {
      // An empty name matches no event (Redis compares it with each event's name).
      if (!ctx.arg(j).empty()) resets += monitor.Reset(ctx.arg(j));
    }
  }
  ctx.reply().Integer(static_cast<int64_t>(resets));
}

// One command's entry of LATENCY HISTOGRAM: its name, then {calls, histogram_usec}.
void ReplyHistogram(resp::ReplyWriter& r, const Command& cmd, const LatencyHistogram& h) {
  r.Bulk(cmd.full_name);
  r.MapHeader(2);
  r.Bulk("calls");
  r.Integer(static_cast<int64_t>(h.calls()));
  r.Bulk("histogram_usec");
  auto buckets = h.Cumulative();
  r.MapHeader(buckets.size());
  for (const auto& [usec, count] : buckets) {
    r.Integer(usec);
    r.Integer(static_cast<int64_t>(count));
  }
}

// lookupCommandBySds: "name" or "container|sub", ignoring case.
const Command* LookupFullName(const CommandTable& table, std::string_view name) {
  size_t bar = name.find('|');
  if (bar == std::string_view::npos) return table.Find(name);
  std::string_view sub = name.substr(bar + 1);
  if (sub.find('|') != std::string_view::npos) return nullptr;
  const Command* parent = table.Find(name.substr(0, bar));
  return parent != nullptr ? parent->FindSubcommand(sub) : nullptr;
}

// LATENCY HISTOGRAM [command ...]: commands that ran since the last CONFIG RESETSTAT; a container
// named brings its subcommands. Unknown names are skipped.
void LatencyHistogramCommand(CommandContext& ctx) {
  Engine& engine = ctx.engine();
  resp::ReplyWriter& r = ctx.reply();
  size_t at = r.BeginDeferred();
  size_t entries = 0;
  auto add = [&](const Command& cmd) {
    const LatencyHistogram& h = engine.stats().command(cmd).latency;
    if (h.calls() == 0) return;
    ReplyHistogram(r, cmd, h);
    ++entries;
  };
  if (ctx.argc() == 2) {
    for (const auto& cmd : engine.commands().all()) {
      add(*cmd);
      for (const auto& sub : cmd->subcommands) add(*sub);
    }
  } else {
    for (size_t j = 2; j < ctx.argc(); ++j) {
      const Command* cmd = LookupFullName(engine.commands(), ctx.arg(j));
      if (cmd == nullptr) continue;
      add(*cmd);
      for (const auto& sub : cmd->subcommands) add(*sub);
    }
  }
  r.EndDeferredMap(at, entries);
}

void LatencyHelpCommand(CommandContext& ctx) { ReplyHelp(ctx, kLatencyHelp); }

// MONITOR: from now on the client receives every command run by the node (and little else: as
// a replica would, it may not touch the keyspace).
void MonitorCommand(CommandContext& ctx) {
  Client& c = ctx.client();
  // A client that expects one reply per command (inside EXEC) cannot turn into a stream.
  if (c.deny_blocking() || c.in_multi()) {
    ctx.ReplyError("MONITOR isn't allowed for DENY BLOCKING client");
    return;
  }
  if (c.monitor() || c.repl_role() == Client::ReplRole::kReplica) return;  // no reply at all
  ctx.engine().diagnostics().AddMonitor(c);
  ctx.ReplyOk();
}

}  // namespace

// The commands of specs/monitoring.json (generated by server/command/generate_specs.py).
#include "server/engine/commands/specs/monitoring.inc"

}  // namespace redlab::server::engine
