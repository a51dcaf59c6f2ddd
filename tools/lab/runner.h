// Runs scenarios: each run on its target with its seed, then the checker's verdict on the
// history it recorded, beside the verdict the scenario documents.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "tools/lab/checker.h"
#include "tools/lab/scenario.h"

namespace redlab::lab {

struct RunResult {
  std::string scenario;
  std::string variant;  // empty for a base form
  std::string failure;
  Target target = Target::kEmbedded;
  uint64_t seed = 0;
  Verdict documented = Verdict::kUnsafe;
  std::optional<Verdict> verdict;      // the checker's; none when skipped or failed to run
  std::optional<std::string> skipped;  // why the scenario cannot run on this target
  std::string error;                   // the lab itself failed (a node did not start...)
  CheckResult check;
  std::vector<Op> history;
  std::vector<Event> faults;
  std::vector<std::string> nodes;  // the target's nodes ("m0", "r0", ...), a lane each
  int64_t end_us = 0;
  double duration_ms = 0;
  std::map<std::string, double> metrics;
  std::vector<std::string> notes;
  std::string driver;  // the external driver it ran with, if any

  std::string id() const { return variant.empty() ? scenario : scenario + "/" + variant; }
  // Ran, and the checker agrees with the documented verdict (a skip counts as agreeing).
  bool as_documented() const { return skipped || (verdict && *verdict == documented); }
};

RunResult RunScenario(const Scenario& s, Target target, uint64_t seed,
                      const RunOptions& options = {});

// The scenarios named (a name selects the scenario and its variants; "name/variant" one form);
// all when `names` is empty. Throws std::invalid_argument naming an unknown one.
std::vector<const Scenario*> SelectScenarios(const std::vector<std::string>& names);

}  // namespace redlab::lab
