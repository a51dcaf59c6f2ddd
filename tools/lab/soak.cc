// The soak: clients in threads, the nemesis in another, one history.
#include "tools/lab/soak.h"

#include <atomic>
#include <map>
#include <random>
#include <stdexcept>
#include <thread>

#include "tools/proxy/fault_proxy.h"

namespace redlab::lab {
namespace {

using Clock = std::chrono::steady_clock;

// One soak client: its proxy (so it can be partitioned), its actor, whether a pause is due.
struct SoakClient {
  std::unique_ptr<tools::FaultProxy> proxy;
  std::unique_ptr<Actor> actor;
  std::atomic<bool> pause_due{false};
};

void ClientLoop(SoakClient& c, std::vector<std::unique_ptr<GuardedResource>>& resources, Nemesis& n,
                uint64_t seed, Clock::time_point deadline, std::atomic<int64_t>& ops) {
  std::mt19937_64 rng(seed);
  auto uniform = [&](int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
  };
  while (Clock::now() < deadline) {
    size_t k = static_cast<size_t>(uniform(0, static_cast<int64_t>(resources.size()) - 1));
    std::string lock = std::string(kLockName) + ":" + std::to_string(k);
    Millis lease(uniform(200, 600));
    DriverResult r = c.actor->Acquire(lock, Millis(uniform(0, 200)), lease);
    ++ops;
    if (r.outcome == Outcome::kOk) {
      GuardedResource& res = *resources[k];
      int64_t seen = c.actor->Read(res);
      Millis work(uniform(1, 10));
      if (c.pause_due.exchange(false)) {
        // A stop-the-world pause, longer than the lease, between the read and the write.
        work = lease + Millis(uniform(50, 300));
        n.BeginClientFault("pause", c.actor->name(), "stop-the-world pause");
        std::this_thread::sleep_for(work);
        n.EndClientFault("pause", c.actor->name());
      } else {
        std::this_thread::sleep_for(work);
      }
      c.actor->Write(res, seen, seen + 1);
      c.actor->Release(lock);
      ops += 3;
    } else if (r.outcome == Outcome::kUnknown) {
      std::this_thread::sleep_for(Millis(uniform(50, 150)));  // the server may be down
    } else {
      std::this_thread::sleep_for(Millis(uniform(1, 20)));  // back off before trying again
    }
  }
}

}  // namespace

const std::set<std::string>& SoakFaultKinds() {
  static const std::set<std::string> kinds = {"crash", "pause", "lag", "clock", "partition"};
  return kinds;
}

RunResult RunSoak(const SoakOptions& o) {
  if (o.lock != "reentrant" && o.lock != "fenced") {
    throw std::invalid_argument("unknown lock kind: " + o.lock + " (reentrant or fenced)");
  }
  bool fenced = o.lock == "fenced";
  for (const std::string& f : o.faults) {
    if (!SoakFaultKinds().count(f)) throw std::invalid_argument("unknown fault kind: " + f);
  }
  Scenario s;
  s.name = "soak";
  s.failure = std::to_string(o.clients) + " clients on " + std::to_string(o.locks) + " " + o.lock +
              " locks with random faults";
  s.documented = Verdict::kSafe;  // what a lock promises; the checker says whether it held
  s.run = [&](RunContext& ctx) {
    Cluster& cluster = ctx.StartCluster({.replicas = 1});
    Nemesis& n = ctx.nemesis();
    std::set<std::string> faults = o.faults;
    if (faults.count("clock") && !cluster.SupportsClock()) {
      faults.erase("clock");
      ctx.Note("clock faults left out: a real redis-server's clock cannot be moved");
    }
    std::vector<std::unique_ptr<GuardedResource>> resources;
    for (int i = 0; i < o.locks; ++i) {
      resources.push_back(std::make_unique<GuardedResource>(
          std::string(kResourceName) + ":" + std::to_string(i), /*check_tokens=*/fenced));
    }
    std::vector<std::unique_ptr<SoakClient>> clients;
    for (int i = 0; i < o.clients; ++i) {
      auto c = std::make_unique<SoakClient>();
      tools::ProxyOptions po;
      po.target_port = cluster.Port(cluster.Master());
      c->proxy = tools::FaultProxy::Start(po);
      // Redisson's WAIT after each lock write, on a master with one replica.
      Config config =
          LabConfig(Config::MasterReplica("redis://127.0.0.1:" + std::to_string(c->proxy->port()),
                                          {cluster.Url(cluster.Replica(0))}));
      config.slaves_sync_timeout = Millis(100);
      std::string name = "c" + std::to_string(i);
      c->actor = fenced ? ctx.FencedActor(name, config) : ctx.ReentrantActor(name, config);
      clients.push_back(std::move(c));
    }
    std::atomic<int64_t> ops{0};
    int64_t faults_injected = 0;
    auto start = Clock::now();
    auto deadline = start + o.duration;
    std::vector<std::thread> threads;
    for (int i = 0; i < o.clients; ++i) {
      threads.emplace_back(ClientLoop, std::ref(*clients[static_cast<size_t>(i)]),
                           std::ref(resources), std::ref(n),
                           o.seed * 1000 + static_cast<uint64_t>(i), deadline, std::ref(ops));
    }
    std::vector<std::string> kinds(faults.begin(), faults.end());
    auto last_progress = Clock::now();
    auto report = [&] {
      if (!o.progress) return;
      o.progress({std::chrono::duration<double>(Clock::now() - start).count(),
                  std::chrono::duration<double>(o.duration).count(), ops.load(), faults_injected});
    };
    auto pause_until = [&](Clock::time_point t) {
      while (Clock::now() < t) {
        std::this_thread::sleep_for(std::min<Clock::duration>(t - Clock::now(), Millis(100)));
        if (Clock::now() - last_progress >= std::chrono::seconds(1)) {
          last_progress = Clock::now();
          report();
        }
      }
    };
    while (Clock::now() < deadline) {
      pause_until(std::min(deadline, Clock::now() + Millis(n.Uniform(300, 1200))));
      if (kinds.empty() || Clock::now() >= deadline) continue;
      const std::string& kind =
          kinds[static_cast<size_t>(n.Uniform(0, static_cast<int64_t>(kinds.size()) - 1))];
      ++faults_injected;
      if (kind == "crash") {
        n.Crash(cluster.Master());
        pause_until(Clock::now() + Millis(n.Uniform(50, 300)));
        n.Restart(cluster.Master());
      } else if (kind == "pause") {
        clients[static_cast<size_t>(n.Uniform(0, o.clients - 1))]->pause_due = true;
      } else if (kind == "lag") {
        n.DelayLink(cluster.Replica(0), n.Uniform(150, 400));
        pause_until(Clock::now() + Millis(n.Uniform(300, 1000)));
        n.DelayLink(cluster.Replica(0), 0);
      } else if (kind == "clock") {
        n.JumpClock(cluster.Master(), n.Uniform(600, 2000));
      } else if (kind == "partition") {
        SoakClient& c = *clients[static_cast<size_t>(n.Uniform(0, o.clients - 1))];
        c.proxy->Hold();
        n.BeginClientFault("partition", c.actor->name(), "cut from the server");
        pause_until(Clock::now() + Millis(n.Uniform(200, 800)));
        c.proxy->Reset();
        n.EndClientFault("partition", c.actor->name());
      }
    }
    for (auto& t : threads) t.join();
    report();
    ctx.Metric("operations", static_cast<double>(ops.load()));
    ctx.Metric("faults", static_cast<double>(faults_injected));
    for (auto& c : clients) c->actor->Close();
  };
  RunResult r = RunScenario(s, o.target, o.seed);
  // The checker's findings by kind, for the summary.
  int64_t lost = 0, stale = 0;
  for (const ResourceViolation& v : r.check.resource_violations) {
    (v.kind == "stale-token" ? stale : lost) += 1;
  }
  r.metrics["overlaps"] = static_cast<double>(r.check.violations.size());
  r.metrics["lost_updates"] = static_cast<double>(lost);
  r.metrics["stale_writes_accepted"] = static_cast<double>(stale);
  r.metrics["writes_rejected"] = r.check.writes_rejected;
  return r;
}

}  // namespace redlab::lab
