// What third-party test harnesses meet first, run the same way with redlab-server and
// redis-server: the start-up log lines they wait for (server.c's main), a config file whose
// directives the command line repeats, the configuration read from standard input (`-`),
// `-v`, the default bind (every interface); and, on the target, the answers of a node without
// cluster support (cluster.c) and PUBSUB CHANNELS with the empty pattern.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <signal.h>
#include <unistd.h>

#include <fstream>
#include <sstream>

#include "conformance/harness/child_process.h"
#include "conformance/harness/fixture.h"

namespace redlab::conformance {
namespace {

const std::vector<std::string> kPrograms = {REDLAB_SERVER_PATH, "redis-server"};

std::string TempConf(const std::string& tag) {
  return ::testing::TempDir() + "redlab_startup_" + tag + "." + std::to_string(getpid()) + ".conf";
}

// Writes `lines` to the server's standard input, then closes it; false when a line could not be
// written.
bool FeedStdin(ChildProcess& server, const std::vector<std::string>& lines) {
  for (const std::string& line : lines) {
    if (!server.WriteLine(line)) return false;
  }
  server.CloseStdin();
  return true;
}

TEST(StartupTest, LogsTheLinesRedisServerLogsUntilReady) {
  for (const std::string& program : kPrograms) {
    int port = FreePort();
    ChildProcess server(program, {"--port", std::to_string(port), "--save", ""});
    std::vector<std::string> lines;
    for (std::string line = server.ReadLine(); !line.empty(); line = server.ReadLine()) {
      lines.push_back(WithoutPrefix(line));
      if (lines.back().rfind("* Ready to accept connections", 0) == 0) break;
    }
    ASSERT_FALSE(lines.empty()) << program;
    EXPECT_EQ(lines.back(), "* Ready to accept connections") << program;
    auto has = [&](const std::string& l) {
      return std::find(lines.begin(), lines.end(), l) != lines.end();
    };
    EXPECT_TRUE(has("# oO0OoO0OoO0Oo Redis is starting oO0OoO0OoO0Oo")) << program;
    EXPECT_TRUE(has("# Configuration loaded")) << program;
    EXPECT_TRUE(has("* Running mode=standalone, port=" + std::to_string(port) + ".")) << program;
    EXPECT_TRUE(has("# Server initialized")) << program;
    bool version_line = false;
    for (const std::string& l : lines) {
      version_line = version_line || l.rfind("# Redis version=7.0.15, bits=64, commit=", 0) == 0;
    }
    EXPECT_TRUE(version_line) << program;
  }
}

TEST(StartupTest, TheCommandLineWinsOverTheSameDirectiveInTheFile) {
  std::string path = TempConf("override");
  for (const std::string& program : kPrograms) {
    int file_port = FreePort();
    int port = FreePort();
    {
      std::ofstream conf(path);
      conf << "port " << file_port << "\nbind 127.0.0.1\nloglevel warning\nsave \"\"\n";
    }
    ChildProcess server(program, {path, "--port", std::to_string(port), "--bind", "127.0.0.1",
                                  "--loglevel", "verbose"});
    std::optional<Client> c = ConnectWhenUp(port);
    ASSERT_TRUE(c.has_value()) << program << ": " << server.Stderr();
    EXPECT_EQ((*c)({"CONFIG", "GET", "port"}), Array({Bulk("port"), Bulk(std::to_string(port))}))
        << program;
    EXPECT_EQ((*c)({"CONFIG", "GET", "loglevel"}), Array({Bulk("loglevel"), Bulk("verbose")}))
        << program;
  }
}

// Redis's test harness writes `save ""` as a bare `save` line: no snapshot points. Another
// parameter's line without a value stops the start with Redis's report.
TEST(StartupTest, ABareSaveLineMeansNoSnapshotPoints) {
  std::string path = TempConf("bare_save");
  for (const std::string& program : kPrograms) {
    int port = FreePort();
    {
      std::ofstream conf(path);
      conf << "port " << port << "\nsave \n";
    }
    ChildProcess server(program, {path});
    std::optional<Client> c = ConnectWhenUp(port);
    ASSERT_TRUE(c.has_value()) << program << ": " << server.Stderr();
    EXPECT_EQ((*c)({"CONFIG", "GET", "save"}), Array({Bulk("save"), Bulk("")})) << program;
  }
  for (const std::string& program : kPrograms) {
    {
      std::ofstream conf(path);
      conf << "port " << FreePort() << "\nhz\n";
    }
    ChildProcess server(program, {path});
    EXPECT_EQ(server.Wait(), 1) << program;
    EXPECT_NE(server.Stderr().find(">>> 'hz'\nwrong number of arguments"), std::string::npos)
        << program << ": " << server.Stderr();
  }
}

TEST(StartupTest, ReadsTheConfigurationFromStandardInput) {
  std::string path = TempConf("stdin");
  for (const std::string& program : kPrograms) {
    int port = FreePort();
    {
      ChildProcess server(program, {"-"});
      ASSERT_TRUE(FeedStdin(server, {"port " + std::to_string(port), "maxclients 70"}));
      std::optional<Client> c = ConnectWhenUp(port);
      ASSERT_TRUE(c.has_value()) << program << ": " << server.Stderr();
      EXPECT_EQ((*c)({"CONFIG", "GET", "maxclients"}), Array({Bulk("maxclients"), Bulk("70")}))
          << program;
    }
    // The file, then standard input, then the command line.
    {
      std::ofstream conf(path);
      conf << "port 1\nmaxclients 50\nhz 20\nsave \"\"\n";
    }
    ChildProcess server(program, {path, "--hz", "30", "-"});
    ASSERT_TRUE(FeedStdin(server, {"port " + std::to_string(port), "maxclients 80", "hz 40"}));
    std::optional<Client> c = ConnectWhenUp(port);
    ASSERT_TRUE(c.has_value()) << program << ": " << server.Stderr();
    EXPECT_EQ((*c)({"CONFIG", "GET", "maxclients"}), Array({Bulk("maxclients"), Bulk("80")}))
        << program;
    EXPECT_EQ((*c)({"CONFIG", "GET", "hz"}), Array({Bulk("hz"), Bulk("30")})) << program;
  }
}

// Debian's redis-server 7.0.15 (a backported security fix) hides getfenv, setfenv and newproxy
// from scripts unless it starts with lua-enable-deprecated-api yes (immutable, hidden).
TEST(StartupTest, LuaDeprecatedApiComesBackOnlyWhenStartedWithIt) {
  for (const std::string& program : kPrograms) {
    int port = FreePort();
    ChildProcess server(program, {"--port", std::to_string(port), "--save", "",
                                  "--lua-enable-deprecated-api", "yes"});
    std::optional<Client> c = ConnectWhenUp(port);
    ASSERT_TRUE(c.has_value()) << program << ": " << server.Stderr();
    EXPECT_EQ((*c)({"CONFIG", "GET", "lua-enable-deprecated-api"}),
              Array({Bulk("lua-enable-deprecated-api"), Bulk("yes")}))
        << program;
    EXPECT_EQ((*c)({"EVAL", "return {type(getfenv), type(setfenv), type(newproxy)}", "0"}),
              Array({Bulk("function"), Bulk("function"), Bulk("function")}))
        << program;
    EXPECT_EQ((*c)({"FUNCTION", "LOAD",
                    "#!lua name=old\nredis.register_function('f', function() return "
                    "type(setfenv) end)"}),
              Bulk("old"))
        << program;
    EXPECT_EQ((*c)({"FCALL", "f", "0"}), Bulk("function")) << program;
  }
}

TEST(StartupTest, VersionFlagPrintsTheVersionLine) {
  for (const std::string& program : kPrograms) {
    for (const char* flag : {"-v", "--version"}) {
      ChildProcess server(program, {flag});
      std::string line = server.ReadLine();
      EXPECT_EQ(line.rfind("Redis server v=7.0.15 sha=", 0), 0u) << program << ": " << line;
      EXPECT_NE(line.find(" bits=64 build="), std::string::npos) << line;
      EXPECT_EQ(server.Wait(), 0) << program;
    }
  }
}

// PING sent inline to [::1]:port: "+PONG", or what went wrong.
std::string PingOverIpv6Loopback(int port) {
  int fd = socket(AF_INET6, SOCK_STREAM, 0);
  if (fd < 0) return "no IPv6 socket";
  sockaddr_in6 addr{};
  addr.sin6_family = AF_INET6;
  addr.sin6_port = htons(static_cast<uint16_t>(port));
  addr.sin6_addr = in6addr_loopback;
  std::string out = "connection refused";
  if (connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) == 0) {
    timeval timeout{5, 0};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof(timeout));
    char buf[64];
    ssize_t n = write(fd, "PING\r\n", 6) == 6 ? read(fd, buf, sizeof(buf)) : -1;
    out = n > 0 ? std::string(buf, static_cast<size_t>(n)) : "no reply";
    if (out.size() >= 2 && out.substr(out.size() - 2) == "\r\n") out.resize(out.size() - 2);
  }
  close(fd);
  return out;
}

