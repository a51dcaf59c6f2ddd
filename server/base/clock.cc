#include "server/base/clock.h"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "server/base/monotonic.h"

namespace redlab::server {

int64_t Clock::RealUs() {
  return std::chrono::duration_cast<std::chrono::microseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

Clock::Clock() { SetReal(); }

namespace {

int64_t ClampUs(double us) {
  if (!(us > 0)) return 0;
  if (us >= static_cast<double>(Clock::kMaxUs)) return Clock::kMaxUs;
  return static_cast<int64_t>(us);
}

}  // namespace

int64_t Clock::NowUs() const {
  if (manual_) return manual_us_;
  int64_t elapsed = MonotonicUs() - anchor_mono_us_;
  // In double: a fast rate times a long run would overflow int64 (and the cast of an
  // out-of-range double is undefined); the node's time stops at kMaxUs instead.
  return ClampUs(static_cast<double>(anchor_node_us_) + static_cast<double>(elapsed) * rate_);
}

bool Clock::CanMove(int64_t delta_ms) const {
  int64_t now = NowUs();
  // |delta_ms| <= kMaxUs / 1000 keeps delta_ms * 1000 inside int64.
  if (delta_ms > kMaxUs / 1000 || delta_ms < -(kMaxUs / 1000)) return false;
  int64_t target = now + delta_ms * 1000;
  return target >= 0 && target <= kMaxUs;
}

void Clock::Rebase() {
  anchor_node_us_ = NowUs();
  anchor_mono_us_ = MonotonicUs();
}

void Clock::Jump(int64_t delta_ms) {
  // Past either end whatever the start: the result is clamped below, without overflow.
  delta_ms = std::clamp<int64_t>(delta_ms, -(kMaxUs / 1000) - 1, kMaxUs / 1000 + 1);
  if (manual_) {
    manual_us_ = std::clamp<int64_t>(manual_us_ + delta_ms * 1000, 0, kMaxUs);
    return;
  }
  Rebase();
  anchor_node_us_ = std::clamp<int64_t>(anchor_node_us_ + delta_ms * 1000, 0, kMaxUs);
}

void Clock::SetRate(double factor) {
  if (!manual_) Rebase();
  rate_ = std::isfinite(factor) ? std::clamp(factor, 0.0, kMaxRate) : 1.0;
}

void Clock::SetRunning() {
  if (!manual_) return;
  manual_ = false;
  anchor_node_us_ = manual_us_;
  anchor_mono_us_ = MonotonicUs();
}

int64_t Clock::RealMsFor(int64_t node_ms) const {
  if (node_ms <= 0) return 0;
  if (manual_ || rate_ <= 0) return -1;
  // Rounded up: a timer that fires early would find the deadline not yet reached.
  double real = std::ceil(static_cast<double>(node_ms) / rate_);
  if (real >= 1e15) return -1;  // longer than the node will run
  return static_cast<int64_t>(real);
}

void Clock::SetManual() {
  if (manual_) return;
  manual_us_ = NowUs();
  manual_ = true;
}

void Clock::Advance(int64_t delta_ms) { Jump(delta_ms); }

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
