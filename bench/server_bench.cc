// redlab-bench: round trips and pipelines against an in-process redlab node and a real
// redis-server started by the benchmark, side by side, with the ratio printed at the end.
#include <hiredis/hiredis.h>

#include <stdexcept>

#include "bench/connection.h"
#include "bench/side_by_side.h"

namespace redlab::bench {
namespace {

// One command, one round trip, per iteration: latency.
void RoundTrip(benchmark::State& state, int port, int argc, const char** argv) {
  Connection c = Connect(port);
  for (auto _ : state) {
    Check(static_cast<redisReply*>(redisCommandArgv(c.get(), argc, argv, nullptr)));
  }
}

// `depth` commands written at once, then their replies read: throughput per command.
void Pipelined(benchmark::State& state, int port, int depth, int argc, const char** argv) {
  Connection c = Connect(port);
  for (auto _ : state) {
    for (int i = 0; i < depth; ++i) redisAppendCommandArgv(c.get(), argc, argv, nullptr);
    for (int i = 0; i < depth; ++i) {
      void* reply = nullptr;
      if (redisGetReply(c.get(), &reply) != REDIS_OK) throw std::runtime_error("pipeline failed");
      Check(static_cast<redisReply*>(reply));
    }
  }
  state.SetItemsProcessed(state.iterations() * depth);
}

const char* kPing[] = {"PING"};
const char* kSet[] = {"SET", "bench:key", "value-of-some-length"};
const char* kGet[] = {"GET", "bench:key"};

}  // namespace

void RegisterServerBenchmarks(const Servers& servers) {
  RegisterSideBySide("ping_roundtrip", servers, [](benchmark::State& s, int port) {
    RoundTrip(s, port, 1, kPing);
  });
  RegisterSideBySide("set_roundtrip", servers, [](benchmark::State& s, int port) {
    RoundTrip(s, port, 3, kSet);
  });
  RegisterSideBySide("get_roundtrip", servers, [](benchmark::State& s, int port) {
    Check(static_cast<redisReply*>(redisCommandArgv(Connect(port).get(), 3, kSet, nullptr)));
    RoundTrip(s, port, 2, kGet);
  });
  RegisterSideBySide("ping_pipeline50", servers, [](benchmark::State& s, int port) {
    Pipelined(s, port, 50, 1, kPing);
  });
  RegisterSideBySide("set_pipeline50", servers, [](benchmark::State& s, int port) {
    Pipelined(s, port, 50, 3, kSet);
  });
  RegisterSideBySide("get_pipeline50", servers, [](benchmark::State& s, int port) {
    Check(static_cast<redisReply*>(redisCommandArgv(Connect(port).get(), 3, kSet, nullptr)));
    Pipelined(s, port, 50, 2, kGet);
  });
}

}  // namespace redlab::bench
