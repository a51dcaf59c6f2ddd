// The rest of the lock family's speed, against in-process redlab nodes and real redis-server in
// the same run, each as a multiple of a client PING round trip (client_ping_roundtrip), one
// uncontended acquire+release per iteration: the fair lock's, the read and the write lock's, the
// spin lock's Lock()+Unlock(); a fenced lock's LockWithToken()+Unlock(); a semaphore's and a
// permit-expirable semaphore's Acquire()+Release(); a count-down latch's TrySetCount(1)+
// CountDown(); a MultiLock of three locks' TryLock()+Unlock(); and a RedLock's TryLock()+Unlock()
// on one master and on five independent masters — the five are asked in parallel, so
// redlock_5_masters is also reported as a multiple of redlock_1_master. (The reentrant lock's
// lock_unlock_roundtrip is in lock_bench.cc.)
//
// On this machine's two cores the five masters' processes (or threads) cannot all run at once,
// so the direct ratio measures the CPU count as much as the client. The `_1ms_links` pair puts a
// fault proxy with 1 ms of latency each way in front of every master, as masters on other hosts
// would be: there the round trip, not the CPU, is the cost, and one-after-another would take five
// times one master's.
#include <benchmark/benchmark.h>

#include <functional>
#include <map>
#include <memory>
#include <stdexcept>
#include <vector>

#include "bench/side_by_side.h"
#include "client/client.h"
#include "client/multi_lock.h"
#include "tools/proxy/fault_proxy.h"

namespace redlab::bench {
namespace {

using std::chrono::milliseconds;

Config OneServer(int port) {
  return Config::SingleServer("redis://127.0.0.1:" + std::to_string(port));
}

// One client of the server on `port`; `make(client)` gives the body run once per iteration.
void Cycles(benchmark::State& state, int port,
            const std::function<std::function<void()>(redlab::Client&)>& make) {
  Guarded(state, [&] {
    redlab::Client client(OneServer(port));
    std::function<void()> body = make(client);
    for (auto _ : state) body();
  });
}

// Lock()+Unlock() of a handle of the Lockable kind `get(client)` gives.
template <typename Get>
auto LockUnlock(Get get) {
  return [get](benchmark::State& state, int port) {
    Cycles(state, port, [get](redlab::Client& client) -> std::function<void()> {
      return [lock = get(client)]() mutable {
        lock.Lock();
        lock.Unlock();
      };
    });
  };
}

void FencedLockUnlock(benchmark::State& state, int port) {
  Cycles(state, port, [](redlab::Client& client) -> std::function<void()> {
    return [lock = client.GetFencedLock("bench:fenced")]() mutable {
      benchmark::DoNotOptimize(lock.LockWithToken());
      lock.Unlock();
    };
  });
}

void SemaphoreAcquireRelease(benchmark::State& state, int port) {
  Cycles(state, port, [](redlab::Client& client) -> std::function<void()> {
    redlab::Semaphore s = client.GetSemaphore("bench:semaphore");
    s.TrySetPermits(1);
    return [s]() mutable {
      s.Acquire();
      s.Release();
    };
  });
}

void PermitSemaphoreAcquireRelease(benchmark::State& state, int port) {
  Cycles(state, port, [](redlab::Client& client) -> std::function<void()> {
    redlab::PermitExpirableSemaphore s =
        client.GetPermitExpirableSemaphore("bench:permit-semaphore");
    s.TrySetPermits(1);
    return [s]() mutable { s.Release(s.Acquire()); };
  });
}

void LatchSetCountDown(benchmark::State& state, int port) {
  Cycles(state, port, [](redlab::Client& client) -> std::function<void()> {
    return [latch = client.GetCountDownLatch("bench:latch")]() mutable {
      benchmark::DoNotOptimize(latch.TrySetCount(1));
      latch.CountDown();
    };
  });
}

void MultiLockThree(benchmark::State& state, int port) {
  Cycles(state, port, [](redlab::Client& client) -> std::function<void()> {
    auto all = std::make_shared<redlab::MultiLock>(std::vector<redlab::ReentrantLock>{
        client.GetLock("bench:multi:1"), client.GetLock("bench:multi:2"),
        client.GetLock("bench:multi:3")});
    return [all] {
      if (!all->TryLock()) throw std::runtime_error("MultiLock not acquired");
      all->Unlock();
    };
  });
}

// Independent masters of each target for RedLock: five of each, the first also serving the
// one-master case. Started once, kept for the run. With `link_delay_ms` > 0 each is reached
// through a fault proxy that delays every byte by that much in both directions.
class Masters {
 public:
  static constexpr int kCount = 5;
  explicit Masters(int64_t link_delay_ms = 0) {
    for (auto t : {conformance::Target::kEmbedded, conformance::Target::kRedis}) {
      for (int i = 0; i < kCount; ++i) {
        servers_[t].push_back(conformance::StartServerOf(t));
        int port = servers_[t].back()->port();
        if (link_delay_ms > 0) {
          tools::ProxyOptions options;
          options.target_port = port;
          proxies_.push_back(tools::FaultProxy::Start(options));
          proxies_.back()->Delay(link_delay_ms);
          port = proxies_.back()->port();
        }
        ports_[t].push_back(port);
      }
    }
  }
  int first_port(conformance::Target t) const { return ports_.at(t)[0]; }
  // The URLs of the first `n` masters of the target whose first master listens on `port`.
  std::vector<std::string> Urls(int port, int n) const {
    for (const auto& [t, list] : ports_) {
      if (list[0] != port) continue;
      std::vector<std::string> urls;
      for (int i = 0; i < n; ++i) urls.push_back("redis://127.0.0.1:" + std::to_string(list[i]));
      return urls;
    }
    return {};
  }

