// The runner: one scenario, one target, one seed, one verdict from the checker.
#include "tools/lab/runner.h"

#include <chrono>
#include <exception>
#include <stdexcept>

namespace redlab::lab {

RunResult RunScenario(const Scenario& s, Target target, uint64_t seed, const RunOptions& options) {
  RunResult r;
  r.scenario = s.name;
  r.variant = s.variant;
  r.failure = s.failure;
  r.target = target;
  r.seed = seed;
  r.documented = s.documented;
  auto start = std::chrono::steady_clock::now();
  {
    RunOptions used = options;
    if (!s.takes_driver) used.driver.clear();
    r.driver = used.driver;
    RunContext ctx(target, seed, used);
    try {
      s.run(ctx);
    } catch (const std::exception& e) {
      r.error = e.what();
    }
    r.skipped = ctx.skipped();
    r.metrics = ctx.metrics();
    r.notes = ctx.notes();
    if (ctx.has_cluster()) {
      for (size_t i = 0; i < ctx.cluster().size(); ++i) r.nodes.push_back(ctx.cluster().Name(i));
    }
    r.history = ctx.history().ops();
    r.faults = ctx.history().events();
    r.end_us = ctx.history().EndUs();
    // The nodes and clients stop with the context.
  }
  r.duration_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  if (!r.skipped && r.error.empty()) {
    r.check = Check(r.history, r.end_us);
    r.verdict = r.check.safe() ? Verdict::kSafe : Verdict::kUnsafe;
  }
  return r;
}

std::vector<const Scenario*> SelectScenarios(const std::vector<std::string>& names) {
  std::vector<const Scenario*> out;
  for (const Scenario& s : Catalogue()) {
    bool chosen = names.empty();
    for (const std::string& n : names) chosen = chosen || n == s.name || n == s.id();
    if (chosen) out.push_back(&s);
  }
  for (const std::string& n : names) {
    bool known = false;
    for (const Scenario& s : Catalogue()) known = known || n == s.name || n == s.id();
    if (!known) throw std::invalid_argument("unknown scenario: " + n + " (see redlab lab list)");
  }
  return out;
}

}  // namespace redlab::lab
