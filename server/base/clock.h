// A node's clock. Every time a node reads (expiry, TTL, TIME, WAIT timeouts, the expire cycle)
// goes through its Clock, so faults can jump it, skew its rate or freeze it for a test.
#pragma once

#include <cstdint>

namespace redlab::server {

class Clock {
 public:
  Clock();

  // Unix time as this node sees it.
  int64_t NowUs() const;
  int64_t NowMs() const { return NowUs() / 1000; }

  // Moves the node's time by `delta_ms` (either way), from now on.
  void Jump(int64_t delta_ms);
  // Makes the node's time run `factor` times as fast as real time from now on (1.0 = real).
  void SetRate(double factor);
  // Freezes the node's time where it is; it moves only by Advance().
  void SetManual();
  void Advance(int64_t delta_ms);
  // Back to real time with no offset.
  void SetReal();

  bool manual() const { return manual_; }
  double rate() const { return rate_; }
  // How far the node's time is from real time, in ms.
  int64_t OffsetMs() const;

 private:
  static int64_t RealUs();
  static int64_t MonotonicUs();
  void Rebase();  // re-anchors so a rate change applies from now on

  bool manual_ = false;
  int64_t manual_us_ = 0;
  double rate_ = 1.0;
  int64_t anchor_node_us_ = 0;  // node time at the anchor
  int64_t anchor_mono_us_ = 0;  // monotonic time at the anchor
};

}  // namespace redlab::server
