// Sharing locks with Redisson: a peer that runs Redisson's own scripts (as the seed articles
// quote them) and subscribes to its channel, against the redlab client, in both directions;
// and the client's own calls, read back from SLOWLOG, carrying Redisson's arguments. On
// embedded redlab and real redis-server.
#include <algorithm>
#include <future>
#include <regex>

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

TEST_F(LockInteropTest, OurAcquireAndReleaseCarryRedissonsArguments) {
  auto client = NewClient();
  redlab::Lock lock = client->GetLock("wire");
  ASSERT_EQ(c()({"CONFIG", "SET", "slowlog-log-slower-than", "0"}), Status("OK"));
  ASSERT_EQ(c()({"SLOWLOG", "RESET"}), Status("OK"));
  lock.Lock(milliseconds(20000));
  lock.Unlock();
  std::vector<std::vector<std::string>> evals = LoggedEvals(c(), "wire");
  ASSERT_EQ(evals.size(), 2u) << c()({"SLOWLOG", "GET", "-1"});
  // tryLockInnerAsync: KEYS = name; ARGV = lease, owner.
  EXPECT_EQ(std::vector<std::string>(evals[0].begin() + 2, evals[0].end()),
            (std::vector<std::string>{"1", "wire", "20000", lock.OwnerId()}));
  // unlockInnerAsync: KEYS = name, channel, latch; ARGV = "0", lease, owner, "PUBLISH" (the
  // name of Redisson's RedisCommands.PUBLISH), the latch's TTL: (timeout + retry delay) x
  // retry attempts = (2000 + 50) x 4.
  const std::vector<std::string>& release = evals[1];
  ASSERT_EQ(release.size(), 11u);
  EXPECT_EQ(release[2], "3");
  EXPECT_EQ(release[4], ChannelOf("wire"));
  static const std::regex kLatch(R"(redisson_unlock_latch:\{wire\}:[0-9a-f]{32})");
  EXPECT_TRUE(std::regex_match(release[5], kLatch)) << release[5];
  EXPECT_EQ(std::vector<std::string>(release.begin() + 6, release.end()),
            (std::vector<std::string>{"0", release[7], lock.OwnerId(), "PUBLISH", "8200"}));
  // Once answered, the latch is deleted by a DEL of its own, as RedissonBaseLock does.
  EXPECT_TRUE(Eventually([&] { return c()({"EXISTS", release[5]}) == Int(0); }));
  bool deleted = false;
  Reply log = c()({"SLOWLOG", "GET", "-1"});
  for (const Reply& e : log.elements) {
    const Reply& args = e.elements.at(3);
    if (args.elements.size() == 2 && args.elements[0].str == "DEL" &&
        args.elements[1].str == release[5]) {
      deleted = true;
    }
  }
  EXPECT_TRUE(deleted) << log;
  ASSERT_EQ(c()({"CONFIG", "SET", "slowlog-log-slower-than", "10000"}), Status("OK"));
}

}  // namespace
}  // namespace redlab::conformance
