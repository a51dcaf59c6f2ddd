// Commands that make a client wait: CLIENT PAUSE / UNPAUSE and WAIT (here without replicas;
// the replication suites cover WAIT with them).
#include "conformance/harness/fixture.h"

namespace redlab::conformance {
namespace {

class BlockingTest : public ConformanceTest {
 protected:
  void TearDown() override { c()({"CLIENT", "UNPAUSE"}); }
};

TEST_F(BlockingTest, PauseWriteHoldsWritesUntilUnpause) {
  EXPECT_EQ(c()({"CLIENT", "PAUSE", "100000", "WRITE"}), Status("OK"));
  Client writer = Connect();
  writer.SendCommand({"SET", "k", "v"});
  // Reads go on; the write has not run.
  EXPECT_EQ(c()({"GET", "k"}), Nil());
  EXPECT_EQ(c()({"CLIENT", "UNPAUSE"}), Status("OK"));
  EXPECT_EQ(writer.Read(), Status("OK"));
  EXPECT_EQ(c()({"GET", "k"}), Bulk("v"));
}

// A script that declares no-writes is no write command, so a WRITE pause lets it run; one
// without a shebang may write, and waits.
TEST_F(BlockingTest, PauseWriteLetsScriptsDeclaringNoWritesRun) {
  EXPECT_EQ(c()({"CLIENT", "PAUSE", "100000", "WRITE"}), Status("OK"));
  EXPECT_EQ(c()({"EVAL", "#!lua flags=no-writes\nreturn redis.call('get', 'k')", "0"}), Nil());
  Client writer = Connect();
  writer.SendCommand({"EVAL", "return redis.call('set', 'k', 'v')", "0"});
  EXPECT_EQ(c()({"GET", "k"}), Nil());
  EXPECT_EQ(c()({"CLIENT", "UNPAUSE"}), Status("OK"));
  EXPECT_EQ(writer.Read(), Status("OK"));
  EXPECT_EQ(c()({"GET", "k"}), Bulk("v"));
}

TEST_F(BlockingTest, PauseAllHoldsEveryCommandUntilItEnds) {
  c()({"SET", "k", "v"});
  EXPECT_EQ(c()({"CLIENT", "PAUSE", "200", "ALL"}), Status("OK"));
  Client reader = Connect();
  reader.SendCommand({"GET", "k"});
  reader.SendCommand({"PING"});
  // Under an ALL pause even CLIENT UNPAUSE waits, so the pause can only run out.
  EXPECT_EQ(c()({"CLIENT", "UNPAUSE"}), Status("OK"));
  EXPECT_EQ(reader.Read(), Bulk("v"));
  EXPECT_EQ(reader.Read(), Status("PONG"));
}

TEST_F(BlockingTest, HeldClientKeepsItsOrder) {
  EXPECT_EQ(c()({"CLIENT", "PAUSE", "100000", "WRITE"}), Status("OK"));
  Client writer = Connect();
  writer.SendCommand({"SET", "k", "1"});
  writer.SendCommand({"GET", "k"});  // a read, but queued behind the held write
  EXPECT_EQ(c()({"GET", "k"}), Nil());
  EXPECT_EQ(c()({"CLIENT", "UNPAUSE"}), Status("OK"));
  EXPECT_EQ(writer.Read(), Status("OK"));
  EXPECT_EQ(writer.Read(), Bulk("1"));
}

TEST_F(BlockingTest, PauseEndsByItself) {
  EXPECT_EQ(c()({"CLIENT", "PAUSE", "50", "WRITE"}), Status("OK"));
  Client writer = Connect();
  EXPECT_EQ(writer({"SET", "k", "v"}), Status("OK"));  // answered once the pause ends
  EXPECT_EQ(c()({"GET", "k"}), Bulk("v"));
}

TEST_F(BlockingTest, PauseErrors) {
  EXPECT_EQ(c()({"CLIENT", "PAUSE", "abc"}),
            Error("ERR timeout is not an integer or out of range"));
  EXPECT_EQ(c()({"CLIENT", "PAUSE", "-1"}), Error("ERR timeout is negative"));
  EXPECT_EQ(c()({"CLIENT", "PAUSE", "10", "foo"}),
            Error("ERR CLIENT PAUSE mode must be WRITE or ALL"));
  EXPECT_EQ(c()({"CLIENT", "PAUSE"}),
            Error("ERR wrong number of arguments for 'client|pause' command"));
  EXPECT_EQ(c()({"CLIENT", "UNPAUSE", "x"}),
            Error("ERR wrong number of arguments for 'client|unpause' command"));
}

TEST_F(BlockingTest, WaitWithoutReplicas) {
  EXPECT_EQ(c()({"SET", "k", "v"}), Status("OK"));
  EXPECT_EQ(c()({"WAIT", "0", "0"}), Int(0));
  // Asking for a replica that does not exist waits out the timeout, then reports none.
  EXPECT_EQ(c()({"WAIT", "1", "20"}), Int(0));
  c()({"MULTI"});
  c()({"WAIT", "5", "0"});
  EXPECT_EQ(c()({"EXEC"}), Array({Int(0)}));  // cannot block inside a transaction
}

TEST_F(BlockingTest, WaitErrors) {
  EXPECT_EQ(c()({"WAIT", "a", "0"}), Error("ERR value is not an integer or out of range"));
  EXPECT_EQ(c()({"WAIT", "0", "-1"}), Error("ERR timeout is negative"));
  EXPECT_EQ(c()({"WAIT", "0", "x"}), Error("ERR timeout is not an integer or out of range"));
  EXPECT_EQ(c()({"WAIT", "0"}), Error("ERR wrong number of arguments for 'wait' command"));
}

TEST_F(BlockingTest, BlockedClientHoldsItsPipeline) {
  c().Send(Client::Encode({"WAIT", "1", "30"}) + Client::Encode({"PING"}));
  EXPECT_EQ(c().Read(), Int(0));
  EXPECT_EQ(c().Read(), Status("PONG"));
}

}  // namespace
}  // namespace redlab::conformance
