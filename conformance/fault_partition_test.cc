// FAULT PARTITION between nodes of one process: the replica's link to its master is held (not
// refused, not broken) while they are on two sides, and everything held flows, in order and
// without a resynchronisation, once healed; clients are no nodes and are never cut off. Real
// Redis has no FAULT (its own tests make partitions with a proxy or by pausing processes).
#include "conformance/harness/fixture.h"
#include "conformance/harness/topology.h"

namespace redlab::conformance {
namespace {

constexpr char kRedlabOnly[] = "FAULT PARTITION is redlab's fault injection; Redis has no FAULT";

class FaultPartitionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    REDLAB_ONLY(kRedlabOnly);
    topology_ = StartTopology();
    ASSERT_TRUE(topology_->WaitForSync());
  }
  void TearDown() override {
    if (topology_) topology_->ConnectMaster()({"FAULT", "RESET"});
  }
  std::unique_ptr<Topology> topology_;
};

TEST_F(FaultPartitionTest, TheReplicationLinkIsHeldAcrossAPartitionAndFlowsWhenHealed) {
  Client m = topology_->ConnectMaster();
  Client r = topology_->ConnectReplica(0);
  std::string replica = std::to_string(topology_->replica_port(0));
  std::string full_syncs = InfoField(m, "stats", "sync_full");
  ASSERT_EQ(m({"FAULT", "PARTITION", replica}), Status("OK"));
  // One table for the process: every node lists it.
  EXPECT_EQ(m({"FAULT", "LIST"}), Array({Bulk("PARTITION " + replica)}));
  EXPECT_EQ(r({"FAULT", "LIST"}), Array({Bulk("PARTITION " + replica)}));
  ASSERT_EQ(m({"SET", "k", "1"}), Status("OK"));
  ASSERT_EQ(m({"INCR", "k"}), Int(2));
  EXPECT_EQ(m({"WAIT", "1", "200"}), Int(0));  // nothing crosses
  EXPECT_EQ(r({"GET", "k"}), Nil());           // clients reach both sides
  // Held, not refused: the link is still up on both ends.
  EXPECT_EQ(r({"ROLE"}).elements.at(3), Bulk("connected"));
  EXPECT_EQ(InfoField(m, "replication", "connected_slaves"), "1");
  ASSERT_EQ(r({"FAULT", "PARTITION", "HEAL"}), Status("OK"));  // from either side
  EXPECT_EQ(m({"WAIT", "1", "10000"}), Int(1));
  EXPECT_EQ(r({"GET", "k"}), Bulk("2"));
  EXPECT_EQ(InfoField(m, "stats", "sync_full"), full_syncs);  // the same link, no resync
  EXPECT_EQ(m({"FAULT", "LIST"}), Array({}));
}

TEST_F(FaultPartitionTest, ALinkMadeAcrossAPartitionCompletesOnlyWhenHealed) {
  Client m = topology_->ConnectMaster();
  Client r = topology_->ConnectReplica(0);
  ASSERT_EQ(m({"SET", "k", "v"}), Status("OK"));
  ASSERT_EQ(m({"FAULT", "PARTITION", std::to_string(topology_->master_port())}), Status("OK"));
  ASSERT_EQ(r({"REPLICAOF", "NO", "ONE"}), Status("OK"));
  ASSERT_EQ(r({"FLUSHALL"}), Status("OK"));
  ASSERT_EQ(r({"REPLICAOF", "127.0.0.1", std::to_string(topology_->master_port())}), Status("OK"));
  EXPECT_EQ(m({"WAIT", "1", "200"}), Int(0));
  EXPECT_EQ(r({"GET", "k"}), Nil());
  EXPECT_NE(r({"ROLE"}).elements.at(3), Bulk("connected"));
  ASSERT_EQ(m({"FAULT", "PARTITION", "HEAL"}), Status("OK"));
  EXPECT_TRUE(Eventually([&] { return r({"GET", "k"}) == Bulk("v"); }, std::chrono::seconds(10)));
}

TEST_F(FaultPartitionTest, ArgumentErrors) {
  Client m = topology_->ConnectMaster();
  EXPECT_EQ(m({"FAULT", "PARTITION"}),
            Error("ERR Unknown subcommand or wrong number of arguments for 'PARTITION'. Try "
                  "FAULT HELP."));
  EXPECT_EQ(m({"FAULT", "PARTITION", "x"}),
            Error("ERR PARTITION takes ports of this process's nodes"));
  EXPECT_EQ(m({"FAULT", "PARTITION", "7000", "65536"}),
            Error("ERR value is out of range, value must between 1 and 65535"));
  EXPECT_EQ(m({"FAULT", "PARTITION", "4294974296"}),
            Error("ERR value is out of range, value must between 1 and 65535"));
  EXPECT_EQ(m({"FAULT", "LIST"}), Array({}));
}

}  // namespace
}  // namespace redlab::conformance
