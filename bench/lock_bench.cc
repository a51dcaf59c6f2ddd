// The lock client's speed, against an in-process redlab node and real redis-server in the same
// run, each as a multiple of a PING round trip through the same client (caller thread -> loop
// thread -> server and back): an uncontended Lock()+Unlock(), and the hand-off from an unlock
// to the waiting thread of another client holding the lock.
#include <benchmark/benchmark.h>

#include <chrono>
#include <future>

#include "bench/side_by_side.h"
#include "client/client.h"

namespace redlab::bench {
namespace {

using Clock = std::chrono::steady_clock;

Config BenchConfig(int port) {
  return Config::SingleServer("redis://127.0.0.1:" + std::to_string(port));
}

void ClientPing(benchmark::State& state, int port) {
  Guarded(state, [&] {
    redlab::Client client(BenchConfig(port));
    for (auto _ : state) benchmark::DoNotOptimize(client.Execute({"PING"}));
  });
}

void LockUnlock(benchmark::State& state, int port) {
  Guarded(state, [&] {
    redlab::Client client(BenchConfig(port));
    redlab::Lock lock = client.GetLock("bench:lock");
    for (auto _ : state) {
      lock.Lock();
      lock.Unlock();
    }
  });
}

// Per iteration: the holder locks; the waiter (another client) starts Lock and parks; then the
// time from the holder's unlock call to the waiter holding the lock is measured.
void Handoff(benchmark::State& state, int port) {
  Guarded(state, [&] {
    redlab::Client holder_client(BenchConfig(port));
    redlab::Client waiter_client(BenchConfig(port));
    redlab::Lock holder = holder_client.GetLock("bench:handoff");
    redlab::Lock waiter = waiter_client.GetLock("bench:handoff");
    ThreadId waiting_thread{1};
    for (auto _ : state) {
      holder.Lock();
      std::future<void> acquired = waiter.LockAsync(waiting_thread);
      while (waiter_client.ParkedWaiters("bench:handoff") == 0) {
      }
      auto start = Clock::now();
      std::future<void> released = holder.UnlockAsync();
      acquired.get();
      auto end = Clock::now();
      state.SetIterationTime(std::chrono::duration<double>(end - start).count());
      released.get();
      waiter.Unlock(waiting_thread);
    }
  });
}

void RegisterManualTime(const std::string& name, const Servers& servers,
                        void (*fn)(benchmark::State&, int)) {
  for (auto target : {conformance::Target::kEmbedded, conformance::Target::kRedis}) {
    int port = servers.port(target);
    std::string label = target == conformance::Target::kRedis ? "redis" : "redlab";
    benchmark::RegisterBenchmark((name + "/" + label).c_str(), [fn, port](benchmark::State& state) {
      fn(state, port);
    })->UseManualTime();
  }
}

}  // namespace

void RegisterLockBenchmarks(const Servers& servers) {
  RegisterSideBySide("client_ping_roundtrip", servers, ClientPing);
  RegisterSideBySide("lock_unlock_roundtrip", servers, LockUnlock);
  RegisterManualTime("lock_handoff", servers, Handoff);
  // The same path as the lock calls (caller -> loop thread -> server), and a bare hiredis PING
  // (server_bench.cc) for the cost of that path itself.
  RatioReporter::SetBaseline("lock_unlock_roundtrip", "client_ping_roundtrip");
  RatioReporter::SetBaseline("lock_handoff", "client_ping_roundtrip");
  RatioReporter::SetBaseline("client_ping_roundtrip", "ping_roundtrip");
  RatioReporter::SetBaseline("lock_unlock_roundtrip", "ping_roundtrip");
  RatioReporter::SetBaseline("lock_handoff", "ping_roundtrip");
}

}  // namespace redlab::bench
