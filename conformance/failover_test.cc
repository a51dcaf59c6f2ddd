// The failover race, reproduced on demand on both backends (redlab nodes with FAULT, real
// redis-server processes with a fault proxy on the replication link): client A takes a
// Redisson-style lock on the master, the replication link is held, the master dies, the replica
// is promoted, and client B takes the same lock. Then what prevents it (WAIT before trusting the
// lock), and the rest of a failover's life: a cut link that resynchronises partially, a held or
// slow link lagging in both directions, min-replicas-to-write, FAILOVER's coordinated hand-over,
// the old master rejoining, a clock jump (redlab only).
#include "conformance/harness/fixture.h"
#include "conformance/harness/topology.h"

namespace redlab::conformance {
namespace {

constexpr char kLock[] = "resource:lock";
constexpr char kOwnerA[] = "8743c9c0-0795-4907-87fd-6c719a6b4586:1";
constexpr char kOwnerB[] = "2f1a4d6e-9b0c-4c1e-8f7a-3d5b6c7e8f90:1";

// Redisson's lock acquisition for a free lock: the hold count under the owner's field, and the
// lease as the key's TTL, written together.
void TakeLock(Client& c, const std::string& owner) {
  ASSERT_EQ(c({"MULTI"}), Status("OK"));
  ASSERT_EQ(c({"HSET", kLock, owner, "1"}), Status("QUEUED"));
  ASSERT_EQ(c({"PEXPIRE", kLock, "30000"}), Status("QUEUED"));
  ASSERT_EQ(c({"EXEC"}), Array({Int(1), Int(1)}));
}

// What Redisson's script checks first: whether anyone holds the lock.
bool LockHeld(Client& c) { return c({"EXISTS", kLock}) == Int(1); }

// The lag INFO replication shows for the master's first replica ("slave0:...,lag=N"); -1 when
// there is none.
int64_t ReplicaLag(Client& m) {
  std::string line = InfoField(m, "slave0");
  size_t pos = line.find(",lag=");
  return pos == std::string::npos ? -1 : std::stoll(line.substr(pos + 5));
}

int64_t StatsField(Client& c, std::string_view field) {
  std::string info = c({"INFO", "stats"}).str;
  std::string needle = "\n" + std::string(field) + ":";
  size_t start = info.find(needle) + needle.size();
  return std::stoll(info.substr(start, info.find('\r', start) - start));
}

class FailoverTest : public ::testing::Test {
 protected:
  void SetUp() override { topology_ = StartTopology(); }
  std::unique_ptr<Topology> topology_;
};

TEST_F(FailoverTest, TheFailoverRaceLosesTheLock) {
  Client a = topology_->ConnectMaster();
  topology_->HoldReplication();  // the replica will not hear of A's lock
  TakeLock(a, kOwnerA);
  EXPECT_TRUE(LockHeld(a));
  topology_->CrashMaster();
  topology_->Promote(0);
  Client b = topology_->ConnectMaster();
  // The promoted replica never had A's lock: B takes it too. Two holders at once.
  EXPECT_FALSE(LockHeld(b));
  TakeLock(b, kOwnerB);
  EXPECT_EQ(b({"HGET", kLock, kOwnerB}), Bulk("1"));
  EXPECT_EQ(b({"HGET", kLock, kOwnerA}), Nil());
}

TEST_F(FailoverTest, ALockWrittenWithWaitSurvivesTheFailover) {
  Client a = topology_->ConnectMaster();
  TakeLock(a, kOwnerA);
  // Redisson's answer: WAIT for the replicas before trusting the lock.
  ASSERT_EQ(a({"WAIT", "1", "5000"}), Int(1));
  topology_->HoldReplication();
  topology_->CrashMaster();
  topology_->Promote(0);
  Client b = topology_->ConnectMaster();
  EXPECT_TRUE(LockHeld(b));  // B sees A's lock and waits
  EXPECT_EQ(b({"HGET", kLock, kOwnerA}), Bulk("1"));
  int64_t ttl = b({"PTTL", kLock}).integer;
  EXPECT_GT(ttl, 0);
  EXPECT_LE(ttl, 30000);
}

TEST_F(FailoverTest, WaitReportsTheLockUnreplicatedWhileTheLinkIsHeld) {
  Client a = topology_->ConnectMaster();
  topology_->HoldReplication();
  TakeLock(a, kOwnerA);
  // What Redisson sees when it checks: no replica has the lock.
  EXPECT_EQ(a({"WAIT", "1", "100"}), Int(0));
  topology_->ReleaseReplication();
  EXPECT_EQ(a({"WAIT", "1", "5000"}), Int(1));
}

TEST_F(FailoverTest, ACutLinkResynchronises) {
  Client m = topology_->ConnectMaster();
  Client r = topology_->ConnectReplica(0);
  ASSERT_EQ(m({"SET", "before", "1"}), Status("OK"));
  ASSERT_EQ(m({"WAIT", "1", "5000"}), Int(1));
  int64_t full = StatsField(m, "sync_full");
  int64_t partial = StatsField(m, "sync_partial_ok");
  topology_->CutReplication();
  ASSERT_TRUE(Eventually([&] { return InfoField(r, "master_link_status") == "down"; }));
  ASSERT_EQ(m({"SET", "during", "1"}), Status("OK"));
  EXPECT_EQ(m({"WAIT", "1", "50"}), Int(0));
  EXPECT_EQ(r({"GET", "during"}), Nil());
  topology_->HealReplication();
  EXPECT_TRUE(Eventually(
      [&] {
        return r({"GET", "during"}) == Bulk("1");
      },
      std::chrono::seconds(10)));
  EXPECT_EQ(InfoField(r, "master_link_status"), "up");
  EXPECT_EQ(r({"GET", "before"}), Bulk("1"));
  EXPECT_EQ(m({"WAIT", "1", "5000"}), Int(1));
  // A short break: the replica continued from the master's backlog (+CONTINUE), no snapshot.
  EXPECT_EQ(StatsField(m, "sync_partial_ok"), partial + 1);
  EXPECT_EQ(StatsField(m, "sync_full"), full);
}

TEST_F(FailoverTest, MinReplicasToWriteRefusesWritesWithoutGoodReplicas) {
  Client m = topology_->ConnectMaster();
  ASSERT_EQ(m({"CONFIG", "SET", "min-replicas-to-write", "2"}), Status("OK"));
  EXPECT_EQ(m({"SET", "k", "v"}), Error("NOREPLICAS Not enough good replicas to write."));
  EXPECT_EQ(m({"MULTI"}), Status("OK"));
  EXPECT_EQ(m({"SET", "k", "v"}), Error("NOREPLICAS Not enough good replicas to write."));
  EXPECT_EQ(m({"EXEC"}), Error("EXECABORT Transaction discarded because of previous errors."));
  EXPECT_EQ(m({"GET", "k"}), Nil());  // reads are fine
  ASSERT_EQ(m({"CONFIG", "SET", "min-replicas-to-write", "1"}), Status("OK"));
  EXPECT_EQ(m({"SET", "k", "v"}), Status("OK"));
  EXPECT_EQ(InfoField(m, "min_slaves_good_slaves"), "1");
  // The replica goes away: writes stop until it is back.
  topology_->CutReplication();
  EXPECT_TRUE(Eventually([&] {
    return m({"SET", "k", "w"}) == Error("NOREPLICAS Not enough good replicas to write.");
  }));
  topology_->HealReplication();
  EXPECT_TRUE(Eventually(
      [&] {
        return m({"SET", "k", "x"}) == Status("OK");
      },
      std::chrono::seconds(10)));
}

TEST_F(FailoverTest, AHeldLinkLagsUntilTheMasterRefusesWrites) {
  Client m = topology_->ConnectMaster();
  ASSERT_EQ(m({"CONFIG", "SET", "min-replicas-max-lag", "2"}), Status("OK"));
  ASSERT_EQ(m({"CONFIG", "SET", "min-replicas-to-write", "1"}), Status("OK"));
  ASSERT_EQ(m({"SET", "k", "before"}), Status("OK"));
  topology_->HoldReplication();
  // A stalled link stalls both ways: the replica's acks stop arriving, its lag grows...
  EXPECT_TRUE(Eventually([&] { return ReplicaLag(m) > 2; }, std::chrono::seconds(10)))
      << InfoField(m, "slave0");
  // ...and past min-replicas-max-lag the master refuses writes.
  EXPECT_TRUE(Eventually(
      [&] {
        return m({"SET", "k", "during"}) == Error("NOREPLICAS Not enough good replicas to write.");
      },
      std::chrono::seconds(5)));
  topology_->ReleaseReplication();
  EXPECT_TRUE(Eventually(
      [&] {
        return m({"SET", "k", "after"}) == Status("OK");
      },
      std::chrono::seconds(10)));
  EXPECT_EQ(m({"WAIT", "1", "5000"}), Int(1));
  EXPECT_LE(ReplicaLag(m), 2);
}

TEST_F(FailoverTest, ADelayedLinkDelaysTheAcknowledgementsToo) {
  Client m = topology_->ConnectMaster();
  Client r = topology_->ConnectReplica(0);
  topology_->DelayReplication(3000);
  ASSERT_EQ(m({"SET", "k", "v"}), Status("OK"));
  ASSERT_TRUE(Eventually([&] { return r({"GET", "k"}) == Bulk("v"); }, std::chrono::seconds(10)));
  // The replica has the write, but its acknowledgement is 3 s on the way back: WAIT cannot
  // count it yet.
  EXPECT_EQ(m({"WAIT", "1", "1500"}), Int(0));
  EXPECT_EQ(m({"WAIT", "1", "10000"}), Int(1));
  topology_->DelayReplication(0);
}

TEST_F(FailoverTest, TheOldMasterRejoinsAsAReplicaOfTheNewOne) {
  Client a = topology_->ConnectMaster();
  topology_->HoldReplication();
  TakeLock(a, kOwnerA);
  topology_->CrashMaster();
  topology_->Promote(0);
  Client b = topology_->ConnectMaster();
  TakeLock(b, kOwnerB);
  int old_port = topology_->RestartCrashedMaster();
  Client old(old_port);
  EXPECT_EQ(old({"DBSIZE"}), Int(0));  // restarted without persistence: A's lock is gone for good
  ASSERT_EQ(old({"REPLICAOF", "127.0.0.1", std::to_string(topology_->master_port())}),
            Status("OK"));
  EXPECT_TRUE(Eventually(
      [&] {
        return old({"HGET", kLock, kOwnerB}) == Bulk("1");
      },
      std::chrono::seconds(10)));
  EXPECT_EQ(old({"HGET", kLock, kOwnerA}), Nil());
  EXPECT_EQ(b({"WAIT", "1", "5000"}), Int(1));
}

TEST_F(FailoverTest, FailoverHandsTheMasterRoleToTheReplica) {
  Client m = topology_->ConnectMaster();
  ASSERT_EQ(m({"SET", "k", "v"}), Status("OK"));
  ASSERT_EQ(m({"WAIT", "1", "5000"}), Int(1));
  int replica = topology_->replica_port(0);
  EXPECT_EQ(m({"FAILOVER", "TO", "127.0.0.1", "1"}),
            Error("ERR FAILOVER target HOST and PORT is not a replica."));
  EXPECT_EQ(m({"FAILOVER", "FORCE"}),
            Error("ERR FAILOVER with force option requires both a timeout and target HOST and "
                  "IP."));
  ASSERT_EQ(m({"FAILOVER", "TO", "127.0.0.1", std::to_string(replica), "TIMEOUT", "5000"}),
            Status("OK"));
  Client r(replica);
  EXPECT_TRUE(Eventually([&] { return r({"ROLE"}).elements.at(0) == Bulk("master"); },
                         std::chrono::seconds(10)));
  EXPECT_TRUE(Eventually(
      [&] {
        Reply role = m({"ROLE"});
        return role.elements.at(0) == Bulk("slave") && role.elements.at(3) == Bulk("connected");
      },
      std::chrono::seconds(10)));
  EXPECT_EQ(InfoField(m, "master_failover_state"), "no-failover");
  EXPECT_EQ(InfoField(m, "master_port"), std::to_string(replica));
  EXPECT_EQ(r({"GET", "k"}), Bulk("v"));
  // Writes go to the new master and flow back to the old one.
  ASSERT_EQ(r({"SET", "k", "w"}), Status("OK"));
  EXPECT_EQ(r({"WAIT", "1", "5000"}), Int(1));
  EXPECT_EQ(m({"GET", "k"}), Bulk("w"));
  EXPECT_EQ(m({"SET", "k", "x"}), Error("READONLY You can't write against a read only replica."));
}

TEST_F(FailoverTest, AClockJumpExpiresTheLockEarly) {
  if (!topology_->SupportsClockFaults()) {
    GTEST_SKIP() << "real redis-server's clock cannot be moved from a test: FAULT CLOCK is "
                    "redlab's";
  }
  Client a = topology_->ConnectMaster();
  TakeLock(a, kOwnerA);
  ASSERT_EQ(a({"WAIT", "1", "5000"}), Int(1));
  // The master's clock leaps past the 30 s lease: A still works under the lock, but it is gone.
  topology_->JumpClock(topology_->master_port(), 31000);
  EXPECT_FALSE(LockHeld(a));
  Client r = topology_->ConnectReplica(0);
  EXPECT_TRUE(Eventually([&] { return r({"DBSIZE"}) == Int(0); }));  // the master's DEL arrived
  Client b = topology_->ConnectMaster();
  TakeLock(b, kOwnerB);
  EXPECT_EQ(b({"HGET", kLock, kOwnerB}), Bulk("1"));
}

}  // namespace
}  // namespace redlab::conformance
