// The command lines of `redlab-server` and `redlab proxy`, run as a user's shell runs them:
// arguments redis-server takes (--replicaof "HOST PORT" as one word), usage errors instead of
// crashes, a redis.conf file read as redis-server reads it, a process whose last node crashed
// exits, and the proxy's control port answers in Redis's words. The master they replicate from
// or forward to is the current target's server.
#include <unistd.h>

#include <fstream>
#include <map>
#include <optional>

#include "conformance/harness/child_process.h"
#include "conformance/harness/fixture.h"

namespace redlab::conformance {
namespace {

ChildProcess RedlabServer(const std::vector<std::string>& args) {
  std::vector<std::string> all = {"--loglevel", "warning"};
  all.insert(all.end(), args.begin(), args.end());
  return ChildProcess(REDLAB_SERVER_PATH, all);
}

// A master that sends its snapshot at once (not after Redis's 5 s diskless gathering delay).
std::unique_ptr<Server> StartMaster() {
  return StartServer({.config = {{"repl-diskless-sync-delay", "0"}}});
}

TEST(RedlabServerCliTest, ReplicaofTakesHostAndPortAsOneWordOrTwo) {
  std::unique_ptr<Server> master = StartMaster();
  Client m(master->port());
  ASSERT_EQ(m({"SET", "k", "v"}), Status("OK"));
  std::string master_port = std::to_string(master->port());
  // redis-server's own form: one argument holding both.
  for (std::vector<std::string> replicaof :
       {std::vector<std::string>{"--replicaof", "127.0.0.1 " + master_port},
        std::vector<std::string>{"--replicaof", "127.0.0.1", master_port}}) {
    int port = FreePort();
    std::vector<std::string> args = {"--port", std::to_string(port)};
    args.insert(args.end(), replicaof.begin(), replicaof.end());
    ChildProcess server = RedlabServer(args);
    std::optional<Client> r = ConnectWhenUp(port);
    ASSERT_TRUE(r.has_value()) << server.Stderr();
    EXPECT_EQ(InfoField(*r, "role"), "slave");
    EXPECT_EQ(InfoField(*r, "master_port"), master_port);
    EXPECT_TRUE(Eventually([&] { return (*r)({"GET", "k"}) == Bulk("v"); }));
  }
}

TEST(RedlabServerCliTest, BadTopologyArgumentsAreUsageErrors) {
  struct Case {
    std::vector<std::string> args;
    std::string message;
  };
  for (const Case& c : std::vector<Case>{
           {{"--port", std::to_string(FreePort()), "--replicas", "-1"}, "--replicas"},
           {{"--port", std::to_string(FreePort()), "--masters", "0"}, "--masters"},
           {{"--port", std::to_string(FreePort()), "--replicaof", "127.0.0.1"},
            "--replicaof takes HOST PORT"},
           {{"--port", std::to_string(FreePort()), "--replicaof", "127.0.0.1 1 2"},
            "--replicaof takes HOST PORT"},
       }) {
    ChildProcess server = RedlabServer(c.args);
    EXPECT_EQ(server.Wait(), 1) << c.args[2] << " " << c.args[3];
    EXPECT_NE(server.Stderr().find(c.message), std::string::npos) << server.Stderr();
  }
}

TEST(RedlabServerCliTest, TheProcessExitsWhenItsLastLiveNodeCrashes) {
  // A lone node: FAULT CRASH kills the process, as README says.
  {
    std::unique_ptr<Server> master = StartMaster();
    int port = FreePort();
    ChildProcess server = RedlabServer({"--port", std::to_string(port), "--replicaof",
                                        "127.0.0.1 " + std::to_string(master->port())});
    std::optional<Client> c = ConnectWhenUp(port);
    ASSERT_TRUE(c.has_value()) << server.Stderr();
    c->SendCommand({"FAULT", "CRASH"});
    EXPECT_TRUE(c->WaitClosed());
    EXPECT_EQ(server.Wait(), 1);
    EXPECT_NE(server.Stderr().find("every node has crashed"), std::string::npos) << server.Stderr();
  }
  // A master and a replica: while one node lives it can restart the other; the process ends
  // with the last.
  int base = ConsecutiveFreePorts(2);
  ChildProcess server = RedlabServer({"--port", std::to_string(base), "--replicas", "1"});
  std::optional<Client> m = ConnectWhenUp(base);
  ASSERT_TRUE(m.has_value()) << server.Stderr();
  std::optional<Client> r = ConnectWhenUp(base + 1);
  ASSERT_TRUE(r.has_value()) << server.Stderr();
  m->SendCommand({"FAULT", "CRASH"});
  EXPECT_TRUE(m->WaitClosed());
  EXPECT_TRUE(Eventually([&] {
    return (*r)({"TOPOLOGY", "NODES"}).elements.at(0).elements.at(2) == Bulk("crashed");
  }));
  EXPECT_EQ(server.Wait(std::chrono::milliseconds(0)), -1);  // still running
  r->SendCommand({"FAULT", "CRASH"});
  EXPECT_TRUE(r->WaitClosed());
  EXPECT_EQ(server.Wait(), 1);
}

// `SERVER redis.conf [--name value ...]`, run the same way with redlab-server and redis-server:
// the file's directives, then the command line's options, which win.
TEST(RedlabServerCliTest, AConfigFileComesFirstAndTheCommandLineWins) {
  // One file per process: ctest runs this test for both targets at once.
  std::string path = ::testing::TempDir() + "redlab_cli_test." + std::to_string(getpid()) + ".conf";
  for (const std::string& program :
       {std::string(REDLAB_SERVER_PATH), std::string("redis-server")}) {
    int port = FreePort();
    {
      std::ofstream conf(path);
      conf << "# a comment\n"
           << "port " << port << "\n"
           << "bind \"127.0.0.1\"\n"
           << "save 900 1\n"
           << "save 300 10\n"
           << "maxclients 50\n"
           << "user alice on >pw ~* +@all\n";
    }
    ChildProcess server(program, {path, "--maxclients", "60", "--loglevel", "warning"});
    std::optional<Client> c = ConnectWhenUp(port);
    ASSERT_TRUE(c.has_value()) << program << ": " << server.Stderr();
    EXPECT_EQ((*c)({"CONFIG", "GET", "maxclients"}), Array({Bulk("maxclients"), Bulk("60")}))
        << program;
    EXPECT_EQ((*c)({"CONFIG", "GET", "save"}), Array({Bulk("save"), Bulk("900 1 300 10")}))
        << program;
    EXPECT_EQ((*c)({"AUTH", "alice", "pw"}), Status("OK")) << program;
  }
  {
    std::ofstream conf(path);
    conf << "port 1\nsave \"a\n";
  }
  for (const std::string& program :
       {std::string(REDLAB_SERVER_PATH), std::string("redis-server")}) {
    ChildProcess server(program, {path});
    EXPECT_EQ(server.Wait(), 1) << program;
    EXPECT_NE(server.Stderr().find(">>> 'save \"a'\nUnbalanced quotes in configuration line"),
              std::string::npos)
        << program << ": " << server.Stderr();
  }
}

TEST(ProxyCliTest, ABadTargetIsAUsageError) {
  for (std::string to : {"127.0.0.1:abc", "127.0.0.1", "127.0.0.1:70000", "127.0.0.1:", "::1:6379",
                         "[::1]6379", "[]:6379"}) {
    ChildProcess proxy(REDLAB_CLI_PATH,
                       {"proxy", "--listen", std::to_string(FreePort()), "--to", to});
    EXPECT_EQ(proxy.Wait(), 64) << to << ": " << proxy.Stderr();
    EXPECT_NE(proxy.Stderr().find("--to"), std::string::npos) << proxy.Stderr();
  }
}

TEST(ProxyCliTest, ResolvesHostNamesAndRefusesWhatDoesNotResolve) {
  ChildProcess bad(REDLAB_CLI_PATH, {"proxy", "--listen", std::to_string(FreePort()), "--to",
                                     "no-such-host.invalid:6379"});
  EXPECT_EQ(bad.Wait(), 1) << bad.Stderr();
  EXPECT_EQ(bad.Stderr().rfind("fault proxy: cannot resolve 'no-such-host.invalid': ", 0), 0u)
      << bad.Stderr();

  std::unique_ptr<Server> server = StartServer();
  int listen = FreePort();
  int control = FreePort();
  ChildProcess proxy(
      REDLAB_CLI_PATH,
      {"proxy", "--bind", "localhost", "--listen", std::to_string(listen), "--to",
       "localhost:" + std::to_string(server->port()), "--control", std::to_string(control)});
  std::optional<Client> ctl = ConnectWhenUp(control);
  ASSERT_TRUE(ctl.has_value()) << proxy.Stderr();
  Client through(listen);
  EXPECT_EQ(through({"ECHO", "hi"}), Bulk("hi"));
  EXPECT_EQ((*ctl)({"TOXIC", "ADD", "downstream", "latency", "latency", "1"}), Status("OK"));
  Reply status = (*ctl)({"STATUS"});
  EXPECT_NE(status.str.find("toxic:all downstream latency latency=1 jitter=0\n"), std::string::npos)
      << status.str;
  EXPECT_EQ(through({"ECHO", "late"}), Bulk("late"));
}

TEST(ProxyCliTest, ForwardsAndAnswersItsControlPortInRedisWords) {
  std::unique_ptr<Server> server = StartServer();
  int listen = FreePort();
  int control = FreePort();
  ChildProcess proxy(REDLAB_CLI_PATH, {"proxy", "--listen", std::to_string(listen), "--to",
                                       "127.0.0.1:" + std::to_string(server->port()), "--control",
                                       std::to_string(control)});
  std::optional<Client> ctl = ConnectWhenUp(control);
  ASSERT_TRUE(ctl.has_value()) << proxy.Stderr();
  Client through(listen);
  EXPECT_EQ(through({"ECHO", "hi"}), Bulk("hi"));

  EXPECT_EQ((*ctl)({"DELAY"}), Error("ERR wrong number of arguments for 'delay' command"));
  EXPECT_EQ((*ctl)({"delay", "1", "2", "3"}),
            Error("ERR wrong number of arguments for 'delay' command"));
  EXPECT_EQ((*ctl)({"DELAY", "x"}), Error("ERR DELAY takes milliseconds [jitter milliseconds]"));
  EXPECT_EQ((*ctl)({"HOLD", "now"}), Error("ERR wrong number of arguments for 'hold' command"));
  EXPECT_EQ((*ctl)({"PING", "x"}), Error("ERR wrong number of arguments for 'ping' command"));
  EXPECT_EQ((*ctl)({"JAM", "a", "b"}),
            Error("ERR unknown command 'JAM', with args beginning with: 'a' 'b' "));
  EXPECT_EQ((*ctl)({"PING"}), Status("PONG"));
  EXPECT_EQ((*ctl)({"DELAY", "0"}), Status("OK"));
  EXPECT_EQ(through({"ECHO", "still"}), Bulk("still"));
}

}  // namespace
}  // namespace redlab::conformance

