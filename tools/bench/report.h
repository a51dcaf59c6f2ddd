// The results of `redlab bench`: the table printed at the end (one column per target, and
// redlab/redis per figure when both ran), the `--json` document and the `--hdr` log.
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

#include "tools/bench/runner.h"

namespace redlab::tools::bench {

struct TargetResult {
  std::string name;  // "redlab", "redis", or "server" (--server)
  RunStats stats;
};

struct Report {
  std::string call;       // the call, as Workload::Describe gives it
  nlohmann::json config;  // the options of the run, echoed into the JSON
  bool wait = false;      // WAIT after each call: show "WAIT short"
  std::vector<TargetResult> targets;
};

// The percentiles every output gives.
inline constexpr double kPercentiles[] = {50, 90, 99, 99.9, 99.99};

std::string FormatTable(const Report& report);
// {"call", "config", "targets": {NAME: {calls, throughput, elapsed_s, rounds, errors_total,
//  errors: {WORD: n}, wait_short, noscript, latency_us: {min, mean, p50, p90, p99, p99.9,
//  p99.99, max}, intervals: [{start_s, length_s, calls, p50_us, p99_us, max_us}]}},
//  "ratio": {FIGURE: redlab/redis}} (ratio only when both ran).
nlohmann::json ToJson(const Report& report);
// HdrHistogram's log: each target's per-second intervals, tagged with its name.
void WriteHdrLog(const Report& report, double start_epoch_s, std::ostream& out);

}  // namespace redlab::tools::bench
