// Sentinel failover time (issue 13): from the master's crash to a client's first successful
// write on the new master, as a Sentinel client does it (ask a sentinel for the master's address,
// write there, ask again on failure). Three sentinels with down-after-milliseconds 200 and
// failover-timeout 3000 (Sentinel's other periods at their defaults) watch a master with two
// replicas; redlab sentinels and nodes beside redis-server --sentinel and redis-server nodes, in
// one run. Each iteration builds the deployment afresh (not timed) and times one failover.
#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "bench/side_by_side.h"
#include "conformance/harness/fixture.h"
#include "conformance/harness/topology.h"

namespace redlab::bench {
namespace {

using std::chrono::milliseconds;
using std::chrono::steady_clock;

struct Deployment {
  std::unique_ptr<conformance::Topology> topology;
  std::vector<std::unique_ptr<conformance::Server>> sentinels;
};

Deployment Start(conformance::Target target) {
  Deployment d;
  conformance::TopologyOptions t;
  t.replicas = 2;
  t.fault_proxy = false;
  d.topology = conformance::StartTopologyOf(target, t);
  if (!d.topology->WaitForSync()) throw std::runtime_error("replicas did not sync");
  std::string master = std::to_string(d.topology->master_port());
  for (int i = 0; i < 3; ++i) {
    conformance::ServerOptions o;
    o.sentinel = true;
    o.config = {{"sentinel", "monitor mymaster 127.0.0.1 " + master + " 2"},
                {"sentinel", "down-after-milliseconds mymaster 200"},
                {"sentinel", "failover-timeout mymaster 3000"}};
    d.sentinels.push_back(conformance::StartServerOf(target, o));
  }
  // Ready when every sentinel knows both replicas and the two other sentinels.
  bool ready = conformance::Eventually(
      [&] {
        for (auto& s : d.sentinels) {
          conformance::Client c(s->port());
          conformance::Reply m = c({"SENTINEL", "MASTER", "mymaster"});
          std::string slaves, others;
          for (size_t i = 0; i + 1 < m.elements.size(); i += 2) {
            if (m.elements[i].str == "num-slaves") slaves = m.elements[i + 1].str;
            if (m.elements[i].str == "num-other-sentinels") others = m.elements[i + 1].str;
          }
          if (slaves != "2" || others != "2") return false;
        }
        return true;
      },
      std::chrono::seconds(30));
  if (!ready) throw std::runtime_error("sentinels did not find each other");
  return d;
}

// Asks sentinel 0 where the master is and writes there until a write succeeds somewhere else
// than the crashed master.
void WriteUntilFailedOver(Deployment& d, int old_port) {
  auto deadline = steady_clock::now() + std::chrono::seconds(60);
  while (steady_clock::now() < deadline) {
    try {
      conformance::Client s(d.sentinels[0]->port(), milliseconds(500));
      conformance::Reply addr = s({"SENTINEL", "GET-MASTER-ADDR-BY-NAME", "mymaster"});
      if (addr.elements.size() == 2) {
        int port = std::stoi(addr.elements[1].str);
        if (port != old_port) {
          conformance::Client m(port, milliseconds(500));
          if (m({"SET", "bench:failover", "1"}) == conformance::Status("OK")) return;
        }
      }
    } catch (const std::exception&) {
      // Not there yet: ask again.
    }
    std::this_thread::sleep_for(milliseconds(5));
  }
  throw std::runtime_error("no write succeeded on a new master within 60 s");
}

void Failover(benchmark::State& state, conformance::Target target) {
  Guarded(state, [&] {
    for (auto _ : state) {
      Deployment d = Start(target);
      int old_port = d.topology->master_port();
      auto start = steady_clock::now();
      d.topology->CrashMaster();
      WriteUntilFailedOver(d, old_port);
      state.SetIterationTime(std::chrono::duration<double>(steady_clock::now() - start).count());
    }
  });
}

}  // namespace

void RegisterSentinelBenchmarks() {
  for (auto target : {conformance::Target::kEmbedded, conformance::Target::kRedis}) {
    std::string label = target == conformance::Target::kRedis ? "redis" : "redlab";
    benchmark::RegisterBenchmark(("sentinel_failover_to_first_write/" + label).c_str(),
                                 [target](benchmark::State& s) { Failover(s, target); })
        ->UseManualTime()
        ->Unit(benchmark::kMillisecond)
        ->Iterations(3);
  }
}

}  // namespace redlab::bench
