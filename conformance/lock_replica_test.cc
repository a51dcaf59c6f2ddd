// Replica sync of lock writes: with replicas configured, each lock write is followed by WAIT on
// the same connection; when replication is held and no replica acknowledges, an acquisition is
// taken back and NoSyncedReplicas thrown (check_lock_synced_slaves).
//
// On real Redis, a master + replica of redis-server processes, replication held by a TCP proxy
// on the replica's link (the master keeps counting the replica as connected); on redlab, two
// nodes joined by REPLICAOF, replication held by FAULT REPL PAUSE. A redlab without replication
// yet (REPLICAOF unknown) skips, saying so.
#include <future>

#include "conformance/lock_support.h"

namespace redlab::conformance {
namespace {

using std::chrono::milliseconds;

class LockReplicaTest : public ::testing::Test {
 protected:
  void SetUp() override {
    try {
      pair_ = ReplicaPair::Start();
    } catch (const ReplicaPair::Unsupported& e) {
      GTEST_SKIP() << e.what();
    }
  }

  Config ReplicaConfig() {
    Config config =
        Config::MasterReplica("redis://127.0.0.1:" + std::to_string(pair_->master_port()),
                              {"redis://127.0.0.1:" + std::to_string(pair_->replica_port())});
    Config quick = TestConfig(pair_->master_port());
    config.connect_timeout = quick.connect_timeout;
    config.timeout = quick.timeout;
    config.retry_interval = quick.retry_interval;
    config.slaves_sync_timeout = milliseconds(200);
    return config;
  }

  std::unique_ptr<ReplicaPair> pair_;
};

TEST_F(LockReplicaTest, LockWritesAreOnTheReplicaWhenTheyReturn) {
  redlab::Client client(ReplicaConfig());
  redlab::Lock lock = client.GetLock("synced");
  lock.Lock();
  Client replica(pair_->replica_port());
  // WAIT returned before Lock did: the replica already has the hold (no polling needed).
  EXPECT_EQ(replica({"HGETALL", "synced"}), Array({Bulk(lock.OwnerId()), Bulk("1")}));
  lock.Lock();
  EXPECT_EQ(replica({"HGET", "synced", lock.OwnerId()}), Bulk("2"));
  lock.Unlock();
  EXPECT_EQ(replica({"HGET", "synced", lock.OwnerId()}), Bulk("1"));
  lock.Unlock();
  EXPECT_EQ(replica({"EXISTS", "synced"}), Int(0));
  Client master(pair_->master_port());
  std::string stats = master({"INFO", "commandstats"}).str;
  EXPECT_NE(stats.find("cmdstat_wait:calls=4,"), std::string::npos) << stats;
}

TEST_F(LockReplicaTest, HeldReplicationFailsTheAcquisitionAndTakesItBack) {
  redlab::Client client(ReplicaConfig());
  redlab::Lock lock = client.GetLock("unsynced");
  pair_->HoldReplication();
  try {
    lock.Lock();
    FAIL() << "Lock succeeded though no replica acknowledged it";
  } catch (const NoSyncedReplicas& e) {
    EXPECT_NE(std::string(e.what()).find("unsynced"), std::string::npos) << e.what();
  }
  Client master(pair_->master_port());
  EXPECT_EQ(master({"EXISTS", "unsynced"}), Int(0));  // released again on the master
  EXPECT_EQ(client.WatchedLocks(), 0u);
  EXPECT_THROW(lock.TryLock(), NoSyncedReplicas);
  EXPECT_EQ(master({"EXISTS", "unsynced"}), Int(0));
}

TEST_F(LockReplicaTest, AnUnsyncedReentryLeavesTheFirstHoldAsItWas) {
  redlab::Client client(ReplicaConfig());
  redlab::Lock lock = client.GetLock("reentry");
  lock.Lock();
  pair_->HoldReplication();
  EXPECT_THROW(lock.Lock(), NoSyncedReplicas);
  pair_->ResumeReplication();
  // The second hold was taken back; the first is still held and still watched.
  EXPECT_EQ(lock.GetHoldCount(), 1);
  EXPECT_EQ(client.WatchedLocks(), 1u);
  lock.Unlock();
  EXPECT_EQ(client.WatchedLocks(), 0u);
}

TEST_F(LockReplicaTest, HeldReplicationFailsAReleaseThatStillHappened) {
  redlab::Client client(ReplicaConfig());
  redlab::Lock lock = client.GetLock("release-unsynced");
  lock.Lock();
  pair_->HoldReplication();
  EXPECT_THROW(lock.Unlock(), NoSyncedReplicas);
  Client master(pair_->master_port());
  EXPECT_EQ(master({"EXISTS", "release-unsynced"}), Int(0));
  pair_->ResumeReplication();
  Client replica(pair_->replica_port());
  EXPECT_TRUE(Eventually([&] { return replica({"EXISTS", "release-unsynced"}) == Int(0); }));
}

TEST_F(LockReplicaTest, WithoutTheCheckAnUnsyncedLockIsKept) {
  Config config = ReplicaConfig();
  config.check_lock_synced_slaves = false;
  redlab::Client client(config);
  redlab::Lock lock = client.GetLock("unchecked");
  pair_->HoldReplication();
  lock.Lock();
  EXPECT_TRUE(lock.IsHeldByCurrentThread());
  lock.Unlock();
}

TEST_F(LockReplicaTest, ReplicaCountComesFromInfo) {
  redlab::Client client(ReplicaConfig());
  redlab::Lock lock = client.GetLock("alone");
  // The replica left: connected_slaves is 0, so there is nothing to WAIT for.
  pair_->DetachReplica();
  lock.Lock();
  lock.Unlock();
  Client master(pair_->master_port());
  EXPECT_EQ(master({"INFO", "commandstats"}).str.find("cmdstat_wait:"), std::string::npos);
}

}  // namespace
}  // namespace redlab::conformance
