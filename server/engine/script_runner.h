// A node's EVAL scripting, on the engine's side: the Lua interpreter and its script cache, the
// client scripts run their commands as (Redis's "lua client"), and the script running now, which
// makes the node busy once it runs past busy-reply-threshold and which SCRIPT KILL stops.
// The interpreter is reached only through scripting/interpreter.h; this class is its host.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "server/engine/client.h"
#include "server/engine/engine.h"
#include "server/scripting/interpreter.h"
#include "server/scripting/script_cache.h"

namespace redlab::server::engine {

class CommandContext;

class ScriptRunner final : private scripting::ScriptHost {
 public:
  explicit ScriptRunner(Engine& engine);
  ~ScriptRunner() override;
  ScriptRunner(const ScriptRunner&) = delete;
  ScriptRunner& operator=(const ScriptRunner&) = delete;

  // EVAL, EVALSHA and their _RO variants (evalGenericCommand).
  void Eval(CommandContext& ctx, bool evalsha, bool read_only);
  // The command flags of an EVAL-family call (evalGetCommandFlags): the command's own, unless
  // the script is known (EVALSHA) or has a shebang (EVAL) that declares flags.
  uint32_t EvalCommandFlags(std::span<const std::string> args, bool evalsha, uint32_t flags) const;

  scripting::ScriptCache& cache() { return cache_; }

  // SCRIPT KILL: stops the running script unless it wrote (NOTBUSY / UNKILLABLE otherwise).
  void Kill(CommandContext& ctx);
  // SHUTDOWN NOSAVE while a script is busy: the script stops at its next hook, writes or not.
  void AbortForShutdown();

  // A script is running (for other clients, only while it is busy).
  bool running() const { return run_ != nullptr; }
  // A script ran past busy-reply-threshold: other clients get BUSY for most commands.
  bool busy() const { return run_ != nullptr && run_->timed_out; }

  // Memory of the Lua state (INFO used_memory_lua).
  size_t lua_memory() const { return interpreter_.UsedMemory(); }

 private:
  struct Run {
    ScriptCall call;
    int64_t start_us = 0;
    bool timed_out = false;  // past busy-reply-threshold (Redis's SCRIPT_TIMEDOUT)
    bool killed = false;     // SCRIPT KILL (or SHUTDOWN NOSAVE) asked it to stop
    bool shutdown = false;   // SHUTDOWN NOSAVE: the caller gets no reply, as the node stops
  };

  // scripting::ScriptHost
  bool Call(std::span<std::string> args, int resp, std::string* reply, std::string* error) override;
  bool IsCommand(std::span<const std::string> args) override;
  bool Interrupt() override;
  void SetRepl(int flags) override;
  void Log(int level, std::string_view message) override;

  Engine& engine_;
  scripting::Interpreter interpreter_;
  scripting::ScriptCache cache_{&interpreter_};
  Client client_;  // not connected, not listed by CLIENT LIST
  Run* run_ = nullptr;
};

}  // namespace redlab::server::engine
