// The Lua 5.1 interpreter of a node, sandboxed as Redis 7.0 builds it (its libraries, read-only
// globals, the redis.* API), which compiles scripts under a name and runs them. It reaches Redis
// commands only through its host's Call callback (arguments in, RESP reply bytes out), so it is
// tested on its own with a fake host, and the engine depends on nothing of Lua but this header.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <string_view>

#include "server/resp/writer.h"
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
  // redis.acl_check_cmd: whether `args` name a command (the caller may run every command: redlab
  // has no ACL users).
  virtual bool IsCommand(std::span<const std::string> args) = 0;
  // Called every kHookInstructions Lua instructions of a run that asked for it (busy-script
  // detection). The host may serve other clients meanwhile; returns true to kill the script.
  virtual bool Interrupt() = 0;
  // redis.set_repl: `flags` is a valid ReplFlags combination.
  virtual void SetRepl(int flags) = 0;
  // redis.log, with a level already checked to be a LogLevel.
  virtual void Log(int level, std::string_view message) = 0;
};

class Interpreter {
 public:
  static constexpr int kHookInstructions = 100000;

  Interpreter();
  ~Interpreter();
  Interpreter(const Interpreter&) = delete;
  Interpreter& operator=(const Interpreter&) = delete;

  // Compiles `body` as the function `name` (Redis names them f_<sha1>). On a syntax error returns
  // false with Redis's reply text ("Error compiling script (new function): user_script:1: ...").
  bool Define(std::string_view name, std::string_view body, std::string* error);
  bool Defined(std::string_view name) const;

  struct Run {
    std::string_view function;  // the name given to Define
    std::string_view sha;       // the script's sha, for error messages
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

  lua_State* lua_ = nullptr;
  Rand48 rand_;
  int gc_count_ = 0;
};

}  // namespace redlab::server::scripting
