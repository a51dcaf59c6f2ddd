#include "bench/side_by_side.h"

#include "conformance/harness/client.h"

#include <cstdio>

namespace redlab::bench {
namespace {

// name -> baseline, filled while benchmarks are registered (before any run).
std::vector<std::pair<std::string, std::string>>& Baselines() {
  static std::vector<std::pair<std::string, std::string>> baselines;
  return baselines;
}

}  // namespace

void RatioReporter::SetBaseline(const std::string& name, const std::string& baseline) {
  Baselines().emplace_back(name, baseline);
}

Servers::Servers()
    : redlab_(conformance::StartServerOf(conformance::Target::kEmbedded)),
      redis_(conformance::StartServerOf(conformance::Target::kRedis)) {
  // Warm both up (page faults, first allocations, CPU frequency) so whichever benchmark runs
  // first is not measured against a cold server.
  for (int port : {redlab_->port(), redis_->port()}) {
    conformance::Client c(port);
    for (int i = 0; i < 20000; ++i) c({"PING"});
  }
}

int Servers::port(conformance::Target t) const {
  return t == conformance::Target::kRedis ? redis_->port() : redlab_->port();
}

void RegisterSideBySide(const std::string& name, const Servers& servers,
                        std::function<void(benchmark::State&, int port)> fn) {
  RegisterSideBySide(
      name, [&servers](conformance::Target t) { return servers.port(t); }, std::move(fn));
}

void RegisterSideBySide(const std::string& name,
                        const std::function<int(conformance::Target)>& port_of,
                        std::function<void(benchmark::State&, int port)> fn) {
  for (auto target : {conformance::Target::kEmbedded, conformance::Target::kRedis}) {
    int port = port_of(target);
    std::string label = target == conformance::Target::kRedis ? "redis" : "redlab";
    benchmark::RegisterBenchmark((name + "/" + label).c_str(), [fn, port](benchmark::State& state) {
      fn(state, port);
    })->UseRealTime();
  }
}

void RatioReporter::ReportRuns(const std::vector<Run>& runs) {
  ConsoleReporter::ReportRuns(runs);
  for (const Run& run : runs) {
    // Single runs, or with --benchmark_repetitions the median (steadier on a busy machine).
    bool median = run.run_type == Run::RT_Aggregate && run.aggregate_name == "median";
    if ((run.run_type != Run::RT_Iteration && !median) || run.error_occurred) continue;
    std::string full = run.benchmark_name();
    size_t slash = full.find('/');
    if (slash == std::string::npos) continue;
    std::string name = full.substr(0, slash);
    std::string target = full.substr(slash + 1);
    target = target.substr(0, target.find('/'));
    if (!times_.count(name)) order_.push_back(name);
    std::string key = name + "/" + target;
    // In ns whatever unit the benchmark reports in.
    double ns = run.GetAdjustedRealTime() * 1e9 / benchmark::GetTimeUnitMultiplier(run.time_unit);
    if (median || !medians_.count(key)) times_[name][target] = ns;
    if (median) medians_.insert(key);
  }
}

void RatioReporter::Finalize() {
  ConsoleReporter::Finalize();
  std::printf("\n%-32s %14s %14s %10s\n", "benchmark", "redlab", "redis", "ratio");
  for (const std::string& name : order_) {
    auto& t = times_[name];
    if (!t.count("redlab") || !t.count("redis")) continue;
    std::printf("%-32s %12.0fns %12.0fns %9.2fx\n", name.c_str(), t["redlab"], t["redis"],
                t["redlab"] / t["redis"]);
  }
  std::printf(
      "(ratio = redlab time / redis-server time per iteration; below 1.00 redlab is faster)\n");
  if (!Baselines().empty()) {
    std::printf("\n%-32s %-24s %10s %10s\n", "benchmark", "as a multiple of", "redlab", "redis");
    for (const auto& [name, baseline] : Baselines()) {
      auto& t = times_[name];
      auto& b = times_[baseline];
      auto multiple = [&](const char* target) {
        return t.count(target) && b.count(target) ? t[target] / b[target] : 0.0;
      };
      std::printf("%-32s %-24s %9.2fx %9.2fx\n", name.c_str(), baseline.c_str(), multiple("redlab"),
                  multiple("redis"));
    }
    std::printf("(0.00x: that benchmark did not run on that target)\n");
  }
  std::fflush(stdout);
}

}  // namespace redlab::bench
