// Scripts under the replication checks, on a master with a replica of the current target: a
// replica refuses a script's writes (READONLY) as it refuses a client's, a master short of good
// replicas refuses them (NOREPLICAS), read-only scripts may not even PUBLISH, and scripts that
// declare their flags (#!lua) are refused before they run, as the write commands they declare
// themselves to be.
#include "conformance/harness/fixture.h"
#include "conformance/harness/topology.h"
#include "conformance/scripting_util.h"

namespace redlab::conformance {
namespace {

using ReplicationScriptsTest = ReplicatedTest;

constexpr char kSet[] = "return redis.call('set', 'k', 'v')";
constexpr char kPcallSet[] = "return redis.pcall('set', 'k', 'v')";

TEST_F(ReplicationScriptsTest, ReplicaRefusesAScriptsWrites) {
  Client r = topology_->ConnectReplica(0);
  EXPECT_EQ(r({"EVAL", kSet, "0"}),
            ScriptError("READONLY You can't write against a read only replica.", kSet));
  EXPECT_EQ(r({"EVAL", kPcallSet, "0"}),
            Error("READONLY You can't write against a read only replica."));
  EXPECT_EQ(r({"EVAL", "return redis.call('del', 'k')", "0"}),
            ScriptError("READONLY You can't write against a read only replica.",
                        "return redis.call('del', 'k')"));
  // Reads are fine.
  EXPECT_EQ(r({"EVAL", "return redis.call('get', 'k')", "0"}), Nil());
  EXPECT_EQ(r({"GET", "k"}), Nil());
}

TEST_F(ReplicationScriptsTest, ReplicaRefusesAWritingShebangScriptBeforeItRuns) {
  Client r = topology_->ConnectReplica(0);
  // Without no-writes the script counts as a write command, refused as any write is.
  const std::string writes = "#!lua\nreturn redis.call('get', 'k')";
  EXPECT_EQ(r({"EVAL", writes, "0"}),
            Error("READONLY You can't write against a read only replica."));
  const std::string reads = "#!lua flags=no-writes\nreturn redis.call('get', 'k')";
  EXPECT_EQ(r({"EVAL", reads, "0"}), Nil());
}

TEST_F(ReplicationScriptsTest, MasterShortOfGoodReplicasRefusesAScriptsWrites) {
  Client m = topology_->ConnectMaster();
  ASSERT_EQ(m({"CONFIG", "SET", "min-replicas-to-write", "2"}), Status("OK"));
  EXPECT_EQ(m({"EVAL", kSet, "0"}),
            ScriptError("NOREPLICAS Not enough good replicas to write.", kSet));
  EXPECT_EQ(m({"EVAL", kPcallSet, "0"}), Error("NOREPLICAS Not enough good replicas to write."));
  EXPECT_EQ(m({"EVAL", "#!lua\nreturn 1", "0"}),
            Error("NOREPLICAS Not enough good replicas to write."));
  EXPECT_EQ(m({"EVAL", "#!lua flags=no-writes\nreturn 1", "0"}), Int(1));
  EXPECT_EQ(m({"GET", "k"}), Nil());
  ASSERT_EQ(m({"CONFIG", "SET", "min-replicas-to-write", "1"}), Status("OK"));
  EXPECT_EQ(m({"EVAL", kSet, "0"}), Status("OK"));
  ASSERT_EQ(m({"CONFIG", "SET", "min-replicas-to-write", "0"}), Status("OK"));
}

TEST_F(ReplicationScriptsTest, ReadOnlyScriptsMayNotPublish) {
  Client m = topology_->ConnectMaster();
  const std::string body = "return redis.call('publish', 'ch', 'm')";
  EXPECT_EQ(m({"EVAL_RO", body, "0"}),
            ScriptError("ERR Write commands are not allowed from read-only scripts.", body));
  EXPECT_EQ(m({"EVAL", body, "0"}), Int(0));
}

}  // namespace
}  // namespace redlab::conformance
