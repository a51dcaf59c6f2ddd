// Commands that make a client wait: CLIENT PAUSE / UNPAUSE and WAIT (here without replicas;
// the replication suites cover WAIT with them), and what every blocked client has in common:
// CLIENT UNBLOCK, INFO's and CLIENT LIST's view of them, timeouts on the node's clock, pauses
// and a server turned into a replica. The blocking pops have their own suites.
#include "conformance/blocking_fixture.h"
#include "conformance/harness/target.h"

namespace redlab::conformance {
namespace {

class BlockingTest : public BlockingFixture {
 protected:
  void TearDown() override {
    Client admin = Connect();
    admin({"CLIENT", "UNPAUSE"});
    admin({"CONFIG", "SET", "timeout", "0"});
    admin({"REPLICAOF", "NO", "ONE"});
    if (!IsRealRedis()) admin({"FAULT", "RESET"});
  }

  // Under CLIENT PAUSE WRITE, `write` (which sets k to v) sent by another client waits: k is still
  // unset; CLIENT UNPAUSE lets it through.
  void ExpectWriteHeldUntilUnpause(const std::vector<std::string>& write) {
    Client writer = Connect();
    writer.SendCommand(write);
    EXPECT_EQ(c()({"GET", "k"}), Nil());
    EXPECT_EQ(c()({"CLIENT", "UNPAUSE"}), Status("OK"));
    EXPECT_EQ(writer.Read(), Status("OK"));
    EXPECT_EQ(c()({"GET", "k"}), Bulk("v"));
  }

