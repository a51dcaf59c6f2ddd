// redlab-lock-memory: the memory one held lock costs, in redlab and in redis-server, measured in
// the same run. A held Redisson lock is a one-field hash ("<client uuid>:<thread id>" -> hold
// count) with a TTL; this loads N of them into each server and reports used_memory and RSS
// growth per lock.
#include <cstdlib>
#include <string>

#include "bench/memory_compare.h"

namespace {

// `locks` held locks, pipelined in batches.
void LoadLocks(redisContext* c, int locks) {
  const std::string owner = "8743c9c0-0795-4907-87fd-6c719a6b4586:1";
  constexpr int kBatch = 1000;
  for (int i = 0; i < locks; i += kBatch) {
    for (int j = i; j < i + kBatch && j < locks; ++j) {
      std::string key = "lock:order:" + std::to_string(j);
      redisAppendCommand(c, "HSET %b %b 1", key.data(), key.size(), owner.data(), owner.size());
      redisAppendCommand(c, "PEXPIRE %b 3600000", key.data(), key.size());
    }
    for (int j = i; j < i + kBatch && j < locks; ++j) {
      for (int k = 0; k < 2; ++k) {
        void* reply = nullptr;
        if (redisGetReply(c, &reply) != REDIS_OK) throw std::runtime_error("load failed");
        freeReplyObject(reply);
      }
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  int locks = argc > 1 ? std::atoi(argv[1]) : 1000000;
  redlab::bench::CompareMemory(
      "held locks loaded: " + std::to_string(locks) + " (one-field hash + TTL each)", "lock", locks,
      nullptr, [&](redisContext* c, int) { LoadLocks(c, locks); });
  return 0;
}
