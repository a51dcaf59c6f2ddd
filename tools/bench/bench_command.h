// `redlab bench`: benchmark a script, a function or any command against redlab, real
// redis-server (both side by side) or any server: HDR latency percentiles, throughput, errors
// by type, closed- or open-loop, with replicas, WAIT and faults. A subcommand of the `redlab`
// tool (tools/redlab/main.cc registers it).
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace redlab::tools::bench {

struct BenchOptions {
  std::string server;                // a running server's URL; empty: start `target`
  std::string target = "redlab";     // redlab | redis | both
  std::string script;                // FILE.lua: EVALSHA (or the library for --function)
  std::string library;               // FILE.lua: the library for --function
  std::string function;              // LIB.FN or FN: FCALL
  std::vector<std::string> command;  // after --
  std::vector<std::string> keys, args;
  int clients = 50;
  int pipeline = 1;
  int64_t requests = 0;  // with duration_s == 0: 100000
  double duration_s = 0;
  double rate = 0;
  double warmup_s = 0;
  int rounds = 0;  // 0: 3 with --target both, else 1
  int replicas = 0;
  std::string wait;                 // N[/TIMEOUT]
  std::vector<std::string> faults;  // "REPL DELAY 5"
  std::vector<std::string> config;  // "name value"
  std::string json, hdr;            // files ("-": stdout)
  uint64_t seed = 1;
  // Started servers on one CPU, the load generator on another (when there are two or more).
  bool pin = true;
};

inline constexpr int kExitBenchUsage = 64;        // EX_USAGE
inline constexpr int kExitBenchUnavailable = 69;  // EX_UNAVAILABLE: cannot reach or start
inline constexpr int kExitBenchSoftware = 70;     // EX_SOFTWARE

// Adds the `bench` subcommand to `app`; the returned function runs it (the exit status).
std::function<int()> AddBenchCommand(CLI::App& app);
// Runs it with parsed options.
int RunBench(const BenchOptions& options);

// "10", "10s", "500ms", "2m" in seconds; throws std::invalid_argument.
double ParseDuration(const std::string& text);

}  // namespace redlab::tools::bench
