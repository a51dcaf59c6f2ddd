// The lab's reports of a set of runs: the verdict table for the terminal, the JSON document
// (its schema is in the README), and one self-contained HTML page with each run's timeline.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tools/lab/runner.h"

namespace redlab::lab {

// scenario, target, verdict, documented, violations, duration, then the run's figures.
std::string VerdictTable(const std::vector<RunResult>& runs);

nlohmann::json RunToJson(const RunResult& r);
nlohmann::json RunsToJson(const std::vector<RunResult>& runs);
// The history of a run's JSON read back (what `redlab lab check` re-checks).
std::vector<Op> OpsFromJson(const nlohmann::json& run);

// A whole HTML page, no network: per run, an inline SVG with a lane per client and per node,
// hold bars, fault bands and markers, and each violation marked where the holds overlap.
std::string RenderHtml(const std::vector<RunResult>& runs);

}  // namespace redlab::lab