// Started with no `bind`, as client libraries' test suites start it, the server listens on
// every interface, IPv6 too where the machine has it ("localhost" may resolve to ::1 first).
TEST(StartupTest, WithoutBindItListensOnEveryInterface) {
  std::string redlab_over_ipv6;  // kPrograms runs redlab-server first
  for (const std::string& program : kPrograms) {
    int port = FreePort();
    ChildProcess server(program, {"--port", std::to_string(port), "--save", ""});
    std::optional<Client> c = ConnectWhenUp(port);
    ASSERT_TRUE(c.has_value()) << program << ": " << server.Stderr();
    EXPECT_EQ((*c)({"CONFIG", "GET", "bind"}), Array({Bulk("bind"), Bulk("* -::*")})) << program;
    std::string over_ipv6 = PingOverIpv6Loopback(port);
    // Both servers answer over ::1 alike (or are both unreachable there without IPv6).
    if (program == "redis-server") {
      EXPECT_EQ(redlab_over_ipv6, over_ipv6) << "redlab-server's answer, then redis-server's";
    } else {
      redlab_over_ipv6 = over_ipv6;
    }
    try {
      (*c)({"SHUTDOWN", "NOSAVE"});
    } catch (const std::runtime_error&) {
      // No reply: the server closes the connection as it exits.
    }
    EXPECT_EQ(server.Wait(), 0) << program;
  }
}

