#include "server/engine/script_runner.h"

#include <chrono>

#include "server/engine/context.h"
#include "server/engine/errors.h"
#include "server/engine/text.h"
#include "server/replication/replication.h"
#include "server/scripting/conversions.h"
#include "server/scripting/sha1hex.h"

namespace redlab::server::engine {
namespace {

using scripting::Script;
using scripting::ScriptCache;

constexpr std::string_view kNoScript = "-NOSCRIPT No matching script. Please use EVAL.";

// Busy time is real elapsed time, as Redis measures it (monotonic), whatever the node's clock.
int64_t SteadyUs() {
  return std::chrono::duration_cast<std::chrono::microseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// Redis's server.script_oom: over maxmemory even after evicting what the policy allows.
bool OutOfMemory(Engine& engine) {
  return engine.config().maxmemory > 0 && !engine.EnforceMaxmemory();
}

int LogVerbosity(std::string_view loglevel) {
  if (loglevel == "debug") return scripting::kLogDebug;
  if (loglevel == "verbose") return scripting::kLogVerbose;
  if (loglevel == "warning") return scripting::kLogWarning;
  if (loglevel == "nothing") return scripting::kLogWarning + 1;
  return scripting::kLogNotice;
}

}  // namespace

// The engine side of redis.call: Engine's members that exist for scripts.
std::optional<std::string> Engine::CallFromScript(Client& client, ScriptCall& call,
                                                  std::span<std::string> args, std::string* reply) {
  const Command* cmd = commands_.Resolve(args);
  // A refusal is counted as an error reply and, for a known command, as a rejected call.
  auto refuse = [&](std::string text) -> std::optional<std::string> {
    OnErrorReply(text[0] == '-' ? text.substr(1) : "ERR " + text);
    if (cmd != nullptr) ++command_stats_[cmd->id].rejected_calls;
    return text;
  };
  int argc = static_cast<int>(args.size());
  if (cmd == nullptr) return refuse("Unknown Redis command called from script");
  if ((cmd->arity() > 0 && cmd->arity() != argc) || argc < -cmd->arity()) {
    return refuse("Wrong number of args calling Redis command from script");
  }
  if (cmd->has(kCmdNoscript)) return refuse("This Redis command is not allowed from script");
  // scriptVerifyAllowStale
  if (replication_->is_replica() && !replication_->link_up() && !config_.replica_serve_stale_data &&
      !cmd->has(kCmdStale)) {
    return refuse("Can not execute the command on a stale replica");
  }
  // scriptVerifyWriteCommandAllow: may-replicate commands (PUBLISH...) count as writes here, so
  // read-only scripts may run under CLIENT PAUSE WRITE.
  if (call.read_only && (cmd->is_write() || cmd->has(kCmdMayReplicate))) {
    return refuse("Write commands are not allowed from read-only scripts.");
  }
  // Once the script has written, it cannot be failed halfway on the server's state.
  if (cmd->is_write() && !call.wrote) {
    if (std::string_view refusal = WriteRefusal(call.obey_caller); !refusal.empty()) {
      // Redis's script error for these is the bare text: its "-CODE" prefix marks the code.
      return refuse(std::string(refusal));
    }
  }
  // Over maxmemory, a script may not grow memory, but only until its first write: it cannot be
  // stopped halfway after that.
  if (call.deny_oom && !call.wrote && cmd->has(kCmdDenyOom)) return refuse(std::string(err::kOom));
  if (cmd->is_write()) call.wrote = true;

  resp::ReplyWriter writer(reply, client.protocol());
  writer.set_error_listener(this);
  Call(client, *cmd, args, writer, call.propagate);
  // A script that reads makes its tracking caller remember every key the script declared.
  if (call.caller != nullptr && call.caller->tracking().on && cmd->has(kCmdReadonly)) {
    RememberTrackedKeys(*call.caller, *call.caller_cmd, call.caller_args);
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

uint32_t ScriptRunner::EvalCommandFlags(std::span<const std::string> args, bool evalsha,
                                        uint32_t flags) const {
  uint64_t script_flags = 0;
  if (evalsha) {
    if (args[1].size() != 40) return flags;
    const Script* script = cache_.Find(ToLower(args[1]));
    if (script == nullptr) return flags;
    script_flags = script->flags;
  } else {
    // A cached script's flags come from its shebang too, so the body alone tells them (no SHA1
    // to compute on every EVAL).
    size_t shebang_length = 0;
    std::string ignored;
    if (!scripting::ParseShebang(args[1], &script_flags, &shebang_length, &ignored)) return flags;
  }
  if (script_flags & scripting::kScriptEvalCompatMode) return flags;
  // scriptFlagsToCmdFlags: the script's declaration replaces write, deny-oom and stale, and
  // with it known, may-replicate no longer applies.
  flags &= ~(kCmdStale | kCmdDenyOom | kCmdWrite | kCmdMayReplicate);
  if (!(script_flags & (scripting::kScriptAllowOom | scripting::kScriptNoWrites))) {
    flags |= kCmdDenyOom;
  }
  if (!(script_flags & scripting::kScriptNoWrites)) flags |= kCmdWrite;
  if (script_flags & scripting::kScriptAllowStale) flags |= kCmdStale;
  return flags;
}

void ScriptRunner::Eval(CommandContext& ctx, bool evalsha, bool read_only) {
  // EVAL propagates nothing itself: the script's writes propagate as they happen (effects).
  ctx.PreventPropagation();
  const std::string& source = ctx.arg(1);
  if (evalsha && source.size() != 40) {
    ctx.ReplyError(kNoScript);
    return;
  }
  std::string sha = evalsha ? ToLower(source) : std::string();
  const Script* script = evalsha ? cache_.Find(sha) : nullptr;

  // Computed once per script, before it runs (server.script_oom), so memory used by the script
  // itself does not count.
  // (A script whose shebang does not allow running over maxmemory was refused before it got
  // here: EvalCommandFlags gave it deny-oom.)
  bool oom = OutOfMemory(engine_);

  int64_t numkeys = 0;
  if (!ctx.IntArg(2, &numkeys)) return;
  if (numkeys > static_cast<int64_t>(ctx.argc()) - 3) {
    ctx.ReplyError("Number of keys can't be greater than number of args");
    return;
  }
  if (numkeys < 0) {
    ctx.ReplyError("Number of keys can't be negative");
    return;
  }

  if (evalsha) {
    if (script == nullptr) {
      ctx.ReplyError(kNoScript);
      return;
    }
  } else {
    std::string error;
    script = cache_.Load(source, &sha, &error);
    if (script == nullptr) {
      scripting::WriteFormattedError(ctx.reply(), error, true);
      return;
    }
  }

  // scriptPrepareForRun's checks of the shebang flags. (Its own "allow-oom flag is not set"
  // refusal cannot be reached: the same scripts were refused above, as processCommand does.)
  bool compat = (script->flags & scripting::kScriptEvalCompatMode) != 0;
  bool from_master = ctx.client().repl_role() == Client::ReplRole::kMaster;
  if (!compat) {
    const replication::Replication& repl = engine_.replication();
    if (repl.is_replica() && !repl.link_up() && !engine_.config().replica_serve_stale_data &&
        !(script->flags & scripting::kScriptAllowStale)) {
      ctx.ReplyError(
          "-MASTERDOWN Link with MASTER is down, replica-serve-stale-data is set to 'no' and "
          "'allow-stale' flag is not set on the script.");
      return;
    }
    if (!(script->flags & scripting::kScriptNoWrites)) {
      if (repl.is_replica() && engine_.config().replica_read_only && !from_master) {
        ctx.ReplyError("-READONLY Can not run script with write flag on readonly replica");
        return;
      }
      if (read_only) {
        ctx.ReplyError("Can not execute a script with write flag using *_ro command.");
        return;
      }
      if (engine_.WriteRefusal(from_master) == Engine::kNoReplicas) {
        ctx.ReplyError(Engine::kNoReplicas);
        return;
      }
    }
  }

  Run run;
  run.call.read_only = read_only || (!compat && (script->flags & scripting::kScriptNoWrites));
  run.call.deny_oom = oom && (compat || !(script->flags & scripting::kScriptAllowOom));
  run.call.obey_caller = from_master;
  run.call.caller = &ctx.client();
  run.call.caller_cmd = &ctx.command();
  run.call.caller_args = ctx.args();
  run.start_us = SteadyUs();
  client_.set_db(ctx.client().db());
  client_.set_protocol(2);
  run_ = &run;

  size_t keys = static_cast<size_t>(numkeys);
  std::span<std::string> args = ctx.args();
  std::string function = ScriptCache::FunctionName(sha);
  scripting::Interpreter::Run lua_run{
      .function = function,
      .sha = sha,
      .keys = args.subspan(3, keys),
      .args = args.subspan(3 + keys),
      .interrupt_hook = engine_.config().busy_reply_threshold > 0,
  };
  size_t reply_start = ctx.reply().buffer()->size();
  interpreter_.Execute(lua_run, *this, ctx.reply());
  run_ = nullptr;
  if (run.shutdown) {
    ctx.reply().buffer()->resize(reply_start);
    ctx.client().set_close_after_reply();
  }
}

void ScriptRunner::Kill(CommandContext& ctx) {
  if (run_ == nullptr) {
    ctx.ReplyError("-NOTBUSY No scripts in execution right now.");
    return;
  }
  if (run_->call.wrote) {
    ctx.ReplyError(
        "-UNKILLABLE Sorry the script already executed write commands against the dataset. You "
        "can either wait the script termination or kill the server in a hard way using the "
        "SHUTDOWN NOSAVE command.");
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

bool ScriptRunner::IsCommand(std::span<const std::string> args) {
  return engine_.commands().Resolve(args) != nullptr;
}

bool ScriptRunner::Interrupt() {
  if (run_->timed_out) {
    // Already busy: serve the other clients a little more, then see whether we were killed.
    engine_.host()->ProcessEventsWhileBlocked();
    return run_->killed;
  }
  int64_t elapsed_ms = (SteadyUs() - run_->start_us) / 1000;
  if (elapsed_ms < engine_.config().busy_reply_threshold) return false;
  engine_.host()->Log(scripting::kLogWarning,
                      "Slow script detected: still in execution after " +
                          std::to_string(elapsed_ms) +
                          " milliseconds. You can try killing the script using the SCRIPT KILL "
                          "command.");
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
