// redlab lab soak: N clients contend on a few locks, each guarding a resource they update, while
// a seeded nemesis injects the listed faults at random; the checker then judges the history as
// for any scenario.
#pragma once

#include <cstdint>
#include <functional>
#include <set>
#include <string>

#include "tools/lab/runner.h"

namespace redlab::lab {

struct SoakProgress {
  double elapsed_s = 0, duration_s = 0;
  int64_t ops = 0, faults = 0;
};

struct SoakOptions {
  Target target = Target::kEmbedded;
  int clients = 8;
  Millis duration{60000};
  // Any of crash, pause, lag, clock, partition.
  std::set<std::string> faults;
  uint64_t seed = 1;
  int locks = 3;
  // "reentrant", or "fenced": the fenced lock, and resources that reject a token older than the
  // newest they accepted.
  std::string lock = "reentrant";
  // Called about once a second from the lab's thread.
  std::function<void(const SoakProgress&)> progress;
};

// The fault kinds a soak knows.
const std::set<std::string>& SoakFaultKinds();

// Throws std::invalid_argument for an unknown fault kind. A fault the target cannot take (clock
// on real Redis) is left out and noted in the result.
RunResult RunSoak(const SoakOptions& options);

}  // namespace redlab::lab
