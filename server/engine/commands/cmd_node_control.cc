// redlab's FAULT and TOPOLOGY (no Redis counterpart): the engine checks them as any command
// (authentication, MULTI, a busy script, the user's rights) and the node serves them through
// EngineHost::RunNodeCommand. They are hidden (CommandTable::AddHidden), so COMMAND, INFO and
// ACL go on describing exactly Redis's commands.
#include "server/engine/commands/families.h"
#include "server/engine/core/context.h"
#include "server/engine/core/engine.h"

namespace redlab::server::engine {
namespace {

void NodeControlCommand(CommandContext& ctx) {
  ctx.engine().host()->RunNodeCommand(ctx.client(), ctx.args(), ctx.reply());
}

// Allowed wherever breaking or mending the node must stay possible: while loading, on a stale
// replica, during a busy script, to a RESP2 subscriber; never inside MULTI, never from a script,
// never paused (kCmdNodeControl), never in MONITOR or the slow log. FAULT checks its own
// arguments, so any count reaches it.
constexpr uint32_t kNodeControlFlags = kCmdNodeControl | kCmdAdmin | kCmdNoscript | kCmdNoMulti |
                                       kCmdLoading | kCmdStale | kCmdAllowBusy |
                                       kCmdSubscribedContext | kCmdSkipMonitor | kCmdSkipSlowlog;

}  // namespace

void RegisterNodeControlCommands(CommandTable& table) {
  for (std::string_view name : {"fault", "topology"}) {
    table.AddHidden({.name = name, .arity = -1, .flags = kNodeControlFlags,
                     .proc = NodeControlCommand});
  }
}

}  // namespace redlab::server::engine
