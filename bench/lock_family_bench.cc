// The rest of the lock family's speed, against in-process redlab nodes and real redis-server in
// the same run, each as a multiple of a client PING round trip (client_ping_roundtrip): a fenced
// lock's LockWithToken()+Unlock(), a semaphore's Acquire()+Release(), and a RedLock's
// TryLock()+Unlock() on one master and on five independent masters — the five are asked in
// parallel, so redlock_5_masters is also reported as a multiple of redlock_1_master.
#include <benchmark/benchmark.h>

#include <map>
#include <memory>
#include <vector>

#include "bench/side_by_side.h"
#include "client/client.h"

namespace redlab::bench {
namespace {

using std::chrono::milliseconds;

Config OneServer(int port) {
  return Config::SingleServer("redis://127.0.0.1:" + std::to_string(port));
}

void FencedLockUnlock(benchmark::State& state, int port) {
  Guarded(state, [&] {
    redlab::Client client(OneServer(port));
    redlab::FencedLock lock = client.GetFencedLock("bench:fenced");
    for (auto _ : state) {
      benchmark::DoNotOptimize(lock.LockWithToken());
      lock.Unlock();
    }
  });
}

void SemaphoreAcquireRelease(benchmark::State& state, int port) {
  Guarded(state, [&] {
    redlab::Client client(OneServer(port));
    redlab::Semaphore s = client.GetSemaphore("bench:semaphore");
    s.TrySetPermits(1);
    for (auto _ : state) {
      s.Acquire();
      s.Release();
    }
  });
}

// Independent masters of each target for RedLock: five of each, the first also serving the
// one-master case. Started once, kept for the run.
class Masters {
 public:
  static constexpr int kCount = 5;
  Masters() {
    for (auto t : {conformance::Target::kEmbedded, conformance::Target::kRedis}) {
      for (int i = 0; i < kCount; ++i) servers_[t].push_back(conformance::StartServerOf(t));
    }
  }
  int first_port(conformance::Target t) const { return servers_.at(t)[0]->port(); }
  // The URLs of the first `n` masters of the target whose first master listens on `port`.
  std::vector<std::string> Urls(int port, int n) const {
    for (const auto& [t, list] : servers_) {
      if (list[0]->port() != port) continue;
      std::vector<std::string> urls;
      for (int i = 0; i < n; ++i)
        urls.push_back("redis://127.0.0.1:" + std::to_string(list[i]->port()));
      return urls;
    }
    return {};
  }

 private:
  std::map<conformance::Target, std::vector<std::unique_ptr<conformance::Server>>> servers_;
};

void RedLockRoundTrip(benchmark::State& state, const Masters& masters, int port, int n) {
  Guarded(state, [&] {
    redlab::Client client(Config::IndependentMasters(masters.Urls(port, n)));
    redlab::RedLock lock = client.GetRedLock("bench:redlock");
    for (auto _ : state) {
      if (!lock.TryLock(milliseconds(0), milliseconds(10000))) {
        state.SkipWithError("RedLock not acquired");
        break;
      }
      lock.Unlock();
    }
  });
}

}  // namespace

void RegisterLockFamilyBenchmarks(const Servers& servers) {
  RegisterSideBySide("fenced_lock_unlock_roundtrip", servers, FencedLockUnlock);
  RegisterSideBySide("semaphore_acquire_release_roundtrip", servers, SemaphoreAcquireRelease);
  static Masters masters;
  auto first = [](conformance::Target t) { return masters.first_port(t); };
  RegisterSideBySide("redlock_1_master", first, [](benchmark::State& state, int port) {
    RedLockRoundTrip(state, masters, port, 1);
  });
  RegisterSideBySide("redlock_5_masters", first, [](benchmark::State& state, int port) {
    RedLockRoundTrip(state, masters, port, Masters::kCount);
  });
  for (const char* name : {"fenced_lock_unlock_roundtrip", "semaphore_acquire_release_roundtrip",
                           "redlock_1_master", "redlock_5_masters"}) {
    RatioReporter::SetBaseline(name, "client_ping_roundtrip");
  }
  RatioReporter::SetBaseline("redlock_5_masters", "redlock_1_master");
}

}  // namespace redlab::bench
