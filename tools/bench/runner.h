// The load generator of `redlab bench`: N pipelined connections on one libuv loop thread
// (hiredis async + its libuv adapter), closed-loop (each connection keeps `pipeline` calls in
// flight, as redis-benchmark) or open-loop at a fixed rate (pacing.h: latency from each call's
// intended start). Latencies go into an HDR histogram in nanoseconds, errors are counted by the
// error's first word, and `--wait` sends WAIT after every call on the same connection,
// pipelined behind it (what Redisson's replica sync does), the call ending with WAIT's reply.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "tools/bench/histogram.h"
#include "tools/bench/workload.h"

namespace redlab::tools::bench {

// Latencies from 1 ns to an hour, 3 significant digits.
inline constexpr int64_t kHighestLatencyNs = int64_t{3600} * 1000 * 1000 * 1000;
inline Histogram NewLatencyHistogram() { return Histogram(kHighestLatencyNs, 3); }

struct RunnerOptions {
  std::string host = "127.0.0.1";
  int port = 6379;
  std::string user;        // AUTH user password when both are given
  std::string password;    // empty: no AUTH
  int db = 0;              // SELECTed on every connection when not 0
  int clients = 50;        // connections
  int pipeline = 1;        // calls in flight per connection
  int64_t requests = 0;    // measured calls; 0: run for `duration_s`
  double duration_s = 0;   // with requests == 0
  double rate = 0;         // calls per second over all connections; 0: closed loop
  double warmup_s = 0;     // calls before the measurement, not recorded
  int wait_replicas = -1;  // >= 0: WAIT wait_replicas wait_timeout_ms after every call
  int64_t wait_timeout_ms = 0;
  bool progress = false;       // a progress line on stderr each second
  std::string progress_label;  // e.g. the target's name
};

// One second (or the last part of one) of the measurement.
struct Interval {
  double start_s = 0;  // from the measurement's start
  double length_s = 0;
  Histogram latency = NewLatencyHistogram();
};

struct RunStats {
  Histogram latency = NewLatencyHistogram();
  std::vector<Interval> intervals;
  // Measured calls completed, errors included (open-loop calls lost with their connection before
  // being sent count as IO errors, without a latency).
  int64_t calls = 0;
  std::map<std::string, int64_t> errors;  // by the error's first word; "IO": connection lost
  int64_t wait_short = 0;                 // WAIT answered fewer replicas than asked
  int64_t noscript = 0;                   // EVALSHA answered NOSCRIPT and was sent again as EVAL
  double elapsed_s = 0;                   // measurement start to the last measured reply
  int rounds = 0;                         // runs merged into these figures

  int64_t errors_total() const;
  double throughput() const { return elapsed_s > 0 ? static_cast<double>(calls) / elapsed_s : 0; }
  // Adds another run's figures (a later round); its intervals follow this run's.
  void Merge(const RunStats& other);
};

// Runs the load until the requests are done or the duration is over, then returns. Throws
// std::runtime_error when the connections cannot be made.
RunStats Run(const RunnerOptions& options, Workload& workload);

}  // namespace redlab::tools::bench
