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

uint32_t FcallFlags(Engine& engine, std::span<const std::string> args, uint32_t flags) {
  return engine.scripts().FcallFlags(args, flags);
}

}  // namespace

// The commands of specs/function.json (generated by server/command/generate_specs.py).
#include "server/engine/commands/specs/function.inc"

}  // namespace redlab::server::engine
