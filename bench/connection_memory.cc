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

#include "bench/memory_compare.h"

namespace {

// `n` idle connections to `port`, each answered one PING; their sockets go to `fds`.
void OpenConnections(int port, int n, std::vector<int>& fds) {
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
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
  std::vector<int> fds;
  redlab::bench::CompareMemory(
      "idle connections: " + std::to_string(n) + " (each answered one PING)", "connection", n,
      [&](redisContext* c) {
        freeReplyObject(redisCommand(c, "CONFIG SET maxclients %d", n + 16));
      },
      [&](redisContext*, int port) {
        // The first server's connections stay open until it is measured, and close before the
        // second server's open: the file limit is for one server's N.
        for (int fd : fds) close(fd);
        fds.clear();
        OpenConnections(port, n, fds);
      });
  for (int fd : fds) close(fd);
  return 0;
}
