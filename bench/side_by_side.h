// Running each benchmark against redlab and real redis-server in the same process run, and
// printing the ratio of their times: speed is only reported relative to Redis measured beside it.
#pragma once

#include <benchmark/benchmark.h>

#include <exception>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "conformance/harness/target.h"

namespace redlab::conformance {
class Topology;
}  // namespace redlab::conformance

namespace redlab::bench {

// The two servers every side-by-side benchmark runs against: an in-process redlab node and a
// real redis-server process, both on loopback.
class Servers {
 public:
  Servers();
  int port(conformance::Target t) const;

 private:
  std::unique_ptr<conformance::Server> redlab_;
  std::unique_ptr<conformance::Server> redis_;
};

// Runs `body`, turning an exception (a command the server refuses, a lost connection) into a
// skipped benchmark rather than an aborted run.
template <typename Body>
void Guarded(benchmark::State& state, Body body) {
  try {
    body();
  } catch (const std::exception& e) {
    state.SkipWithError(e.what());
  }
}

// Registers `name/redlab` and `name/redis`; `fn` gets the state and the port to use.
void RegisterSideBySide(const std::string& name, const Servers& servers,
                        std::function<void(benchmark::State&, int port)> fn);
// The same with the port of each target given by `port_of`.
void RegisterSideBySide(const std::string& name,
                        const std::function<int(conformance::Target)>& port_of,
                        std::function<void(benchmark::State&, int port)> fn);

// Replicated topologies for WAIT: a master with one and with two replicas, of each target.
class ReplicatedServers {
 public:
  ReplicatedServers();
  ~ReplicatedServers();
  int master_port(int replicas, conformance::Target target) const;

 private:
  std::map<std::pair<int, conformance::Target>, std::unique_ptr<conformance::Topology>> topologies_;
};

// A console reporter that also prints, at the end, redlab's time as a multiple of redis's for
// every benchmark registered by RegisterSideBySide (below 1.0: redlab is faster), and each
// benchmark given a baseline as a multiple of that baseline on the same target.
class RatioReporter : public benchmark::ConsoleReporter {
 public:
  // Reports `name`'s time as a multiple of `baseline`'s (e.g. a lock round trip in PING round
  // trips), per target, measured in the same run.
  static void SetBaseline(const std::string& name, const std::string& baseline);

  void ReportRuns(const std::vector<Run>& runs) override;
  void Finalize() override;

 private:
  std::map<std::string, std::map<std::string, double>> times_;  // name -> target -> ns/iter
  std::vector<std::string> order_;
  std::set<std::string> medians_;  // name/target whose time is a median of repetitions
};

}  // namespace redlab::bench
