// Open-loop pacing arithmetic (see pacing.h).
#include "tools/bench/pacing.h"

#include <cmath>
#include <stdexcept>

namespace redlab::tools::bench {

OpenLoopPacer::OpenLoopPacer(double rate, Clock::time_point start, int64_t limit)
    : rate_(rate), start_(start), limit_(limit) {
  if (!(rate > 0)) throw std::invalid_argument("--rate must be above 0");
}

Clock::time_point OpenLoopPacer::IntendedStart(int64_t k) const {
  // Computed from k, not accumulated, so rounding never drifts over a long run.
  auto offset = std::chrono::duration<double>(static_cast<double>(k) / rate_);
  return start_ + std::chrono::duration_cast<Clock::duration>(offset);
}

int64_t OpenLoopPacer::DueBy(Clock::time_point now) const {
  if (now < start_) return 0;
  double elapsed = std::chrono::duration<double>(now - start_).count();
  auto due = static_cast<int64_t>(std::floor(elapsed * rate_)) + 1;
  // Floating point may put a call one off its boundary; IntendedStart is the reference.
  while (due > 0 && IntendedStart(due - 1) > now) --due;
  while (IntendedStart(due) <= now) ++due;
  if (limit_ != 0 && due > limit_) due = limit_;
  return due;
}

int64_t OpenLoopPacer::Tick(Clock::time_point now,
                            const std::function<void(int64_t, Clock::time_point)>& issue) {
  if (stopped_) return 0;
  int64_t due = DueBy(now);
  int64_t n = 0;
  for (; issued_ < due; ++issued_, ++n) issue(issued_, IntendedStart(issued_));
  return n;
}

}  // namespace redlab::tools::bench
