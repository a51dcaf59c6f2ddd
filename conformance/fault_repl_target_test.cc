// FAULT REPL aimed at one replica's link (REPLICA <port>) and at one direction (TO-REPLICA: the
// stream; TO-MASTER: handshake and acks). Real Redis has no FAULT: the tests skip there.
#include "conformance/harness/fixture.h"
#include "conformance/harness/topology.h"

namespace redlab::conformance {
namespace {

constexpr char kRedlabOnly[] = "FAULT REPL is redlab's fault injection; Redis has no FAULT";

class FaultReplTargetTest : public ::testing::Test {
 protected:
  void SetUp() override {
    REDLAB_ONLY(kRedlabOnly);
    topology_ = StartTopology({.replicas = 2});
    ASSERT_TRUE(topology_->WaitForSync());
  }
  std::unique_ptr<Topology> topology_;
};

TEST_F(FaultReplTargetTest, APauseAimedAtOneReplicaLeavesTheOtherInSync) {
  Client m = topology_->ConnectMaster();
  Client r0 = topology_->ConnectReplica(0);
  Client r1 = topology_->ConnectReplica(1);
  std::string port0 = std::to_string(topology_->replica_port(0));
  ASSERT_EQ(m({"FAULT", "REPL", "PAUSE", "REPLICA", port0}), Status("OK"));
  EXPECT_EQ(m({"FAULT", "LIST"}), Array({Bulk("REPL PAUSE REPLICA " + port0)}));
  ASSERT_EQ(m({"SET", "k", "v"}), Status("OK"));
  EXPECT_EQ(m({"WAIT", "1", "5000"}), Int(1));  // the other replica has it
  EXPECT_EQ(m({"WAIT", "2", "200"}), Int(1));   // this one does not
  EXPECT_EQ(r1({"GET", "k"}), Bulk("v"));
  EXPECT_EQ(r0({"GET", "k"}), Nil());
  ASSERT_EQ(m({"FAULT", "REPL", "RESUME", "REPLICA", port0}), Status("OK"));
  EXPECT_EQ(m({"FAULT", "LIST"}), Array({}));
  EXPECT_EQ(m({"WAIT", "2", "5000"}), Int(2));
  EXPECT_EQ(r0({"GET", "k"}), Bulk("v"));
}

TEST_F(FaultReplTargetTest, OneDirectionOnly) {
  Client m = topology_->ConnectMaster();
  Client r0 = topology_->ConnectReplica(0);
  // The acks are held, the stream flows: the replicas have the write, WAIT cannot know it.
  ASSERT_EQ(m({"FAULT", "REPL", "PAUSE", "TO-MASTER"}), Status("OK"));
  EXPECT_EQ(m({"FAULT", "LIST"}), Array({Bulk("REPL PAUSE TO-MASTER")}));
  ASSERT_EQ(m({"SET", "k", "1"}), Status("OK"));
  EXPECT_TRUE(Eventually([&] { return r0({"GET", "k"}) == Bulk("1"); }));
  EXPECT_EQ(m({"WAIT", "1", "200"}), Int(0));
  ASSERT_EQ(m({"FAULT", "REPL", "RESUME", "TO-MASTER"}), Status("OK"));
  EXPECT_EQ(m({"WAIT", "2", "5000"}), Int(2));
  // The stream is delayed, the acks are not: one line per direction when they differ.
  ASSERT_EQ(m({"FAULT", "REPL", "DELAY", "100000", "TO-REPLICA"}), Status("OK"));
  ASSERT_EQ(m({"FAULT", "REPL", "DELAY", "5", "TO-MASTER"}), Status("OK"));
  EXPECT_EQ(m({"FAULT", "LIST"}),
            Array({Bulk("REPL DELAY 100000 TO-REPLICA"), Bulk("REPL DELAY 5 TO-MASTER")}));
  ASSERT_EQ(m({"SET", "k", "2"}), Status("OK"));
  EXPECT_EQ(m({"WAIT", "1", "200"}), Int(0));
  EXPECT_EQ(r0({"GET", "k"}), Bulk("1"));
  ASSERT_EQ(m({"FAULT", "RESET"}), Status("OK"));
}

TEST_F(FaultReplTargetTest, ACutAimedAtOneReplica) {
  Client m = topology_->ConnectMaster();
  Client r0 = topology_->ConnectReplica(0);
  std::string port0 = std::to_string(topology_->replica_port(0));
  ASSERT_EQ(m({"FAULT", "REPL", "CUT", "REPLICA", port0}), Status("OK"));
  EXPECT_TRUE(Eventually([&] { return r0({"ROLE"}).elements.at(3) != Bulk("connected"); }));
  ASSERT_EQ(m({"SET", "k", "v"}), Status("OK"));
  EXPECT_EQ(m({"WAIT", "1", "5000"}), Int(1));  // the other replica's link is whole
  ASSERT_EQ(m({"FAULT", "REPL", "HEAL", "REPLICA", port0}), Status("OK"));
  EXPECT_TRUE(Eventually([&] { return r0({"GET", "k"}) == Bulk("v"); }, std::chrono::seconds(10)));
}

TEST_F(FaultReplTargetTest, ArgumentErrors) {
  Client m = topology_->ConnectMaster();
  EXPECT_EQ(m({"FAULT", "REPL", "CUT", "TO-MASTER"}),
            Error("ERR REPL CUT acts on the link both ways: it takes no TO-REPLICA or TO-MASTER"));
  EXPECT_EQ(m({"FAULT", "REPL", "PAUSE", "REPLICA", "0"}),
            Error("ERR value is out of range, value must between 1 and 65535"));
  EXPECT_EQ(m({"FAULT", "REPL", "PAUSE", "REPLICA", "x"}),
            Error("ERR value is not an integer or out of range"));
  EXPECT_EQ(m({"FAULT", "REPL", "PAUSE", "TO-MASTER", "TO-REPLICA"}), Error("ERR syntax error"));
  EXPECT_EQ(m({"FAULT", "REPL", "PAUSE", "SIDEWAYS"}), Error("ERR syntax error"));
  EXPECT_EQ(m({"FAULT", "LIST"}), Array({}));
}

}  // namespace
}  // namespace redlab::conformance
