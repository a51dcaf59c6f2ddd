#include "server/engine/script_runner.h"

#include <chrono>

#include "server/engine/context.h"
#include "server/engine/errors.h"
#include "server/engine/text.h"
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

ScriptRunner::ScriptRunner(Engine& engine)
    : engine_(engine), client_(/*id=*/0, /*io=*/nullptr, engine.clock().NowMs()) {
  client_.set_authenticated(true);
  client_.set_deny_blocking(true);  // blocking commands in scripts return at once
  client_.set_script(true);
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
  std::string sha = evalsha ? ToLower(source) : std::string();
  const Script* script = evalsha ? cache_.Find(sha) : nullptr;

  // Computed once per script, before it runs (server.script_oom), so memory used by the script
  // itself does not count.
  bool oom = OutOfMemory(engine_);
  if (oom) {
    // Redis's processCommand refuses a script whose shebang does not allow running over
    // maxmemory (evalGetCommandFlags gives it the denyoom flag).
    uint64_t flags = scripting::kScriptEvalCompatMode;
    size_t shebang_length = 0;
    std::string ignored;
    if (script != nullptr) {
      flags = script->flags;
    } else if (!evalsha) {
      if (const Script* known = cache_.Find(scripting::Sha1Hex(source))) {
        flags = known->flags;
      } else if (!scripting::ParseShebang(source, &flags, &shebang_length, &ignored)) {
        flags = scripting::kScriptEvalCompatMode;
      }
    }
    if (!(flags & scripting::kScriptEvalCompatMode) &&
        !(flags & (scripting::kScriptAllowOom | scripting::kScriptNoWrites))) {
      ctx.ReplyError(err::kOom);
      return;
    }
  }

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
  if (!compat && !(script->flags & scripting::kScriptNoWrites) && read_only) {
    ctx.ReplyError("Can not execute a script with write flag using *_ro command.");
    return;
  }

  Run run;
  run.call.read_only = read_only || (!compat && (script->flags & scripting::kScriptNoWrites));
  run.call.deny_oom = oom && (compat || !(script->flags & scripting::kScriptAllowOom));
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
