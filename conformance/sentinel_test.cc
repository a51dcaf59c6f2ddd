// Redis Sentinel (7.0.15's sentinel.c, tests/sentinel/): one sentinel monitoring a master with a
// replica over real connections, on both targets — a redlab sentinel (in process, or
// redlab-server sentinel.conf --sentinel) beside redlab nodes, and redis-server --sentinel
// beside redis-server nodes. Its command table, SENTINEL's subcommands and errors, INFO and
// ROLE, the replica found through the master's INFO, and the events published as they happen
// (+monitor, +set, +slave, +sdown, -sdown, -monitor, +reset-master).
#include <chrono>
#include <map>

#include "conformance/fields.h"
#include "conformance/harness/fixture.h"
#include "conformance/harness/script.h"
#include "conformance/harness/topology.h"

namespace redlab::conformance {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

// Reads pub/sub messages until one arrives on `channel`; returns its payload ("" when none came
// before the deadline). The channels of the messages read on the way are added to `seen`.
std::string WaitEvent(Client& sub, const std::string& channel, std::vector<std::string>* seen,
                      std::chrono::steady_clock::duration within = seconds(20)) {
  auto deadline = std::chrono::steady_clock::now() + within;
  while (std::chrono::steady_clock::now() < deadline) {
    if (!sub.Readable(milliseconds(100))) continue;
    Reply m = sub.Read();
    if (m.elements.size() != 4 || m.elements[0].str != "pmessage") continue;
    seen->push_back(m.elements[2].str);
    if (m.elements[2].str == channel) return m.elements[3].str;
  }
  return {};
}

class SentinelTest : public ::testing::Test {
 protected:
  void SetUp() override {
    topology_ = StartTopology({.replicas = 1, .fault_proxy = false});
    ASSERT_TRUE(topology_->WaitForSync());
    master_ = std::to_string(topology_->master_port());
    replica_ = std::to_string(topology_->replica_port(0));
  }

  // A sentinel that monitors nothing yet, and a client subscribed to all its events.
  void StartSentinel(std::vector<std::pair<std::string, std::string>> config = {}) {
    ServerOptions o;
    o.sentinel = true;
    o.config = std::move(config);
    sentinel_ = StartServer(o);
    events_ = std::make_unique<Client>(sentinel_->port());
    ASSERT_EQ((*events_)({"PSUBSCRIBE", "*"}), Array({Bulk("psubscribe"), Bulk("*"), Int(1)}));
  }
  Client Connect() { return Client(sentinel_->port()); }
  std::string Event(const std::string& channel) { return WaitEvent(*events_, channel, &seen_); }
  std::string MasterDesc() { return "master mymaster 127.0.0.1 " + master_; }

