#include "server/base/clock.h"

#include <chrono>

namespace redlab::server {

int64_t Clock::RealUs() {
  return std::chrono::duration_cast<std::chrono::microseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

int64_t Clock::MonotonicUs() {
  return std::chrono::duration_cast<std::chrono::microseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

Clock::Clock() { SetReal(); }

int64_t Clock::NowUs() const {
  if (manual_) return manual_us_;
  int64_t elapsed = MonotonicUs() - anchor_mono_us_;
  if (rate_ == 1.0) return anchor_node_us_ + elapsed;
  return anchor_node_us_ + static_cast<int64_t>(static_cast<double>(elapsed) * rate_);
}

void Clock::Rebase() {
  anchor_node_us_ = NowUs();
  anchor_mono_us_ = MonotonicUs();
}

void Clock::Jump(int64_t delta_ms) {
  if (manual_) {
    manual_us_ += delta_ms * 1000;
    return;
  }
  Rebase();
  anchor_node_us_ += delta_ms * 1000;
}

void Clock::SetRate(double factor) {
  Rebase();
  rate_ = factor;
}

void Clock::SetManual() {
  if (manual_) return;
  manual_us_ = NowUs();
  manual_ = true;
}

void Clock::Advance(int64_t delta_ms) {
  if (manual_) {
    manual_us_ += delta_ms * 1000;
  } else {
    Jump(delta_ms);
  }
}

void Clock::SetReal() {
  manual_ = false;
  rate_ = 1.0;
  anchor_node_us_ = RealUs();
  anchor_mono_us_ = MonotonicUs();
}

int64_t Clock::OffsetMs() const {
  // Rounded: the monotonic and the system clock drift apart by microseconds.
  int64_t us = NowUs() - RealUs();
  return us >= 0 ? (us + 500) / 1000 : -((-us + 500) / 1000);
}

}  // namespace redlab::server
