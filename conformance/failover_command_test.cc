// FAILOVER's paths besides the happy one, on both backends, with the replica kept behind by a
// held replication link: a pending failover pauses writes and ends with ABORT (the master stays,
// the paused writes go through), TIMEOUT aborts it when the replica never catches up, and FORCE
// hands the master role over at the timeout anyway.
#include "conformance/harness/fixture.h"
#include "conformance/harness/topology.h"

namespace redlab::conformance {
namespace {

class FailoverCommandTest : public ::testing::Test {
 protected:
  void SetUp() override {
    topology_ = StartTopology();
    Client m = topology_->ConnectMaster();
    topology_->HoldReplication();
    // The replica will not acknowledge this: no failover can find it in sync.
    ASSERT_EQ(m({"SET", "k", "v"}), Status("OK"));
  }
  std::string State(Client& c) { return InfoField(c, "master_failover_state"); }
  std::unique_ptr<Topology> topology_;
};

TEST_F(FailoverCommandTest, APendingFailoverPausesWritesUntilAborted) {
  Client m = topology_->ConnectMaster();
  ASSERT_EQ(m({"FAILOVER"}), Status("OK"));
  EXPECT_EQ(State(m), "waiting-for-sync");
  EXPECT_EQ(m({"FAILOVER"}), Error("ERR FAILOVER already in progress."));
  EXPECT_EQ(m({"GET", "k"}), Bulk("v"));  // reads go on
  Client writer(topology_->master_port(), std::chrono::milliseconds(200));
  writer.SendCommand({"SET", "k", "w"});
  EXPECT_THROW(writer.Read(), std::runtime_error);  // writes wait for the outcome
  EXPECT_EQ(m({"FAILOVER", "ABORT"}), Status("OK"));
  EXPECT_EQ(State(m), "no-failover");
  EXPECT_EQ(ReadWithin(writer, std::chrono::seconds(5)), Status("OK"));  // and now go through
  EXPECT_EQ(m({"ROLE"}).elements.at(0), Bulk("master"));
  EXPECT_EQ(m({"GET", "k"}), Bulk("w"));
  EXPECT_EQ(m({"FAILOVER", "ABORT"}), Error("ERR No failover in progress."));
  topology_->ReleaseReplication();
  ASSERT_EQ(m({"SET", "k", "x"}), Status("OK"));
  EXPECT_EQ(m({"WAIT", "1", "5000"}), Int(1));
}

TEST_F(FailoverCommandTest, AFailoverThatTimesOutIsAbortedAndTheMasterStays) {
  Client m = topology_->ConnectMaster();
  ASSERT_EQ(m({"FAILOVER", "TIMEOUT", "1000"}), Status("OK"));
  EXPECT_EQ(State(m), "waiting-for-sync");
  EXPECT_TRUE(Eventually([&] { return State(m) == "no-failover"; }, std::chrono::seconds(10)));
  EXPECT_EQ(m({"ROLE"}).elements.at(0), Bulk("master"));
  EXPECT_EQ(m({"SET", "k", "w"}), Status("OK"));
  topology_->ReleaseReplication();
  EXPECT_EQ(m({"WAIT", "1", "5000"}), Int(1));
  Client r = topology_->ConnectReplica(0);
  EXPECT_EQ(r({"GET", "k"}), Bulk("w"));
}

TEST_F(FailoverCommandTest, AForcedFailoverHandsOverAtTheTimeoutAnyway) {
  Client m = topology_->ConnectMaster();
  std::string target = std::to_string(topology_->replica_port(0));
  ASSERT_EQ(m({"FAILOVER", "TO", "127.0.0.1", target, "TIMEOUT", "500", "FORCE"}), Status("OK"));
  EXPECT_EQ(State(m), "waiting-for-sync");
  // The replica never caught up; at the timeout the master becomes its replica regardless.
  EXPECT_TRUE(Eventually(
      [&] {
        return m({"ROLE"}).elements.at(0) == Bulk("slave") && InfoField(m, "master_port") == target;
      },
      std::chrono::seconds(10)));
  topology_->ReleaseReplication();
  Client r = topology_->ConnectReplica(0);
  EXPECT_TRUE(Eventually([&] { return r({"ROLE"}).elements.at(0) == Bulk("master"); },
                         std::chrono::seconds(10)));
  EXPECT_TRUE(Eventually(
      [&] { return m({"ROLE"}).elements.at(3) == Bulk("connected") && State(m) == "no-failover"; },
      std::chrono::seconds(10)));
  // Writes go to the new master and reach the old one.
  ASSERT_EQ(r({"SET", "after", "1"}), Status("OK"));
  EXPECT_EQ(r({"WAIT", "1", "5000"}), Int(1));
  EXPECT_EQ(m({"GET", "after"}), Bulk("1"));
}

}  // namespace
}  // namespace redlab::conformance
