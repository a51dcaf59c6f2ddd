// Sharing locks with Redisson: a peer that runs Redisson's own scripts (as the seed articles
// quote them) and subscribes to its channel, against the redlab client, in both directions.
// On embedded redlab and real redis-server.
#include <future>

#include "conformance/lock_support.h"

namespace redlab::conformance {
namespace {

using std::chrono::milliseconds;

class LockInteropTest : public LockTest {
 protected:
  // The peer's calls, as RedissonLock makes them.
  Reply PeerAcquire(Client& peer, const std::string& name, const std::string& owner,
                    int64_t lease_ms = 30000) {
    return peer({"EVAL", kRedissonAcquire, "1", name, std::to_string(lease_ms), owner});
  }
  Reply PeerUnlock(Client& peer, const std::string& name, const std::string& owner) {
    return peer.Call(RedissonUnlock(name, owner));
  }
};

constexpr char kPeerOwner[] = "8a5b6f9e-0d1c-4e2f-9a3b-7c6d5e4f3a2b:57";

TEST_F(LockInteropTest, PeerHoldsThenItsUnlockMessageWakesUs) {
  Client peer = Connect();
  EXPECT_EQ(PeerAcquire(peer, "shared", kPeerOwner, 60000), Nil());
  auto client = NewClient();
  redlab::Lock lock = client->GetLock("shared");
  EXPECT_FALSE(lock.TryLock());
  EXPECT_TRUE(lock.IsLocked());
  std::future<bool> got = lock.TryLockAsync(milliseconds(20000));
  ASSERT_TRUE(Eventually([&] { return client->ParkedWaiters("shared") == 1; }));
  // Redisson's unlock publishes "0" on redisson_lock__channel:{shared}: that wakes us, long
  // before the peer's 60 s lease would have.
  EXPECT_EQ(PeerUnlock(peer, "shared", kPeerOwner), Int(1));
  EXPECT_TRUE(got.get());
  EXPECT_EQ(c()({"HGETALL", "shared"}), Array({Bulk(lock.OwnerId()), Bulk("1")}));
}

TEST_F(LockInteropTest, WeHoldThenThePeerWaitsForOurMessage) {
  auto client = NewClient();
  redlab::Lock lock = client->GetLock("ours");
  lock.Lock();
  Client peer = Connect();
  Reply ttl = PeerAcquire(peer, "ours", kPeerOwner);
  ASSERT_EQ(ttl.type, Reply::Type::kInteger);  // Redisson sees a holder and its PTTL
  EXPECT_GT(ttl.integer, 0);
  EXPECT_LE(ttl.integer, client->config().lock_watchdog_timeout.count());
  // The peer's renewal script does not renew what it does not hold; ours it recognises.
  EXPECT_EQ(peer({"EVAL", kRedissonRenew, "1", "ours", "30000", kPeerOwner}), Array({Int(0)}));
  EXPECT_EQ(peer({"EVAL", kRedissonRenew, "1", "ours", "30000", lock.OwnerId()}), Array({Int(1)}));
  // The peer subscribes as RedissonLock does, and our unlock message reaches it.
  Client sub = Connect();
  sub.SendCommand({"SUBSCRIBE", ChannelOf("ours")});
  EXPECT_EQ(sub.Read(), Array({Bulk("subscribe"), Bulk(ChannelOf("ours")), Int(1)}));
  lock.Unlock();
  EXPECT_EQ(sub.Read(), Array({Bulk("message"), Bulk(ChannelOf("ours")), Bulk("0")}));
  EXPECT_EQ(PeerAcquire(peer, "ours", kPeerOwner), Nil());
  EXPECT_FALSE(lock.TryLock());
  EXPECT_THROW(lock.Unlock(), IllegalMonitorState);  // nor can we release the peer's hold
}

TEST_F(LockInteropTest, HoldCountsAreSharedForTheSameOwner) {
  auto client = NewClient();
  redlab::Lock lock = client->GetLock("counted");
  Client peer = Connect();
  // Redisson acquiring twice for our owner id (the same field) and us agree on the count.
  EXPECT_EQ(PeerAcquire(peer, "counted", lock.OwnerId()), Nil());
  EXPECT_EQ(PeerAcquire(peer, "counted", lock.OwnerId()), Nil());
  EXPECT_EQ(lock.GetHoldCount(), 2);
  lock.Lock();
  EXPECT_EQ(c()({"HGET", "counted", lock.OwnerId()}), Bulk("3"));
  EXPECT_EQ(PeerUnlock(peer, "counted", lock.OwnerId()), Int(0));  // still held
  lock.Unlock();
  lock.Unlock();
  EXPECT_FALSE(lock.IsLocked());
}

TEST_F(LockInteropTest, PeerExpiryWithoutMessageStillLetsUsIn) {
  // A Redisson holder that crashed sends no message: the waiter retries when the TTL ends.
  Client peer = Connect();
  EXPECT_EQ(PeerAcquire(peer, "crashed", kPeerOwner, 150), Nil());
  auto client = NewClient();
  EXPECT_TRUE(client->GetLock("crashed").TryLock(milliseconds(20000)));
}

}  // namespace
}  // namespace redlab::conformance