  // The CLIENT LIST line of client `id`.
  std::string ClientLine(int64_t id) {
    std::string list = Connect()({"CLIENT", "LIST"}).str;
    std::string needle = "id=" + std::to_string(id) + " ";
    size_t at = list.find(needle);
    if (at == std::string::npos) return {};
    return list.substr(at, list.find('\n', at) - at);
  }
};

TEST_F(BlockingTest, PauseWriteHoldsWritesUntilUnpause) {
  EXPECT_EQ(c()({"CLIENT", "PAUSE", "100000", "WRITE"}), Status("OK"));
  // Reads go on; the write has not run.
  ExpectWriteHeldUntilUnpause({"SET", "k", "v"});
}

// A script that declares no-writes is no write command, so a WRITE pause lets it run; one
// without a shebang may write, and waits.
TEST_F(BlockingTest, PauseWriteLetsScriptsDeclaringNoWritesRun) {
  EXPECT_EQ(c()({"CLIENT", "PAUSE", "100000", "WRITE"}), Status("OK"));
  EXPECT_EQ(c()({"EVAL", "#!lua flags=no-writes\nreturn redis.call('get', 'k')", "0"}), Nil());
  ExpectWriteHeldUntilUnpause({"EVAL", "return redis.call('set', 'k', 'v')", "0"});
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

TEST_F(BlockingTest, ClientUnblockAnswersAsATimeoutOrWithAnError) {
  Client waiter = Connect();
  int64_t id = IdOf(waiter);
  waiter.SendCommand({"BLPOP", "l", "0"});
  WaitBlocked(1);
  EXPECT_EQ(c()({"CLIENT", "UNBLOCK", std::to_string(id)}), Int(1));
  EXPECT_EQ(waiter.ReadRaw(), "*-1\r\n");
  EXPECT_EQ(c()({"CLIENT", "UNBLOCK", std::to_string(id)}), Int(0));  // not blocked any more
  waiter.SendCommand({"BZPOPMIN", "z", "0"});
  WaitBlocked(1);
  EXPECT_EQ(c()({"CLIENT", "UNBLOCK", std::to_string(id), "error"}), Int(1));
  EXPECT_EQ(waiter.ReadRaw(), "-UNBLOCKED client unblocked via CLIENT UNBLOCK\r\n");
  waiter.SendCommand({"BLMOVE", "l", "d", "LEFT", "LEFT", "0"});
  WaitBlocked(1);
  EXPECT_EQ(c()({"CLIENT", "UNBLOCK", std::to_string(id), "TIMEOUT"}), Int(1));
  EXPECT_EQ(waiter.ReadRaw(), "*-1\r\n");
  // It goes on as usual, and what would have served it stays.
  EXPECT_EQ(waiter({"PING"}), Status("PONG"));
  c()({"RPUSH", "l", "x"});
  EXPECT_EQ(c()({"LLEN", "l"}), Int(1));
  EXPECT_EQ(ClientsInfo("blocked_clients"), 0);
}

TEST_F(BlockingTest, ClientUnblockEndsAWait) {
  Client waiter = Connect();
  int64_t id = IdOf(waiter);
  waiter.SendCommand({"WAIT", "1", "0"});
  WaitBlocked(1);
  EXPECT_EQ(c()({"CLIENT", "UNBLOCK", std::to_string(id)}), Int(1));
  EXPECT_EQ(waiter.Read(), Int(0));
}

TEST_F(BlockingTest, ClientUnblockErrors) {
  EXPECT_EQ(c()({"CLIENT", "UNBLOCK", "1", "maybe"}),
            Error("ERR CLIENT UNBLOCK reason should be TIMEOUT or ERROR"));
  EXPECT_EQ(c()({"CLIENT", "UNBLOCK", "x", "maybe"}),
            Error("ERR CLIENT UNBLOCK reason should be TIMEOUT or ERROR"));
  EXPECT_EQ(c()({"CLIENT", "UNBLOCK", "x"}), Error("ERR value is not an integer or out of range"));
  EXPECT_EQ(c()({"CLIENT", "UNBLOCK", "1", "ERROR", "x"}),
            Error("ERR unknown subcommand or wrong number of arguments for 'UNBLOCK'. Try CLIENT "
                  "HELP."));
  EXPECT_EQ(c()({"CLIENT", "UNBLOCK"}),
            Error("ERR wrong number of arguments for 'client|unblock' command"));
  EXPECT_EQ(c()({"CLIENT", "UNBLOCK", "999999"}), Int(0));
  EXPECT_EQ(c()({"CLIENT", "UNBLOCK", "-1"}), Int(0));
  EXPECT_EQ(c()({"CLIENT", "UNBLOCK", std::to_string(IdOf(c()))}), Int(0));
}

TEST_F(BlockingTest, BlockedClientsInInfoAndClientList) {
  EXPECT_EQ(ClientsInfo("blocked_clients"), 0);
  EXPECT_EQ(ClientsInfo("clients_in_timeout_table"), 0);
  Client forever = Connect();
  int64_t id = IdOf(forever);
  forever.SendCommand({"BLPOP", "l", "0"});
  WaitBlocked(1);
  Client timed = Blocked({"BZPOPMAX", "z", "1000"});
  EXPECT_EQ(ClientsInfo("blocked_clients"), 2);
  EXPECT_EQ(ClientsInfo("clients_in_timeout_table"), 1);
  std::string line = ClientLine(id);
  EXPECT_NE(line.find(" flags=b "), std::string::npos) << line;
  EXPECT_NE(line.find(" cmd=blpop "), std::string::npos) << line;
  c()({"RPUSH", "l", "x"});
  EXPECT_EQ(forever.Read(), Bulks({"l", "x"}));
  c()({"ZADD", "z", "1", "m"});
  EXPECT_EQ(timed.Read(), Bulks({"z", "m", "1"}));
  EXPECT_EQ(ClientsInfo("blocked_clients"), 0);
  EXPECT_EQ(ClientsInfo("clients_in_timeout_table"), 0);
  line = ClientLine(id);
  EXPECT_NE(line.find(" flags=N "), std::string::npos) << line;
}

TEST_F(BlockingTest, PausedBlockingCommandBlocksOnceThePauseEnds) {
  EXPECT_EQ(c()({"CLIENT", "PAUSE", "100000", "WRITE"}), Status("OK"));
  Client waiter = Connect();
  int64_t id = IdOf(waiter);
  waiter.SendCommand({"BLPOP", "l", "0"});
  WaitBlocked(1);  // held by the pause: a blocked client too
  EXPECT_NE(ClientLine(id).find(" flags=b "), std::string::npos);
  EXPECT_EQ(c()({"CLIENT", "UNPAUSE"}), Status("OK"));
  EXPECT_EQ(ClientsInfo("blocked_clients"), 1);  // now blocked on the key
  c()({"RPUSH", "l", "x"});
  EXPECT_EQ(waiter.Read(), Bulks({"l", "x"}));
}

TEST_F(BlockingTest, ClientUnblockLeavesAPausedClientAlone) {
  REDLAB_ONLY("real Redis 7.0.15 crashes on CLIENT UNBLOCK of a client held by CLIENT PAUSE");
  EXPECT_EQ(c()({"CLIENT", "PAUSE", "100000", "WRITE"}), Status("OK"));
  Client waiter = Connect();
  int64_t id = IdOf(waiter);
  waiter.SendCommand({"LPUSH", "l", "x"});
  WaitBlocked(1);
  // It has no command in progress to end: it stays held, and runs once the pause is over.
  EXPECT_EQ(c()({"CLIENT", "UNBLOCK", std::to_string(id)}), Int(0));
  EXPECT_EQ(c()({"CLIENT", "UNBLOCK", std::to_string(id), "ERROR"}), Int(0));
  EXPECT_EQ(ClientsInfo("blocked_clients"), 1);
  EXPECT_EQ(c()({"CLIENT", "UNPAUSE"}), Status("OK"));
  EXPECT_EQ(waiter.Read(), Int(1));
}

TEST_F(BlockingTest, BlockedClientTimesOutDuringAPause) {
  Client waiter = Blocked({"BLPOP", "l", "0.5"});
  // (A WRITE pause: under an ALL pause not even CLIENT UNPAUSE would get through afterwards.)
  EXPECT_EQ(c()({"CLIENT", "PAUSE", "100000", "WRITE"}), Status("OK"));
  EXPECT_EQ(waiter.ReadRaw(), "*-1\r\n");
}

// The node's clock moved by hand (redlab only); BlockingTest's TearDown resets the fault.
class BlockingClockTest : public BlockingTest {
 protected:
  void SetUp() override {
    REDLAB_ONLY("the node's clock is moved with FAULT CLOCK");
    BlockingTest::SetUp();
    ASSERT_EQ(c()({"FAULT", "CLOCK", "MANUAL"}), Status("OK"));
  }
};

TEST_F(BlockingClockTest, TimeoutsFollowTheNodesClock) {
  Client popper = Blocked({"BLPOP", "l", "5"});
  Client waiter = Blocked({"WAIT", "1", "5000"});
  EXPECT_EQ(c()({"FAULT", "CLOCK", "ADVANCE", "4999"}), Status("OK"));
  EXPECT_EQ(ClientsInfo("blocked_clients"), 2);
  EXPECT_EQ(c()({"FAULT", "CLOCK", "ADVANCE", "1"}), Status("OK"));
  EXPECT_EQ(popper.ReadRaw(), "*-1\r\n");
  EXPECT_EQ(waiter.Read(), Int(0));
  // A jump forward (an NTP step) ends a wait as well.
  Client zpopper = Blocked({"BZPOPMIN", "z", "60"});
  EXPECT_EQ(c()({"FAULT", "CLOCK", "JUMP", "60000"}), Status("OK"));
  EXPECT_EQ(zpopper.ReadRaw(), "*-1\r\n");
}

TEST_F(BlockingClockTest, ATimeoutTooFarAwayNeverComes) {
  // Redis adds it to the time without an overflow check: the deadline wraps around.
  Client waiter = Connect();
  int64_t id = IdOf(waiter);
  waiter.SendCommand({"BLPOP", "l", "9223372036854775"});
  WaitBlocked(1);
  EXPECT_EQ(c()({"FAULT", "CLOCK", "ADVANCE", "1000000000"}), Status("OK"));
  EXPECT_EQ(ClientsInfo("blocked_clients"), 1);
  EXPECT_EQ(c()({"CLIENT", "UNBLOCK", std::to_string(id)}), Int(1));
  EXPECT_EQ(waiter.ReadRaw(), "*-1\r\n");
}

TEST_F(BlockingTest, IdleTimeoutSparesBlockedClients) {
  ASSERT_EQ(c()({"CONFIG", "SET", "timeout", "1"}), Status("OK"));
  Client idle = Connect();
  EXPECT_EQ(idle({"PING"}), Status("PONG"));
  Client waiter = Blocked({"BLPOP", "l", "0"});
  EXPECT_TRUE(idle.WaitClosed(std::chrono::seconds(10)));
  EXPECT_EQ(ClientsInfo("blocked_clients"), 1);
  Client pusher = Connect();
  pusher({"RPUSH", "l", "x"});
  EXPECT_EQ(waiter.Read(), Bulks({"l", "x"}));
  EXPECT_EQ(pusher({"CONFIG", "SET", "timeout", "0"}), Status("OK"));
}

TEST_F(BlockingTest, BecomingAReplicaUnblocksAndDisconnectsBlockedClients) {
  Client waiter = Blocked({"BLPOP", "l", "0"});
  // A master that is not there: the server stays a replica until REPLICAOF NO ONE.
  ASSERT_EQ(c()({"REPLICAOF", "127.0.0.1", std::to_string(FreePort())}), Status("OK"));
  EXPECT_EQ(waiter.ReadUntilClosed(),
            "-UNBLOCKED force unblock from blocking operation, instance state changed (master -> "
            "replica?)\r\n");
  // A read-only replica refuses them: they write.
  EXPECT_EQ(c()({"BLPOP", "l", "0"}),
            Error("READONLY You can't write against a read only replica."));
  EXPECT_EQ(c()({"LMPOP", "1", "l", "LEFT"}),
            Error("READONLY You can't write against a read only replica."));
  EXPECT_EQ(c()({"REPLICAOF", "NO", "ONE"}), Status("OK"));
}

}  // namespace
}  // namespace redlab::conformance
