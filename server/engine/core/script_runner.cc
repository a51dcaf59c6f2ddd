#include "server/engine/core/script_runner.h"


#include "server/base/monotonic.h"
#include "server/base/text.h"
#include "server/engine/core/context.h"
#include "server/engine/core/errors.h"
#include "server/scripting/conversions.h"
#include "server/scripting/sha1hex.h"

namespace redlab::server::engine {
namespace {

using scripting::Script;
using scripting::ScriptCache;

constexpr std::string_view kNoScript = "-NOSCRIPT No matching script. Please use EVAL.";
constexpr std::string_view kBusyEval = err::kBusyScript;
constexpr std::string_view kBusyFunction =
    "-BUSY Redis is busy running a script. You can only call FUNCTION KILL or SHUTDOWN NOSAVE.";

// Redis's server.script_oom: over maxmemory even after evicting what the policy allows.
bool OutOfMemory(Engine& engine) {
  return engine.config().maxmemory > 0 && !engine.memory().EnforceMaxmemory();
}

// scriptFlagsToCmdFlags: a script that declares its flags replaces the command's write, deny-oom
// and stale flags by its own (no-writes implies allow-oom), and never "may replicate": it writes
// or it does not.
uint32_t ScriptCommandFlags(uint32_t command_flags, uint64_t script_flags) {
  uint32_t flags = command_flags & ~(kCmdStale | kCmdDenyOom | kCmdWrite | kCmdMayReplicate);
  if (!(script_flags & (scripting::kScriptAllowOom | scripting::kScriptNoWrites))) {
    flags |= kCmdDenyOom;
  }
  if (!(script_flags & scripting::kScriptNoWrites)) flags |= kCmdWrite;
  if (script_flags & scripting::kScriptAllowStale) flags |= kCmdStale;
  return flags;
}

// EVAL's and FCALL's checks of numkeys.
bool CheckNumkeys(CommandContext& ctx, int64_t numkeys) {
  if (numkeys > static_cast<int64_t>(ctx.argc()) - 3) {
    ctx.ReplyError("Number of keys can't be greater than number of args");
    return false;
  }
  if (numkeys < 0) {
    ctx.ReplyError("Number of keys can't be negative");
    return false;
  }
  return true;
}

int LogVerbosity(std::string_view loglevel) {
  if (loglevel == "debug") return scripting::kLogDebug;
  if (loglevel == "verbose") return scripting::kLogVerbose;
  if (loglevel == "warning") return scripting::kLogWarning;
  return scripting::kLogNotice;
}

}  // namespace

// The engine side of redis.call: Engine's members that exist for scripts.
std::optional<std::string> Engine::CallFromScript(Client& client, ScriptCall& call,
                                                  std::span<std::string> args, std::string* reply) {
  const Command* cmd = commands_.Resolve(args);
  client.set_last_command(cmd);
  // A refusal is counted as an error reply and, for a known command, as a rejected call.
  auto refuse = [&](std::string text) -> std::optional<std::string> {
    stats_.OnErrorReply(text[0] == '-' ? text.substr(1) : "ERR " + text);
    if (cmd != nullptr) stats_.CountScriptRefusal(*cmd);
    return text;
  };
  if (cmd == nullptr) return refuse("Unknown Redis command called from script");
  if (!cmd->ArityAccepts(args.size())) {
    return refuse("Wrong number of args calling Redis command from script");
  }
  if (cmd->has(kCmdNoscript) && !debug_settings_.disable_deny_scripts()) {
    return refuse("This Redis command is not allowed from script");
  }
  // scriptVerifyAllowStale
  if (replication_->is_replica() && !replication_->link_up() && !config_.replica_serve_stale_data &&
      !cmd->has(kCmdStale)) {
    return refuse("Can not execute the command on a stale replica");
  }
  // scriptVerifyACL: the script's client runs as the user that runs the script.
  if (const acl::User* user = client.user(); user != nullptr && !user->unrestricted()) {
    if (auto refusal = auth_.ScriptRefusal(client, call, *cmd, args)) return refuse(*refusal);
  }
  // scriptVerifyWriteCommandAllow: may-replicate commands (PUBLISH...) count as writes here, so
  // read-only scripts may run under CLIENT PAUSE WRITE.
  if (call.read_only && (cmd->is_write() || cmd->has(kCmdMayReplicate))) {
    return refuse("Write commands are not allowed from read-only scripts.");
  }
  // Once the script has written, it cannot be failed halfway on the server's state.
  if (cmd->is_write() && !call.wrote) {
    if (std::string_view refusal = WriteRefusal(call.from_master); !refusal.empty()) {
      // Redis's script error for these is the bare text: its "-CODE" prefix marks the code.
      return refuse(std::string(refusal));
    }
  }
  // Over maxmemory, a script may not grow memory, but only until its first write: it cannot be
  // stopped halfway after that.
  if (call.deny_oom && !call.wrote && cmd->has(kCmdDenyOom)) return refuse(std::string(err::kOom));
  if (cmd->is_write()) call.wrote = true;

  resp::ReplyWriter writer(reply, client.protocol());
  writer.set_error_listener(&stats_);
  Call(client, *cmd, args, writer, call.propagate);
  // A script that reads makes its tracking caller remember every key the script declared.
  if (call.caller != nullptr && call.caller->tracking().on && cmd->has(kCmdReadonly)) {
    messaging_.RememberTrackedKeys(*call.caller, *call.caller_cmd, call.caller_args);
  }
  return std::nullopt;
}

ScriptRunner& Engine::scripts() {
  if (scripts_ == nullptr) scripts_ = std::make_unique<ScriptRunner>(*this);
  return *scripts_;
}

bool Engine::script_busy() const { return scripts_ != nullptr && scripts_->busy(); }

ScriptRunner::ScriptRunner(Engine& engine)
    : engine_(engine), client_(/*id=*/0, /*io=*/nullptr, engine.clock().NowMs()) {
  client_.set_authenticated(true);
  client_.set_deny_blocking(true);  // blocking commands in scripts return at once
  client_.set_script();
}

ScriptRunner::~ScriptRunner() = default;

void ScriptRunner::Eval(CommandContext& ctx, bool evalsha, bool read_only) {
  // EVAL propagates nothing itself: the script's writes propagate as they happen (effects).
  ctx.PreventPropagation();
  const std::string& source = ctx.arg(1);
  if (evalsha && source.size() != 40) {
    ctx.ReplyError(kNoScript);
    return;
  }
  const Script* script = evalsha ? cache_.Find(source) : nullptr;

  // Computed once per script, before it runs (server.script_oom), so memory used by the script
  // itself does not count. (A script whose shebang does not allow running over maxmemory was
  // refused before: Engine::CommandFlags gives it the deny-oom flag, as evalGetCommandFlags.)
  bool oom = OutOfMemory(engine_);

  int64_t numkeys = 0;
  if (!ctx.IntArg(2, &numkeys)) return;
  if (!CheckNumkeys(ctx, numkeys)) return;

  if (evalsha) {
    if (script == nullptr) {
      ctx.ReplyError(kNoScript);
      return;
    }
  } else {
    std::string sha;
    std::string error;
    script = cache_.Load(source, &sha, &error);
    if (script == nullptr) {
      scripting::WriteFormattedError(ctx.reply(), error, true);
      return;
    }
  }

  Run run;
  if (!Prepare(ctx, script->flags, read_only, oom, &run)) return;
  run.eval = true;
  run.name = script->sha;
  size_t keys = static_cast<size_t>(numkeys);
  std::span<std::string> args = ctx.args();
  scripting::Interpreter::Run lua_run{
      .function = script->function,
      .sha = script->sha,
      .keys = args.subspan(3, keys),
      .args = args.subspan(3 + keys),
  };
  Execute(ctx, run, interpreter_, lua_run);
}

void ScriptRunner::Fcall(CommandContext& ctx, bool read_only) {
  // As EVAL: the function's writes propagate as they happen.
  ctx.PreventPropagation();
  const scripting::FunctionInfo* function = functions_.Find(ctx.arg(1));
  if (function == nullptr) {
    ctx.ReplyError("Function not found");
    return;
  }
  int64_t numkeys = 0;
  if (!ctx.IntArg(2, &numkeys, "Bad number of keys provided")) return;
  if (!CheckNumkeys(ctx, numkeys)) return;

  Run run;
  if (!Prepare(ctx, function->flags, read_only, OutOfMemory(engine_), &run)) return;
  // Kept apart from the library, which nothing can change while the function runs anyway.
  std::string name = function->name;
  run.eval = false;
  run.name = name;
  size_t keys = static_cast<size_t>(numkeys);
  std::span<std::string> args = ctx.args();
  scripting::Interpreter::Run lua_run{
      .function_ref = function->ref,
      .sha = name,
      .keys = args.subspan(3, keys),
      .args = args.subspan(3 + keys),
  };
  Execute(ctx, run, function_interpreter_, lua_run);
}

bool ScriptRunner::Prepare(CommandContext& ctx, uint64_t flags, bool read_only, bool oom,
                           Run* run) {
  const ReplicationRole& repl = engine_.replication();
  const ServerConfig& config = engine_.config();
  bool from_master = ctx.client().repl_role() == Client::ReplRole::kMaster;
  bool running_stale = repl.is_replica() && !repl.link_up() && !config.replica_serve_stale_data;
  bool compat = (flags & scripting::kScriptEvalCompatMode) != 0;
  if (compat) {
    if (running_stale) {
      ctx.ReplyError(
          "-MASTERDOWN Link with MASTER is down and replica-serve-stale-data is set to 'no'.");
      return false;
    }
  } else {
    if (running_stale && !(flags & scripting::kScriptAllowStale)) {
      ctx.ReplyError(
          "-MASTERDOWN Link with MASTER is down, replica-serve-stale-data is set to 'no' and "
          "'allow-stale' flag is not set on the script.");
      return false;
    }
    if (!(flags & scripting::kScriptNoWrites)) {
      if (repl.is_replica() && config.replica_read_only && !from_master) {
        ctx.ReplyError("-READONLY Can not run script with write flag on readonly replica");
        return false;
      }
      if (read_only) {
        ctx.ReplyError("Can not execute a script with write flag using *_ro command.");
        return false;
      }
      if (!repl.is_replica() && config.min_replicas_to_write > 0 &&
          config.min_replicas_max_lag > 0 && repl.GoodReplicas() < config.min_replicas_to_write) {
        ctx.ReplyError("-NOREPLICAS Not enough good replicas to write.");
        return false;
      }
    }
    // (Usually refused before: processCommand sees the script's flags too.)
    if (oom && !(flags & (scripting::kScriptAllowOom | scripting::kScriptNoWrites))) {
      ctx.ReplyError(
          "-OOM allow-oom flag is not set on the script, can not run it when used memory > "
          "'maxmemory'");
      return false;
    }
  }
  run->from_master = from_master;
  run->call.from_master = from_master;
  run->call.read_only = read_only || (!compat && (flags & scripting::kScriptNoWrites));
  run->call.deny_oom = oom && (compat || !(flags & scripting::kScriptAllowOom));
  run->call.caller = &ctx.client();
  run->call.caller_cmd = &ctx.command();
  run->call.caller_args = ctx.args();
  return true;
}

void ScriptRunner::Execute(CommandContext& ctx, Run& run, scripting::Interpreter& interpreter,
                           scripting::Interpreter::Run& lua_run) {
  run.caller = ctx.args();
  run.start_us = MonotonicUs();  // busy time is real elapsed time, whatever the node's clock
  client_.set_db(ctx.client().db());
  client_.set_protocol(2);
  // The script's commands run as the user that runs the script (Redis's scriptCall).
  client_.set_user(ctx.client().user());
  run_ = &run;
  lua_run.interrupt_hook = engine_.config().busy_reply_threshold > 0;
  size_t reply_start = ctx.reply().buffer()->size();
  interpreter.Execute(lua_run, *this, ctx.reply());
  run_ = nullptr;
  if (run.shutdown) {
    ctx.reply().buffer()->resize(reply_start);
    ctx.client().set_close_after_reply();
  }
}

void ScriptRunner::Kill(CommandContext& ctx, bool eval) {
  if (run_ == nullptr) {
    ctx.ReplyError("-NOTBUSY No scripts in execution right now.");
    return;
  }
  if (run_->from_master) {
    ctx.ReplyError(
        "-UNKILLABLE The busy script was sent by a master instance in the context of replication "
        "and cannot be killed.");
    return;
  }
  if (run_->call.wrote) {
    ctx.ReplyError(
        "-UNKILLABLE Sorry the script already executed write commands against the dataset. You "
        "can either wait the script termination or kill the server in a hard way using the "
        "SHUTDOWN NOSAVE command.");
    return;
  }
  // SCRIPT KILL stops only scripts, FUNCTION KILL only functions.
  if (eval != run_->eval) {
    ctx.ReplyError(BusyError());
    return;
  }
  run_->killed = true;
  ctx.ReplyOk();
}

void ScriptRunner::AbortForShutdown() {
  if (run_ == nullptr) return;
  run_->killed = true;
  run_->shutdown = true;
}

void ScriptRunner::Stats(CommandContext& ctx) {
  if (run_ != nullptr && run_->eval) {
    ctx.ReplyError(kBusyEval);
    return;
  }
  resp::ReplyWriter& reply = ctx.reply();
  reply.MapHeader(2);
  reply.Bulk("running_script");
  if (run_ == nullptr) {
    reply.Null();
  } else {
    reply.MapHeader(3);
    reply.Bulk("name");
    reply.Bulk(run_->name);
    reply.Bulk("command");
    reply.ArrayHeader(run_->caller.size());
    for (const std::string& arg : run_->caller) reply.Bulk(arg);
    reply.Bulk("duration_ms");
    reply.Integer((MonotonicUs() - run_->start_us) / 1000);
  }
  size_t functions = 0;
  for (const auto& [name, library] : functions_.libraries()) functions += library->functions.size();
  reply.Bulk("engines");
  reply.MapHeader(1);
  reply.Bulk(scripting::kLuaEngineName);
  reply.MapHeader(2);
  reply.Bulk("libraries_count");
  reply.Integer(static_cast<int64_t>(functions_.libraries().size()));
  reply.Bulk("functions_count");
  reply.Integer(static_cast<int64_t>(functions));
}

std::string_view ScriptRunner::BusyError() const {
  return run_ != nullptr && !run_->eval ? kBusyFunction : kBusyEval;
}

uint32_t ScriptRunner::FcallFlags(std::span<const std::string> args, uint32_t command_flags) const {
  if (args.size() < 2) return command_flags;
  const scripting::FunctionInfo* function = functions_.Find(args[1]);
  if (function == nullptr) return command_flags;
  return ScriptCommandFlags(command_flags, function->flags);
}

uint32_t ScriptRunner::EvalFlags(std::span<const std::string> args, bool evalsha,
                                 uint32_t command_flags) const {
  if (args.size() < 2) return command_flags;
  uint64_t flags = 0;
  if (evalsha) {
    if (args[1].size() != 40) return command_flags;
    const Script* script = cache_.Find(args[1]);
    if (script == nullptr) return command_flags;
    flags = script->flags;
  } else {
    // A cached script's flags come from its shebang too, so the body alone tells them: no SHA1
    // to compute on every EVAL.
    size_t shebang_length = 0;
    std::string ignored;
    if (!scripting::ParseShebang(args[1], &flags, &shebang_length, &ignored)) {
      return command_flags;
    }
  }
  // Scripts without a shebang keep EVAL's own flags.
  if (flags & scripting::kScriptEvalCompatMode) return command_flags;
  return ScriptCommandFlags(command_flags, flags);
}

bool ScriptRunner::Call(std::span<std::string> args, int resp, std::string* reply,
                        std::string* error) {
  client_.set_protocol(resp);
  std::optional<std::string> refused = engine_.CallFromScript(client_, run_->call, args, reply);
  if (refused) {
    *error = std::move(*refused);
    return false;
  }
  return true;
}

std::optional<bool> ScriptRunner::AclCheckCommand(std::span<const std::string> args) {
  const Command* cmd = engine_.commands().Resolve(args);
  if (cmd == nullptr) return std::nullopt;
  const acl::User* user = run_->call.caller->user();
  return user == nullptr || user->unrestricted() || acl::CheckCommand(*user, *cmd, args).allowed();
}

bool ScriptRunner::Interrupt() {
  if (run_->timed_out) {
    // Already busy: serve the other clients a little more, then see whether we were killed.
    engine_.host()->ProcessEventsWhileBlocked();
    return run_->killed;
  }
  int64_t elapsed_ms = (MonotonicUs() - run_->start_us) / 1000;
  if (elapsed_ms < engine_.config().busy_reply_threshold) return false;
  engine_.host()->Log(scripting::kLogWarning,
                      "Slow script detected: still in execution after " +
                          std::to_string(elapsed_ms) +
                          " milliseconds. You can try killing the script using the " +
                          (run_->eval ? "SCRIPT KILL" : "FUNCTION KILL") +
                          " command. Script name is: " + std::string(run_->name) + ".");
  run_->timed_out = true;
  engine_.host()->ProcessEventsWhileBlocked();
  return run_->killed;
}

void ScriptRunner::SetRepl(int flags) {
  // redlab has no AOF: only the replica part of the flags matters.
  run_->call.propagate = (flags & scripting::kReplReplica) != 0;
}

void ScriptRunner::Log(int level, std::string_view message) {
  if (level < LogVerbosity(engine_.config().loglevel)) return;
  engine_.host()->Log(level, message);
}

}  // namespace redlab::server::engine
