// Open-loop pacing for `redlab bench --rate R` (as wrk2's constant throughput): call k is due
// at start + k/R whatever happened to earlier calls, and its latency is measured from that
// intended start, so a stalled server is charged for every call it delayed (no coordinated
// omission). Pure arithmetic on time points, driven by the runner's timer or by a test's
// manual schedule.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>

namespace redlab::tools::bench {

using Clock = std::chrono::steady_clock;

class OpenLoopPacer {
 public:
  // `rate` calls per second from `start`; at most `limit` calls (0: no limit).
  OpenLoopPacer(double rate, Clock::time_point start, int64_t limit = 0);

  // The intended start of call `k` (from 0).
  Clock::time_point IntendedStart(int64_t k) const;
  // How many calls are due by `now` (intended start at or before it), capped by the limit.
  int64_t DueBy(Clock::time_point now) const;
  // Issues, through `issue(k, intended_start)`, every call due by `now` not issued yet; returns
  // how many it issued. A late tick issues all the calls it is late for, with their own
  // intended starts.
  int64_t Tick(Clock::time_point now,
               const std::function<void(int64_t k, Clock::time_point intended)>& issue);
  // Stops issuing: the calls not yet due are never issued (the run's duration is over).
  void Stop() { stopped_ = true; }

  int64_t issued() const { return issued_; }
  bool done() const { return stopped_ || (limit_ != 0 && issued_ >= limit_); }

 private:
  double rate_;
  Clock::time_point start_;
  int64_t limit_;
  int64_t issued_ = 0;
  bool stopped_ = false;
};

}  // namespace redlab::tools::bench
