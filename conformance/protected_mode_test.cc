// protected-mode (networking.c's clientAcceptHandler): with it on and no password for the default
// user, a client connecting from an address other than 127.0.0.1 or ::1 is sent Redis's DENIED
// text and closed; loopback clients, and everyone once a password is set or the mode is off, are
// served. Tested by connecting to another IPv4 address of this machine, as an external client
// would (Redis 7.0.15 applies it whatever `bind` says).
#include <ifaddrs.h>
#include <netinet/in.h>
#include <arpa/inet.h>

#include "conformance/harness/fixture.h"

namespace redlab::conformance {
namespace {

constexpr std::string_view kDenied =
    "-DENIED Redis is running in protected mode because protected mode is enabled and no "
    "password is set for the default user. In this mode connections are only accepted from the "
    "loopback interface. If you want to connect from external computers to Redis you may adopt "
    "one of the following solutions: 1) Just disable protected mode sending the command 'CONFIG "
    "SET protected-mode no' from the loopback interface by connecting to Redis from the same "
    "host the server is running, however MAKE SURE Redis is not publicly accessible from "
    "internet if you do so. Use CONFIG REWRITE to make this change permanent. 2) Alternatively "
    "you can just disable the protected mode by editing the Redis configuration file, and "
    "setting the protected mode option to 'no', and then restarting the server. 3) If you "
    "started the server manually just for testing, restart it with the '--protected-mode no' "
    "option. 4) Setup a an authentication password for the default user. NOTE: You only need to "
    "do one of the above things in order for the server to start accepting connections from the "
    "outside.\r\n";

// An IPv4 address of a local interface outside 127.0.0.0/8, or "" when the machine has none.
std::string NonLoopbackAddress() {
  ifaddrs* list = nullptr;
  if (getifaddrs(&list) != 0) return "";
  std::string found;
  for (ifaddrs* i = list; i != nullptr && found.empty(); i = i->ifa_next) {
    if (i->ifa_addr == nullptr || i->ifa_addr->sa_family != AF_INET) continue;
    in_addr a = reinterpret_cast<sockaddr_in*>(i->ifa_addr)->sin_addr;
    if ((ntohl(a.s_addr) >> 24) == 127) continue;
    char ip[INET_ADDRSTRLEN] = {0};
    inet_ntop(AF_INET, &a, ip, sizeof(ip));
    found = ip;
  }
  freeifaddrs(list);
  return found;
}

int64_t InfoInt(Client& c, const std::string& field) {
  Reply info = c({"INFO", "stats"});
  size_t at = info.str.find("\r\n" + field + ":");
  if (at == std::string::npos) return -1;
  return std::stoll(info.str.substr(at + field.size() + 3));
}

class ProtectedModeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    address_ = NonLoopbackAddress();
    if (address_.empty()) GTEST_SKIP() << "this machine has no IPv4 address besides loopback";
    server_ = StartServer();
    local_ = std::make_unique<Client>(server_->port());
    // Listen on the loopback and the other address too (the server starts on 127.0.0.1 only).
    ASSERT_EQ((*local_)({"CONFIG", "SET", "bind", "127.0.0.1 " + address_}), Status("OK"));
  }

  Client Remote() { return Client(address_, server_->port()); }

  std::string address_;
  std::unique_ptr<Server> server_;
  std::unique_ptr<Client> local_;
};

TEST_F(ProtectedModeTest, OnByDefault) {
  EXPECT_EQ((*local_)({"CONFIG", "GET", "protected-mode"}),
            Array({Bulk("protected-mode"), Bulk("yes")}));
}

TEST_F(ProtectedModeTest, NonLoopbackClientIsDeniedAndClosed) {
  int64_t rejected = InfoInt(*local_, "rejected_connections");
  ASSERT_GE(rejected, 0);
  Client remote = Remote();
  EXPECT_EQ(remote.ReadUntilClosed(), kDenied);
  EXPECT_EQ(InfoInt(*local_, "rejected_connections"), rejected + 1);
  // Loopback clients are served, the existing one and new ones.
  EXPECT_EQ((*local_)({"PING"}), Status("PONG"));
  Client again(server_->port());
  EXPECT_EQ(again({"PING"}), Status("PONG"));
  // The refused client never counted as a connected one.
  Reply clients = (*local_)({"CLIENT", "LIST"});
  EXPECT_EQ(clients.str.find("addr=" + address_ + ":"), std::string::npos) << clients.str;
}

TEST_F(ProtectedModeTest, OffServesEveryone) {
  ASSERT_EQ((*local_)({"CONFIG", "SET", "protected-mode", "no"}), Status("OK"));
  Client remote = Remote();
  EXPECT_EQ(remote({"PING"}), Status("PONG"));
  // Turned on again, it refuses new clients and keeps the one already connected.
  ASSERT_EQ((*local_)({"CONFIG", "SET", "protected-mode", "yes"}), Status("OK"));
  EXPECT_EQ(Remote().ReadUntilClosed(), kDenied);
  EXPECT_EQ(remote({"PING"}), Status("PONG"));
}

TEST_F(ProtectedModeTest, APasswordLiftsIt) {
  ASSERT_EQ((*local_)({"CONFIG", "SET", "requirepass", "secret"}), Status("OK"));
  Client remote = Remote();
  EXPECT_EQ(remote({"PING"}), Error("NOAUTH Authentication required."));
  EXPECT_EQ(remote({"AUTH", "secret"}), Status("OK"));
  EXPECT_EQ(remote({"PING"}), Status("PONG"));
  // The default user without a password again (as ACL SETUSER nopass does): refused again.
  ASSERT_EQ((*local_)({"ACL", "SETUSER", "default", "nopass"}), Status("OK"));
  EXPECT_EQ(Remote().ReadUntilClosed(), kDenied);
}

// Sentinel turns protected mode off by default (initSentinelConfig): it must be reachable.
TEST(ProtectedModeSentinelTest, SentinelServesOtherAddresses) {
  std::string address = NonLoopbackAddress();
  if (address.empty()) GTEST_SKIP() << "this machine has no IPv4 address besides loopback";
  ServerOptions options;
  options.sentinel = true;
  options.config = {{"bind", "127.0.0.1 " + address}};
  std::unique_ptr<Server> sentinel = StartServer(options);
  Client remote(address, sentinel->port());
  EXPECT_EQ(remote({"PING"}), Status("PONG"));
}

}  // namespace
}  // namespace redlab::conformance
