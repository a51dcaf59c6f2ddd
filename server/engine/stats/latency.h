// Latency diagnostics of a node (Redis's latency.c): the latency monitor's events (a command,
// the expire cycle... that took at least latency-monitor-threshold ms), their LATENCY GRAPH and
// DOCTOR texts, and the per-command latency histograms of LATENCY HISTOGRAM.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "server/base/hdr_histogram.h"

namespace redlab::server::engine {

class LatencyMonitor {
 public:
  static constexpr size_t kHistory = 160;  // Redis's LATENCY_TS_LEN

  struct Sample {
    int64_t time_s = 0;  // 0: an unused slot
    uint32_t latency_ms = 0;
  };
  // One event's samples: at most one per second (the highest), the latest kHistory seconds.
  struct Series {
    std::string event;
    size_t next = 0;  // the slot the next sample goes to
    uint32_t max = 0;
    std::array<Sample, kHistory> samples{};
    const Sample& latest() const { return samples[(next + kHistory - 1) % kHistory]; }
  };

  // latencyAddSample: records `latency_ms` for `event` at `now_s`.
  void AddSample(std::string_view event, int64_t latency_ms, int64_t now_s);
  // The series of `event` (exact name, as Redis's dictionary lookup), or nullptr.
  const Series* Find(std::string_view event) const;
  // LATENCY RESET: drops the events named `event` ignoring case, or all of them when empty;
  // returns how many were dropped.
  size_t Reset(std::string_view event);
  // Events in the order they were first seen.
  const std::vector<std::unique_ptr<Series>>& events() const { return events_; }

  // LATENCY GRAPH's text for one event: a header, a rule, and a sparkline of its samples, each
  // labelled with how long ago it was.
  static std::string Graph(const Series& series, int64_t now_s);

  // What LATENCY DOCTOR's report depends on besides the events.
  struct DoctorInputs {
    int64_t latency_monitor_threshold;
    int64_t slowlog_log_slower_than;
    int64_t hz;
    int64_t now_s;
  };
  std::string Doctor(const DoctorInputs& in) const;

 private:
  std::vector<std::unique_ptr<Series>> events_;
};

// A command's latency distribution, in the buckets LATENCY HISTOGRAM reports. Redis records each
// duration (in µs, times 1000) into an HDR histogram of 2 significant digits and reports it by a
// base-2 logarithmic iteration starting at 1024 ns; every reported bucket k is then "at most
// 1032 * 2^k - 1 ns" (1024 * 2^k plus the HDR sub-bucket width of 2^(k+3)). Counting into those
// buckets directly gives the same report with a few counters per command.
class LatencyHistogram {
 public:
  static constexpr size_t kBuckets = 21;

  void Record(int64_t duration_us) {
    ++buckets_[BucketOf(duration_us)];
    ++calls_;
    hdr_.Record(duration_us * 1000);
  }
  uint64_t calls() const { return calls_; }
  // INFO latencystats: the latency under which `percentile` % of the calls fall, in ns.
  int64_t ValueAtPercentile(double percentile) const { return hdr_.ValueAtPercentile(percentile); }
  // The reported (upper bound in µs, cumulative count) pairs, for buckets where the count grows.
  std::vector<std::pair<int64_t, uint64_t>> Cumulative() const;

  static size_t BucketOf(int64_t duration_us) {
    // Redis clamps the nanoseconds to [1, 1e9] before recording.
    int64_t ns = duration_us <= 0 ? 1 : duration_us >= 1000000 ? 1000000000 : duration_us * 1000;
    return static_cast<size_t>(std::bit_width(static_cast<uint64_t>(ns - 1) / 1032));
  }

 private:
  std::array<uint64_t, kBuckets> buckets_{};
  uint64_t calls_ = 0;
  HdrHistogram hdr_;
};

}  // namespace redlab::server::engine