 private:
  std::map<conformance::Target, std::vector<std::unique_ptr<conformance::Server>>> servers_;
  std::vector<std::unique_ptr<tools::FaultProxy>> proxies_;
  std::map<conformance::Target, std::vector<int>> ports_;
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
  RegisterSideBySide("fair_lock_unlock_roundtrip", servers,
                     LockUnlock([](redlab::Client& c) { return c.GetFairLock("bench:fair"); }));
  RegisterSideBySide("read_lock_unlock_roundtrip", servers, LockUnlock([](redlab::Client& c) {
                       return c.GetReadWriteLock("bench:rw").ReadLock();
                     }));
  RegisterSideBySide("write_lock_unlock_roundtrip", servers, LockUnlock([](redlab::Client& c) {
                       return c.GetReadWriteLock("bench:rw").WriteLock();
                     }));
  RegisterSideBySide("spin_lock_unlock_roundtrip", servers,
                     LockUnlock([](redlab::Client& c) { return c.GetSpinLock("bench:spin"); }));
  RegisterSideBySide("fenced_lock_unlock_roundtrip", servers, FencedLockUnlock);
  RegisterSideBySide("semaphore_acquire_release_roundtrip", servers, SemaphoreAcquireRelease);
  RegisterSideBySide("permit_semaphore_acquire_release_roundtrip", servers,
                     PermitSemaphoreAcquireRelease);
  RegisterSideBySide("latch_set_count_down_roundtrip", servers, LatchSetCountDown);
  RegisterSideBySide("multi_lock_3_roundtrip", servers, MultiLockThree);
  static Masters masters;
  static Masters distant(/*link_delay_ms=*/1);
  for (Masters* group : {&masters, &distant}) {
    std::string suffix = group == &distant ? "_1ms_links" : "";
    auto first = [group](conformance::Target t) { return group->first_port(t); };
    RegisterSideBySide("redlock_1_master" + suffix, first,
                       [group](benchmark::State& state, int port) {
                         RedLockRoundTrip(state, *group, port, 1);
                       });
    RegisterSideBySide("redlock_5_masters" + suffix, first,
                       [group](benchmark::State& state, int port) {
                         RedLockRoundTrip(state, *group, port, Masters::kCount);
                       });
    RatioReporter::SetBaseline("redlock_5_masters" + suffix, "redlock_1_master" + suffix);
  }
  for (const char* name :
       {"fair_lock_unlock_roundtrip", "read_lock_unlock_roundtrip", "write_lock_unlock_roundtrip",
        "spin_lock_unlock_roundtrip", "fenced_lock_unlock_roundtrip",
        "semaphore_acquire_release_roundtrip", "permit_semaphore_acquire_release_roundtrip",
        "latch_set_count_down_roundtrip", "multi_lock_3_roundtrip", "redlock_1_master",
        "redlock_5_masters"}) {
    RatioReporter::SetBaseline(name, "client_ping_roundtrip");
  }
}

}  // namespace redlab::bench
