// The scripts EVAL and SCRIPT LOAD have seen, by SHA1 (Redis's lua_scripts dict): each is compiled
// into the interpreter as the function f_<sha>, with the flags of its shebang line
// ("#!lua flags=no-writes,allow-oom").
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>

#include "server/base/text.h"
#include "server/scripting/interpreter.h"

namespace redlab::server::scripting {

// Script flags (Redis's SCRIPT_FLAG_*).
enum ScriptFlag : uint64_t {
  kScriptNoWrites = 1u << 0,            // no-writes: may not call write commands
  kScriptAllowOom = 1u << 1,            // allow-oom: runs (and writes) over maxmemory
  kScriptAllowStale = 1u << 2,          // allow-stale: runs on a stale replica
  kScriptNoCluster = 1u << 3,           // no-cluster: refused in cluster mode
  kScriptEvalCompatMode = 1u << 4,      // no shebang: the pre-7.0 rules apply
  kScriptAllowCrossSlotKeys = 1u << 5,  // allow-cross-slot-keys
};

// The flags' names, in the order Redis lists them (scripts_flags_def): shebangs, FUNCTION LIST and
// redis.register_function's flags use them.
struct ScriptFlagName {
  uint64_t flag;
  std::string_view name;
};
inline constexpr ScriptFlagName kScriptFlagNames[] = {
    {kScriptNoWrites, "no-writes"},
    {kScriptAllowOom, "allow-oom"},
    {kScriptAllowStale, "allow-stale"},
    {kScriptNoCluster, "no-cluster"},
    {kScriptAllowCrossSlotKeys, "allow-cross-slot-keys"},
};

struct Script {
  std::string body;
  uint64_t flags = 0;
  std::string sha;       // lower case
  std::string function;  // its name in the interpreter, FunctionName(sha)
};

// Parses the shebang of `body` (evalExtractShebangFlags): its flags, and the length of the
// shebang line (0 without one). Returns false with Redis's error text.
bool ParseShebang(std::string_view body, uint64_t* flags, size_t* shebang_length,
                  std::string* error);

class ScriptCache {
 public:
  explicit ScriptCache(Interpreter* interpreter) : interpreter_(interpreter) {}

  // The script with this sha (in any case, as EVALSHA takes it), or nullptr.
  const Script* Find(std::string_view sha) const;

  // Adds `body` (compiling it) unless it is known already; *sha receives its SHA1. Returns
  // nullptr with Redis's error text when the shebang or the Lua code is invalid.
  const Script* Load(std::string_view body, std::string* sha, std::string* error);

  // SCRIPT FLUSH: forgets every script and gives the interpreter a fresh Lua state.
  void Flush();

  size_t size() const { return scripts_.size(); }
  // Bytes held by the cached bodies (INFO used_memory_scripts_eval).
  size_t memory() const { return memory_; }

  // The interpreter function name of a script.
  static std::string FunctionName(std::string_view sha) { return "f_" + std::string(sha); }

 private:
  Interpreter* interpreter_;
  struct ShaHash {
    using is_transparent = void;
    // A SHA1's first 16 hex digits are as random as all of it.
    size_t operator()(std::string_view s) const { return HashIgnoreCase(s.substr(0, 16)); }
  };
  struct ShaEquals {
    using is_transparent = void;
    // Clients mostly send the lower-case digest the cache holds: try the plain comparison first.
    bool operator()(std::string_view a, std::string_view b) const {
      return a == b || EqualsIgnoreCase(a, b);
    }
  };
  std::unordered_map<std::string, Script, ShaHash, ShaEquals> scripts_;
  mutable const Script* last_found_ = nullptr;  // the last script Find found
  size_t memory_ = 0;
};

}  // namespace redlab::server::scripting
