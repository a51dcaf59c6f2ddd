// redlab-connection-memory: what an idle client connection costs, in redlab-server and in
// redis-server, measured in the same run: N connections are opened (10,000 by default), each
// answered once (PING), and used_memory and RSS growth are divided by N.
#include <arpa/inet.h>
#include <hiredis/hiredis.h>
#include <netinet/in.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "conformance/harness/target.h"

namespace {

struct ContextDeleter {
  void operator()(redisContext* c) const { redisFree(c); }
};
using Connection = std::unique_ptr<redisContext, ContextDeleter>;

int64_t InfoField(redisContext* c, const char* section, const std::string& field) {
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

struct Figures {
  double used_per_connection;
  double rss_per_connection;
};

Figures Measure(int port, int n) {
  Connection c(redisConnect("127.0.0.1", port));
  if (!c || c->err) throw std::runtime_error("cannot connect");
  freeReplyObject(redisCommand(c.get(), "CONFIG SET maxclients %d", n + 16));
  int64_t used0 = InfoField(c.get(), "memory", "used_memory");
  int64_t rss0 = InfoField(c.get(), "memory", "used_memory_rss");
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  std::vector<int> fds;
  const std::string ping = "*1\r\n$4\r\nPING\r\n";
  for (int i = 0; i < n; ++i) {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0 || connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0) {
      throw std::runtime_error("connect failed at " + std::to_string(i));
    }
    if (send(fd, ping.data(), ping.size(), MSG_NOSIGNAL) != static_cast<ssize_t>(ping.size())) {
      throw std::runtime_error("send failed");
    }
    fds.push_back(fd);
  }
  for (int fd : fds) {
    char buf[7];
    size_t got = 0;
    while (got < sizeof(buf)) {
      ssize_t r = recv(fd, buf + got, sizeof(buf) - got, 0);
      if (r <= 0) throw std::runtime_error("no answer");
      got += static_cast<size_t>(r);
    }
  }
  int64_t used1 = InfoField(c.get(), "memory", "used_memory");
  int64_t rss1 = InfoField(c.get(), "memory", "used_memory_rss");
  for (int fd : fds) close(fd);
  return {static_cast<double>(used1 - used0) / n, static_cast<double>(rss1 - rss0) / n};
}

}  // namespace

int main(int argc, char** argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 10000;
  rlimit limit{};
  getrlimit(RLIMIT_NOFILE, &limit);
  if (limit.rlim_cur < static_cast<rlim_t>(n) + 256) {
    limit.rlim_cur = std::max<rlim_t>(limit.rlim_max, static_cast<rlim_t>(n) + 256);
    limit.rlim_max = std::max(limit.rlim_max, limit.rlim_cur);
    setrlimit(RLIMIT_NOFILE, &limit);
  }
  using redlab::conformance::StartServerOf;
  using redlab::conformance::Target;
  // redlab runs as its own process here (spawn), as redis-server does, so RSS compares like
  // with like.
  auto redlab = StartServerOf(Target::kSpawn);
  auto redis = StartServerOf(Target::kRedis);
  Figures mine = Measure(redlab->port(), n);
  Figures theirs = Measure(redis->port(), n);
  std::printf("idle connections: %d (each answered one PING)\n", n);
  std::printf("%-24s %12s %14s\n", "bytes per connection", "used_memory", "RSS growth");
  std::printf("%-24s %12.1f %14.1f\n", "redlab-server", mine.used_per_connection,
              mine.rss_per_connection);
  std::printf("%-24s %12.1f %14.1f\n", "redis-server 7.0", theirs.used_per_connection,
              theirs.rss_per_connection);
  std::printf("%-24s %12.2fx %13.2fx\n", "ratio redlab/redis",
              mine.used_per_connection / theirs.used_per_connection,
              mine.rss_per_connection / theirs.rss_per_connection);
  return 0;
}
