// Real elapsed time from the steady clock (Redis's ustime/mstime where it measures durations
// with getMonotonicUs): how long a command, a script, a cycle or a stall took, whatever a node's
// Clock says. Node time (expiry, TTL, TIME) goes through Clock instead.
#pragma once

#include <chrono>
#include <cstdint>

namespace redlab::server {

inline int64_t MonotonicUs() {
  return std::chrono::duration_cast<std::chrono::microseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

inline int64_t MonotonicMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

}  // namespace redlab::server
