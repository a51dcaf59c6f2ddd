// redlab lab: the failover lab's command line — `list` the catalogue, `run` scenarios and print
// the verdict table (JSON and HTML reports on request), `check` a JSON report's histories again.
#include <fmt/format.h>
#include <unistd.h>

#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>

#include "tools/lab/report.h"
#include "tools/lab/runner.h"
#include "tools/lab/soak.h"
#include "tools/redlab/commands.h"

namespace redlab::tools {
namespace {

struct LabOptions {
  std::vector<std::string> scenarios;
  std::string target = "embedded";
  uint64_t seed = 1;
  int runs = 1;
  std::string json_file, html_file, check_file;
  std::string driver;
  // soak
  int clients = 8;
  std::string duration = "60s";
  std::string faults;
  std::string lock = "reentrant";
};

// "60s", "1500ms", "2m", or milliseconds.
std::optional<lab::Millis> ParseDuration(const std::string& text) {
  size_t used = 0;
  double v = 0;
  try {
    v = std::stod(text, &used);
  } catch (const std::exception&) {
    return std::nullopt;
  }
  std::string unit = text.substr(used);
  double ms = unit == "ms" || unit.empty() ? v
              : unit == "s"                ? v * 1000
              : unit == "m"                ? v * 60000
                                           : -1;
  if (ms < 0) return std::nullopt;
  return lab::Millis(static_cast<int64_t>(ms));
}

std::optional<lab::Target> ParseTarget(const std::string& t) {
  if (t == "embedded") return lab::Target::kEmbedded;
  if (t == "redis") return lab::Target::kRedis;
  return std::nullopt;
}

bool WriteFile(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  out.close();
  if (!out) std::cerr << "redlab lab: cannot write " << path << "\n";
  return static_cast<bool>(out);
}

int List() {
  size_t w = 0;
  for (const lab::Scenario& s : lab::Catalogue()) w = std::max(w, s.id().size());
  for (const lab::Scenario& s : lab::Catalogue()) {
    std::cout << fmt::format("{:<{}}  {:<6}  {}\n", s.id(), w, lab::VerdictName(s.documented),
                             s.failure);
  }
  return 0;
}

int Report(const std::vector<lab::RunResult>& results, const LabOptions& o);

int Run(const LabOptions& o) {
  lab::Target target = *ParseTarget(o.target);  // CLI11 checked it
  std::vector<const lab::Scenario*> chosen;
  try {
    chosen = lab::SelectScenarios(o.scenarios);
  } catch (const std::invalid_argument& e) {
    std::cerr << "redlab lab: " << e.what() << "\n";
    return kExitUsageError;
  }
  std::vector<lab::RunResult> results;
  for (int i = 0; i < o.runs; ++i) {
    for (const lab::Scenario* s : chosen) {
      std::cerr << fmt::format("running {} on {} (seed {})...\n", s->id(), o.target, o.seed + i);
      results.push_back(
          lab::RunScenario(*s, target, o.seed + static_cast<uint64_t>(i), {.driver = o.driver}));
    }
  }
  return Report(results, o);
}

int Report(const std::vector<lab::RunResult>& results, const LabOptions& o) {
  std::cout << lab::VerdictTable(results);
  bool ok = true;
  for (const auto& r : results) ok = ok && r.as_documented() && r.error.empty();
  if (!o.json_file.empty() && !WriteFile(o.json_file, lab::RunsToJson(results).dump(2) + "\n")) {
    return 1;
  }
  if (!o.html_file.empty() && !WriteFile(o.html_file, lab::RenderHtml(results))) return 1;
  return ok ? 0 : 1;
}

int Soak(const LabOptions& o) {
  lab::SoakOptions so;
  so.target = *ParseTarget(o.target);
  so.clients = o.clients;
  so.seed = o.seed;
  so.lock = o.lock;
  auto duration = ParseDuration(o.duration);
  if (!duration) {
    std::cerr << "redlab lab soak: --duration is like 60s, 1500ms or 2m\n";
    return kExitUsageError;
  }
  so.duration = *duration;
  for (size_t start = 0; start < o.faults.size();) {
    size_t comma = o.faults.find(',', start);
    std::string kind = o.faults.substr(start, comma - start);
    if (!kind.empty()) so.faults.insert(kind);
    start = comma == std::string::npos ? o.faults.size() : comma + 1;
  }
  for (const std::string& k : so.faults) {
    if (!lab::SoakFaultKinds().count(k)) {
      std::cerr << "redlab lab soak: unknown fault " << k
                << " (crash, pause, lag, clock, partition)\n";
      return kExitUsageError;
    }
  }
  bool tty = isatty(STDERR_FILENO);
  so.progress = [tty](const lab::SoakProgress& p) {
    std::string line = fmt::format("soak {:.0f}/{:.0f} s  operations {}  faults {}", p.elapsed_s,
                                   p.duration_s, p.ops, p.faults);
    if (tty) {
      std::cerr << "\r" << line << "   " << std::flush;
    } else {
      std::cerr << line << "\n";
    }
  };
  lab::RunResult r = lab::RunSoak(so);
  if (tty) std::cerr << "\n";
  size_t shown = 0;
  for (const auto& ov : r.check.violations) {
    if (shown++ < 10) {
      std::cout << fmt::format("overlap: {} and {} both held {} for {:.1f} ms from {:.1f} ms\n",
                               ov.processes[0], ov.processes[1], ov.lock, ov.overlap_ms(),
                               ov.from_us / 1000.0);
    }
  }
  std::cout << fmt::format(
      "{} overlapping holds; {} more with a hold an unanswered acquire may have taken\n",
      r.check.violations.size(), r.check.possible_violations.size());
  for (const auto& v : r.check.resource_violations) {
    std::cout << fmt::format("{}: {} on {}: {}\n", v.kind, v.process, v.resource, v.detail);
  }
  std::cout << fmt::format("acquires ok {} failed {} unknown {}; writes accepted {} rejected {}\n",
                           r.check.acquires_ok, r.check.acquires_failed, r.check.acquires_unknown,
                           r.check.writes_accepted, r.check.writes_rejected);
  return Report({r}, o);
}

// Reads a report written by --json and checks each run's history again: the verdict comes from
// the history alone, so it must be the one the report gives.
int CheckFile(const std::string& path) {
  std::ifstream in(path);
  if (!in) {
    std::cerr << "redlab lab: cannot read " << path << "\n";
    return kExitUsageError;
  }
  nlohmann::json doc;
  try {
    doc = nlohmann::json::parse(in);
  } catch (const std::exception& e) {
    std::cerr << "redlab lab: " << path << ": " << e.what() << "\n";
    return kExitUsageError;
  }
  bool agree = true;
  for (const auto& run : doc.at("runs")) {
    if (run.at("verdict").is_null()) continue;
    std::vector<lab::Op> ops = lab::OpsFromJson(run);
    int64_t end_us = static_cast<int64_t>(run.at("end_ms").get<double>() * 1000.0);
    lab::CheckResult c = lab::Check(ops, end_us);
    std::string verdict = c.safe() ? "safe" : "unsafe";
    std::string id = run.at("scenario").get<std::string>();
    if (run.contains("variant")) id += "/" + run["variant"].get<std::string>();
    std::cout << fmt::format("{} {} {} ({} violations)\n", id, run.at("target").get<std::string>(),
                             verdict, c.violations.size() + c.resource_violations.size());
    agree = agree && verdict == run.at("verdict").get<std::string>();
  }
  return agree ? 0 : 1;
}

}  // namespace

SubcommandRun AddLabCommand(CLI::App& app) {
  auto options = std::make_shared<LabOptions>();
  CLI::App* lab = app.add_subcommand(
      "lab", "the failover lab: scenarios that lose locks, checked for two holders at once");
  lab->require_subcommand(1);
  CLI::App* list = lab->add_subcommand("list", "the scenario catalogue and documented verdicts");
  CLI::App* run = lab->add_subcommand("run", "run scenarios (all by default), print the verdicts");
  run->add_option("scenario", options->scenarios, "scenario names (name or name/variant)");
  run->add_option("--target", options->target, "embedded (default) or redis")
      ->check(CLI::IsMember({"embedded", "redis"}));
  run->add_option("--seed", options->seed, "the nemesis's seed (default 1)");
  run->add_option("--runs", options->runs, "runs of each scenario, seeds seed, seed+1, ...")
      ->check(CLI::PositiveNumber);
  run->add_option("--driver", options->driver,
                  "an external lock driver (JSON lines on stdin/stdout) for the RedLock scenarios");
  run->add_option("--json", options->json_file, "write the runs and histories as JSON");
  run->add_option("--html", options->html_file, "write a self-contained HTML timeline");
  CLI::App* soak = lab->add_subcommand("soak", "clients contend while random faults strike");
  soak->add_option("--clients", options->clients, "clients (default 8)")
      ->check(CLI::PositiveNumber);
  soak->add_option("--duration", options->duration, "how long: 60s (default), 1500ms, 2m");
  soak->add_option("--faults", options->faults, "comma-separated: crash,pause,lag,clock,partition");
  soak->add_option("--lock", options->lock,
                   "reentrant (default), or fenced (token-checking resources)")
      ->check(CLI::IsMember({"reentrant", "fenced"}));
  soak->add_option("--target", options->target, "embedded (default) or redis")
      ->check(CLI::IsMember({"embedded", "redis"}));
  soak->add_option("--seed", options->seed, "the nemesis's seed (default 1)");
  soak->add_option("--json", options->json_file, "write the run and its history as JSON");
  soak->add_option("--html", options->html_file, "write a self-contained HTML timeline");
  CLI::App* check = lab->add_subcommand("check", "check the histories of a --json report again");
  check->add_option("file", options->check_file, "the report")->required();
  return [options, list, run, soak, check]() {
    if (list->parsed()) return List();
    if (run->parsed()) return Run(*options);
    if (soak->parsed()) return Soak(*options);
    if (check->parsed()) return CheckFile(options->check_file);
    return kExitUsageError;
  };
}

}  // namespace redlab::tools
