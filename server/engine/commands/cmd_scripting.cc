// Scripting commands: EVAL, EVALSHA, EVAL_RO, EVALSHA_RO and SCRIPT (Redis's eval.c). The work is
// done by the node's ScriptRunner; this file parses arguments and describes the commands.
#include "server/base/text.h"
#include "server/command/command_table.h"
#include "server/engine/core/context.h"
#include "server/engine/core/engine.h"
#include "server/engine/core/help.h"
#include "server/engine/core/script_runner.h"
#include "server/scripting/conversions.h"

namespace redlab::server::engine {
namespace {

constexpr std::string_view kScriptHelp[] = {
    "DEBUG (YES|SYNC|NO)",
    "    Set the debug mode for subsequent scripts executed.",
    "EXISTS <sha1> [<sha1> ...]",
    "    Return information about the existence of the scripts in the script cache.",
    "FLUSH [ASYNC|SYNC]",
    "    Flush the Lua scripts cache. Very dangerous on replicas.",
    "    When called without the optional mode argument, the behavior is determined by the",
    "    lazyfree-lazy-user-flush configuration directive. Valid modes are:",
    "    * ASYNC: Asynchronously flush the scripts cache.",
    "    * SYNC: Synchronously flush the scripts cache.",
    "KILL",
    "    Kill the currently executing Lua script.",
    "LOAD <script>",
    "    Load a script into the scripts cache without executing it.",
};

// The EVAL family skips MONITOR's usual feeding after the command: it shows itself first, so
// that the commands its script calls come after it.
void Eval(CommandContext& ctx, bool by_sha, bool read_only) {
  ctx.engine().diagnostics().FeedMonitors(ctx.client(), ctx.client().db(), ctx.args());
  ctx.engine().scripts().Eval(ctx, by_sha, read_only);
}

void EvalCommand(CommandContext& ctx) { Eval(ctx, false, false); }
void EvalRoCommand(CommandContext& ctx) { Eval(ctx, false, true); }
void EvalShaCommand(CommandContext& ctx) { Eval(ctx, true, false); }
void EvalShaRoCommand(CommandContext& ctx) { Eval(ctx, true, true); }

uint32_t EvalFlags(Engine& engine, std::span<const std::string> args, uint32_t flags) {
  return engine.scripts().EvalFlags(args, false, flags);
}
uint32_t EvalShaFlags(Engine& engine, std::span<const std::string> args, uint32_t flags) {
  return engine.scripts().EvalFlags(args, true, flags);
}

void ScriptLoadCommand(CommandContext& ctx) {
  std::string sha;
  std::string error;
  if (ctx.engine().scripts().cache().Load(ctx.arg(2), &sha, &error) == nullptr) {
    scripting::WriteFormattedError(ctx.reply(), error, true);
    return;
  }
  ctx.reply().Bulk(sha);
}

void ScriptExistsCommand(CommandContext& ctx) {
  // SHA1s are looked up ignoring case.
  scripting::ScriptCache& cache = ctx.engine().scripts().cache();
  ctx.reply().ArrayHeader(ctx.argc() - 2);
  for (size_t i = 2; i < ctx.argc(); ++i) {
    ctx.reply().Integer(cache.Find(ToLower(ctx.arg(i))) != nullptr ? 1 : 0);
  }
}

void ScriptFlushCommand(CommandContext& ctx) {
  // ASYNC or SYNC, or neither (lazyfree-lazy-user-flush decides): the cache is emptied at once
  // either way, which is what clients see.
  if (!(ctx.argc() == 2 || (ctx.argc() == 3 && (ctx.ArgIs(2, "sync") || ctx.ArgIs(2, "async"))))) {
    ctx.ReplyError("SCRIPT FLUSH only support SYNC|ASYNC option");
    return;
  }
  ctx.engine().scripts().cache().Flush();
  ctx.ReplyOk();
}

void ScriptKillCommand(CommandContext& ctx) { ctx.engine().scripts().Kill(ctx, /*eval=*/true); }

// The Lua debugger (LDB) is not implemented: SCRIPT DEBUG NO is accepted (it is the state
// scripts always run in), YES and SYNC are refused.
void ScriptDebugCommand(CommandContext& ctx) {
  if (ctx.ArgIs(2, "no")) {
    ctx.ReplyOk();
  } else if (ctx.ArgIs(2, "yes") || ctx.ArgIs(2, "sync")) {
    ctx.ReplyError("redlab does not implement the Lua debugger (SCRIPT DEBUG YES|SYNC)");
  } else {
    ctx.ReplyError("Use SCRIPT DEBUG YES/SYNC/NO");
  }
}

void ScriptHelpCommand(CommandContext& ctx) { ReplyHelp(ctx, kScriptHelp); }

// EVAL's keys: numkeys at argument 2, then that many keys.
KeySpec EvalKeys(uint32_t flags, std::string_view notes) {
  KeySpec k;
  k.flags = flags;
  k.begin_index = 2;
  k.keynum = true;
  k.keynum_index = 0;
  k.first_key = 1;
  k.key_step = 1;
  k.notes = notes;
  return k;
}

constexpr std::string_view kEvalComplexity = "Depends on the script that is executed.";

}  // namespace

void RegisterScriptingCommands(CommandTable& table) {
  constexpr uint32_t kEvalFlags =
      kCmdNoscript | kCmdStale | kCmdSkipMonitor | kCmdMayReplicate | kCmdNoMandatoryKeys;
  constexpr uint32_t kRwKeys = kKeyRW | kKeyAccess | kKeyUpdate;
  constexpr uint32_t kRoKeys = kKeyRO | kKeyAccess;
  table.Add({.name = "eval",
             .arity = -3,
             .flags = kEvalFlags | kCmdRunsScript,
             .acl = kAclScripting,
             .keys = {EvalKeys(kRwKeys,
                               "We cannot tell how the keys will be used so we assume the "
                               "worst, RW and UPDATE")},
             .proc = EvalCommand,
             .flags_proc = EvalFlags,
             .group = "scripting",
             .since = "2.6.0",
             .summary = "Execute a Lua script server side",
             .complexity = kEvalComplexity});
  table.Add({.name = "evalsha",
             .arity = -3,
             .flags = kEvalFlags | kCmdRunsScript,
             .acl = kAclScripting,
             .keys = {EvalKeys(kRwKeys, "")},
             .proc = EvalShaCommand,
             .flags_proc = EvalShaFlags,
             .group = "scripting",
             .since = "2.6.0",
             .summary = "Execute a Lua script server side",
             .complexity = kEvalComplexity});
  table.Add({.name = "eval_ro",
             .arity = -3,
             .flags = kCmdReadonly | kCmdNoscript | kCmdStale | kCmdSkipMonitor |
                      kCmdNoMandatoryKeys | kCmdRunsScript,
             .acl = kAclScripting,
             .keys = {EvalKeys(kRoKeys,
                               "We cannot tell how the keys will be used so we assume the "
                               "worst, RO and ACCESS")},
             .proc = EvalRoCommand,
             .flags_proc = EvalFlags,
             .group = "scripting",
             .since = "7.0.0",
             .summary = "Execute a read-only Lua script server side",
             .complexity = kEvalComplexity});
  table.Add({.name = "evalsha_ro",
             .arity = -3,
             .flags = kCmdReadonly | kCmdNoscript | kCmdStale | kCmdSkipMonitor |
                      kCmdNoMandatoryKeys | kCmdRunsScript,
             .acl = kAclScripting,
             .keys = {EvalKeys(kRoKeys, "")},
             .proc = EvalShaRoCommand,
             .flags_proc = EvalShaFlags,
             .group = "scripting",
             .since = "7.0.0",
             .summary = "Execute a read-only Lua script server side",
             .complexity = kEvalComplexity});

  CommandSpec script{.name = "script",
                     .arity = -2,
                     .group = "scripting",
                     .since = "2.6.0",
                     .summary = "A container for Lua scripts management commands",
                     .complexity = "Depends on subcommand."};
  script.subcommands = {
      {.name = "debug",
       .arity = 3,
       .flags = kCmdNoscript,
       .acl = kAclScripting,
       .proc = ScriptDebugCommand,
       .group = "scripting",
       .since = "3.2.0",
       .summary = "Set the debug mode for executed scripts.",
       .complexity = "O(1)"},
      {.name = "exists",
       .arity = -3,
       .flags = kCmdNoscript,
       .acl = kAclScripting,
       .proc = ScriptExistsCommand,
       .group = "scripting",
       .since = "2.6.0",
       .summary = "Check existence of scripts in the script cache.",
       .complexity = "O(N) with N being the number of scripts to check (so checking a single "
                     "script is an O(1) operation).",
       .tips = {"request_policy:all_shards", "response_policy:agg_logical_and"}},
      {.name = "flush",
       .arity = -2,
       .flags = kCmdNoscript,
       .acl = kAclScripting,
       .proc = ScriptFlushCommand,
       .group = "scripting",
       .since = "2.6.0",
       .summary = "Remove all the scripts from the script cache.",
       .complexity = "O(N) with N being the number of scripts in cache",
       .tips = {"request_policy:all_nodes", "response_policy:all_succeeded"}},
      {.name = "help",
       .arity = 2,
       .flags = kCmdLoading | kCmdStale,
       .acl = kAclScripting,
       .proc = ScriptHelpCommand,
       .group = "scripting",
       .since = "5.0.0",
       .summary = "Show helpful text about the different subcommands",
       .complexity = "O(1)"},
      {.name = "kill",
       .arity = 2,
       .flags = kCmdNoscript | kCmdAllowBusy,
       .acl = kAclScripting,
       .proc = ScriptKillCommand,
       .group = "scripting",
       .since = "2.6.0",
       .summary = "Kill the script currently in execution.",
       .complexity = "O(1)",
       .tips = {"request_policy:all_shards", "response_policy:one_succeeded"}},
      {.name = "load",
       .arity = 3,
       .flags = kCmdNoscript | kCmdStale,
       .acl = kAclScripting,
       .proc = ScriptLoadCommand,
       .group = "scripting",
       .since = "2.6.0",
       .summary = "Load the specified Lua script into the script cache.",
       .complexity = "O(N) with N being the length in bytes of the script body.",
       .tips = {"request_policy:all_nodes", "response_policy:all_succeeded"}},
  };
  table.Add(std::move(script));
}

}  // namespace redlab::server::engine
