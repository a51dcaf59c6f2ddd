// Redis's rand48 (src/rand.c): the 48-bit linear congruential generator of drand48, which Redis
// uses for math.random so that scripts see the same sequence on every platform. The state is the
// node's and is never reseeded except by math.randomseed, as in Redis 7.0 (one process-wide state
// that survives SCRIPT FLUSH).
#pragma once

#include <cstdint>

namespace redlab::server::scripting {

class Rand48 {
 public:
  static constexpr int32_t kMax = INT32_MAX;  // REDIS_LRAND48_MAX

  // lrand48(): the next value in [0, 2^31).
  int32_t Next() {
    state_ = (kMultiplier * state_ + kIncrement) & kMask;
    return static_cast<int32_t>(state_ >> 17);
  }
  // srand48(seed): the high 32 bits of the state are the seed, the low 16 bits 0x330E.
  void Seed(int32_t seed) {
    state_ = (static_cast<uint64_t>(static_cast<uint32_t>(seed)) << 16) | 0x330E;
  }

 private:
  static constexpr uint64_t kMultiplier = 0x5DEECE66DULL;
  static constexpr uint64_t kIncrement = 0xB;
  static constexpr uint64_t kMask = (1ULL << 48) - 1;
  uint64_t state_ = 0x1234ABCD330EULL;  // Redis's initial X2 X1 X0
};

}  // namespace redlab::server::scripting
