// WAIT latency: a write followed by WAIT for every replica, pipelined in one round trip as
// Redisson sends its lock script and WAIT together, on a master with one and with two replicas.
// redlab (an in-process topology) beside real redis-server processes (replicas linked directly,
// no proxy) in the same run.
#include <hiredis/hiredis.h>

#include <memory>
#include <stdexcept>
#include <string>

#include "bench/side_by_side.h"
#include "conformance/harness/topology.h"

namespace redlab::bench {
namespace {

struct ContextDeleter {
  void operator()(redisContext* c) const { redisFree(c); }
};

void SetAndWait(benchmark::State& state, int port, int replicas) {
  std::unique_ptr<redisContext, ContextDeleter> c(redisConnect("127.0.0.1", port));
  if (!c || c->err) throw std::runtime_error("cannot connect to port " + std::to_string(port));
  std::string n = std::to_string(replicas);
  const char* set[] = {"SET", "bench:lock", "owner"};
  const char* wait[] = {"WAIT", n.c_str(), "1000"};
  for (auto _ : state) {
    redisAppendCommandArgv(c.get(), 3, set, nullptr);
    redisAppendCommandArgv(c.get(), 3, wait, nullptr);
    void* r1 = nullptr;
    void* r2 = nullptr;
    if (redisGetReply(c.get(), &r1) != REDIS_OK || redisGetReply(c.get(), &r2) != REDIS_OK) {
      throw std::runtime_error("connection failed");
    }
    auto* acked = static_cast<redisReply*>(r2);
    bool ok = acked->type == REDIS_REPLY_INTEGER && acked->integer == replicas;
    freeReplyObject(r1);
    freeReplyObject(r2);
    if (!ok) {
      state.SkipWithError("WAIT did not count every replica");
      break;
    }
  }
}

}  // namespace

ReplicatedServers::ReplicatedServers() {
  for (int replicas : {1, 2}) {
    for (auto target : {conformance::Target::kEmbedded, conformance::Target::kRedis}) {
      conformance::TopologyOptions options;
      options.replicas = replicas;
      options.fault_proxy = false;
      topologies_[{replicas, target}] = conformance::StartTopologyOf(target, options);
    }
  }
}

ReplicatedServers::~ReplicatedServers() = default;

int ReplicatedServers::master_port(int replicas, conformance::Target target) const {
  return topologies_.at({replicas, target})->master_port();
}

void RegisterWaitBenchmarks(const ReplicatedServers& servers) {
  for (int replicas : {1, 2}) {
    std::string name = replicas == 1 ? "set_wait_1_replica" : "set_wait_2_replicas";
    RegisterSideBySide(
        name,
        [&servers, replicas](conformance::Target t) { return servers.master_port(replicas, t); },
        [replicas](benchmark::State& s, int port) { SetAndWait(s, port, replicas); });
  }
}

}  // namespace redlab::bench