// `daemonize yes` with a pidfile, as harnesses pipe a configuration to `redis-server -`: the
// command returns, the server runs on in the background with its pid in the file, and at
// SHUTDOWN the file goes.
TEST(StartupTest, DaemonizeRunsInTheBackgroundWithAPidFile) {
  for (const std::string& program : kPrograms) {
    std::string pidfile = TempConf("daemon") + ".pid";
    int port = FreePort();
    ChildProcess starter(program, {"-"});
    ASSERT_TRUE(FeedStdin(starter, {"daemonize yes", "pidfile " + pidfile,
                                    "port " + std::to_string(port), "save \"\""}));
    EXPECT_EQ(starter.Wait(), 0) << program << ": " << starter.Stderr();
    std::optional<Client> c = ConnectWhenUp(port);
    ASSERT_TRUE(c.has_value()) << program;
    std::ifstream in(pidfile);
    int pid = 0;
    in >> pid;
    EXPECT_GT(pid, 0) << program;
    EXPECT_NE(pid, starter.pid()) << program << ": the server is the forked child";
    EXPECT_EQ((*c)({"CONFIG", "GET", "daemonize"}), Array({Bulk("daemonize"), Bulk("yes")}));
    try {
      (*c)({"SHUTDOWN", "NOSAVE"});
    } catch (const std::runtime_error&) {
      // No reply: the server closes the connection as it exits.
    }
    EXPECT_TRUE(Eventually([&] { return pid > 0 && kill(pid, 0) != 0; })) << program;
    EXPECT_FALSE(std::ifstream(pidfile).good()) << program << ": the pid file is still there";
  }
}

