// What one call of `redlab bench` sends: a script by EVALSHA (EVAL when the server answers
// NOSCRIPT, as Redisson does), a function by FCALL, or any command, with its keys and arguments
// expanded from patterns (pattern.h) for every call.
#pragma once

#include <random>
#include <string>
#include <vector>

#include "tools/bench/pattern.h"

namespace redlab::tools::bench {

enum class CallKind { kScript, kFunction, kCommand };

struct WorkloadSpec {
  CallKind kind = CallKind::kCommand;
  std::string script_source;         // kScript: the Lua source
  std::string function;              // kFunction: the function's name (FCALL's first argument)
  std::vector<std::string> command;  // kCommand: the command and its arguments, as patterns
  std::vector<std::string> keys;     // kScript, kFunction: KEYS, as patterns
  std::vector<std::string> args;     // kScript, kFunction: ARGV, as patterns
  uint64_t seed = 1;                 // of the random placeholders
};

class Workload {
 public:
  // Throws std::invalid_argument for a bad pattern.
  explicit Workload(const WorkloadSpec& spec);

  // The script's SHA1 (of SCRIPT LOAD's reply); EVALSHA needs it.
  void set_sha(const std::string& sha) { sha_ = sha; }
  const std::string& sha() const { return sha_; }
  CallKind kind() const { return spec_.kind; }
  const WorkloadSpec& spec() const { return spec_; }

  // This call's arguments for client `client`.
  void Build(int client, std::vector<std::string>* argv);
  // Turns an EVALSHA argv into the EVAL of the script's source (after NOSCRIPT).
  void ToEval(std::vector<std::string>* argv) const;
  // A one-line description: "EVALSHA <sha> 1 lock:{rand:1..100000} 30000 {randstr:8}".
  std::string Describe() const;

 private:
  WorkloadSpec spec_;
  std::string sha_;
  std::vector<Pattern> command_, keys_, args_;
  std::mt19937_64 rng_;
};

}  // namespace redlab::tools::bench