namespace redlab::conformance {
namespace {

// `--sentinels N`: sentinels in the same process, monitoring the master as mymaster with a
// quorum of a majority, on --sentinel-port upward, finding the replica and each other.
TEST(RedlabServerCliTest, SentinelsStartBesideTheTopology) {
  int port = ConsecutiveFreePorts(4);
  std::string sentinel_port = std::to_string(port + 2);
  ChildProcess server = RedlabServer({"--port", std::to_string(port), "--replicas", "1",
                                      "--sentinels", "2", "--sentinel-port", sentinel_port,
                                      "--down-after-ms", "500", "--failover-timeout-ms", "9000"});
  std::optional<Client> s = ConnectWhenUp(port + 2);
  ASSERT_TRUE(s.has_value()) << server.Stderr();
  EXPECT_EQ((*s)({"ROLE"}), Array({Bulk("sentinel"), Array({Bulk("mymaster")})}));
  EXPECT_EQ((*s)({"SENTINEL", "GET-MASTER-ADDR-BY-NAME", "mymaster"}),
            Array({Bulk("127.0.0.1"), Bulk(std::to_string(port))}));
  Reply master = (*s)({"SENTINEL", "MASTER", "mymaster"});
  std::map<std::string, std::string> f;
  for (size_t i = 0; i + 1 < master.elements.size(); i += 2) {
    f[master.elements[i].str] = master.elements[i + 1].str;
  }
  EXPECT_EQ(f["quorum"], "2");
  EXPECT_EQ(f["down-after-milliseconds"], "500");
  EXPECT_EQ(f["failover-timeout"], "9000");
  ASSERT_TRUE(Eventually(
      [&] {
        return (*s)({"SENTINEL", "REPLICAS", "mymaster"}).elements.size() == 1 &&
               (*s)({"SENTINEL", "CKQUORUM", "mymaster"}) ==
                   Status(
                       "OK 2 usable Sentinels. Quorum and failover authorization can be "
                       "reached");
      },
      std::chrono::seconds(20)));
  std::optional<Client> other = ConnectWhenUp(port + 3);
  ASSERT_TRUE(other.has_value());
  // The other one hears this one's hello in its own time.
  EXPECT_TRUE(Eventually(
      [&] { return (*other)({"SENTINEL", "SENTINELS", "mymaster"}).elements.size() == 1u; },
      std::chrono::seconds(20)));
}

}  // namespace
}  // namespace redlab::conformance

