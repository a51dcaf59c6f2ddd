// A node's scripting, on the engine's side: EVAL's Lua interpreter and its script cache, the
// functions' interpreter and libraries (FUNCTION LOAD, FCALL), the client scripts run their
// commands as (Redis's "lua client"), and the script or function running now, which makes the
// node busy once it runs past busy-reply-threshold and which SCRIPT KILL or FUNCTION KILL stops.
// The interpreters are reached only through scripting/interpreter.h; this class is their host.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "server/engine/core/client.h"
#include "server/engine/core/engine.h"
#include "server/scripting/function_libraries.h"
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
  // FCALL and FCALL_RO (fcallCommandGeneric).
  void Fcall(CommandContext& ctx, bool read_only);

  scripting::ScriptCache& cache() { return cache_; }
  // The node's function libraries.
  scripting::FunctionLibraries& functions() { return functions_; }
  // The functions' interpreter, for sets of libraries built apart (FUNCTION RESTORE).
  scripting::Interpreter* function_interpreter() { return &function_interpreter_; }

  // SCRIPT KILL (`eval`) or FUNCTION KILL: stops the running script unless it wrote (NOTBUSY /
  // UNKILLABLE otherwise); each refuses to stop the other's kind with BUSY.
  void Kill(CommandContext& ctx, bool eval);
  // FUNCTION STATS: the running function and the libraries' counts.
  void Stats(CommandContext& ctx);
  // SHUTDOWN NOSAVE while a script is busy: the script stops at its next hook, writes or not.
  void AbortForShutdown();

  // A script is running (for other clients, only while it is busy).
  bool running() const { return run_ != nullptr; }
  // A script ran past busy-reply-threshold: other clients get BUSY for most commands.
  bool busy() const { return run_ != nullptr && run_->timed_out; }
  // The BUSY error while busy: it names SCRIPT KILL or FUNCTION KILL, whichever applies.
  std::string_view BusyError() const;

  // The flags FCALL and FCALL_RO are checked with before they run (fcallGetCommandFlags): a
  // known function's flags replace the command's write, deny-oom and stale flags.
  uint32_t FcallFlags(std::span<const std::string> args, uint32_t command_flags) const;
  // The same for EVAL and its variants (evalGetCommandFlags): the flags of the script's shebang,
  // from the cache or from the body; scripts without a shebang keep EVAL's flags.
  uint32_t EvalFlags(std::span<const std::string> args, bool evalsha, uint32_t command_flags) const;

  // Memory of the Lua states (INFO used_memory_vm_eval and used_memory_vm_functions).
  size_t lua_memory() const { return interpreter_.UsedMemory(); }
  size_t functions_lua_memory() const { return function_interpreter_.UsedMemory(); }

 private:
  struct Run {
    ScriptCall call;
    bool eval = true;                     // an EVAL script, not a function
    bool from_master = false;             // run by the master link: it cannot be killed
    std::string_view name;                // the script's sha or the function's name
    std::span<const std::string> caller;  // the command that runs it (FUNCTION STATS)
    int64_t start_us = 0;
    bool timed_out = false;  // past busy-reply-threshold (Redis's SCRIPT_TIMEDOUT)
    bool killed = false;     // SCRIPT KILL (or SHUTDOWN NOSAVE) asked it to stop
    bool shutdown = false;   // SHUTDOWN NOSAVE: the caller gets no reply, as the node stops
  };

  // scriptPrepareForRun's refusals by the script's flags; false after replying one.
  // `oom`: over maxmemory as the script starts (Redis's pre_command_oom_state).
  bool Prepare(CommandContext& ctx, uint64_t flags, bool read_only, bool oom, Run* run);
  // Runs a prepared script or function and writes its reply.
  void Execute(CommandContext& ctx, Run& run, scripting::Interpreter& interpreter,
               scripting::Interpreter::Run& lua_run);

  // scripting::ScriptHost
  bool Call(std::span<std::string> args, int resp, std::string* reply, std::string* error) override;
  std::optional<bool> AclCheckCommand(std::span<const std::string> args) override;
  bool Interrupt() override;
  void SetRepl(int flags) override;
  void Log(int level, std::string_view message) override;

  Engine& engine_;
  scripting::Rand48 rand_;  // math.random's, shared by both interpreters as in Redis
  scripting::Interpreter interpreter_{scripting::Interpreter::Mode::kEval, &rand_,
                                      engine_.config().lua_enable_deprecated_api};
  scripting::ScriptCache cache_{&interpreter_};
  scripting::Interpreter function_interpreter_{scripting::Interpreter::Mode::kFunctions, &rand_,
                                               engine_.config().lua_enable_deprecated_api};
  scripting::FunctionLibraries functions_{&function_interpreter_};
  Client client_;  // not connected, not listed by CLIENT LIST
  Run* run_ = nullptr;
};

}  // namespace redlab::server::engine
