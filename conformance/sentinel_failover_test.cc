// Redis Sentinel's failover (7.0.15's sentinel.c, tests/sentinel/tests/00-base.tcl,
// 05-manual.tcl, 07-down-conditions.tcl): three sentinels watching a master with two replicas
// agree it is down (ODOWN), elect a leader, promote the best replica (never one of
// replica-priority 0), reconfigure the other, switch the master's address, and turn the old
// master into a replica when it returns; SENTINEL FAILOVER forces one. Both targets: redlab
// sentinels beside redlab nodes, and redis-server --sentinel beside redis-server nodes. Sentinel's
// periods are shortened with SENTINEL DEBUG and down-after-milliseconds is 1 s. (Shorter, the
// new master itself can go SDOWN right after the switch, as on Redis: the promotion's CLIENT KILL
// drops the other sentinels' links, and a link is made again at most every ping period.)
#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "conformance/sentinel_fixture.h"

namespace redlab::conformance {
namespace {

using std::chrono::seconds;

class SentinelFailoverTest : public SentinelFixture {};

TEST_F(SentinelFailoverTest, AutomaticFailoverPromotesTheBestReplicaAndTheOldMasterRejoins) {
  // Replica 0 (replica-priority 0) must never be promoted: replica 1 is.
  StartNodes(/*priority0=*/0);
  StartSentinels(3, 2);
  std::string r0 = std::to_string(topology_->replica_port(0));
  std::string r1 = std::to_string(topology_->replica_port(1));
  // Every sentinel knows the two replicas and the two other sentinels.
  ASSERT_TRUE(WaitFor([&] {
    if (!EverySentinelKnowsTheOthers()) return false;
    for (size_t i = 0; i < sentinels_.size(); ++i) {
      Reply replicas = Sentinel(i)({"SENTINEL", "REPLICAS", "mymaster"});
      for (const Reply& r : replicas.elements) {
        auto f = Fields(r);
        if (f["port"] == r0 && f["slave-priority"] != "0") return false;
      }
    }
    return true;
  }));

  topology_->CrashMaster();
  // The leader sends +switch-master, then every sentinel knows the new master.
  ASSERT_TRUE(WaitFor([&] {
    for (size_t i = 0; i < events_.size(); ++i) {
      if (Find(i, "+switch-master") < 0) return false;
    }
    return true;
  }));
  int leader = Leader();
  ASSERT_GE(leader, 0);
  const std::string desc = "master mymaster 127.0.0.1 " + master_;
  const std::string& id = ids_[static_cast<size_t>(leader)];
  // The leader's events, in Redis's order.
  std::vector<std::string> order = {"+sdown",
                                    "+odown",
                                    "+new-epoch",
                                    "+try-failover",
                                    "+vote-for-leader",
                                    "+elected-leader",
                                    "+failover-state-select-slave",
                                    "+selected-slave",
                                    "+failover-state-send-slaveof-noone",
                                    "+failover-state-wait-promotion",
                                    "+promoted-slave",
                                    "+failover-state-reconf-slaves",
                                    "+slave-reconf-sent",
                                    "+slave-reconf-inprog",
                                    "+slave-reconf-done",
                                    "+failover-end",
                                    "+switch-master"};
  size_t l = static_cast<size_t>(leader);
  std::vector<std::string> seq = Sequence(l, order);
  // An earlier attempt may have lost its election (split votes): take the last try-failover on.
  auto last_try = std::find(seq.rbegin(), seq.rend(), "+try-failover");
  ASSERT_NE(last_try, seq.rend());
  std::vector<std::string> tail(last_try.base() - 1, seq.end());
  EXPECT_EQ(tail, std::vector<std::string>(order.begin() + 3, order.end()));
  ASSERT_GE(seq.size(), 2u);
  EXPECT_EQ(seq[0], "+sdown");
  EXPECT_EQ(seq[1], "+odown");
  int odown = Find(l, "+odown");
  ASSERT_GE(odown, 0);
  EXPECT_TRUE(events_[l][odown].message == desc + " #quorum 2/2" ||
              events_[l][odown].message == desc + " #quorum 3/2")
      << events_[l][odown].message;
  int elected = Find(l, "+elected-leader");
  ASSERT_GE(elected, 0);
  EXPECT_EQ(events_[l][elected].message, desc);
  int vote = Find(l, "+vote-for-leader");
  ASSERT_GE(vote, 0);
  std::string epoch = events_[l][vote].message.substr(41);
  EXPECT_EQ(events_[l][vote].message, id + " " + epoch);
  EXPECT_EQ(Find(l, "+selected-slave", Slave(topology_->replica_port(1), master_)) >= 0, true);
  EXPECT_GE(Find(l, "+failover-state-send-slaveof-noone",
                 Slave(topology_->replica_port(1), master_)),
            0);
  EXPECT_GE(Find(l, "+promoted-slave", Slave(topology_->replica_port(1), master_)), 0);
  EXPECT_GE(Find(l, "+failover-state-reconf-slaves", desc), 0);
  EXPECT_GE(Find(l, "+slave-reconf-sent", Slave(topology_->replica_port(0), master_)), 0);
  EXPECT_GE(Find(l, "+slave-reconf-done", Slave(topology_->replica_port(0), master_)), 0);
  EXPECT_GE(Find(l, "+failover-end", desc), 0);
  std::string sw = "mymaster 127.0.0.1 " + master_ + " 127.0.0.1 " + r1;
  EXPECT_GE(Find(l, "+switch-master", sw), 0);
  // After the switch, the other replica and the old master are the new master's replicas.
  int switched = Find(l, "+switch-master", sw);
  ASSERT_TRUE(WaitFor([&] {
    return Find(l, "+slave", Slave(topology_->replica_port(0), r1), switched) >= 0 &&
           Find(l, "+slave", Slave(topology_->master_port(), r1), switched) >= 0;
  }));
  EXPECT_GE(Find(l, "+slave", Slave(topology_->replica_port(0), r1), switched), 0);
  EXPECT_GE(Find(l, "+slave", Slave(topology_->master_port(), r1), switched), 0);
  // The others took the new configuration from another sentinel's hello: the leader's, or
  // (real Sentinel does it too) the third one's once it had it.
  for (size_t i = 0; i < events_.size(); ++i) {
    if (i == l) continue;
    EXPECT_GE(Find(i, "+switch-master", sw), 0);
    int update = Find(i, "+config-update-from");
    if (update >= 0) {
      const std::string& from = events_[i][update].message;
      bool from_another = false;
      for (size_t k = 0; k < ids_.size(); ++k) {
        if (k != i && from.rfind("sentinel " + ids_[k] + " 127.0.0.1 ", 0) == 0) {
          from_another = true;
        }
      }
      EXPECT_TRUE(from_another) << from;
    }
  }
  for (size_t i = 0; i < sentinels_.size(); ++i) {
    EXPECT_EQ(Sentinel(i)({"SENTINEL", "GET-MASTER-ADDR-BY-NAME", "mymaster"}),
              Array({Bulk("127.0.0.1"), Bulk(r1)}));
  }
  auto m = Fields(Sentinel(l)({"SENTINEL", "MASTER", "mymaster"}));
  EXPECT_EQ(m["port"], r1);
  EXPECT_EQ(m["config-epoch"], epoch);
  // The new master and its replica.
  EXPECT_TRUE(Eventually(
      [&] { return Ask(topology_->replica_port(1), {"SET", "after", "1"}) == Status("OK"); },
      seconds(10)));
  EXPECT_TRUE(Eventually(
      [&] {
        Reply role = Ask(topology_->replica_port(0), {"ROLE"});
        return role.elements.size() == 5 && role.elements[2].integer == std::stoi(r1) &&
               role.elements[3].str == "connected";
      },
      seconds(10)));

  // The old master comes back (empty, as a master): the sentinels turn it into a replica.
  int old = topology_->RestartCrashedMaster();
  ASSERT_TRUE(WaitFor([&] {
    for (size_t i = 0; i < events_.size(); ++i) {
      if (Find(i, "+convert-to-slave", Slave(old, r1)) >= 0) return true;
    }
    return false;
  }));
  EXPECT_TRUE(Eventually(
      [&] {
        Reply role = Ask(old, {"ROLE"});
        return role.elements.size() == 5 && role.elements[0].str == "slave" &&
               role.elements[2].integer == std::stoi(r1) && role.elements[3].str == "connected";
      },
      seconds(10)));
  EXPECT_TRUE(
      Eventually([&] { return Ask(old, {"GET", "after"}) == Bulk("1"); }, seconds(10)));
}

TEST_F(SentinelFailoverTest, SentinelFailoverForcesAFailoverWithoutAgreement) {
  StartNodes(/*priority0=*/0);
  StartSentinels(1, 2);  // a quorum it can never reach alone: no automatic failover
  std::string r1 = std::to_string(topology_->replica_port(1));
  Client c = Sentinel(0);
  EXPECT_EQ(c({"SENTINEL", "FAILOVER", "nope"}), Error("ERR No such master with that name"));
  ASSERT_TRUE(WaitFor([&] {
    Reply replicas = c({"SENTINEL", "REPLICAS", "mymaster"});
    if (replicas.elements.size() != 2) return false;
    for (const Reply& r : replicas.elements) {
      if (Fields(r)["runid"].size() != 40) return false;
    }
    return true;
  }));
  // Replica 1 too cannot be promoted: no good replica.
  Client r1c = topology_->ConnectReplica(1);
  ASSERT_EQ(r1c({"CONFIG", "SET", "replica-priority", "0"}), Status("OK"));
  ASSERT_TRUE(WaitFor([&] {
    for (const Reply& r : c({"SENTINEL", "REPLICAS", "mymaster"}).elements) {
      if (Fields(r)["slave-priority"] != "0") return false;
    }
    return true;
  }));
  EXPECT_EQ(c({"SENTINEL", "FAILOVER", "mymaster"}),
            Error("NOGOODSLAVE No suitable replica to promote"));
  ASSERT_EQ(r1c({"CONFIG", "SET", "replica-priority", "100"}), Status("OK"));
  ASSERT_TRUE(WaitFor([&] {
    for (const Reply& r : c({"SENTINEL", "REPLICAS", "mymaster"}).elements) {
      if (Fields(r)["port"] == r1 && Fields(r)["slave-priority"] == "100") return true;
    }
    return false;
  }));
  EXPECT_EQ(c({"SENTINEL", "FAILOVER", "mymaster"}), Status("OK"));
  EXPECT_EQ(c({"SENTINEL", "FAILOVER", "mymaster"}),
            Error("INPROG Failover already in progress"));
  auto m = Fields(c({"SENTINEL", "MASTER", "mymaster"}));
  EXPECT_NE(m["flags"].find("failover_in_progress,force_failover"), std::string::npos)
      << m["flags"];
  EXPECT_EQ(m.count("failover-state"), 1u);
  std::string sw = "mymaster 127.0.0.1 " + master_ + " 127.0.0.1 " + r1;
  ASSERT_TRUE(WaitFor([&] { return Find(0, "+switch-master", sw) >= 0; }));
  std::string desc = "master mymaster 127.0.0.1 " + master_;
  EXPECT_EQ(Sequence(0, {"+new-epoch", "+try-failover", "+vote-for-leader", "+elected-leader",
                         "+failover-state-select-slave", "+selected-slave",
                         "+failover-state-send-slaveof-noone", "+failover-state-wait-promotion",
                         "+promoted-slave", "+failover-state-reconf-slaves",
                         "+slave-reconf-sent", "+slave-reconf-inprog", "+slave-reconf-done",
                         "+failover-end", "+switch-master"}),
            (std::vector<std::string>{
                "+new-epoch", "+try-failover", "+vote-for-leader", "+elected-leader",
                "+failover-state-select-slave", "+selected-slave",
                "+failover-state-send-slaveof-noone", "+failover-state-wait-promotion",
                "+promoted-slave", "+failover-state-reconf-slaves", "+slave-reconf-sent",
                "+slave-reconf-inprog", "+slave-reconf-done", "+failover-end",
                "+switch-master"}));
  ASSERT_GE(Find(0, "+vote-for-leader"), 0);  // and so the two before it, by the sequence above
  EXPECT_EQ(events_[0][Find(0, "+new-epoch")].message, "1");
  EXPECT_EQ(events_[0][Find(0, "+try-failover")].message, desc);
  EXPECT_EQ(events_[0][Find(0, "+vote-for-leader")].message, ids_[0] + " 1");
  EXPECT_EQ(c({"SENTINEL", "GET-MASTER-ADDR-BY-NAME", "mymaster"}),
            Array({Bulk("127.0.0.1"), Bulk(r1)}));
  EXPECT_EQ(Fields(c({"SENTINEL", "MASTER", "mymaster"}))["config-epoch"], "1");
  // The old master, still up as a master, is turned into a replica of the new one.
  ASSERT_TRUE(WaitFor(
      [&] { return Find(0, "+convert-to-slave", Slave(topology_->master_port(), r1)) >= 0; }));
  // (A fresh connection each time: the transaction's CLIENT KILL TYPE normal may come after
  // the event.)
  EXPECT_TRUE(Eventually(
      [&] {
        Reply role = Ask(topology_->master_port(), {"ROLE"});
        return role.elements.size() == 5 && role.elements[2].integer == std::stoi(r1);
      },
      seconds(10)));
}

TEST_F(SentinelFailoverTest, DebugListsAndSetsTheTimeParameters) {
  StartNodes();
  StartSentinels(1, 1);
  Client c = Sentinel(0);
  Reply d = c({"SENTINEL", "DEBUG"});
  ASSERT_EQ(d.elements.size(), 26u);
  EXPECT_EQ(d.elements[0], Bulk("INFO-PERIOD"));
  EXPECT_EQ(d.elements[1], Bulk("500"));
  EXPECT_EQ(d.elements[6], Bulk("PUBLISH-PERIOD"));
  EXPECT_EQ(d.elements[7], Bulk("200"));
  EXPECT_EQ(d.elements[10], Bulk("DEFAULT-FAILOVER-TIMEOUT"));
  EXPECT_EQ(d.elements[11], Bulk("180000"));
  EXPECT_EQ(d.elements[24], Bulk("SCRIPT-RETRY-DELAY"));
  EXPECT_EQ(c({"SENTINEL", "DEBUG", "tilt-period", "0"}),
            Error("ERR Invalid argument '0' for SENTINEL DEBUG 'tilt-period'"));
  EXPECT_EQ(c({"SENTINEL", "DEBUG", "nope", "1"}),
            Error("ERR Unknown option or number of arguments for SENTINEL DEBUG 'nope'"));
  EXPECT_EQ(c({"SENTINEL", "DEBUG", "election-timeout"}),
            Error("ERR Unknown option or number of arguments for SENTINEL DEBUG "
                  "'election-timeout'"));
}

// The sentinel's clock jumps (redlab's FAULT CLOCK on the sentinel node): TILT mode, where it
// watches and does not act, for tilt-period.
TEST_F(SentinelFailoverTest, AClockJumpPutsTheSentinelInTilt) {
  if (IsRealRedis()) GTEST_SKIP() << "real redis-server has no clock faults";
  StartNodes();
  StartSentinels(1, 1);
  Client c = Sentinel(0);
  ASSERT_EQ(c({"SENTINEL", "DEBUG", "tilt-period", "300"}), Status("OK"));
  ASSERT_EQ(c({"FAULT", "CLOCK", "JUMP", "5000"}), Status("OK"));
  ASSERT_TRUE(WaitFor([&] { return Find(0, "+tilt") >= 0; }));  // so Find below is >= 0
  EXPECT_EQ(events_[0][Find(0, "+tilt")].message, "#tilt mode entered");
  std::string info = c({"INFO", "sentinel"}).str;
  EXPECT_NE(info.find("sentinel_tilt:1\r\n"), std::string::npos) << info;
  // In TILT a sentinel says no master is down.
  EXPECT_EQ(c({"SENTINEL", "IS-MASTER-DOWN-BY-ADDR", "127.0.0.1", master_, "0", "*"}),
            Array({Int(0), Bulk("*"), Int(0)}));
  ASSERT_TRUE(WaitFor([&] { return Find(0, "-tilt") >= 0; }));
  EXPECT_EQ(events_[0][Find(0, "-tilt")].message, "#tilt mode exited");
  EXPECT_NE(c({"INFO", "sentinel"}).str.find("sentinel_tilt:0\r\n"), std::string::npos);
}

// A real client that supports Sentinel (ioredis, with failoverDetector) finds the master through
// the sentinels and follows the failover to the new master. Under load ioredis 5.11.1 can end
// its own connection when its failover detector hears +switch-master while it is still asking
// the sentinels (on both targets alike); the script then connects it again (see
// conformance/clients/ioredis_sentinel.js).
TEST_F(SentinelFailoverTest, IoredisFollowsTheFailover) {
  std::filesystem::path modules =
      std::filesystem::path(REDLAB_SOURCE_DIR) / "tools/lab/drivers/node-redlock/node_modules";
  if (!std::filesystem::exists(modules / "ioredis") ||
      std::system("node --version >/dev/null 2>&1") != 0) {
    GTEST_SKIP() << "ioredis is not installed (tools/install-deps.sh)";
  }
  StartNodes();
  StartSentinels(3, 2);
  ASSERT_TRUE(WaitFor([&] { return EverySentinelKnowsTheOthers(); }));
  std::string command = "NODE_PATH=" + modules.string() + " node " +
                        (std::filesystem::path(REDLAB_SOURCE_DIR) /
                         "conformance/clients/ioredis_sentinel.js")
                            .string();
  for (auto& s : sentinels_) command += " " + std::to_string(s->port());
  FILE* node = popen(command.c_str(), "r");  // its stderr goes to the test's
  ASSERT_NE(node, nullptr);
  // The script's next "port P" or "timeout" line ("" at its end).
  auto next = [&] {
    char line[512];
    while (fgets(line, sizeof(line), node) != nullptr) {
      std::string l = line;
      if (l.rfind("port ", 0) == 0 || l.rfind("timeout", 0) == 0) return l;
    }
    return std::string();
  };
  std::string first = next();
  EXPECT_EQ(first, "port " + master_ + "\n");
  topology_->CrashMaster();
  // The script exits after 30 s at most.
  std::string second = next();
  int status = pclose(node);
  EXPECT_EQ(status, 0) << second;
  // The new master ioredis wrote to is the one every sentinel names (once it has heard).
  ASSERT_TRUE(WaitFor([&] {
    for (size_t i = 0; i < sentinels_.size(); ++i) {
      Reply addr = Sentinel(i)({"SENTINEL", "GET-MASTER-ADDR-BY-NAME", "mymaster"});
      if (addr.elements.size() != 2 || second != "port " + addr.elements[1].str + "\n") {
        return false;
      }
    }
    return true;
  })) << second;
  EXPECT_NE(second, "port " + master_ + "\n");
}

}  // namespace
}  // namespace redlab::conformance