namespace redlab::conformance {
namespace {

// How another language's test suite starts redlab-server: --port 0 binds free ports, and
// --port-file FILE (written whole, once listening) says which; stderr's lines say the same.
std::vector<int> ReadPortFile(const std::string& path) {
  std::vector<int> ports;
  std::ifstream in(path);
  for (int port; in >> port;) ports.push_back(port);
  return ports;
}

TEST(RedlabServerCliTest, PortZeroBindsFreePortsAndThePortFileNamesThem) {
  std::string path =
      ::testing::TempDir() + "redlab_port_file." + std::to_string(getpid()) + ".txt";
  std::remove(path.c_str());
  {
    ChildProcess server = RedlabServer({"--port", "0", "--port-file", path});
    ASSERT_TRUE(Eventually([&] { return !ReadPortFile(path).empty(); })) << server.Stderr();
    std::vector<int> ports = ReadPortFile(path);
    ASSERT_EQ(ports.size(), 1u);
    EXPECT_NE(ports[0], 0);
    std::optional<Client> c = ConnectWhenUp(ports[0]);
    ASSERT_TRUE(c.has_value()) << server.Stderr();
    EXPECT_EQ((*c)({"CONFIG", "GET", "port"}),
              Array({Bulk("port"), Bulk(std::to_string(ports[0]))}));
    EXPECT_TRUE(Eventually([&] {
      return server.Stderr().find("redlab-server listening on 127.0.0.1:" +
                                  std::to_string(ports[0]) + "\n") != std::string::npos;
    }));
  }
  std::remove(path.c_str());
  // A master and a replica on free ports: the master's first.
  ChildProcess server = RedlabServer({"--port", "0", "--replicas", "1", "--port-file", path});
  ASSERT_TRUE(Eventually([&] { return !ReadPortFile(path).empty(); })) << server.Stderr();
  std::vector<int> ports = ReadPortFile(path);
  ASSERT_EQ(ports.size(), 2u);
  std::optional<Client> r = ConnectWhenUp(ports[1]);
  ASSERT_TRUE(r.has_value()) << server.Stderr();
  EXPECT_EQ(InfoField(*r, "role"), "slave");
  EXPECT_EQ(InfoField(*r, "master_port"), std::to_string(ports[0]));
  std::remove(path.c_str());
}

TEST(RedlabServerCliTest, AnUnwritablePortFileIsAnError) {
  ChildProcess server = RedlabServer({"--port", "0", "--port-file", "/nonexistent/dir/port"});
  EXPECT_EQ(server.Wait(), 1);
  EXPECT_NE(server.Stderr().find("cannot write the port file /nonexistent/dir/port"),
            std::string::npos)
      << server.Stderr();
}

}  // namespace
}  // namespace redlab::conformance
