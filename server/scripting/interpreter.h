// The Lua 5.1 interpreter of a node, sandboxed as Redis 7.0 builds it (its libraries, read-only
// globals, the redis.* API), which compiles scripts under a name and runs them. It reaches Redis
// commands only through its host's Call callback (arguments in, RESP reply bytes out), so it is
// tested on its own with a fake host, and the engine depends on nothing of Lua but this header.
// A node has two, as Redis has two Lua states: one for EVAL scripts and one for the libraries of
// FUNCTION LOAD (function_lua.c), which differ in their globals and in how a run gets its keys.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "server/resp/writer.h"
#include "server/scripting/lua_allocator.h"
#include "server/scripting/rand48.h"

struct lua_State;

namespace redlab::server::scripting {

// redis.LOG_* levels (Redis's LL_DEBUG ... LL_WARNING).
enum LogLevel : int { kLogDebug = 0, kLogVerbose = 1, kLogNotice = 2, kLogWarning = 3 };

// redis.REPL_* flags (Redis's PROPAGATE_AOF / PROPAGATE_REPL).
enum ReplFlags : int { kReplNone = 0, kReplAof = 1, kReplReplica = 2, kReplAll = 3 };

// What a running script reaches its node through.
class ScriptHost {
 public:
  virtual ~ScriptHost() = default;
  // redis.call / redis.pcall: runs `args` as a command of the script, with replies in RESP
  // version `resp`; the reply's bytes are appended to *reply. Returns false when the command was
  // refused before it ran (unknown, wrong arity, not allowed from scripts...), with Redis's text
  // in *error ("-CODE message", or "message" for the ERR code).
  virtual bool Call(std::span<std::string> args, int resp, std::string* reply,
                    std::string* error) = 0;
  // redis.acl_check_cmd: whether the user running the script may run `args`; nothing when
  // `args` name no command.
  virtual std::optional<bool> AclCheckCommand(std::span<const std::string> args) = 0;
  // Called every kHookInstructions Lua instructions of a run that asked for it (busy-script
  // detection). The host may serve other clients meanwhile; returns true to kill the script.
  virtual bool Interrupt() = 0;
  // redis.set_repl: `flags` is a valid ReplFlags combination.
  virtual void SetRepl(int flags) = 0;
  // redis.log, with a level already checked to be a LogLevel.
  virtual void Log(int level, std::string_view message) = 0;
};

// Buffers redis.call reuses from call to call (and run to run), so a call allocates nothing for
// its arguments and reply once they have grown to size.
struct CallBuffers {
  std::vector<std::string> args;
  std::string reply;
  std::string error;
};

struct RunState;

class Interpreter {
 public:
  static constexpr int kHookInstructions = 100000;

  enum class Mode {
    // EVAL: scripts are defined by name and see KEYS and ARGV as globals.
    kEval,
    // FUNCTION: library code registers functions (LoadLibrary) while its globals are only the
    // load-time API; a function is called with the keys and arguments tables as its two
    // arguments and sees the full API. Globals cannot be written in either phase.
    kFunctions,
  };

  // `rand` is the PRNG of math.random, shared by a node's two states as Redis has one; nullptr
  // gives the interpreter its own. `deprecated_api`: lua-enable-deprecated-api (sandbox.h).
  explicit Interpreter(Mode mode = Mode::kEval, Rand48* rand = nullptr,
                       bool deprecated_api = false);
  ~Interpreter();
  Interpreter(const Interpreter&) = delete;
  Interpreter& operator=(const Interpreter&) = delete;

  // Compiles `body` as the function `name` (Redis names them f_<sha1>). On a syntax error returns
  // false with Redis's reply text ("Error compiling script (new function): user_script:1: ...").
  bool Define(std::string_view name, std::string_view body, std::string* error);
  bool Defined(std::string_view name) const;

  // A function registered by library code (redis.register_function), not yet validated.
  struct RegisteredFunction {
    std::string name;
    std::optional<std::string> description;
    uint64_t flags = 0;  // ScriptFlag bits
    int ref = 0;         // the callback, kept in the Lua registry until Release(ref)
  };
  // Validates a registration and keeps it (Redis's functionLibCreateFunction); returns the error
  // text to refuse it with. A refused function is released by the interpreter.
  using Registrar = std::function<std::optional<std::string>(RegisteredFunction&&)>;

  // FUNCTION LOAD (functions mode): runs a library's code (its shebang line left out) with only
  // the load-time API as globals, passing each registered function to `registrar`. Stops the
  // code after `timeout_ms` of real time (0: never). Returns false with Redis's error text
  // ("Error compiling function: ...", "Error registering functions: ..."); functions accepted
  // before the failure stay with the registrar, which must release them.
  bool LoadLibrary(std::string_view code, int64_t timeout_ms, const Registrar& registrar,
                   std::string* error);
  // Drops a registered function's callback.
  void Release(int ref);

  struct Run {
    std::string_view function;  // eval mode: the name given to Define
    int function_ref = 0;       // functions mode: the RegisteredFunction's ref
    std::string_view sha;       // the script's sha or the function's name, for error messages
    std::span<const std::string> keys;
    std::span<const std::string> args;
    bool interrupt_hook = false;  // call ScriptHost::Interrupt from a count hook
  };
  // Runs a defined function with KEYS and ARGV set, and writes its result, or Redis's error
  // reply, to `reply` (in the caller's protocol).
  void Execute(const Run& run, ScriptHost& host, resp::ReplyWriter& reply);

  // SCRIPT FLUSH: a fresh Lua state without any function. The PRNG carries on.
  void Reset();

  // Memory used by the Lua state (INFO used_memory_lua).
  size_t UsedMemory() const;

 private:
  void Open();
  void Close();
  // Functions mode: the redis table and globals library code sees while it loads.
  void OpenLibraryApi();
  // Ends a run: removes the count hook when the run had one, and what the run left on the stack.
  void Finish(bool interrupt_hook, int base);

  Mode mode_;
  bool deprecated_api_;
  LuaAllocator allocator_;  // outlives lua_, which Close() ends in the destructor's body
  lua_State* lua_ = nullptr;
  Rand48 own_rand_;
  Rand48* rand_;
  int gc_count_ = 0;
  CallBuffers call_buffers_;
  RunState* run_slot_ = nullptr;  // the running script's state (see BindRunSlot)
  // Registry references to what every run pushes: the error handler of eval mode, the names
  // KEYS and ARGV, the function converting the result.
  int error_handler_ref_ = 0;
  int keys_name_ref_ = 0;
  int argv_name_ref_ = 0;
  int convert_result_ref_ = 0;
};

}  // namespace redlab::server::scripting
