// The frame of the memory tools (lock_memory.cc, connection_memory.cc): redlab-server and
// redis-server started side by side in one run (redlab spawned as its own process, as
// redis-server is, so RSS compares like with like), the same load given to each, and the growth
// of used_memory and RSS divided by the items loaded, printed with the ratio redlab/redis.
#pragma once

#include <hiredis/hiredis.h>

#include <cstdio>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>

#include "conformance/harness/target.h"

namespace redlab::bench {

struct ContextDeleter {
  void operator()(redisContext* c) const { redisFree(c); }
};
using Connection = std::unique_ptr<redisContext, ContextDeleter>;

inline int64_t InfoField(redisContext* c, const char* section, const std::string& field) {
  auto* reply = static_cast<redisReply*>(redisCommand(c, "INFO %s", section));
  if (reply == nullptr || reply->type != REDIS_REPLY_STRING)
    throw std::runtime_error("INFO failed");
  std::string text(reply->str, reply->len);
  freeReplyObject(reply);
  size_t pos = text.find("\r\n" + field + ":");
  if (pos == std::string::npos) throw std::runtime_error("INFO lacks " + field);
  pos += field.size() + 3;
  return std::stoll(text.substr(pos, text.find("\r\n", pos) - pos));
}

// What one item costs in a server.
struct Figures {
  double used_per_item;
  double rss_per_item;
};

// A connection `c` to the server on `port`: `prepare(c)` runs first, then `load(c, port)` between
// two readings of used_memory and used_memory_rss.
using Prepare = std::function<void(redisContext* c)>;
using Load = std::function<void(redisContext* c, int port)>;

inline Figures Measure(int port, int items, const Prepare& prepare, const Load& load) {
  Connection c(redisConnect("127.0.0.1", port));
  if (!c || c->err) throw std::runtime_error("cannot connect");
  if (prepare) prepare(c.get());
  int64_t used0 = InfoField(c.get(), "memory", "used_memory");
  int64_t rss0 = InfoField(c.get(), "memory", "used_memory_rss");
  load(c.get(), port);
  int64_t used1 = InfoField(c.get(), "memory", "used_memory");
  int64_t rss1 = InfoField(c.get(), "memory", "used_memory_rss");
  return {static_cast<double>(used1 - used0) / items, static_cast<double>(rss1 - rss0) / items};
}

// Measures `load` on both servers and prints `headline` and the table ("bytes per <item>").
inline void CompareMemory(const std::string& headline, const std::string& item, int items,
                          const Prepare& prepare, const Load& load) {
  using conformance::StartServerOf;
  using conformance::Target;
  auto redlab = StartServerOf(Target::kSpawn);
  auto redis = StartServerOf(Target::kRedis);
  Figures mine = Measure(redlab->port(), items, prepare, load);
  Figures theirs = Measure(redis->port(), items, prepare, load);
  std::printf("%s\n", headline.c_str());
  std::printf("%-24s %12s %14s\n", ("bytes per " + item).c_str(), "used_memory", "RSS growth");
  std::printf("%-24s %12.1f %14.1f\n", "redlab-server", mine.used_per_item, mine.rss_per_item);
  std::printf("%-24s %12.1f %14.1f\n", "redis-server 7.0", theirs.used_per_item,
              theirs.rss_per_item);
  std::printf("%-24s %12.2fx %13.2fx\n", "ratio redlab/redis",
              mine.used_per_item / theirs.used_per_item, mine.rss_per_item / theirs.rss_per_item);
}

}  // namespace redlab::bench
