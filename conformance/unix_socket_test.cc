// `unixsocket` and `unixsocketperm`, as client libraries' test suites start redis-server with
// them (hiredis's among them): redlab-server and redis-server listen on the socket file with its
// permissions beside TCP, log where, list its clients with the path as their address and flag U,
// count them as local (enable-debug-command local), and remove the file when they shut down,
// logging the same lines on the way out.
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstring>

#include "conformance/harness/child_process.h"
#include "conformance/harness/fixture.h"

namespace redlab::conformance {
namespace {

const std::vector<std::string> kPrograms = {REDLAB_SERVER_PATH, "redis-server"};

// A client of the unix socket at `path` speaking RESP2 (inline commands out, whole replies in).
class UnixClient {
 public:
  explicit UnixClient(const std::string& path) {
    fd_ = socket(AF_UNIX, SOCK_STREAM, 0);
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    std::strncpy(addr.sun_path, path.c_str(), sizeof(addr.sun_path) - 1);
    if (connect(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0) {
      close(fd_);
      fd_ = -1;
      return;
    }
    timeval timeout{10, 0};
    setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof(timeout));
  }
  ~UnixClient() {
    if (fd_ >= 0) close(fd_);
  }
  bool connected() const { return fd_ >= 0; }
  // Sends `line` as an inline command; the reply (an error reply "no reply" when none came).
  Reply operator()(const std::string& line) {
    std::string out = line + "\r\n";
    if (fd_ < 0 || write(fd_, out.data(), out.size()) != static_cast<ssize_t>(out.size())) {
      return Error("no reply");
    }
    std::string in;
    char buf[4096];
    Reply reply;
    while (!ReplyReader::Parse(in, &reply)) {
      ssize_t n = read(fd_, buf, sizeof(buf));
      if (n <= 0) return Error("no reply");
      in.append(buf, static_cast<size_t>(n));
    }
    return reply;
  }

 private:
  int fd_ = -1;
};

TEST(UnixSocketTest, ServesClientsOnTheSocketFileUntilShutdown) {
  for (const std::string& program : kPrograms) {
    std::string path = ::testing::TempDir() + "redlab_unix." + std::to_string(getpid()) + ".sock";
    int port = FreePort();
    ChildProcess server(program, {"--port", std::to_string(port), "--save", "", "--unixsocket",
                                  path, "--unixsocketperm", "700", "--enable-debug-command",
                                  "local"});
    bool said_where = false;
    for (std::string line = server.ReadLine(); !line.empty(); line = server.ReadLine()) {
      if (WithoutPrefix(line) == "* The server is now ready to accept connections at " + path) {
        said_where = true;
        break;
      }
    }
    EXPECT_TRUE(said_where) << program;
    struct stat st{};
    ASSERT_EQ(stat(path.c_str(), &st), 0) << program;
    EXPECT_TRUE(S_ISSOCK(st.st_mode)) << program;
    EXPECT_EQ(st.st_mode & 0777, 0700u) << program;

    UnixClient u(path);
    ASSERT_TRUE(u.connected()) << program;
    EXPECT_EQ(u("PING"), Status("PONG")) << program;
    EXPECT_EQ(u("CONFIG GET unixsocket"), Array({Bulk("unixsocket"), Bulk(path)})) << program;
    EXPECT_EQ(u("CONFIG GET unixsocketperm"), Array({Bulk("unixsocketperm"), Bulk("700")}))
        << program;
    std::string list = u("CLIENT LIST").str;
    EXPECT_NE(list.find(" addr=" + path + ":0 laddr=" + path + ":0 "), std::string::npos)
        << program << ": " << list;
    EXPECT_NE(list.find(" flags=U "), std::string::npos) << program << ": " << list;
    // A unix socket's client is local.
    EXPECT_EQ(u("DEBUG SLEEP 0"), Status("OK")) << program;
    // TCP still serves, beside it.
    Client tcp(port);
    EXPECT_EQ(tcp({"PING"}), Status("PONG")) << program;

    EXPECT_EQ(u("SHUTDOWN NOSAVE"), Error("no reply")) << program;  // it closes as it exits
    // The lines of its way out (prepareForShutdown, finishShutdown).
    std::vector<std::string> last_lines;
    for (std::string line = server.ReadLine(); !line.empty(); line = server.ReadLine()) {
      last_lines.push_back(WithoutPrefix(line));
    }
    EXPECT_EQ(server.Wait(), 0) << program;
    EXPECT_EQ(last_lines, (std::vector<std::string>{"# User requested shutdown...",
                                                    "* Removing the unix socket file.",
                                                    "# Redis is now ready to exit, bye bye..."}))
        << program;
    EXPECT_NE(stat(path.c_str(), &st), 0) << program << ": the socket file is still there";
  }
}

// Started with an empty bind, a server is reached through its unix socket only, and keeps its
// port for a later CONFIG SET bind (Redis's networking test restarts a server so).
TEST(UnixSocketTest, AnEmptyBindListensOnTheSocketAloneUntilConfigSetBind) {
  for (const std::string& program : kPrograms) {
    std::string path = ::testing::TempDir() + "redlab_unix_nobind." + std::to_string(getpid()) +
                       ".sock";
    int port = FreePort();
    ChildProcess server(program, {"--port", std::to_string(port), "--bind", "", "--save", "",
                                  "--unixsocket", path});
    std::optional<UnixClient> unix_client;
    ASSERT_TRUE(Eventually([&] {
      unix_client.emplace(path);
      return unix_client->connected() && (*unix_client)("PING") == Status("PONG");
    })) << program << ": " << server.Stderr();
    UnixClient& u = *unix_client;
    EXPECT_THROW(Client{port}, std::runtime_error) << program << ": nothing listens on TCP";
    EXPECT_EQ(u("CONFIG GET bind"), Array({Bulk("bind"), Bulk("")})) << program;
    EXPECT_EQ(u("CONFIG GET port"), Array({Bulk("port"), Bulk(std::to_string(port))})) << program;
    EXPECT_EQ(u("CONFIG SET bind 127.0.0.1"), Status("OK")) << program;
    std::optional<Client> tcp = ConnectWhenUp(port);
    ASSERT_TRUE(tcp.has_value()) << program;
    EXPECT_EQ((*tcp)({"PING"}), Status("PONG")) << program;
    EXPECT_EQ(u("SHUTDOWN NOSAVE"), Error("no reply")) << program;
    EXPECT_EQ(server.Wait(), 0) << program;
  }
}

}  // namespace
}  // namespace redlab::conformance
