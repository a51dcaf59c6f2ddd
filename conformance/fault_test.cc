// redlab's fault injection, over the wire: the FAULT command (replication link, clock, stall,
// reply path, crash, reset, list) and TOPOLOGY (nodes, restart). Real Redis has none of this:
// every test skips there with the reason.
#include <set>

#include "conformance/harness/fixture.h"
#include "conformance/harness/script.h"
#include "conformance/harness/topology.h"

namespace redlab::conformance {
namespace {

constexpr char kRedlabOnly[] = "FAULT and TOPOLOGY are redlab's fault injection; Redis has neither";

using FaultTest = FaultInjectionTest;

TEST_F(FaultTest, ArgumentErrorsHelpAndList) {
  ExpectReplies(
      c(),
      {
          {{"FAULT"}, Error("ERR wrong number of arguments for 'fault' command")},
          {{"FAULT", "BOGUS"},
           Error("ERR Unknown subcommand or wrong number of arguments for 'BOGUS'. Try FAULT "
                 "HELP.")},
          {{"FAULT", "REPL", "SIDEWAYS"},
           Error("ERR Unknown subcommand or wrong number of arguments for 'REPL SIDEWAYS'. Try "
                 "FAULT HELP.")},
          {{"FAULT", "REPL", "DELAY", "x"}, Error("ERR REPL DELAY takes a number of milliseconds")},
          {{"FAULT", "REPLY", "DROP", "2"},
           Error("ERR REPLY DROP takes a probability between 0 and 1")},
          {{"FAULT", "CLOCK", "RATE", "x"}, Error("ERR CLOCK RATE takes a factor >= 0")},
          {{"FAULT", "STALL", "x"}, Error("ERR STALL takes a number of milliseconds")},
      });
  EXPECT_GT(c()({"FAULT", "HELP"}).elements.size(), 10u);
  EXPECT_EQ(c()({"FAULT", "LIST"}), Array({}));

  ExpectReplies(
      c(),
      {
          {{"FAULT", "REPL", "DELAY", "100", "JITTER", "20"}, Status("OK")},
          {{"FAULT", "REPL", "PAUSE"}, Status("OK")},
          {{"FAULT", "REPLY", "DELAY", "5"}, Status("OK")},
          {{"FAULT", "REPLY", "DROP", "0.25", "SEED", "7"}, Status("OK")},
          {{"FAULT", "CLOCK", "JUMP", "1500"}, Status("OK")},
          {{"FAULT", "LIST"},
           Array({Bulk("REPL DELAY 100 JITTER 20"), Bulk("REPL PAUSE"), Bulk("CLOCK OFFSET 1500"),
                  Bulk("REPLY DELAY 5"), Bulk("REPLY DROP 0.25 SEED 7")})},
          {{"FAULT", "CLOCK", "MANUAL"}, Status("OK")},
      });
  EXPECT_EQ(c()({"FAULT", "LIST"}).elements.at(2), Bulk("CLOCK MANUAL"));
  EXPECT_EQ(c()({"FAULT", "RESET"}), Status("OK"));
  EXPECT_EQ(c()({"FAULT", "LIST"}), Array({}));
}

TEST_F(FaultTest, NodeCommandsAreNotRedisCommands) {
  // COMMAND lists exactly Redis's commands: FAULT and TOPOLOGY stay out of it.
  EXPECT_EQ(c()({"COMMAND", "INFO", "fault", "topology"}), Array({Nil(), Nil()}));
  EXPECT_EQ(c()({"MULTI"}), Status("OK"));
  EXPECT_EQ(c()({"FAULT", "LIST"}), Error("ERR Command not allowed inside a transaction"));
  EXPECT_EQ(c()({"DISCARD"}), Status("OK"));
}

// FAULT and TOPOLOGY run through the engine's checks as any command, but stay out of everything
// that lists, describes or permits Redis's commands, and stay usable wherever a node must remain
// breakable and mendable.
TEST_F(FaultTest, NodeCommandsAreHiddenYetCheckedAsAnyCommand) {
  EXPECT_EQ(c()({"FAULT", "LIST"}), Array({}));
  EXPECT_EQ(c()({"INFO", "commandstats"}).str.find("cmdstat_fault"), std::string::npos);
  for (const Reply& name : c()({"ACL", "CAT", "dangerous"}).elements) {
    EXPECT_NE(name.str, "fault");
    EXPECT_NE(name.str, "topology");
  }
  EXPECT_EQ(c()({"ACL", "SETUSER", "faulty", "+fault"}),
            Error("ERR Error in ACL SETUSER modifier '+fault': Unknown command or category name "
                  "in ACL"));
  Reply from_script = c()({"EVAL", "return redis.call('fault', 'list')", "0"});
  ASSERT_EQ(from_script.type, Reply::Type::kError);
  EXPECT_EQ(from_script.str.rfind("ERR Unknown Redis command called from script", 0), 0u)
      << from_script.str;
  // Refused inside MULTI, which then fails as with any command refused there.
  EXPECT_EQ(c()({"MULTI"}), Status("OK"));
  EXPECT_EQ(c()({"FAULT", "LIST"}), Error("ERR Command not allowed inside a transaction"));
  EXPECT_EQ(c()({"EXEC"}),
            Error("EXECABORT Transaction discarded because of previous errors."));
  // A pause of every command does not hold it (on a frozen clock the pause lasts until the
  // clock is moved, by FAULT itself), nor does a RESP2 subscription refuse it.
  ASSERT_EQ(c()({"FAULT", "CLOCK", "MANUAL"}), Status("OK"));
  Client other(port(), std::chrono::milliseconds(300));
  EXPECT_EQ(other({"CLIENT", "PAUSE", "1000", "ALL"}), Status("OK"));
  other.SendCommand({"PING"});
  EXPECT_THROW(other.Read(), std::runtime_error);  // held by the pause
  EXPECT_EQ(c()({"FAULT", "LIST"}).elements.at(0), Bulk("CLOCK MANUAL"));
  EXPECT_EQ(c()({"FAULT", "CLOCK", "ADVANCE", "1001"}), Status("OK"));
  EXPECT_EQ(ReadWithin(other, std::chrono::seconds(5)), Status("PONG"));
  ASSERT_EQ(c()({"FAULT", "RESET"}), Status("OK"));
  Client subscriber = Connect();
  subscriber.SendCommand({"SUBSCRIBE", "news"});
  subscriber.Read();
  EXPECT_EQ(subscriber({"FAULT", "LIST"}), Array({}));
  // Only a user allowed every command, key and channel may use them.
  ASSERT_EQ(c()({"ACL", "SETUSER", "limited", "on", ">pw", "+@all", "~app:*"}), Status("OK"));
  Client limited = Connect();
  ASSERT_EQ(limited({"AUTH", "limited", "pw"}), Status("OK"));
  EXPECT_EQ(limited({"FAULT", "LIST"}),
            Error("NOPERM this user has no permissions to run the 'fault' command"));
  EXPECT_EQ(limited({"TOPOLOGY", "NODES"}),
            Error("NOPERM this user has no permissions to run the 'topology' command"));
  EXPECT_EQ(c()({"ACL", "DELUSER", "limited"}), Int(1));
}

TEST(FaultAuthTest, FaultNeedsAuthentication) {
  REDLAB_ONLY(kRedlabOnly);
  std::unique_ptr<Server> server = StartServer({.requirepass = "secret"});
  Client c(server->port());
  EXPECT_EQ(c({"FAULT", "LIST"}), Error("NOAUTH Authentication required."));
  EXPECT_EQ(c({"AUTH", "secret"}), Status("OK"));
  EXPECT_EQ(c({"FAULT", "LIST"}), Array({}));
}

TEST_F(FaultTest, AManualClockMovesOnlyWhenAdvanced) {
  ASSERT_EQ(c()({"FAULT", "CLOCK", "MANUAL"}), Status("OK"));
  Reply t1 = c()({"TIME"});
  EXPECT_EQ(c()({"TIME"}), t1);  // frozen
  ASSERT_EQ(c()({"SET", "k", "v", "PX", "1000"}), Status("OK"));
  ASSERT_EQ(c()({"FAULT", "CLOCK", "ADVANCE", "999"}), Status("OK"));
  EXPECT_EQ(c()({"PTTL", "k"}), Int(1));
  ASSERT_EQ(c()({"FAULT", "CLOCK", "ADVANCE", "1"}), Status("OK"));
  EXPECT_EQ(c()({"GET", "k"}), Nil());
  ASSERT_EQ(c()({"FAULT", "CLOCK", "ADVANCE", "5000"}), Status("OK"));
  Reply t2 = c()({"TIME"});
  EXPECT_EQ(std::stoll(t2.elements[0].str) - std::stoll(t1.elements[0].str), 6);
  EXPECT_EQ(t2.elements[1], t1.elements[1]);
}

TEST_F(FaultTest, ClockJumpTakesASignAndAdvanceAFrozenClock) {
  ASSERT_EQ(c()({"FAULT", "CLOCK", "MANUAL"}), Status("OK"));
  ASSERT_EQ(c()({"SET", "k", "v", "PX", "1000"}), Status("OK"));
  EXPECT_EQ(c()({"FAULT", "CLOCK", "JUMP", "+100"}), Status("OK"));  // as README writes <±ms>
  EXPECT_EQ(c()({"PTTL", "k"}), Int(900));
  EXPECT_EQ(c()({"FAULT", "CLOCK", "JUMP", "-100"}), Status("OK"));
  EXPECT_EQ(c()({"PTTL", "k"}), Int(1000));
  for (std::string_view bad : {"+-5", "++5", "+", "1+"}) {
    EXPECT_EQ(c()({"FAULT", "CLOCK", "JUMP", bad}),
              Error("ERR CLOCK JUMP takes a number of milliseconds"))
        << bad;
  }
  // ADVANCE moves a frozen clock only; a running one is moved with JUMP.
  ASSERT_EQ(c()({"FAULT", "CLOCK", "REAL"}), Status("OK"));
  EXPECT_EQ(c()({"FAULT", "CLOCK", "ADVANCE", "100"}),
            Error("ERR CLOCK ADVANCE needs a frozen clock: FAULT CLOCK MANUAL first"));
  EXPECT_EQ(c()({"FAULT", "LIST"}), Array({}));  // nothing moved
}

TEST_F(FaultTest, TopologyArgumentErrors) {
  EXPECT_EQ(c()({"TOPOLOGY"}), Error("ERR wrong number of arguments for 'topology' command"));
  EXPECT_EQ(c()({"TOPOLOGY", "SIDEWAYS"}),
            Error("ERR Unknown subcommand or wrong number of arguments for 'SIDEWAYS'. Try "
                  "TOPOLOGY NODES or RESTART."));
  EXPECT_EQ(c()({"TOPOLOGY", "NODES", "x"}),
            Error("ERR Unknown subcommand or wrong number of arguments for 'NODES'. Try "
                  "TOPOLOGY NODES or RESTART."));
}

TEST_F(FaultTest, AClockJumpMovesTtls) {
  ASSERT_EQ(c()({"FAULT", "CLOCK", "MANUAL"}), Status("OK"));
  ASSERT_EQ(c()({"SET", "k", "v", "EX", "100"}), Status("OK"));
  ASSERT_EQ(c()({"FAULT", "CLOCK", "JUMP", "-10000"}), Status("OK"));
  EXPECT_EQ(c()({"TTL", "k"}), Int(110));  // the clock went back: the key lives longer
  ASSERT_EQ(c()({"FAULT", "CLOCK", "JUMP", "110000"}), Status("OK"));
  EXPECT_EQ(c()({"EXISTS", "k"}), Int(0));
}

TEST_F(FaultTest, AFastClockExpiresKeysSooner) {
  ASSERT_EQ(c()({"FAULT", "CLOCK", "RATE", "1000"}), Status("OK"));
  ASSERT_EQ(c()({"SET", "k", "v", "EX", "20"}), Status("OK"));  // 20 s of node time: 20 ms
  EXPECT_TRUE(Eventually([&] { return c()({"GET", "k"}) == Nil(); }, std::chrono::seconds(2)));
}

TEST_F(FaultTest, RealClockComesBack) {
  ASSERT_EQ(c()({"FAULT", "CLOCK", "JUMP", "3600000"}), Status("OK"));
  int64_t now_s = std::chrono::duration_cast<std::chrono::seconds>(
                      std::chrono::system_clock::now().time_since_epoch())
                      .count();
  EXPECT_GE(std::stoll(c()({"TIME"}).elements[0].str), now_s + 3590);
  ASSERT_EQ(c()({"FAULT", "CLOCK", "REAL"}), Status("OK"));
  EXPECT_LE(std::abs(std::stoll(c()({"TIME"}).elements[0].str) - now_s), 5);
}

TEST_F(FaultTest, BlockedClientsDeadlinesFollowTheClock) {
  ASSERT_EQ(c()({"FAULT", "CLOCK", "MANUAL"}), Status("OK"));
  Client waiter = Connect();
  ASSERT_EQ(waiter({"SET", "k", "v"}), Status("OK"));
  waiter.SendCommand({"WAIT", "1", "5000"});  // no replicas: only the timeout can end it
  ASSERT_TRUE(Eventually([&] {
    std::string clients = c()({"CLIENT", "LIST"}).str;
    return clients.find("cmd=wait") != std::string::npos;
  }));
  ASSERT_EQ(c()({"FAULT", "CLOCK", "ADVANCE", "5000"}), Status("OK"));
  EXPECT_EQ(waiter.Read(), Int(0));
}

TEST_F(FaultTest, DroppedRepliesLeaveTheCommandDone) {
  Client victim(port(), std::chrono::milliseconds(200));
  ASSERT_EQ(c()({"FAULT", "REPLY", "DROP", "1"}), Status("OK"));
  victim.SendCommand({"SET", "k", "v"});
  EXPECT_THROW(victim.Read(), std::runtime_error);  // the reply never comes
  ASSERT_EQ(c()({"FAULT", "RESET"}), Status("OK"));
  EXPECT_EQ(c()({"GET", "k"}), Bulk("v"));  // but the command ran
}

TEST_F(FaultTest, ASeededDropLosesTheSameReplies) {
  auto survivors = [&] {
    EXPECT_EQ(c()({"FAULT", "REPLY", "DROP", "0.5", "SEED", "42"}), Status("OK"));
    Client d(port(), std::chrono::milliseconds(100));
    for (int i = 0; i < 40; ++i) d.SendCommand({"ECHO", std::to_string(i)});
    d.SendCommand({"FAULT", "RESET"});  // FAULT's own replies are never lost
    std::set<std::string> kept;
    while (true) {
      Reply r = d.Read();
      if (r == Status("OK")) break;
      kept.insert(r.str);
    }
    return kept;
  };
  std::set<std::string> first = survivors();
  EXPECT_GT(first.size(), 5u);
  EXPECT_LT(first.size(), 35u);
  EXPECT_EQ(survivors(), first);
}

TEST_F(FaultTest, DelayedRepliesArriveLateInOrder) {
  ASSERT_EQ(c()({"FAULT", "REPLY", "DELAY", "1000"}), Status("OK"));
  Client d(port(), std::chrono::milliseconds(50));
  d.SendCommand({"ECHO", "1"});
  d.SendCommand({"ECHO", "2"});
  EXPECT_THROW(d.Read(), std::runtime_error);  // not yet
  EXPECT_EQ(ReadWithin(d, std::chrono::seconds(5)), Bulk("1"));
  EXPECT_EQ(ReadWithin(d, std::chrono::seconds(5)), Bulk("2"));
}

TEST_F(FaultTest, AStalledNodeAnswersNothingThenResumes) {
  ASSERT_EQ(c()({"FAULT", "STALL", "1000"}), Status("OK"));
  Client d(port(), std::chrono::milliseconds(50));
  d.SendCommand({"PING"});
  EXPECT_THROW(d.Read(), std::runtime_error);
  EXPECT_EQ(ReadWithin(d, std::chrono::seconds(5)), Status("PONG"));
}

// Faults on a topology: the replica side of the link, crashes and restarts.
class FaultTopologyTest : public ::testing::Test {
 protected:
  void SetUp() override {
    REDLAB_ONLY(kRedlabOnly);
    topology_ = StartTopology();
  }
  std::unique_ptr<Topology> topology_;
};

TEST_F(FaultTopologyTest, ReplicationFaultsOnTheReplicaSide) {
  Client m = topology_->ConnectMaster();
  Client r = topology_->ConnectReplica(0);
  ASSERT_EQ(r({"FAULT", "REPL", "PAUSE"}), Status("OK"));  // the replica stops taking the stream
  ASSERT_EQ(m({"SET", "k", "v"}), Status("OK"));
  EXPECT_EQ(m({"WAIT", "1", "100"}), Int(0));
  EXPECT_EQ(r({"GET", "k"}), Nil());
  ASSERT_EQ(r({"FAULT", "REPL", "RESUME"}), Status("OK"));
  EXPECT_EQ(m({"WAIT", "1", "5000"}), Int(1));
  EXPECT_EQ(r({"GET", "k"}), Bulk("v"));
  // A cut on the replica's side: the link drops and stays down until healed.
  ASSERT_EQ(r({"FAULT", "REPL", "CUT"}), Status("OK"));
  ASSERT_EQ(m({"SET", "k", "w"}), Status("OK"));
  EXPECT_EQ(m({"WAIT", "1", "50"}), Int(0));
  EXPECT_EQ(r({"ROLE"}).elements.at(3), Bulk("connect"));
  ASSERT_EQ(r({"FAULT", "REPL", "HEAL"}), Status("OK"));
  EXPECT_TRUE(Eventually([&] { return r({"GET", "k"}) == Bulk("w"); }));
}

TEST_F(FaultTopologyTest, APausedReplicaHoldsItsAcksToo) {
  Client m = topology_->ConnectMaster();
  Client r = topology_->ConnectReplica(0);
  ASSERT_EQ(m({"CONFIG", "SET", "min-replicas-max-lag", "2"}), Status("OK"));
  ASSERT_EQ(m({"CONFIG", "SET", "min-replicas-to-write", "1"}), Status("OK"));
  ASSERT_EQ(m({"SET", "k", "v"}), Status("OK"));
  // The fault on the replica's end of the link: what it sends (its acks) stalls with what it
  // receives, so the master sees it lag and refuses writes.
  ASSERT_EQ(r({"FAULT", "REPL", "PAUSE"}), Status("OK"));
  EXPECT_TRUE(Eventually(
      [&] {
        return m({"SET", "k", "w"}) == Error("NOREPLICAS Not enough good replicas to write.");
      },
      std::chrono::seconds(10)));
  ASSERT_EQ(r({"FAULT", "REPL", "RESUME"}), Status("OK"));
  EXPECT_TRUE(Eventually(
      [&] {
        return m({"SET", "k", "x"}) == Status("OK");
      },
      std::chrono::seconds(10)));
  EXPECT_EQ(m({"WAIT", "1", "5000"}), Int(1));
  EXPECT_EQ(r({"GET", "k"}), Bulk("x"));
}

TEST_F(FaultTopologyTest, TopologyNodesListsTheProcessNodes) {
  Client m = topology_->ConnectMaster();
  std::string master = "127.0.0.1:" + std::to_string(topology_->master_port());
  EXPECT_EQ(
      m({"TOPOLOGY", "NODES"}),
      Array({Array({Int(topology_->master_port()), Bulk("master"), Bulk("up"), Bulk("")}),
             Array({Int(topology_->replica_port(0)), Bulk("replica"), Bulk("up"), Bulk(master)})}));
  EXPECT_EQ(m({"TOPOLOGY", "RESTART", "x"}), Error("ERR value is not an integer or out of range"));
  EXPECT_EQ(m({"TOPOLOGY", "RESTART", std::to_string(topology_->replica_port(0)), "SOMETIMES"}),
            Error("ERR syntax error"));
  EXPECT_EQ(
      m({"TOPOLOGY", "RESTART", std::to_string(topology_->replica_port(0))}),
      Error("ERR the node on port " + std::to_string(topology_->replica_port(0)) + " is running"));
  EXPECT_EQ(m({"TOPOLOGY", "RESTART", "1"}),
            Error("ERR no node of this process listened on port 1"));
}

TEST_F(FaultTopologyTest, ACrashedReplicaComesBackWithItsDataOrEmpty) {
  Client m = topology_->ConnectMaster();
  ASSERT_EQ(m({"SET", "k", "v"}), Status("OK"));
  ASSERT_EQ(m({"WAIT", "1", "5000"}), Int(1));
  int replica = topology_->replica_port(0);
  {
    Client r(replica);
    r.SendCommand({"FAULT", "CRASH"});
    EXPECT_TRUE(r.WaitClosed());  // the node dies before answering
  }
  EXPECT_TRUE(Eventually([&] {  // its port closes too
    try {
      Client probe(replica, std::chrono::milliseconds(200));
      return false;
    } catch (const std::runtime_error&) {
      return true;
    }
  }));
  EXPECT_EQ(m({"TOPOLOGY", "NODES"}).elements.at(1).elements.at(2), Bulk("crashed"));
  EXPECT_EQ(m({"INFO", "replication"}).str.find("connected_slaves:0") != std::string::npos, true);
  ASSERT_EQ(m({"SET", "k2", "v2"}), Status("OK"));
  ASSERT_EQ(m({"TOPOLOGY", "RESTART", std::to_string(replica), "KEEP"}), Status("OK"));
  Client r(replica);
  EXPECT_TRUE(Eventually([&] { return r({"GET", "k2"}) == Bulk("v2"); }));
  EXPECT_EQ(r({"GET", "k"}), Bulk("v"));
  // Crash the master: what it held back from its replica is lost with it.
  ASSERT_EQ(m({"FAULT", "REPL", "PAUSE"}), Status("OK"));
  ASSERT_EQ(m({"SET", "lost", "1"}), Status("OK"));
  topology_->CrashMaster();
  EXPECT_EQ(topology_->RestartCrashedMaster(), topology_->master_port());
  Client m2 = topology_->ConnectMaster();
  EXPECT_EQ(m2({"DBSIZE"}), Int(0));            // restarted empty
  EXPECT_EQ(m2({"FAULT", "LIST"}), Array({}));  // a new process has no faults
  // The replica resynchronises with the empty master and loses everything too.
  EXPECT_TRUE(Eventually([&] { return r({"DBSIZE"}) == Int(0); }, std::chrono::seconds(10)));
}

}  // namespace
}  // namespace redlab::conformance
