// MIGRATE to another server: the key moved (or copied) with its TTL, REPLACE, the KEYS form,
// AUTH and AUTH2, the destination database, NOKEY, and Redis's error texts for a target that
// refuses, one that cannot be reached, and bad options; also across kinds, redlab to real Redis
// and back, so each restores the other's payloads.
#include <string>

#include "conformance/harness/fixture.h"

namespace redlab::conformance {
namespace {

class MigrateTest : public ConformanceTest {
 protected:
  static void SetUpTestSuite() {
    ConformanceTest::SetUpTestSuite();
    target_ = StartServer();
    locked_ = StartServer({.requirepass = "secret"});
  }
  static void TearDownTestSuite() {
    target_.reset();
    locked_.reset();
    ConformanceTest::TearDownTestSuite();
  }
  void SetUp() override {
    ConformanceTest::SetUp();
    to_ = std::make_unique<Client>(target_->port());
    ASSERT_EQ((*to_)({"FLUSHALL"}), Status("OK"));
  }
  Client& to() { return *to_; }
  static std::string TargetPort() { return std::to_string(target_->port()); }

  static std::unique_ptr<Server> target_;
  static std::unique_ptr<Server> locked_;
  std::unique_ptr<Client> to_;
};
std::unique_ptr<Server> MigrateTest::target_;
std::unique_ptr<Server> MigrateTest::locked_;

TEST_F(MigrateTest, MovesTheKeyWithItsTtl) {
  ASSERT_EQ(c()({"SET", "k", "v", "PX", "100000"}), Status("OK"));
  EXPECT_EQ(c()({"MIGRATE", "127.0.0.1", TargetPort(), "k", "0", "5000"}), Status("OK"));
  EXPECT_EQ(c()({"EXISTS", "k"}), Int(0));
  EXPECT_EQ(to()({"GET", "k"}), Bulk("v"));
  Reply ttl = to()({"PTTL", "k"});
  EXPECT_GT(ttl.integer, 0);
  EXPECT_LE(ttl.integer, 100000);
  // The connection stays cached for the next MIGRATE.
  std::string info = c()({"INFO", "stats"}).str;
  EXPECT_NE(info.find("migrate_cached_sockets:1\r\n"), std::string::npos) << info;
}

TEST_F(MigrateTest, CopyKeepsTheSourceAndReplaceOverwrites) {
  ASSERT_EQ(c()({"RPUSH", "l", "a", "b"}), Int(2));
  ASSERT_EQ(to()({"SET", "l", "old"}), Status("OK"));
  EXPECT_EQ(c()({"MIGRATE", "127.0.0.1", TargetPort(), "l", "0", "5000", "COPY"}),
            Error("ERR Target instance replied with error: BUSYKEY Target key name already "
                  "exists."));
  EXPECT_EQ(c()({"LLEN", "l"}), Int(2));
  EXPECT_EQ(c()({"MIGRATE", "127.0.0.1", TargetPort(), "l", "0", "5000", "COPY", "REPLACE"}),
            Status("OK"));
  EXPECT_EQ(c()({"LLEN", "l"}), Int(2));
  EXPECT_EQ(to()({"LRANGE", "l", "0", "-1"}), Array({Bulk("a"), Bulk("b")}));
  EXPECT_EQ(to()({"TTL", "l"}), Int(-1));
}

TEST_F(MigrateTest, KeysFormMovesThoseThatExistAndNokeyWhenNone) {
  ASSERT_EQ(c()({"MSET", "a", "1", "b", "2"}), Status("OK"));
  EXPECT_EQ(c()({"MIGRATE", "127.0.0.1", TargetPort(), "", "0", "5000", "KEYS", "a", "nope", "b"}),
            Status("OK"));
  EXPECT_EQ(to()({"MGET", "a", "b"}), Array({Bulk("1"), Bulk("2")}));
  EXPECT_EQ(c()({"DBSIZE"}), Int(0));
  EXPECT_EQ(c()({"MIGRATE", "127.0.0.1", TargetPort(), "", "0", "5000", "KEYS", "a", "b"}),
            Status("NOKEY"));
  EXPECT_EQ(c()({"MIGRATE", "127.0.0.1", TargetPort(), "gone", "0", "5000"}), Status("NOKEY"));
}

TEST_F(MigrateTest, DestinationDatabase) {
  ASSERT_EQ(c()({"SET", "k", "v"}), Status("OK"));
  EXPECT_EQ(c()({"MIGRATE", "127.0.0.1", TargetPort(), "k", "3", "5000"}), Status("OK"));
  EXPECT_EQ(to()({"EXISTS", "k"}), Int(0));
  EXPECT_EQ(to()({"SELECT", "3"}), Status("OK"));
  EXPECT_EQ(to()({"GET", "k"}), Bulk("v"));
  // Back to 0 on the cached connection: SELECT is sent again.
  ASSERT_EQ(c()({"SET", "k2", "v2"}), Status("OK"));
  EXPECT_EQ(c()({"MIGRATE", "127.0.0.1", TargetPort(), "k2", "0", "5000"}), Status("OK"));
  EXPECT_EQ(to()({"SELECT", "0"}), Status("OK"));
  EXPECT_EQ(to()({"GET", "k2"}), Bulk("v2"));
}

TEST_F(MigrateTest, AuthAndAuth2) {
  std::string port = std::to_string(locked_->port());
  ASSERT_EQ(c()({"SET", "k", "v"}), Status("OK"));
  EXPECT_EQ(c()({"MIGRATE", "127.0.0.1", port, "k", "0", "5000"}),
            Error("ERR Target instance replied with error: NOAUTH Authentication required."));
  EXPECT_EQ(c()({"MIGRATE", "127.0.0.1", port, "k", "0", "5000", "AUTH", "wrong"}),
            Error("ERR Target instance replied with error: WRONGPASS invalid username-password "
                  "pair or user is disabled."));
  EXPECT_EQ(c()({"EXISTS", "k"}), Int(1));
  EXPECT_EQ(c()({"MIGRATE", "127.0.0.1", port, "k", "0", "5000", "AUTH", "secret"}),
            Status("OK"));
  ASSERT_EQ(c()({"SET", "k2", "v"}), Status("OK"));
  EXPECT_EQ(
      c()({"MIGRATE", "127.0.0.1", port, "k2", "0", "5000", "AUTH2", "default", "secret"}),
      Status("OK"));
  Client locked(locked_->port());
  EXPECT_EQ(locked({"AUTH", "secret"}), Status("OK"));
  EXPECT_EQ(locked({"MGET", "k", "k2"}), Array({Bulk("v"), Bulk("v")}));
  EXPECT_EQ(locked({"FLUSHALL"}), Status("OK"));
}

TEST_F(MigrateTest, ErrorsInRedisWords) {
  ASSERT_EQ(c()({"SET", "k", "v"}), Status("OK"));
  EXPECT_EQ(c()({"MIGRATE", "127.0.0.1", TargetPort(), "k", "0", "5000", "FOO"}),
            Error("ERR syntax error"));
  EXPECT_EQ(c()({"MIGRATE", "127.0.0.1", TargetPort(), "k", "0", "5000", "AUTH"}),
            Error("ERR syntax error"));
  EXPECT_EQ(c()({"MIGRATE", "127.0.0.1", TargetPort(), "k", "0", "5000", "KEYS", "k"}),
            Error("ERR When using MIGRATE KEYS option, the key argument must be set to the empty "
                  "string"));
  EXPECT_EQ(c()({"MIGRATE", "127.0.0.1", TargetPort(), "k", "x", "5000"}),
            Error("ERR value is not an integer or out of range"));
  // A refused connection shows at the first write (connBlockingConnect waits for writable).
  EXPECT_EQ(c()({"MIGRATE", "127.0.0.1", std::to_string(FreePort()), "k", "0", "1000"}),
            Error("IOERR error or timeout writing to target instance"));
  // A name that does not resolve fails at the connection.
  EXPECT_EQ(c()({"MIGRATE", "no-such-host.invalid", "6379", "k", "0", "1000"}),
            Error("IOERR error or timeout connecting to the client"));
  EXPECT_EQ(c()({"MIGRATE", "127.0.0.1", TargetPort(), "k"}),
            Error("ERR wrong number of arguments for 'migrate' command"));
  EXPECT_EQ(c()({"EXISTS", "k"}), Int(1));
}

TEST_F(MigrateTest, APartitionStopsTheConnection) {
  REDLAB_ONLY("FAULT PARTITION is redlab's fault injection; Redis has no FAULT");
  auto other = StartServer();  // no cached connection to it yet
  std::string port = std::to_string(other->port());
  ASSERT_EQ(c()({"SET", "k", "v"}), Status("OK"));
  ASSERT_EQ(c()({"FAULT", "PARTITION", port}), Status("OK"));
  EXPECT_EQ(c()({"MIGRATE", "127.0.0.1", port, "k", "0", "1000"}),
            Error("IOERR error or timeout connecting to the client"));
  EXPECT_EQ(c()({"EXISTS", "k"}), Int(1));
  ASSERT_EQ(c()({"FAULT", "PARTITION", "HEAL"}), Status("OK"));
  EXPECT_EQ(c()({"MIGRATE", "127.0.0.1", port, "k", "0", "1000"}), Status("OK"));
  EXPECT_EQ(Client(other->port())({"GET", "k"}), Bulk("v"));
}

TEST_F(MigrateTest, ToTheOtherKindOfServer) {
  Target other = IsRealRedis() ? Target::kEmbedded : Target::kRedis;
  auto server = StartServerOf(other);
  Client to_other(server->port());
  ASSERT_EQ(c()({"HSET", "h", "f", "v", "n", "17"}), Int(2));
  ASSERT_EQ(c()({"ZADD", "z", "1.5", "a", "2", "b"}), Int(2));
  ASSERT_EQ(c()({"SADD", "s", "1", "2", "3"}), Int(3));
  EXPECT_EQ(c()({"MIGRATE", "127.0.0.1", std::to_string(server->port()), "", "0", "5000", "KEYS",
                 "h", "z", "s"}),
            Status("OK"));
  EXPECT_EQ(to_other({"HGETALL", "h"}), Array({Bulk("f"), Bulk("v"), Bulk("n"), Bulk("17")}));
  EXPECT_EQ(to_other({"ZRANGE", "z", "0", "-1", "WITHSCORES"}),
            Array({Bulk("a"), Bulk("1.5"), Bulk("b"), Bulk("2")}));
  EXPECT_EQ(to_other({"SMEMBERS", "s"}), Array({Bulk("1"), Bulk("2"), Bulk("3")}));
}

}  // namespace
}  // namespace redlab::conformance
