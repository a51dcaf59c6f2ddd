#include "bench/side_by_side.h"

#include <cstdio>

namespace redlab::bench {

Servers::Servers()
    : redlab_(conformance::StartServerOf(conformance::Target::kEmbedded)),
      redis_(conformance::StartServerOf(conformance::Target::kRedis)) {}

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
    if (run.run_type != Run::RT_Iteration || run.error_occurred) continue;
    std::string full = run.benchmark_name();
    size_t slash = full.find('/');
    if (slash == std::string::npos) continue;
    std::string name = full.substr(0, slash);
    std::string target = full.substr(slash + 1);
    target = target.substr(0, target.find('/'));
    if (!times_.count(name)) order_.push_back(name);
    times_[name][target] = run.GetAdjustedRealTime();
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
  std::fflush(stdout);
}

}  // namespace redlab::bench
