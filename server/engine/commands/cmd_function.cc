// Functions: FCALL, FCALL_RO and FUNCTION (Redis's functions.c). The libraries live in the node's
// ScriptRunner, which also runs them; this file parses arguments, writes the FUNCTION replies and
// describes the commands.
#include <strings.h>

#include "server/base/glob.h"
#include "server/command/command_table.h"
#include "server/engine/core/context.h"
#include "server/engine/core/engine.h"
#include "server/engine/core/help.h"
#include "server/engine/core/script_runner.h"
#include "server/rdb/snapshot.h"
#include "server/scripting/script_cache.h"

namespace redlab::server::engine {
namespace {

using scripting::FunctionLibraries;

// FUNCTION LOAD's code may run this long (LOAD_TIMEOUT_MS); code from the master may run on.
constexpr int64_t kLoadTimeoutMs = 500;

constexpr std::string_view kFunctionHelp[] = {
    "LOAD [REPLACE] <FUNCTION CODE>",
    "    Create a new library with the given library name and code.",
    "DELETE <LIBRARY NAME>",
    "    Delete the given library.",
    "LIST [LIBRARYNAME PATTERN] [WITHCODE]",
    "    Return general information on all the libraries:",
    "    * Library name",
    "    * The engine used to run the Library",
    "    * Library description",
    "    * Functions list",
    "    * Library code (if WITHCODE is given)",
    "    It also possible to get only function that matches a pattern using LIBRARYNAME argument.",
    "STATS",
    "    Return information about the current function running:",
    "    * Function name",
    "    * Command used to run the function",
    "    * Duration in MS that the function is running",
    "    If no function is running, return nil",
    "    In addition, returns a list of available engines.",
    "KILL",
    "    Kill the current running function.",
    "FLUSH [ASYNC|SYNC]",
    "    Delete all the libraries.",
    "    When called without the optional mode argument, the behavior is determined by the",
    "    lazyfree-lazy-user-flush configuration directive. Valid modes are:",
    "    * ASYNC: Asynchronously flush the libraries.",
    "    * SYNC: Synchronously flush the libraries.",
    "DUMP",
    "    Return a serialized payload representing the current libraries, can be restored using "
    "FUNCTION RESTORE command",
    "RESTORE <PAYLOAD> [FLUSH|APPEND|REPLACE]",
    "    Restore the libraries represented by the given payload, it is possible to give a restore "
    "policy to",
    "    control how to handle existing libraries (default APPEND):",
    "    * FLUSH: delete all existing libraries.",
    "    * APPEND: appends the restored libraries to the existing libraries. On collision, abort.",
    "    * REPLACE: appends the restored libraries to the existing libraries, On collision, "
    "replace the old",
    "      libraries with the new libraries (notice that even on this option there is a chance "
    "of failure",
    "      in case of functions name collision with another library).",
};

FunctionLibraries& Libraries(CommandContext& ctx) { return ctx.engine().scripts().functions(); }

// Redis formats these with %s: a NUL byte ends them.
std::string CString(std::string_view s) { return std::string(s.substr(0, s.find('\0'))); }

// Like EVAL, FCALL shows itself to MONITOR before the commands its function calls.
void Fcall(CommandContext& ctx, bool read_only) {
  ctx.engine().diagnostics().FeedMonitors(ctx.client(), ctx.client().db(), ctx.args());
  ctx.engine().scripts().Fcall(ctx, read_only);
}

void FcallCommand(CommandContext& ctx) { Fcall(ctx, false); }
void FcallRoCommand(CommandContext& ctx) { Fcall(ctx, true); }

void FunctionLoadCommand(CommandContext& ctx) {
  bool replace = false;
  size_t pos = 2;
  while (pos < ctx.argc() - 1) {
    if (ctx.ArgIs(pos, "replace")) {
      replace = true;
      ++pos;
      continue;
    }
    ctx.ReplyError("Unknown option given: " + CString(ctx.arg(pos)));
    return;
  }
  bool from_master = ctx.client().repl_role() == Client::ReplRole::kMaster;
  std::string error;
  std::optional<std::string> name =
      Libraries(ctx).Create(ctx.arg(pos), replace, from_master ? 0 : kLoadTimeoutMs, &error);
  if (!name) {
    ctx.ReplyError(error);
    return;
  }
  ctx.MarkDirty();
  ctx.reply().Bulk(*name);
}

void FunctionDeleteCommand(CommandContext& ctx) {
  if (!Libraries(ctx).Delete(ctx.arg(2))) {
    ctx.ReplyError("Library not found");
    return;
  }
  ctx.MarkDirty();
  ctx.ReplyOk();
}

void FunctionFlushCommand(CommandContext& ctx) {
  if (ctx.argc() > 3) {
    ReplySubcommandSyntaxError(ctx);
    return;
  }
  // ASYNC or SYNC, or neither: the libraries are gone at once either way, which is what
  // clients see.
  if (ctx.argc() == 3 && !ctx.ArgIs(2, "sync") && !ctx.ArgIs(2, "async")) {
    ctx.ReplyError("FUNCTION FLUSH only supports SYNC|ASYNC option");
    return;
  }
  Libraries(ctx).Clear();
  ctx.MarkDirty();
  ctx.ReplyOk();
}

void FunctionListCommand(CommandContext& ctx) {
  bool with_code = false;
  bool has_pattern = false;
  std::string_view pattern;
  for (size_t i = 2; i < ctx.argc(); ++i) {
    if (!with_code && ctx.ArgIs(i, "withcode")) {
      with_code = true;
      continue;
    }
    if (!has_pattern && ctx.ArgIs(i, "libraryname")) {
      if (i >= ctx.argc() - 1) {
        ctx.ReplyError("library name argument was not given");
        return;
      }
      pattern = ctx.arg(++i);
      has_pattern = true;
      continue;
    }
    ctx.ReplyError("Unknown argument " + CString(ctx.arg(i)));
    return;
  }
  resp::ReplyWriter& reply = ctx.reply();
  const auto& libraries = Libraries(ctx).libraries();
  size_t header = reply.BeginDeferred();
  size_t count = 0;
  for (const auto& [name, library] : libraries) {
    if (has_pattern && !GlobMatch(pattern, name, /*nocase=*/true)) continue;
    ++count;
    reply.MapHeader(with_code ? 4 : 3);
    reply.Bulk("library_name");
    reply.Bulk(name);
    reply.Bulk("engine");
    reply.Bulk(scripting::kLuaEngineName);
    reply.Bulk("functions");
    reply.ArrayHeader(library->functions.size());
    for (const auto& [function_name, f] : library->functions) {
      reply.MapHeader(3);
      reply.Bulk("name");
      reply.Bulk(function_name);
      reply.Bulk("description");
      if (f.description) {
        reply.Bulk(*f.description);
      } else {
        reply.Null();
      }
      reply.Bulk("flags");
      size_t flags = 0;
      for (const scripting::ScriptFlagName& flag : scripting::kScriptFlagNames) {
        if (f.flags & flag.flag) ++flags;
      }
      reply.SetHeader(flags);
      for (const scripting::ScriptFlagName& flag : scripting::kScriptFlagNames) {
        if (f.flags & flag.flag) reply.Status(flag.name);
      }
    }
    if (with_code) {
      reply.Bulk("library_code");
      reply.Bulk(library->code);
    }
  }
  reply.EndDeferredArray(header, count);
}

void FunctionDumpCommand(CommandContext& ctx) {
  std::vector<std::string_view> codes;
  for (const auto& [name, library] : Libraries(ctx).libraries()) codes.push_back(library->code);
  ctx.reply().Bulk(rdb::DumpFunctions(codes));
}

void FunctionRestoreCommand(CommandContext& ctx) {
  if (ctx.argc() > 4) {
    ReplySubcommandSyntaxError(ctx);
    return;
  }
  enum class Policy { kFlush, kAppend, kReplace } policy = Policy::kAppend;
  if (ctx.argc() == 4) {
    if (ctx.ArgIs(3, "append")) {
      policy = Policy::kAppend;
    } else if (ctx.ArgIs(3, "replace")) {
      policy = Policy::kReplace;
    } else if (ctx.ArgIs(3, "flush")) {
      policy = Policy::kFlush;
    } else {
      ctx.ReplyError(
          "Wrong restore policy given, value should be either FLUSH, APPEND or REPLACE.");
      return;
    }
  }
  // The payload's libraries are made apart first, then joined to the node's (or put in place of
  // them): a failure anywhere leaves the node's libraries as they were.
  ScriptRunner& scripts = ctx.engine().scripts();
  FunctionLibraries restored(scripts.function_interpreter());
  std::optional<std::string> error =
      rdb::ReadFunctionsPayload(ctx.arg(2), [&](std::string&& code) -> std::optional<std::string> {
        std::string e;
        if (!restored.Create(code, /*replace=*/false, /*timeout_ms=*/0, &e)) return e;
        return std::nullopt;
      });
  if (!error) {
    std::string e;
    if (policy == Policy::kFlush) {
      scripts.functions().Swap(restored);
    } else if (!scripts.functions().Join(restored, policy == Policy::kReplace, &e)) {
      error = std::move(e);
    }
  }
  if (error) {
    ctx.ReplyError(*error);
    return;
  }
  ctx.MarkDirty();
  ctx.ReplyOk();
}

void FunctionStatsCommand(CommandContext& ctx) { ctx.engine().scripts().Stats(ctx); }
void FunctionKillCommand(CommandContext& ctx) { ctx.engine().scripts().Kill(ctx, /*eval=*/false); }
void FunctionHelpCommand(CommandContext& ctx) { ReplyHelp(ctx, kFunctionHelp); }

// FCALL's keys: numkeys at argument 2, then that many keys.
KeySpec FcallKeys(uint32_t flags, std::string_view notes) {
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

constexpr std::string_view kFcallComplexity = "Depends on the function that is executed.";

uint32_t FcallFlags(Engine& engine, std::span<const std::string> args, uint32_t flags) {
  return engine.scripts().FcallFlags(args, flags);
}

}  // namespace

void RegisterFunctionCommands(CommandTable& table) {
  table.Add({.name = "fcall",
             .arity = -3,
             .flags = kCmdNoscript | kCmdSkipMonitor | kCmdMayReplicate | kCmdNoMandatoryKeys |
                      kCmdStale | kCmdRunsScript,
             .acl = kAclScripting,
             .keys = {FcallKeys(kKeyRW | kKeyAccess | kKeyUpdate,
                                "We cannot tell how the keys will be used so we assume the worst, "
                                "RW and UPDATE")},
             .proc = FcallCommand,
             .flags_proc = FcallFlags,
             .group = "scripting",
             .since = "7.0.0",
             .summary = "Invoke a function",
             .complexity = kFcallComplexity});
  table.Add({.name = "fcall_ro",
             .arity = -3,
             .flags = kCmdNoscript | kCmdSkipMonitor | kCmdNoMandatoryKeys | kCmdStale |
                      kCmdReadonly | kCmdRunsScript,
             .acl = kAclScripting,
             .keys = {FcallKeys(kKeyRO | kKeyAccess,
                                "We cannot tell how the keys will be used so we assume the worst, "
                                "RO and ACCESS")},
             .proc = FcallRoCommand,
             .flags_proc = FcallFlags,
             .group = "scripting",
             .since = "7.0.0",
             .summary = "Invoke a read-only function",
             .complexity = kFcallComplexity});

  CommandSpec function{.name = "function",
                       .arity = -2,
                       .group = "scripting",
                       .since = "7.0.0",
                       .summary = "A container for function commands",
                       .complexity = "Depends on subcommand."};
  function.subcommands = {
      {.name = "delete",
       .arity = 3,
       .flags = kCmdNoscript | kCmdWrite,
       .acl = kAclScripting,
       .proc = FunctionDeleteCommand,
       .group = "scripting",
       .since = "7.0.0",
       .summary = "Delete a function by name",
       .complexity = "O(1)",
       .tips = {"request_policy:all_shards", "response_policy:all_succeeded"}},
      {.name = "dump",
       .arity = 2,
       .flags = kCmdNoscript,
       .acl = kAclScripting,
       .proc = FunctionDumpCommand,
       .group = "scripting",
       .since = "7.0.0",
       .summary = "Dump all functions into a serialized binary payload",
       .complexity = "O(N) where N is the number of functions"},
      {.name = "flush",
       .arity = -2,
       .flags = kCmdNoscript | kCmdWrite,
       .acl = kAclScripting,
       .proc = FunctionFlushCommand,
       .group = "scripting",
       .since = "7.0.0",
       .summary = "Deleting all functions",
       .complexity = "O(N) where N is the number of functions deleted",
       .tips = {"request_policy:all_shards", "response_policy:all_succeeded"}},
      {.name = "help",
       .arity = 2,
       .flags = kCmdLoading | kCmdStale,
       .acl = kAclScripting,
       .proc = FunctionHelpCommand,
       .group = "scripting",
       .since = "7.0.0",
       .summary = "Show helpful text about the different subcommands",
       .complexity = "O(1)"},
      {.name = "kill",
       .arity = 2,
       .flags = kCmdNoscript | kCmdAllowBusy,
       .acl = kAclScripting,
       .proc = FunctionKillCommand,
       .group = "scripting",
       .since = "7.0.0",
       .summary = "Kill the function currently in execution.",
       .complexity = "O(1)",
       .tips = {"request_policy:all_shards", "response_policy:one_succeeded"}},
      {.name = "list",
       .arity = -2,
       .flags = kCmdNoscript,
       .acl = kAclScripting,
       .proc = FunctionListCommand,
       .group = "scripting",
       .since = "7.0.0",
       .summary = "List information about all the functions",
       .complexity = "O(N) where N is the number of functions",
       .tips = {"nondeterministic_output_order"}},
      {.name = "load",
       .arity = -3,
       .flags = kCmdNoscript | kCmdWrite | kCmdDenyOom,
       .acl = kAclScripting,
       .proc = FunctionLoadCommand,
       .group = "scripting",
       .since = "7.0.0",
       .summary = "Create a function with the given arguments (name, code, description)",
       .complexity = "O(1) (considering compilation time is redundant)",
       .tips = {"request_policy:all_shards", "response_policy:all_succeeded"}},
      {.name = "restore",
       .arity = -3,
       .flags = kCmdNoscript | kCmdWrite | kCmdDenyOom,
       .acl = kAclScripting,
       .proc = FunctionRestoreCommand,
       .group = "scripting",
       .since = "7.0.0",
       .summary = "Restore all the functions on the given payload",
       .complexity = "O(N) where N is the number of functions on the payload",
       .tips = {"request_policy:all_shards", "response_policy:all_succeeded"}},
      {.name = "stats",
       .arity = 2,
       .flags = kCmdNoscript | kCmdAllowBusy,
       .acl = kAclScripting,
       .proc = FunctionStatsCommand,
       .group = "scripting",
       .since = "7.0.0",
       .summary = "Return information about the function currently running (name, description, "
                  "duration)",
       .complexity = "O(1)",
       .tips = {"nondeterministic_output", "request_policy:all_shards", "response_policy:special"}},
  };
  table.Add(std::move(function));
}

}  // namespace redlab::server::engine
