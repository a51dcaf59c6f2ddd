// A node's clock. Every time a node reads (expiry, TTL, TIME, WAIT timeouts, the expire cycle)
// goes through its Clock, so faults can jump it, skew its rate or freeze it for a test.
#pragma once

#include <cstdint>

namespace redlab::server {

class Clock {
 public:
  // A node's time stays within 1970-01-01 .. 9999-12-31T23:59:59.999 (what Redis's time
  // arithmetic and TIME can print); moves that would leave it are refused, and a fast clock
  // stops at the end rather than overflow.
  static constexpr int64_t kMaxUs = 253402300799999999;
  // The fastest CLOCK RATE: a day of node time in under a tenth of a real second.
  static constexpr double kMaxRate = 1000000;

  Clock();

  // Unix time as this node sees it.
  int64_t NowUs() const;
  int64_t NowMs() const { return NowUs() / 1000; }

  // Whether the node's time can move by `delta_ms` without leaving [0, kMaxUs] (any int64).
  bool CanMove(int64_t delta_ms) const;
  // Moves the node's time by `delta_ms` (either way), from now on; a move CanMove refuses
  // stops at the nearest end.
  void Jump(int64_t delta_ms);
  // Makes the node's time run `factor` times as fast as real time from now on (1.0 = real;
  // clamped to [0, kMaxRate]). On a frozen clock the rate is kept and applies when the clock
  // runs again (SetRunning).
  void SetRate(double factor);
  // Freezes the node's time where it is; it moves only by Advance().
  void SetManual();
  void Advance(int64_t delta_ms);
  // A frozen clock runs again from where it stands, at its rate.
  void SetRunning();
  // Back to real time with no offset.
  void SetReal();
  // How many real milliseconds pass while the node's time moves by `node_ms` (>= 0): what a
  // real-time timer must wait for a node deadline. -1 when it never will (a frozen or stopped
  // clock); at least 0.
  int64_t RealMsFor(int64_t node_ms) const;

  bool manual() const { return manual_; }
  double rate() const { return rate_; }
  // How far the node's time is from real time, in ms.
  int64_t OffsetMs() const;

 private:
  static int64_t RealUs();
  void Rebase();  // re-anchors so a rate change applies from now on

  bool manual_ = false;
  int64_t manual_us_ = 0;
  double rate_ = 1.0;
  int64_t anchor_node_us_ = 0;  // node time at the anchor
  int64_t anchor_mono_us_ = 0;  // monotonic time at the anchor
};

}  // namespace redlab::server
