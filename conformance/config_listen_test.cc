// CONFIG SET of every parameter to the value CONFIG GET gives (Redis's "CONFIG sanity"), and the
// two that move the listening sockets: `port` and `bind` close them and listen anew while the
// connections stay; when that fails, the command's values are rolled back and the old sockets
// come back.
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <set>

#include "conformance/harness/fixture.h"
#include "conformance/harness/silent_listener.h"

namespace redlab::conformance {
namespace {

class ConfigListenTest : public ::testing::Test {
 protected:
  void SetUp() override { server_ = StartServer(); }

  std::string Get(Client& c, const std::string& name) {
    Reply r = c({"CONFIG", "GET", name});
    return r.elements.size() == 2 ? r.elements[1].str : std::string();
  }

  static bool Answers(int port) {
    try {
      Client c(port, std::chrono::milliseconds(500));
      return c({"PING"}) == Status("PONG");
    } catch (const std::exception&) {
      return false;
    }
  }

  std::unique_ptr<Server> server_;
};

TEST_F(ConfigListenTest, EveryParameterTakesTheValueItShows) {
  Client c(server_->port());
  // The parameters Redis's own test leaves out: immutable, protected, or about the process.
  const std::set<std::string> skip = {"rdbchecksum",
                                      "daemonize",
                                      "io-threads-do-reads",
                                      "tcp-backlog",
                                      "always-show-logo",
                                      "syslog-enabled",
                                      "cluster-enabled",
                                      "disable-thp",
                                      "aclfile",
                                      "unixsocket",
                                      "pidfile",
                                      "syslog-ident",
                                      "appendfilename",
                                      "appenddirname",
                                      "supervised",
                                      "syslog-facility",
                                      "databases",
                                      "io-threads",
                                      "logfile",
                                      "unixsocketperm",
                                      "replicaof",
                                      "slaveof",
                                      "requirepass",
                                      "server_cpulist",
                                      "bio_cpulist",
                                      "aof_rewrite_cpulist",
                                      "bgsave_cpulist",
                                      "set-proc-title",
                                      "cluster-config-file",
                                      "cluster-port",
                                      "oom-score-adj",
                                      "oom-score-adj-values",
                                      "enable-protected-configs",
                                      "enable-debug-command",
                                      "enable-module-command",
                                      "dbfilename",
                                      "dir",
                                      "socket-mark-id"};
  Reply all = c({"CONFIG", "GET", "*"});
  ASSERT_GT(all.elements.size(), 0u);
  std::vector<std::pair<std::string, std::string>> shown;
  for (size_t i = 0; i + 1 < all.elements.size(); i += 2) {
    const std::string& name = all.elements[i].str;
    if (skip.count(name) || name.rfind("tls-", 0) == 0) continue;
    shown.emplace_back(name, all.elements[i + 1].str);
    EXPECT_EQ(c({"CONFIG", "SET", name, all.elements[i + 1].str}), Status("OK")) << name;
  }
  for (const auto& [name, value] : shown) EXPECT_EQ(Get(c, name), value) << name;
  EXPECT_EQ(c({"PING"}), Status("PONG"));
  EXPECT_TRUE(Answers(server_->port()));
}

TEST_F(ConfigListenTest, APortChangeMovesTheListenerAndKeepsConnections) {
  int old_port = server_->port();
  Client c(old_port);
  int new_port = FreePort();
  ASSERT_EQ(c({"CONFIG", "SET", "port", std::to_string(new_port)}), Status("OK"));
  EXPECT_EQ(Get(c, "port"), std::to_string(new_port));
  EXPECT_EQ(c({"PING"}), Status("PONG"));  // the connection stays
  EXPECT_TRUE(Answers(new_port));
  EXPECT_FALSE(Answers(old_port));
  Client n(new_port);
  ASSERT_EQ(n({"CONFIG", "SET", "port", std::to_string(old_port)}), Status("OK"));
  EXPECT_TRUE(Answers(old_port));
  EXPECT_FALSE(Answers(new_port));
}

TEST_F(ConfigListenTest, ATakenPortRollsBackTheWholeCommand) {
  Client c(server_->port());
  std::string maxmemory = Get(c, "maxmemory");
  SilentListener taken;  // the server cannot take its port
  EXPECT_EQ(c({"CONFIG", "SET", "maxmemory", "10000001", "port", std::to_string(taken.port())}),
            Error("ERR CONFIG SET failed (possibly related to argument 'port') - Unable to listen "
                  "on this port. Check server logs."));
  EXPECT_EQ(Get(c, "maxmemory"), maxmemory);
  EXPECT_EQ(Get(c, "port"), std::to_string(server_->port()));
  EXPECT_TRUE(Answers(server_->port()));
}

TEST_F(ConfigListenTest, BindListensAnewOrRollsBack) {
  Client c(server_->port());
  ASSERT_EQ(c({"CONFIG", "SET", "bind", "127.0.0.1"}), Status("OK"));
  EXPECT_TRUE(Answers(server_->port()));
  // 192.0.2.1 (TEST-NET-1) is no address of this machine.
  EXPECT_EQ(c({"CONFIG", "SET", "bind", "192.0.2.1"}),
            Error("ERR CONFIG SET failed (possibly related to argument 'bind') - Failed to bind "
                  "to specified addresses."));
  EXPECT_EQ(Get(c, "bind"), "127.0.0.1");
  EXPECT_TRUE(Answers(server_->port()));
  // A "-" address may be missing.
  ASSERT_EQ(c({"CONFIG", "SET", "bind", "-192.0.2.1 127.0.0.1"}), Status("OK"));
  EXPECT_EQ(Get(c, "bind"), "-192.0.2.1 127.0.0.1");
  EXPECT_TRUE(Answers(server_->port()));
  // One space separates addresses: two make an empty one, which nothing binds.
  EXPECT_EQ(c({"CONFIG", "SET", "bind", "127.0.0.1  -192.0.2.1"}),
            Error("ERR CONFIG SET failed (possibly related to argument 'bind') - Failed to bind "
                  "to specified addresses."));
  EXPECT_EQ(Get(c, "bind"), "-192.0.2.1 127.0.0.1");
  EXPECT_TRUE(Answers(server_->port()));
  EXPECT_EQ(c({"CONFIG", "SET", "bind", "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17"}),
            Error("ERR CONFIG SET failed (possibly related to argument 'bind') - Too many bind "
                  "addresses specified."));
  EXPECT_EQ(c({"PING"}), Status("PONG"));
}

}  // namespace
}  // namespace redlab::conformance
