// redlab-bench's entry point: starts the two servers, registers every side-by-side benchmark and
// runs them with the ratio reporter. Google Benchmark's flags apply (--benchmark_filter=...).
#include "bench/side_by_side.h"

namespace redlab::bench {
void RegisterServerBenchmarks(const Servers& servers);
void RegisterLockBenchmarks(const Servers& servers);
void RegisterLockFamilyBenchmarks(const Servers& servers);
void RegisterWaitBenchmarks(const ReplicatedServers& servers);
void RegisterScriptBenchmarks(const Servers& servers);
void RegisterStartupBenchmarks();
void RegisterStreamBenchmarks(const Servers& servers);
void RegisterHllGeoBenchmarks(const Servers& servers);
void RegisterSentinelBenchmarks();
}  // namespace redlab::bench

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  redlab::bench::Servers servers;
  redlab::bench::RegisterServerBenchmarks(servers);
  redlab::bench::RegisterLockBenchmarks(servers);
  redlab::bench::RegisterLockFamilyBenchmarks(servers);
  redlab::bench::ReplicatedServers replicated;
  redlab::bench::RegisterWaitBenchmarks(replicated);
  redlab::bench::RegisterScriptBenchmarks(servers);
  redlab::bench::RegisterStartupBenchmarks();
  redlab::bench::RegisterStreamBenchmarks(servers);
  redlab::bench::RegisterHllGeoBenchmarks(servers);
  redlab::bench::RegisterSentinelBenchmarks();
  redlab::bench::RatioReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  return 0;
}
