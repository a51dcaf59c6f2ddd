// Load, as Redis 7.0.15 meets it: the open-file limit raised for maxclients at startup
// (server.c's adjustOpenFilesLimit, its log lines), clients whose output passes
// client-output-buffer-limit disconnected with networking.c's log line while the node serves
// everyone else, INFO's client_recent_max_output_buffer, and 10,000 concurrent connections.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <iostream>
#include <sstream>

#include "conformance/harness/child_process.h"
#include "conformance/harness/fixture.h"
#include "tools/proxy/fault_proxy.h"

namespace redlab::conformance {
namespace {

const std::vector<std::string> kPrograms = {REDLAB_SERVER_PATH, "redis-server"};

// The log lines until `last` (a line starting with it) or the end of the output.
std::vector<std::string> LinesUntil(ChildProcess& server, const std::string& last) {
  std::vector<std::string> lines;
  for (std::string line = server.ReadLine(); !line.empty(); line = server.ReadLine()) {
    lines.push_back(WithoutPrefix(line));
    if (lines.back().find(last) != std::string::npos) break;
  }
  return lines;
}

// The startup lines about the open-file limit of `program` started under `nofile` with
// `maxclients`, and the maxclients it then reports.
std::pair<std::vector<std::string>, std::string> OpenFileLines(const std::string& program,
                                                               const std::string& nofile,
                                                               const std::string& maxclients) {
  int port = FreePort();
  ChildProcess server("/usr/bin/prlimit",
                      {"--nofile=" + nofile, program, "--port", std::to_string(port), "--save", "",
                       "--maxclients", maxclients});
  std::vector<std::string> out;
  for (const std::string& l : LinesUntil(server, "Ready to accept connections")) {
    if (l.find("open files") != std::string::npos || l.find("maxclients") != std::string::npos) {
      out.push_back(l);
    }
  }
  std::optional<Client> c = ConnectWhenUp(port);
  if (!c) return {out, "not up: " + server.Stderr()};
  return {out, (*c)({"CONFIG", "GET", "maxclients"}).elements.at(1).str};
}

TEST(OpenFilesTest, RaisedForMaxclientsAsRedisServerDoes) {
  auto [redlab, redlab_max] = OpenFileLines(REDLAB_SERVER_PATH, "1024:1024", "2000");
  auto [redis, redis_max] = OpenFileLines("redis-server", "1024:1024", "2000");
  EXPECT_EQ(redlab, redis);
  EXPECT_EQ(redlab_max, redis_max);
  // Raised where the hard limit may be raised (CAP_SYS_RESOURCE), else maxclients is reduced.
  if (redlab.size() == 1) {
    EXPECT_EQ(redlab[0],
              "* Increased maximum number of open files to 2032 (it was originally set to 1024).");
    EXPECT_EQ(redlab_max, "2000");
  } else {
    EXPECT_EQ(redlab, (std::vector<std::string>{
                          "# You requested maxclients of 2000 requiring at least 2032 max file "
                          "descriptors.",
                          "# Server can't set maximum open files to 2032 because of OS error: "
                          "Operation not permitted.",
                          "# Current maximum open files is 1024. maxclients has been reduced to "
                          "992 to compensate for low ulimit. If you need higher maxclients "
                          "increase 'ulimit -n'."}));
    EXPECT_EQ(redlab_max, "992");
  }
}

TEST(OpenFilesTest, MaxclientsReducedWhenTheLimitCannotBeRaised) {
  // Past fs.nr_open even root cannot go: both servers settle for what they get, and say so.
  auto [redlab, redlab_max] = OpenFileLines(REDLAB_SERVER_PATH, "1024:1024", "2000000");
  auto [redis, redis_max] = OpenFileLines("redis-server", "1024:1024", "2000000");
  EXPECT_EQ(redlab, redis);
  EXPECT_EQ(redlab_max, redis_max);
  ASSERT_EQ(redlab.size(), 3u);
  EXPECT_EQ(redlab[0],
            "# You requested maxclients of 2000000 requiring at least 2000032 max file "
            "descriptors.");
  EXPECT_NE(redlab_max, "2000000");
}

// A subscriber that never reads, of a server started with `limits`: PUBLISH until the server
// drops it, and the log line that says so.
TEST(OutputLimitsTest, SlowSubscriberIsDroppedWithRedisLogLine) {
  for (const std::string& program : kPrograms) {
    int port = FreePort();
    // A snapshot file nobody wrote: a dump.rdb left in the working directory would be loaded,
    // and Redis creates its replication backlog for the history such a file carries.
    std::string rdb = "redlab-load-test-" + std::to_string(getpid()) + "-absent.rdb";
    ChildProcess server(
        program, {"--port", std::to_string(port), "--save", "", "--dir", "/tmp", "--dbfilename",
                  rdb, "--client-output-buffer-limit", "pubsub 1mb 0 0"});
    std::optional<Client> c = ConnectWhenUp(port);
    ASSERT_TRUE(c.has_value()) << program << ": " << server.Stderr();
    int64_t before = InfoNumber(*c, "memory", "used_memory");
    Client slow(port);
    slow.SendCommand({"SUBSCRIBE", "firehose"});
    slow.ReadRaw();
    std::string message(64 * 1024, 'm');
    bool dropped = false;
    for (int i = 0; i < 4000 && !dropped; ++i) {
      dropped = (*c)({"PUBLISH", "firehose", message}) == Int(0);
    }
    EXPECT_TRUE(dropped) << program;
    std::vector<std::string> lines = LinesUntil(server, "overcoming of output buffer limits");
    ASSERT_FALSE(lines.empty()) << program;
    const std::string& line = lines.back();
    EXPECT_EQ(line.rfind("# Client id=", 0), 0u) << program << ": " << line;
    EXPECT_NE(line.find(" cmd=subscribe "), std::string::npos) << program << ": " << line;
    EXPECT_NE(line.find(" flags=P "), std::string::npos) << program << ": " << line;
    const std::string kTail =
        " scheduled to be closed ASAP for overcoming of output buffer limits.";
    EXPECT_EQ(line.substr(line.size() - std::min(line.size(), kTail.size())), kTail) << program;
    // Everyone else is served, and the memory the subscriber's buffer held returns.
    EXPECT_EQ((*c)({"PING"}), Status("PONG")) << program;
    EXPECT_TRUE(Eventually([&] {
      return InfoNumber(*c, "memory", "used_memory") < before + 512 * 1024;
    })) << program
        << ": " << before << " then " << InfoNumber(*c, "memory", "used_memory") << "\n"
        << (*c)({"INFO", "memory"}).str << (*c)({"CLIENT", "LIST"}).str;
  }
}

class OutputBufferTest : public ConformanceTest {
 protected:
  void TearDown() override {
    c()({"CONFIG", "SET", "client-output-buffer-limit", "normal 0 0 0 pubsub 32mb 8mb 60"});
  }
};

// The omem field of the client named `name` in CLIENT LIST (-1 when there is none).
int64_t OutputMemoryOf(Client& client, const std::string& name) {
  std::istringstream lines(client({"CLIENT", "LIST"}).str);
  for (std::string line; std::getline(lines, line);) {
    if (line.find(" name=" + name + " ") == std::string::npos) continue;
    size_t at = line.find(" omem=");
    if (at != std::string::npos) return std::stoll(line.substr(at + 6));
  }
  return -1;
}

// The soft limit: a subscriber over it is kept until it has been over it for the limit's
// seconds; then the next message drops it (checkClientOutputBufferLimits).
TEST_F(OutputBufferTest, SubscriberOverTheSoftLimitIsDroppedOnlyAfterItsSeconds) {
  ASSERT_EQ(c()({"CONFIG", "SET", "client-output-buffer-limit", "pubsub 0 256kb 2"}),
            Status("OK"));
  Client slow = Connect();
  ASSERT_EQ(slow({"CLIENT", "SETNAME", "slow"}), Status("OK"));
  slow.SendCommand({"SUBSCRIBE", "firehose"});
  slow.ReadRaw();
  // It never reads again: once the kernel's buffers are full, the server's grows.
  std::string message(64 * 1024, 'm');
  int64_t omem = 0;
  for (int i = 0; i < 400 && omem <= 256 * 1024; ++i) {
    ASSERT_EQ(c()({"PUBLISH", "firehose", message}), Int(1)) << "message " << i;
    omem = OutputMemoryOf(c(), "slow");
  }
  ASSERT_GT(omem, 256 * 1024) << c()({"CLIENT", "LIST"}).str;
  // Over the soft limit, but not yet for 2 s: no hard limit, so it is still subscribed.
  EXPECT_EQ(c()({"PUBLISH", "firehose", "x"}), Int(1));
  // After 2 s over it, a message finds it over the limit for too long and drops it.
  EXPECT_TRUE(Eventually([&] { return c()({"PUBLISH", "firehose", "x"}) == Int(0); },
                         std::chrono::seconds(15)))
      << c()({"CLIENT", "LIST"}).str;
  EXPECT_EQ(OutputMemoryOf(c(), "slow"), -1);
  EXPECT_EQ(c()({"PING"}), Status("PONG"));
}

// A client that sends requests and never reads what they answer.
void PipelineWithoutReading(Client& client, int requests) {
  std::string batch;
  for (int i = 0; i < 10; ++i) batch += Client::Encode({"GET", "big"});
  for (int i = 0; i < requests / 10; ++i) client.Send(batch);
}

TEST_F(OutputBufferTest, ClientThatNeverReadsIsDisconnectedAndOthersAreServed) {
  ASSERT_EQ(c()({"SET", "big", std::string(100 * 1024, 'v')}), Status("OK"));
  ASSERT_EQ(c()({"CONFIG", "SET", "client-output-buffer-limit", "normal 1mb 0 0"}), Status("OK"));
  Client deaf = Connect();
  // 40 MB of replies: far past what the kernel's buffers take, so the server's own grows.
  PipelineWithoutReading(deaf, 400);
  // The server drops it: what it reads before the close is far from the 400 replies.
  std::string got = deaf.ReadUntilClosed(std::chrono::seconds(20));
  EXPECT_LT(got.size(), 100u * (100 * 1024 + 16));
  EXPECT_TRUE(Eventually([&] { return InfoNumber(c(), "clients", "connected_clients") == 1; }));
  EXPECT_EQ(c()({"PING"}), Status("PONG"));
  EXPECT_EQ(c()({"STRLEN", "big"}), Int(100 * 1024));
}

TEST_F(OutputBufferTest, InfoReportsTheRecentLargestOutputBuffer) {
  ASSERT_EQ(c()({"SET", "big", std::string(100 * 1024, 'v')}), Status("OK"));
  Client deaf = Connect();
  PipelineWithoutReading(deaf, 400);
  // Whatever the kernel took, several megabytes wait in the server: its cron sees them.
  EXPECT_TRUE(Eventually([&] {
    return InfoNumber(c(), "clients", "client_recent_max_output_buffer") > 1024 * 1024;
  })) << c()({"INFO", "clients"}).str;
  EXPECT_GE(InfoNumber(c(), "clients", "client_recent_max_input_buffer"), 0);
}

// A replica behind a held link (the fault proxy, which stops reading once its buffer is full)
// stops taking the stream: the master's output to it passes the replica class's limit and the
// master drops it and serves on; once the link is released the replica comes back.
TEST(ReplicaOutputLimitTest, AReplicaBehindAHeldLinkIsDroppedAndComesBack) {
  auto master = StartServer({.config = {{"repl-diskless-sync-delay", "0"},
                                        {"repl-backlog-size", "1mb"},
                                        {"client-output-buffer-limit", "replica 1mb 0 0"}}});
  auto replica = StartServer({.config = {{"repl-diskless-load", "on-empty-db"}}});
  tools::ProxyOptions po;
  po.target_port = master->port();
  po.buffer_limit = 64 * 1024;
  auto proxy = tools::FaultProxy::Start(po);
  Client m(master->port());
  Client r(replica->port());
  ASSERT_EQ(r({"REPLICAOF", "127.0.0.1", std::to_string(proxy->port())}), Status("OK"));
  ASSERT_TRUE(Eventually(
      [&] {
        return m({"INFO", "replication"}).str.find("state=online") != std::string::npos &&
               r({"INFO", "replication"}).str.find("master_link_status:up") != std::string::npos;
      },
      std::chrono::seconds(10)));
  proxy->Hold();
  std::string value(100 * 1024, 'r');
  for (int i = 0; i < 200; ++i) {
    ASSERT_EQ(m({"SET", "k" + std::to_string(i), value}), Status("OK"));
  }
  EXPECT_TRUE(Eventually([&] { return InfoNumber(m, "replication", "connected_slaves") == 0; }))
      << m({"INFO", "replication"}).str;
  EXPECT_EQ(m({"PING"}), Status("PONG"));
  EXPECT_EQ(m({"DBSIZE"}), Int(200));
  proxy->Release();
  EXPECT_TRUE(Eventually(
      [&] {
        return r({"INFO", "replication"}).str.find("master_link_status:up") != std::string::npos &&
               r({"DBSIZE"}) == Int(200);
      },
      std::chrono::seconds(20)))
      << r({"INFO", "replication"}).str;
}

class MaxclientsConfigTest : public ConformanceTest {};

// updateMaxclients: a maxclients the open-file limit cannot serve is refused with the number it
// can, and nothing changes; that number is then accepted.
TEST_F(MaxclientsConfigTest, ConfigSetRaisesTheLimitOrSaysWhatTheSystemCanServe) {
  Reply r = c()({"CONFIG", "SET", "maxclients", "2000000"});
  ASSERT_TRUE(r.is_error()) << r.str;
  const std::string prefix =
      "ERR CONFIG SET failed (possibly related to argument 'maxclients') - The operating system "
      "is not able to handle the specified number of clients, try with ";
  ASSERT_EQ(r.str.rfind(prefix, 0), 0u) << r.str;
  int64_t possible = std::stoll(r.str.substr(prefix.size()));
  EXPECT_GT(possible, 10000);
  EXPECT_LT(possible, 2000000);
  EXPECT_EQ(c()({"CONFIG", "GET", "maxclients"}), Array({Bulk("maxclients"), Bulk("10000")}));
  EXPECT_EQ(c()({"CONFIG", "SET", "maxclients", std::to_string(possible)}), Status("OK"));
  EXPECT_EQ(c()({"CONFIG", "SET", "maxclients", "10000"}), Status("OK"));
}

// Raises this process's descriptor limit to `n`; false when it cannot.
bool RaiseFileLimit(rlim_t n) {
  rlimit limit{};
  getrlimit(RLIMIT_NOFILE, &limit);
  if (limit.rlim_cur >= n) return true;
  limit.rlim_cur = n;
  if (limit.rlim_max < n) limit.rlim_max = n;
  return setrlimit(RLIMIT_NOFILE, &limit) == 0;
}

// One node with 10,000 clients: its own process (redlab-server, or redis-server on the redis
// target), so this process holds only the clients' ends.
TEST(TenThousandTest, TenThousandConcurrentConnectionsAreEachAnswered) {
  constexpr int kConnections = 10000;
  if (!RaiseFileLimit(kConnections + 1024)) GTEST_SKIP() << "cannot raise RLIMIT_NOFILE";
  auto server = StartServerOf(IsRealRedis() ? Target::kRedis : Target::kSpawn,
                              {.config = {{"maxclients", std::to_string(kConnections + 16)}}});
  Client c(server->port());
  int64_t before = InfoNumber(c, "memory", "used_memory");
  std::vector<int> fds;
  fds.reserve(kConnections);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(server->port()));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  for (int i = 0; i < kConnections; ++i) {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    ASSERT_GE(fd, 0) << i << ": " << strerror(errno);
    fds.push_back(fd);
    ASSERT_EQ(connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)), 0)
        << i << ": " << strerror(errno);
  }
  EXPECT_TRUE(
      Eventually([&] { return InfoNumber(c, "clients", "connected_clients") == kConnections + 1; },
                 std::chrono::seconds(30)))
      << InfoNumber(c, "clients", "connected_clients");
  int64_t idle = InfoNumber(c, "memory", "used_memory");
  std::cout << "[ memory   ] " << (idle - before) / kConnections
            << " bytes of used_memory per idle connection (" << kConnections << " connections)\n";
  // Every connection asks, then every one is answered.
  const std::string ping = "*1\r\n$4\r\nPING\r\n";
  for (int fd : fds) ASSERT_EQ(send(fd, ping.data(), ping.size(), MSG_NOSIGNAL), 14);
  int answered = 0;
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  for (int fd : fds) {
    std::string got;
    while (got.size() < 7 && std::chrono::steady_clock::now() < deadline) {
      pollfd p{fd, POLLIN, 0};
      if (poll(&p, 1, 1000) != 1) continue;
      char buf[16];
      ssize_t n = recv(fd, buf, sizeof(buf), 0);
      if (n <= 0) break;
      got.append(buf, static_cast<size_t>(n));
    }
    if (got == "+PONG\r\n") ++answered;
  }
  EXPECT_EQ(answered, kConnections);
  // The next one past maxclients is refused with Redis's error.
  ASSERT_EQ(c({"CONFIG", "SET", "maxclients", std::to_string(kConnections + 1)}), Status("OK"));
  Client refused(server->port());
  EXPECT_EQ(refused.ReadUntilClosed(), "-ERR max number of clients reached\r\n");
  for (int fd : fds) close(fd);
  EXPECT_TRUE(Eventually([&] { return InfoNumber(c, "clients", "connected_clients") == 1; },
                         std::chrono::seconds(30)));
}

}  // namespace
}  // namespace redlab::conformance