// SIGTERM, as a harness stops a server: the signal handler's line, then the shutdown's, and a
// clean exit.
TEST(StartupTest, SigtermLogsRedissLinesAndExitsCleanly) {
  for (const std::string& program : kPrograms) {
    int port = FreePort();
    ChildProcess server(program, {"--port", std::to_string(port), "--save", ""});
    bool ready = false;
    for (std::string line = server.ReadLine(); !line.empty(); line = server.ReadLine()) {
      ready = WithoutPrefix(line).rfind("* Ready to accept connections", 0) == 0;
      if (ready) break;
    }
    ASSERT_TRUE(ready) << program << ": " << server.Stderr();
    ASSERT_EQ(kill(server.pid(), SIGTERM), 0);
    std::vector<std::string> lines;
    for (std::string line = server.ReadLine(); !line.empty(); line = server.ReadLine()) {
      lines.push_back(line);
    }
    EXPECT_EQ(server.Wait(), 0) << program;
    ASSERT_EQ(lines.size(), 3u) << program;
    std::string handler = std::to_string(server.pid()) + ":signal-handler (";
    EXPECT_EQ(lines[0].rfind(handler, 0), 0u) << program << ": " << lines[0];
    EXPECT_NE(lines[0].find(") Received SIGTERM scheduling shutdown..."), std::string::npos)
        << program << ": " << lines[0];
    EXPECT_EQ(WithoutPrefix(lines[1]), "# User requested shutdown...") << program;
    EXPECT_EQ(WithoutPrefix(lines[2]), "# Redis is now ready to exit, bye bye...") << program;
  }
}

class NonClusterNodeTest : public ConformanceTest {};

TEST_F(NonClusterNodeTest, ClusterCommandsSayClusterSupportIsDisabled) {
  const Reply disabled = Error("ERR This instance has cluster support disabled");
  EXPECT_EQ(c()({"CLUSTER", "INFO"}), disabled);
  EXPECT_EQ(c()({"CLUSTER", "SLOTS"}), disabled);
  EXPECT_EQ(c()({"CLUSTER", "NODES"}), disabled);
  EXPECT_EQ(c()({"CLUSTER", "KEYSLOT", "foo"}), disabled);
  EXPECT_EQ(c()({"CLUSTER", "HELP"}), disabled);
  EXPECT_EQ(c()({"READONLY"}), disabled);
  EXPECT_EQ(c()({"READWRITE"}), disabled);
  EXPECT_EQ(c()({"ASKING"}), disabled);
  EXPECT_EQ(c()({"CLUSTER", "NOSUCH"}),
            Error("ERR unknown subcommand 'NOSUCH'. Try CLUSTER HELP."));
  EXPECT_EQ(c()({"CLUSTER", "KEYSLOT"}),
            Error("ERR wrong number of arguments for 'cluster|keyslot' command"));
  EXPECT_EQ(c()({"READONLY", "x"}), Error("ERR wrong number of arguments for 'readonly' command"));
}

TEST_F(NonClusterNodeTest, PubsubChannelsWithTheEmptyPatternMatchesOnlyTheEmptyName) {
  Client sub = Connect();
  ASSERT_EQ(sub({"SUBSCRIBE", "news"}).elements.size(), 3u);
  Eventually([&] { return c()({"PUBSUB", "CHANNELS"}) == Array({Bulk("news")}); },
             std::chrono::seconds(5));
  EXPECT_EQ(c()({"PUBSUB", "CHANNELS"}), Array({Bulk("news")}));
  EXPECT_EQ(c()({"PUBSUB", "CHANNELS", ""}), Array({}));
  EXPECT_EQ(c()({"PUBSUB", "CHANNELS", "n*"}), Array({Bulk("news")}));
}

}  // namespace
}  // namespace redlab::conformance
