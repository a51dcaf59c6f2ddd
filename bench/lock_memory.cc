// redlab-lock-memory: the memory one held lock costs, in redlab and in redis-server, measured in
// the same run. A held Redisson lock is a one-field hash ("<client uuid>:<thread id>" -> hold
// count) with a TTL; this loads N of them into each server and reports used_memory and RSS
// growth per lock.
#include <hiredis/hiredis.h>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <stdexcept>
#include <string>

#include "conformance/harness/target.h"

namespace {

struct ContextDeleter {
  void operator()(redisContext* c) const { redisFree(c); }
};
using Connection = std::unique_ptr<redisContext, ContextDeleter>;

int64_t InfoField(redisContext* c, const char* section, const std::string& field) {
  auto* reply = static_cast<redisReply*>(redisCommand(c, "INFO %s", section));
  if (reply == nullptr || reply->type != REDIS_REPLY_STRING) throw std::runtime_error("INFO failed");
  std::string text(reply->str, reply->len);
  freeReplyObject(reply);
  size_t pos = text.find("\r\n" + field + ":");
  if (pos == std::string::npos) throw std::runtime_error("INFO lacks " + field);
  pos += field.size() + 3;
  return std::stoll(text.substr(pos, text.find("\r\n", pos) - pos));
}

struct Figures {
  double used_per_lock;
  double rss_per_lock;
};

Figures Measure(int port, int locks) {
  Connection c(redisConnect("127.0.0.1", port));
  if (!c || c->err) throw std::runtime_error("cannot connect");
  int64_t used0 = InfoField(c.get(), "memory", "used_memory");
  int64_t rss0 = InfoField(c.get(), "memory", "used_memory_rss");
  const std::string owner = "8743c9c0-0795-4907-87fd-6c719a6b4586:1";
  constexpr int kBatch = 1000;
  for (int i = 0; i < locks; i += kBatch) {
    for (int j = i; j < i + kBatch && j < locks; ++j) {
      std::string key = "lock:order:" + std::to_string(j);
      redisAppendCommand(c.get(), "HSET %b %b 1", key.data(), key.size(), owner.data(), owner.size());
      redisAppendCommand(c.get(), "PEXPIRE %b 3600000", key.data(), key.size());
    }
    for (int j = i; j < i + kBatch && j < locks; ++j) {
      for (int k = 0; k < 2; ++k) {
        void* reply = nullptr;
        if (redisGetReply(c.get(), &reply) != REDIS_OK) throw std::runtime_error("load failed");
        freeReplyObject(reply);
      }
    }
  }
  int64_t used1 = InfoField(c.get(), "memory", "used_memory");
  int64_t rss1 = InfoField(c.get(), "memory", "used_memory_rss");
  return {static_cast<double>(used1 - used0) / locks, static_cast<double>(rss1 - rss0) / locks};
}

}  // namespace

int main(int argc, char** argv) {
  int locks = argc > 1 ? std::atoi(argv[1]) : 1000000;
  using redlab::conformance::StartServerOf;
  using redlab::conformance::Target;
  // redlab runs as its own process here (spawn), as redis-server does, so RSS compares like
  // with like.
  auto redlab = StartServerOf(Target::kSpawn);
  auto redis = StartServerOf(Target::kRedis);
  Figures mine = Measure(redlab->port(), locks);
  Figures theirs = Measure(redis->port(), locks);
  std::printf("held locks loaded: %d (one-field hash + TTL each)\n", locks);
  std::printf("%-24s %12s %14s\n", "bytes per lock", "used_memory", "RSS growth");
  std::printf("%-24s %12.1f %14.1f\n", "redlab-server", mine.used_per_lock, mine.rss_per_lock);
  std::printf("%-24s %12.1f %14.1f\n", "redis-server 7.0", theirs.used_per_lock, theirs.rss_per_lock);
  std::printf("%-24s %12.2fx %13.2fx\n", "ratio redlab/redis", mine.used_per_lock / theirs.used_per_lock,
              mine.rss_per_lock / theirs.rss_per_lock);
  return 0;
}