  std::unique_ptr<Topology> topology_;
  std::unique_ptr<Server> sentinel_;
  std::unique_ptr<Client> events_;
  std::vector<std::string> seen_;
  std::string master_, replica_;
};

TEST_F(SentinelTest, MonitorsAMasterFindsItsReplicaAndSeesItGoDown) {
  StartSentinel();
  Client c = Connect();
  ASSERT_EQ(c({"SENTINEL", "MONITOR", "mymaster", "127.0.0.1", master_, "1"}), Status("OK"));
  EXPECT_EQ(Event("+monitor"), MasterDesc() + " quorum 1");
  ASSERT_EQ(c({"SENTINEL", "SET", "mymaster", "down-after-milliseconds", "300"}), Status("OK"));
  EXPECT_EQ(Event("+set"), MasterDesc() + " down-after-milliseconds 300");
  // The replica, from the master's INFO.
  EXPECT_EQ(Event("+slave"), "slave 127.0.0.1:" + replica_ + " 127.0.0.1 " + replica_ + " @ " +
                                 "mymaster 127.0.0.1 " + master_);
  ASSERT_TRUE(Eventually(
      [&] {
        Reply r = c({"SENTINEL", "REPLICAS", "mymaster"});
        return r.elements.size() == 1 && Fields(r.elements[0])["master-link-status"] == "ok" &&
               Fields(r.elements[0])["runid"].size() == 40;
      },
      seconds(20)));
  auto replica = Fields(c({"SENTINEL", "REPLICAS", "mymaster"}).elements[0]);
  EXPECT_EQ(replica["name"], "127.0.0.1:" + replica_);
  EXPECT_EQ(replica["ip"], "127.0.0.1");
  EXPECT_EQ(replica["port"], replica_);
  EXPECT_EQ(replica["flags"], "slave");
  EXPECT_EQ(replica["role-reported"], "slave");
  EXPECT_EQ(replica["master-host"], "127.0.0.1");
  EXPECT_EQ(replica["master-port"], master_);
  EXPECT_EQ(replica["slave-priority"], "100");
  EXPECT_EQ(replica["replica-announced"], "1");
  EXPECT_EQ(replica["down-after-milliseconds"], "300");
  EXPECT_EQ(c({"SENTINEL", "SLAVES", "mymaster"}).elements.size(), 1u);

  auto master = Fields(c({"SENTINEL", "MASTER", "mymaster"}));
  EXPECT_EQ(master["name"], "mymaster");
  EXPECT_EQ(master["ip"], "127.0.0.1");
  EXPECT_EQ(master["port"], master_);
  EXPECT_EQ(master["flags"], "master");
  EXPECT_EQ(master["runid"].size(), 40u);
  EXPECT_EQ(master["role-reported"], "master");
  EXPECT_EQ(master["config-epoch"], "0");
  EXPECT_EQ(master["num-slaves"], "1");
  EXPECT_EQ(master["num-other-sentinels"], "0");
  EXPECT_EQ(master["quorum"], "1");
  EXPECT_EQ(master["failover-timeout"], "180000");
  EXPECT_EQ(master["parallel-syncs"], "1");
  EXPECT_EQ(master.count("s-down-time"), 0u);
  EXPECT_EQ(c({"SENTINEL", "MASTERS"}).elements.size(), 1u);
  EXPECT_EQ(c({"SENTINEL", "SENTINELS", "mymaster"}), Array({}));
  EXPECT_EQ(c({"SENTINEL", "GET-MASTER-ADDR-BY-NAME", "mymaster"}),
            Array({Bulk("127.0.0.1"), Bulk(master_)}));
  EXPECT_EQ(c({"SENTINEL", "CKQUORUM", "mymaster"}),
            Status("OK 1 usable Sentinels. Quorum and failover authorization can be reached"));
  std::string info = c({"INFO", "sentinel"}).str;
  EXPECT_NE(info.find("# Sentinel\r\nsentinel_masters:1\r\nsentinel_tilt:0\r\n"
                      "sentinel_tilt_since_seconds:-1\r\nsentinel_running_scripts:0\r\n"
                      "sentinel_scripts_queue_length:0\r\nsentinel_simulate_failure_flags:0\r\n"
                      "master0:name=mymaster,status=ok,address=127.0.0.1:" +
                      master_ + ",slaves=1,sentinels=1\r\n"),
            std::string::npos)
      << info;
  // INFO-CACHE: the master's INFO and the replica's, as last read.
  Reply cache = c({"SENTINEL", "INFO-CACHE", "mymaster"});
  ASSERT_EQ(cache.elements.size(), 2u);
  EXPECT_EQ(cache.elements[0], Bulk("mymaster"));
  ASSERT_EQ(cache.elements[1].elements.size(), 2u);
  EXPECT_NE(cache.elements[1].elements[0].elements[1].str.find("role:master"), std::string::npos);

  // The master dies: SDOWN after down-after-milliseconds without a valid reply (a quorum of 2
  // keeps this lone sentinel from ODOWN and a failover).
  ASSERT_EQ(c({"SENTINEL", "SET", "mymaster", "quorum", "2"}), Status("OK"));
  EXPECT_EQ(Event("+set"), MasterDesc() + " quorum 2");
  topology_->CrashMaster();
  EXPECT_EQ(Event("+sdown"), MasterDesc());
  master = Fields(c({"SENTINEL", "MASTER", "mymaster"}));
  EXPECT_EQ(master["flags"], "s_down,master,disconnected");
  EXPECT_EQ(master.count("s-down-time"), 1u);
  info = c({"INFO", "sentinel"}).str;
  EXPECT_NE(info.find("master0:name=mymaster,status=sdown,"), std::string::npos) << info;
  // Back (empty, as a master): -sdown.
  topology_->RestartCrashedMaster();
  EXPECT_EQ(Event("-sdown"), MasterDesc());

  ASSERT_EQ(c({"SENTINEL", "RESET", "*"}), Int(1));
  EXPECT_EQ(Event("+reset-master"), MasterDesc());
  ASSERT_EQ(c({"SENTINEL", "REMOVE", "mymaster"}), Status("OK"));
  EXPECT_EQ(Event("-monitor"), MasterDesc());
  EXPECT_EQ(c({"SENTINEL", "MASTERS"}), Array({}));
  EXPECT_EQ(c({"ROLE"}), Array({Bulk("sentinel"), Array({})}));
}

TEST_F(SentinelTest, StartsFromItsConfigurationFile) {
  StartSentinel({{"sentinel", "monitor mymaster 127.0.0.1 " + master_ + " 2"},
                 {"sentinel", "down-after-milliseconds mymaster 5000"},
                 {"sentinel", "failover-timeout mymaster 60000"},
                 {"sentinel", "parallel-syncs mymaster 3"}});
  Client c = Connect();
  EXPECT_EQ(c({"ROLE"}), Array({Bulk("sentinel"), Array({Bulk("mymaster")})}));
  auto master = Fields(c({"SENTINEL", "MASTER", "mymaster"}));
  EXPECT_EQ(master["quorum"], "2");
  EXPECT_EQ(master["down-after-milliseconds"], "5000");
  EXPECT_EQ(master["failover-timeout"], "60000");
  EXPECT_EQ(master["parallel-syncs"], "3");
  // Alone, it cannot reach a quorum of 2.
  EXPECT_EQ(c({"SENTINEL", "CKQUORUM", "mymaster"}),
            Error("NOQUORUM 1 usable Sentinels. Not enough available Sentinels to reach the "
                  "specified quorum for this master"));
  ASSERT_TRUE(Eventually(
      [&] {
        return c({"SENTINEL", "REPLICAS", "mymaster"}).elements.size() == 1;
      },
      seconds(20)));
}

// Two sentinels of one master find each other through the hello messages they publish on the
// master's and the replica's __sentinel__:hello channel.
TEST_F(SentinelTest, SentinelsDiscoverEachOtherThroughHelloMessages) {
  std::vector<std::pair<std::string, std::string>> config = {
      {"sentinel", "monitor mymaster 127.0.0.1 " + master_ + " 2"}};
  StartSentinel(config);
  ServerOptions o;
  o.sentinel = true;
  o.config = config;
  std::unique_ptr<Server> other = StartServer(o);
  Client b(other->port());
  std::string b_id = b({"SENTINEL", "MYID"}).str;
  ASSERT_EQ(b_id.size(), 40u);
  EXPECT_EQ(Event("+sentinel"), "sentinel " + b_id + " 127.0.0.1 " + std::to_string(other->port()) +
                                    " @ " + "mymaster 127.0.0.1 " + master_);
  Client a = Connect();
  Reply sentinels = a({"SENTINEL", "SENTINELS", "mymaster"});
  ASSERT_EQ(sentinels.elements.size(), 1u);
  auto s = Fields(sentinels.elements[0]);
  EXPECT_EQ(s["name"], b_id);
  EXPECT_EQ(s["runid"], b_id);
  EXPECT_EQ(s["ip"], "127.0.0.1");
  EXPECT_EQ(s["port"], std::to_string(other->port()));
  EXPECT_EQ(s["voted-leader"], "?");
  EXPECT_EQ(s["voted-leader-epoch"], "0");
  EXPECT_EQ(s.count("last-hello-message"), 1u);
  EXPECT_EQ(Fields(a({"SENTINEL", "MASTER", "mymaster"}))["num-other-sentinels"], "1");
  ASSERT_TRUE(Eventually(
      [&] {
        return a({"SENTINEL", "CKQUORUM", "mymaster"}) ==
               Status("OK 2 usable Sentinels. Quorum and failover authorization can be reached");
      },
      seconds(10)));
  // And the other way round.
  ASSERT_TRUE(Eventually(
      [&] {
        return b({"SENTINEL", "SENTINELS", "mymaster"}).elements.size() == 1;
      },
      seconds(20)));
  EXPECT_EQ(Fields(b({"SENTINEL", "SENTINELS", "mymaster"}).elements[0])["runid"],
            a({"SENTINEL", "MYID"}).str);
}

// What another sentinel asks when it sees the master down: this one's view, and its vote, one
// per epoch.
TEST_F(SentinelTest, IsMasterDownByAddrAnswersAndVotesOncePerEpoch) {
  StartSentinel({{"sentinel", "monitor mymaster 127.0.0.1 " + master_ + " 2"},
                 {"sentinel", "down-after-milliseconds mymaster 300"}});
  Client c = Connect();
  EXPECT_EQ(c({"SENTINEL", "IS-MASTER-DOWN-BY-ADDR", "127.0.0.1", master_, "0", "*"}),
            Array({Int(0), Bulk("*"), Int(0)}));
  EXPECT_EQ(c({"SENTINEL", "IS-MASTER-DOWN-BY-ADDR", "127.0.0.1", "1", "0", "*"}),
            Array({Int(0), Bulk("*"), Int(0)}));
  EXPECT_EQ(c({"SENTINEL", "IS-MASTER-DOWN-BY-ADDR", "127.0.0.1", "x", "0", "*"}),
            Error("ERR value is not an integer or out of range"));
  std::string a(40, 'a'), b(40, 'b');
  EXPECT_EQ(c({"SENTINEL", "IS-MASTER-DOWN-BY-ADDR", "127.0.0.1", master_, "5", a}),
            Array({Int(0), Bulk(a), Int(5)}));
  EXPECT_EQ(Event("+new-epoch"), "5");
  EXPECT_EQ(Event("+vote-for-leader"), a + " 5");
  // One vote per epoch: b is told a was chosen.
  EXPECT_EQ(c({"SENTINEL", "IS-MASTER-DOWN-BY-ADDR", "127.0.0.1", master_, "5", b}),
            Array({Int(0), Bulk(a), Int(5)}));
  topology_->CrashMaster();
  EXPECT_EQ(Event("+sdown"), MasterDesc());
  EXPECT_EQ(c({"SENTINEL", "IS-MASTER-DOWN-BY-ADDR", "127.0.0.1", master_, "6", b}),
            Array({Int(1), Bulk(b), Int(6)}));
}

TEST_F(SentinelTest, CommandTableAndErrors) {
  StartSentinel();
  Client c = Connect();
  ExpectReplies(
      c, {
             {{"PING"}, Status("PONG")},
             {{"GET", "x"}, Error("ERR unknown command 'GET', with args beginning with: 'x' ")},
             {{"SET", "x", "1"},
              Error("ERR unknown command 'SET', with args beginning with: 'x' '1' ")},
             {{"PUBLISH", "x", "y"},
              Error("ERR Only HELLO messages are accepted by Sentinel instances.")},
             {{"SENTINEL"}, Error("ERR wrong number of arguments for 'sentinel' command")},
             {{"SENTINEL", "FOO"}, Error("ERR unknown subcommand 'FOO'. Try SENTINEL HELP.")},
             {{"SENTINEL", "MASTERS", "x"},
              Error("ERR wrong number of arguments for 'sentinel|masters' command")},
             {{"SENTINEL", "MASTER", "nope"}, Error("ERR No such master with that name")},
             {{"SENTINEL", "REPLICAS", "nope"}, Error("ERR No such master with that name")},
             {{"SENTINEL", "GET-MASTER-ADDR-BY-NAME", "nope"}, Nil()},
             {{"SENTINEL", "MONITOR", "m", "127.0.0.1", "6379", "x"}, Error("ERR Invalid quorum")},
             {{"SENTINEL", "MONITOR", "m", "127.0.0.1", "x", "1"}, Error("ERR Invalid port")},
             {{"SENTINEL", "MONITOR", "m", "127.0.0.1", "6379", "0"},
              Error("ERR Quorum must be 1 or greater.")},
             {{"SENTINEL", "MONITOR", "m", "not-an-ip", "6379", "1"},
              Error("ERR Invalid IP address or hostname specified")},
         });
  ASSERT_EQ(c({"SENTINEL", "MONITOR", "m", "127.0.0.1", master_, "1"}), Status("OK"));
  ExpectReplies(c, {
                       {{"SENTINEL", "MONITOR", "m", "127.0.0.1", master_, "1"},
                        Error("ERR Duplicate master name.")},
                       {{"SENTINEL", "SET", "m", "quorum", "0"},
                        Error("ERR Invalid argument '0' for SENTINEL SET 'quorum'")},
                       {{"SENTINEL", "SET", "m", "nope", "1"},
                        Error("ERR Unknown option or number of arguments for SENTINEL SET 'nope'")},
                       {{"SENTINEL", "SET", "m", "quorum", "3"}, Status("OK")},
                   });
  EXPECT_EQ(Fields(c({"SENTINEL", "MASTER", "m"}))["quorum"], "3");
  Reply id = c({"SENTINEL", "MYID"});
  EXPECT_EQ(id.str.size(), 40u);
  ExpectReplies(
      c, {
             {{"SENTINEL", "PENDING-SCRIPTS"}, Array({})},
             {{"SENTINEL", "SIMULATE-FAILURE", "HELP"},
              Array({Bulk("crash-after-election"), Bulk("crash-after-promotion")})},
             {{"SENTINEL", "SIMULATE-FAILURE", "nope"},
              Error("ERR Unknown failure simulation specified")},
             {{"SENTINEL", "CONFIG", "GET", "announce-*"},
              Array({Bulk("announce-hostnames"), Bulk("no"), Bulk("announce-ip"), Bulk(""),
                     Bulk("announce-port"), Bulk("0")})},
             {{"SENTINEL", "CONFIG", "SET", "announce-port", "x"},
              Error("ERR Invalid value 'x' to SENTINEL CONFIG SET 'announce-port'")},
             {{"SENTINEL", "CONFIG", "SET", "nope", "x"},
              Error("ERR Invalid argument 'nope' to SENTINEL CONFIG SET")},
             {{"SENTINEL", "CONFIG", "FOO"},
              Error("ERR Only SENTINEL CONFIG GET <option> / SET <option> <value> are supported.")},
         });
  Reply help = c({"SENTINEL", "HELP"});
  ASSERT_GT(help.elements.size(), 2u);
  EXPECT_EQ(help.elements[0],
            Status("SENTINEL <subcommand> [<arg> [value] [opt] ...]. Subcommands are:"));
  EXPECT_EQ(help.elements[1], Status("CKQUORUM <master-name>"));
  EXPECT_EQ(c({"ROLE"}), Array({Bulk("sentinel"), Array({Bulk("m")})}));
  // HELLO: mode sentinel, and no role.
  Reply hello = c({"HELLO", "2"});
  ASSERT_EQ(hello.elements.size(), 12u);
  EXPECT_EQ(hello.elements[8], Bulk("mode"));
  EXPECT_EQ(hello.elements[9], Bulk("sentinel"));
  EXPECT_EQ(hello.elements[10], Bulk("modules"));
  // INFO: only server, clients, cpu, stats and sentinel; a keyspace section is not there.
  std::string info = c({"INFO"}).str;
  EXPECT_NE(info.find("redis_mode:sentinel\r\n"), std::string::npos);
  EXPECT_NE(info.find("# Sentinel\r\n"), std::string::npos);
  EXPECT_EQ(info.find("# Keyspace"), std::string::npos);
  EXPECT_EQ(info.find("# Replication"), std::string::npos);
  EXPECT_EQ(c({"INFO", "keyspace"}), Bulk(""));
}

}  // namespace
}  // namespace redlab::conformance
