// redlab/testing.h as a user's suite meets it: a fixture that gives each test fresh nodes (its
// own, or an Environment's put back by Reset), their URL, and faults; and Node::Command, which
// Reset runs on. (A binary of its own: the Environment is global to it.)
#include "server/testing.h"

#include <chrono>

#include "client/client.h"

namespace redlab::testing {
namespace {

// Shared by the tests of ReplicatedTest: registered before main runs RUN_ALL_TESTS.
::testing::Environment* const kShared =
    ::testing::AddGlobalTestEnvironment(new Environment({.replicas = 1}));

TEST(NodeCommandTest, AnswersWithTheReplysBytes) {
  Server s;
  EXPECT_EQ(s.master().Command({"SET", "k", "v"}), "+OK\r\n");
  EXPECT_EQ(s.master().Command({"GET", "k"}), "$1\r\nv\r\n");
  EXPECT_EQ(s.master().Command({"INCR", "k"}), "-ERR value is not an integer or out of range\r\n");
  EXPECT_EQ(s.master().Command({"RPUSH", "l", "a", "b"}), ":2\r\n");
  EXPECT_EQ(s.master().Command({"LRANGE", "l", "0", "-1"}), "*2\r\n$1\r\na\r\n$1\r\nb\r\n");
}

TEST(NodeCommandTest, ACommandThatWouldBlockIsRefused) {
  Server s;
  EXPECT_EQ(s.master().Command({"BLPOP", "nothing", "0"}),
            "-ERR the command blocked: Node::Command runs only commands that answer at once\r\n");
  // The abandoned wait left nothing behind: a push is not served to it.
  EXPECT_EQ(s.master().Command({"RPUSH", "nothing", "x"}), ":1\r\n");
  EXPECT_EQ(s.master().Command({"LLEN", "nothing"}), ":1\r\n");
}

TEST(NodeCommandTest, RunsAuthenticatedOnAPasswordProtectedNode) {
  Server s({.requirepass = "secret"});
  EXPECT_EQ(s.master().Command({"PING"}), "+PONG\r\n");
  EXPECT_EQ(s.url(), "redis://:secret@127.0.0.1:" + std::to_string(s.port()));
}

TEST(NodeCommandTest, ThrowsOnACrashedNode) {
  Server s;
  s.Crash();
  EXPECT_THROW(s.master().Command({"PING"}), std::runtime_error);
  s.Restart(s.master());
  EXPECT_EQ(s.master().Command({"PING"}), "+PONG\r\n");
}

TEST(ServerTest, SentinelsMonitorTheMasterAndResetBringsThemBack) {
  Server s({.sentinels = 1});
  std::string port = std::to_string(s.port());
  EXPECT_EQ(s.sentinel(0).Command({"SENTINEL", "GET-MASTER-ADDR-BY-NAME", "mymaster"}),
            "*2\r\n$9\r\n127.0.0.1\r\n$" + std::to_string(port.size()) + "\r\n" + port + "\r\n");
  s.Crash(s.sentinel(0));
  s.JumpClock(std::chrono::seconds(5));
  s.Reset();
  EXPECT_FALSE(s.sentinel(0).crashed());
  EXPECT_EQ(s.sentinel(0).Command({"PING"}), "+PONG\r\n");
  EXPECT_EQ(s.master().ListFaults(), std::vector<std::string>());
}

TEST(ServerTest, IndependentMastersEachHaveTheirUrl) {
  Server s({.masters = 3});
  std::vector<std::string> urls = s.urls();
  ASSERT_EQ(urls.size(), 3u);
  for (size_t i = 0; i < urls.size(); ++i) {
    EXPECT_EQ(urls[i], "redis://127.0.0.1:" + std::to_string(s.master(i).port()));
    EXPECT_EQ(s.master(i).Command({"SET", "k", std::to_string(i)}), "+OK\r\n");
  }
  s.Reset();
  for (size_t i = 0; i < urls.size(); ++i) EXPECT_EQ(s.master(i).Command({"DBSIZE"}), ":0\r\n");
}

// One node of its own per test: the URL reaches it, and the data of one test is gone in the next.
class OwnNodeTest : public Test {};

TEST_F(OwnNodeTest, TheUrlReachesTheNode) {
  EXPECT_EQ(url(), "redis://127.0.0.1:" + std::to_string(port()));
  redlab::Client client(redlab::Config::SingleServer(url()));
  EXPECT_EQ(client.Execute({"SET", "greeting", "hello"}).str, "OK");
  EXPECT_EQ(master().Command({"GET", "greeting"}), "$5\r\nhello\r\n");
}

TEST_F(OwnNodeTest, FaultsAndTheClockActOnTheNode) {
  auto real_ms = [] {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
  };
  int64_t before_freeze = real_ms();
  // Frozen first: no real millisecond passes between the SET and the advances.
  redlab().FreezeClock();
  ASSERT_EQ(master().Command({"SET", "lease", "x", "PX", "10000"}), "+OK\r\n");
  redlab().AdvanceClock(std::chrono::milliseconds(9999));
  EXPECT_EQ(master().Command({"PTTL", "lease"}), ":1\r\n");
  redlab().AdvanceClock(std::chrono::milliseconds(1));
  EXPECT_EQ(master().Command({"EXISTS", "lease"}), ":0\r\n");
  // The offset is from real time, which went on while the node's stood still: 10000 less the
  // real milliseconds between the freeze and the listing (the frozen instant is the node's last
  // reading of the clock, which under load may precede `before_freeze` by a few milliseconds:
  // only the 10000 of the advances and a positive remainder are certain).
  std::vector<std::string> faults = master().ListFaults();
  int64_t real_elapsed = real_ms() - before_freeze;
  ASSERT_EQ(faults.size(), 2u);
  EXPECT_EQ(faults[0], "CLOCK MANUAL");
  ASSERT_EQ(faults[1].rfind("CLOCK OFFSET ", 0), 0u) << faults[1];
  int64_t offset = std::stoll(faults[1].substr(13));
  EXPECT_LE(offset, 10000);
  EXPECT_GT(offset, 0) << "real ms elapsed: " << real_elapsed;
}

// The shared topology (kShared), put back by Reset before each test.
class ReplicatedTest : public Test {
 protected:
  ReplicatedTest() : Test({.replicas = 1}) {}
};

TEST_F(ReplicatedTest, UsesTheEnvironmentsNodes) {
  ASSERT_NE(Environment::For({.replicas = 1}), nullptr);
  EXPECT_EQ(&redlab(), &Environment::For({.replicas = 1})->server());
  EXPECT_EQ(Environment::For({.replicas = 2}), nullptr);
}

TEST_F(ReplicatedTest, ResetPutsBackWhatATestBroke) {
  // What SetUp runs before each test of the suite, here after a test's damage.
  ASSERT_EQ(master().Command({"SET", "k", "from the test"}), "+OK\r\n");
  ASSERT_EQ(master().Command({"FUNCTION", "LOAD",
                              "#!lua name=lib\nredis.register_function('f', function() return 1 "
                              "end)"}),
            "$3\r\nlib\r\n");
  redlab().PauseReplication();
  redlab().JumpClock(replica(0), std::chrono::hours(1));
  redlab().Promote(replica(0));
  redlab().Crash();
  ASSERT_TRUE(master().crashed());

  redlab().Reset();
  EXPECT_FALSE(master().crashed());
  EXPECT_EQ(master().ListFaults(), std::vector<std::string>());
  EXPECT_EQ(replica(0).ListFaults(), std::vector<std::string>());
  EXPECT_EQ(master().Command({"DBSIZE"}), ":0\r\n");
  EXPECT_EQ(master().Command({"FUNCTION", "LIST"}), "*0\r\n");
  EXPECT_EQ(replica(0).Command({"ROLE"}).substr(0, 13), "*5\r\n$5\r\nslave");
  // Replication works again: a write reaches the replica.
  redlab::Client client(redlab::Config::SingleServer(url()));
  EXPECT_EQ(client.Execute({"SET", "k", "v"}).str, "OK");
  EXPECT_EQ(client.Execute({"WAIT", "1", "5000"}).integer, 1);
  EXPECT_EQ(replica(0).Command({"GET", "k"}), "$1\r\nv\r\n");
}

TEST_F(ReplicatedTest, ALostLockOnFailover) {
  // The README's race, as a user's test writes it with the helpers.
  redlab::Client a(redlab::Config::SingleServer(url()));
  redlab().PauseReplication();
  EXPECT_EQ(a.Execute({"SET", "lock", "A"}).str, "OK");
  EXPECT_EQ(a.Execute({"WAIT", "1", "50"}).integer, 0);
  redlab().Crash();
  redlab().Promote(replica(0));
  EXPECT_EQ(replica(0).Command({"EXISTS", "lock"}), ":0\r\n");
}

}  // namespace
}  // namespace redlab::testing
