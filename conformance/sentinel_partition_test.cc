// Sentinel across a network partition (redlab's FAULT PARTITION; Redis's own sentinel tests
// partition with iptables or by pausing processes): the partition table is the process's, so
// this runs on the embedded target only, where the nodes and the sentinels share the test's
// process. A sentinel cut off alone sees everything down and can start no failover; a majority of
// sentinels cut off from the master fails it over while a client on the master's side still
// writes to it (the minority-side write of a split brain), and once healed the old master
// rejoins as a replica of the new one and that write is gone.
#include "conformance/sentinel_fixture.h"

namespace redlab::conformance {
namespace {

using std::chrono::seconds;

class SentinelPartitionTest : public SentinelFixture {
 protected:
  void SetUp() override {
    if (CurrentTarget() != Target::kEmbedded) {
      GTEST_SKIP() << "FAULT PARTITION cuts nodes of one process: embedded target only";
    }
    StartNodes();
    StartSentinels(3, 2);
    ASSERT_TRUE(WaitFor([&] { return EverySentinelKnowsTheOthers(); }));
  }
  void TearDown() override {
    if (!sentinels_.empty()) Sentinel(0)({"FAULT", "RESET"});
  }
  std::string SentinelPort(size_t i) const { return std::to_string(sentinels_.at(i)->port()); }
  std::string Desc(size_t i) const {
    return "sentinel " + ids_.at(i) + " 127.0.0.1 " + SentinelPort(i) + " @ mymaster 127.0.0.1 " +
           master_;
  }
};

TEST_F(SentinelPartitionTest, ASentinelCutOffAloneSeesTheMasterDownButCannotFailItOver) {
  Client s0 = Sentinel(0);
  // Sent to the sentinel itself: FAULT works on a sentinel's port as on a node's.
  ASSERT_EQ(s0({"FAULT", "PARTITION", SentinelPort(0)}), Status("OK"));
  EXPECT_EQ(s0({"FAULT", "LIST"}), Array({Bulk("PARTITION " + SentinelPort(0))}));
  const std::string desc = "master mymaster 127.0.0.1 " + master_;
  // Sentinel 0 sees the master down; the others see sentinel 0 down, and the master up.
  ASSERT_TRUE(WaitFor([&] {
    return Find(0, "+sdown", desc) >= 0 && Find(0, "+sdown", Desc(1)) >= 0 &&
           Find(0, "+sdown", Desc(2)) >= 0 && Find(1, "+sdown", Desc(0)) >= 0 &&
           Find(2, "+sdown", Desc(0)) >= 0;
  }));
  // Clients are no nodes: the master takes writes, and the other sentinels still name it.
  Client m = topology_->ConnectMaster();
  EXPECT_EQ(m({"SET", "k", "v"}), Status("OK"));
  for (size_t i = 1; i < 3; ++i) {
    auto f = Fields(Sentinel(i)({"SENTINEL", "MASTER", "mymaster"}));
    EXPECT_EQ(f["flags"], "master");
    EXPECT_EQ(f["port"], master_);
  }
  // Alone, sentinel 0 cannot reach its quorum of 2 (the others' answers are held): no ODOWN.
  EXPECT_EQ(Fields(s0({"SENTINEL", "MASTER", "mymaster"}))["flags"], "s_down,master");
  EXPECT_EQ(s0({"SENTINEL", "CKQUORUM", "mymaster"}),
            Error("NOQUORUM 1 usable Sentinels. Not enough available Sentinels to reach the "
                  "specified quorum for this master. Not enough available Sentinels to reach "
                  "the majority and authorize a failover"));

  ASSERT_EQ(Sentinel(1)({"FAULT", "PARTITION", "HEAL"}), Status("OK"));
  ASSERT_TRUE(WaitFor([&] {
    return Find(0, "-sdown", desc) >= 0 && Find(1, "-sdown", Desc(0)) >= 0 &&
           Find(2, "-sdown", Desc(0)) >= 0;
  }));
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(Find(i, "+odown"), -1) << i;
    EXPECT_EQ(Find(i, "+try-failover"), -1) << i;
    EXPECT_EQ(Sentinel(i)({"SENTINEL", "GET-MASTER-ADDR-BY-NAME", "mymaster"}),
              Array({Bulk("127.0.0.1"), Bulk(master_)}));
  }
}

TEST_F(SentinelPartitionTest, AMajorityCutOffFromTheMasterFailsItOverWhileItStillTakesWrites) {
  // The master and sentinel 0 on one side; the replicas and sentinels 1 and 2 on the other.
  Client m = topology_->ConnectMaster();
  ASSERT_EQ(m({"FAULT", "PARTITION", master_, SentinelPort(0)}), Status("OK"));
  const std::string desc = "master mymaster 127.0.0.1 " + master_;
  // The majority agrees the master is down and fails it over.
  ASSERT_TRUE(WaitFor([&] {
    return Find(1, "+switch-master") >= 0 && Find(2, "+switch-master") >= 0;
  }));
  for (size_t i = 1; i < 3; ++i) {
    EXPECT_GE(Find(i, "+sdown", desc), 0) << i;
  }
  EXPECT_TRUE(Find(1, "+odown", desc + " #quorum 2/2") >= 0 ||
              Find(2, "+odown", desc + " #quorum 2/2") >= 0);
  Reply addr = Sentinel(1)({"SENTINEL", "GET-MASTER-ADDR-BY-NAME", "mymaster"});
  ASSERT_EQ(addr.elements.size(), 2u);
  const std::string promoted = addr.elements[1].str;
  ASSERT_TRUE(promoted == std::to_string(topology_->replica_port(0)) ||
              promoted == std::to_string(topology_->replica_port(1)))
      << promoted;
  EXPECT_EQ(Sentinel(2)({"SENTINEL", "GET-MASTER-ADDR-BY-NAME", "mymaster"}), addr);
  // Sentinel 0, on the master's side, hears nothing of it: the master is up, and still its
  // master. A client asking it is sent to the old master.
  EXPECT_EQ(Find(0, "+sdown", desc), -1);
  EXPECT_EQ(Find(0, "+switch-master"), -1);
  EXPECT_EQ(Sentinel(0)({"SENTINEL", "GET-MASTER-ADDR-BY-NAME", "mymaster"}),
            Array({Bulk("127.0.0.1"), Bulk(master_)}));
  // Split brain: two masters take writes.
  ASSERT_TRUE(Eventually([&] { return Ask(std::stoi(promoted), {"SET", "k", "majority"}) ==
                                      Status("OK"); },
                         seconds(10)));
  EXPECT_EQ(m({"ROLE"}).elements.at(0), Bulk("master"));
  EXPECT_EQ(m({"SET", "k", "minority"}), Status("OK"));
  EXPECT_EQ(m({"GET", "k"}), Bulk("minority"));

  // Healed: sentinel 0 takes the new configuration, the old master is turned into a replica of
  // the new one, and its write is lost.
  ASSERT_EQ(m({"FAULT", "PARTITION", "HEAL"}), Status("OK"));
  const std::string sw = "mymaster 127.0.0.1 " + master_ + " 127.0.0.1 " + promoted;
  const std::string old_as_slave = "slave 127.0.0.1:" + master_ + " 127.0.0.1 " + master_ +
                                   " @ mymaster 127.0.0.1 " + promoted;
  ASSERT_TRUE(WaitFor([&] {
    if (Find(0, "+switch-master", sw) < 0) return false;
    for (size_t i = 0; i < 3; ++i) {
      if (Find(i, "+convert-to-slave", old_as_slave) >= 0) return true;
    }
    return false;
  }));
  EXPECT_EQ(Sentinel(0)({"SENTINEL", "GET-MASTER-ADDR-BY-NAME", "mymaster"}), addr);
  EXPECT_TRUE(Eventually(
      [&] {
        Reply role = Ask(topology_->master_port(), {"ROLE"});
        return role.elements.size() == 5 && role.elements[0].str == "slave" &&
               role.elements[2].integer == std::stoi(promoted) &&
               role.elements[3].str == "connected";
      },
      seconds(10)));
  EXPECT_TRUE(Eventually(
      [&] { return Ask(topology_->master_port(), {"GET", "k"}) == Bulk("majority"); },
      seconds(10)));
}

}  // namespace
}  // namespace redlab::conformance
