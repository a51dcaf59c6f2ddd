// The reentrant lock's scripts of lua/ (and the spin lock's releases), run by EVAL exactly as
// the client sends them: their replies, the keys they leave (types, fields, TTLs) and what they
// publish, identical on embedded redlab and real redis-server.
#include "conformance/lock_family_support.h"
#include "conformance/lock_support.h"

namespace redlab::conformance {
namespace {

class LockScriptsTest : public LockFamilyTest {
 protected:
  Reply Acquire(const std::string& name, const std::string& lease, const std::string& owner) {
    return Run("lock_acquire", {name}, {lease, owner});
  }
  Reply Release(const std::string& name, const std::string& request, const std::string& owner,
                const std::string& lease = "30000", const std::string& latch_ms = "5000") {
    return Run("lock_release",
               {name, ChannelOf(name), "redisson_unlock_latch:{" + name + "}:" + request},
               {"0", lease, owner, "PUBLISH", latch_ms});
  }
  // PTTL within (0, limit].
  bool TtlWithin(const std::string& key, int64_t limit) {
    int64_t t = c()({"PTTL", key}).integer;
    return t > 0 && t <= limit;
  }
};

TEST_F(LockScriptsTest, AcquireFirstReentrantAndContended) {
  EXPECT_EQ(Acquire("l", "30000", "u:1"), Nil());
  EXPECT_EQ(c()({"HGETALL", "l"}), Array({Bulk("u:1"), Bulk("1")}));
  EXPECT_TRUE(TtlWithin("l", 30000));
  EXPECT_EQ(Acquire("l", "60000", "u:1"), Nil());
  EXPECT_EQ(c()({"HGET", "l", "u:1"}), Bulk("2"));
  EXPECT_GT(c()({"PTTL", "l"}).integer, 30000);  // the lease restarted with the new value
  Reply ttl = Acquire("l", "30000", "u:2");
  ASSERT_EQ(ttl.type, Reply::Type::kInteger);
  EXPECT_GT(ttl.integer, 30000);
  EXPECT_LE(ttl.integer, 60000);
  EXPECT_EQ(c()({"HLEN", "l"}), Int(1));
  c()({"PERSIST", "l"});
  EXPECT_EQ(Acquire("l", "30000", "u:2"), Int(-1));  // a holder without expiry
}

TEST_F(LockScriptsTest, ReleaseCountsDownPublishesOnceAndLatches) {
  Client sub = Connect();
  sub.SendCommand({"SUBSCRIBE", ChannelOf("l")});
  sub.Read();
  Acquire("l", "30000", "u:1");
  Acquire("l", "30000", "u:1");
  EXPECT_EQ(Release("l", "r1", "u:1", "10000"), Int(0));
  EXPECT_EQ(c()({"HGET", "l", "u:1"}), Bulk("1"));
  EXPECT_TRUE(TtlWithin("l", 10000));  // restarted with the given lease
  EXPECT_EQ(c()({"GET", "redisson_unlock_latch:{l}:r1"}), Bulk("0"));
  EXPECT_TRUE(TtlWithin("redisson_unlock_latch:{l}:r1", 5000));
  // The same request again answers the same, changing nothing.
  EXPECT_EQ(Release("l", "r1", "u:1"), Int(0));
  EXPECT_EQ(c()({"HGET", "l", "u:1"}), Bulk("1"));
  EXPECT_EQ(Release("l", "r2", "u:1"), Int(1));
  EXPECT_EQ(c()({"EXISTS", "l"}), Int(0));
  EXPECT_EQ(c()({"GET", "redisson_unlock_latch:{l}:r2"}), Bulk("1"));
  EXPECT_EQ(sub.Read(), Array({Bulk("message"), Bulk(ChannelOf("l")), Bulk("0")}));
  // A retried r2 finds its latch: 1 again, no second message; a new request is refused.
  EXPECT_EQ(Release("l", "r2", "u:1"), Int(1));
  EXPECT_EQ(Release("l", "r3", "u:1"), Nil());
  EXPECT_EQ(c()({"EXISTS", "redisson_unlock_latch:{l}:r3"}), Int(0));
  EXPECT_EQ(c()({"PUBLISH", ChannelOf("l"), "end"}), Int(1));
  EXPECT_EQ(sub.Read(), Array({Bulk("message"), Bulk(ChannelOf("l")), Bulk("end")}));
}

TEST_F(LockScriptsTest, ReleaseByNonHolderChangesNothing) {
  Acquire("l", "30000", "u:1");
  EXPECT_EQ(Release("l", "r1", "u:2"), Nil());
  EXPECT_EQ(c()({"HGETALL", "l"}), Array({Bulk("u:1"), Bulk("1")}));
  EXPECT_EQ(c()({"EXISTS", "redisson_unlock_latch:{l}:r1"}), Int(0));
}

TEST_F(LockScriptsTest, RenewManyLocksInOneCall) {
  Acquire("a", "1000", "u:1");
  Acquire("b", "1000", "u:2");
  c()({"HSET", "c", "other:9", "1"});
  Reply r = Run("lock_renew", {"a", "b", "c", "missing"}, {"60000", "u:1", "u:1", "u:1", "u:1"});
  EXPECT_EQ(r, Array({Int(1), Int(0), Int(0), Int(0)}));
  EXPECT_GT(c()({"PTTL", "a"}).integer, 1000);
  EXPECT_TRUE(TtlWithin("b", 1000));
  EXPECT_EQ(c()({"PTTL", "c"}), Int(-1));
  EXPECT_EQ(c()({"EXISTS", "missing"}), Int(0));
  EXPECT_EQ(Run("lock_renew", {}, {"60000"}), Array({}));
}

TEST_F(LockScriptsTest, ForceReleaseDeletesAndPublishes) {
  Client sub = Connect();
  sub.SendCommand({"SUBSCRIBE", ChannelOf("l")});
  sub.Read();
  Acquire("l", "30000", "u:1");
  EXPECT_EQ(Run("lock_force_release", {"l", ChannelOf("l")}, {"0", "PUBLISH"}), Int(1));
  EXPECT_EQ(c()({"EXISTS", "l"}), Int(0));
  EXPECT_EQ(sub.Read(), Array({Bulk("message"), Bulk(ChannelOf("l")), Bulk("0")}));
  EXPECT_EQ(Run("lock_force_release", {"l", ChannelOf("l")}, {"0", "PUBLISH"}), Int(0));
  EXPECT_EQ(c()({"PUBLISH", ChannelOf("l"), "end"}), Int(1));
  EXPECT_EQ(sub.Read(), Array({Bulk("message"), Bulk(ChannelOf("l")), Bulk("end")}));
}

TEST_F(LockScriptsTest, SpinReleaseCountsDownAndLatchesWithoutPublishing) {
  // RedissonSpinLock's unlockInnerAsync: KEYS = lock, latch; ARGV = lease, owner, latch TTL.
  Listener listener = Listen({ChannelOf("s")});
  auto release = [&](const std::string& request, const std::string& owner) {
    return Run("spin_lock_release", {"s", "redisson_unlock_latch:{s}:" + request},
               {"10000", owner, "5000"});
  };
  Acquire("s", "30000", "u:1");
  Acquire("s", "30000", "u:1");
  EXPECT_EQ(release("r1", "u:2"), Nil());
  EXPECT_EQ(c()({"EXISTS", "redisson_unlock_latch:{s}:r1"}), Int(0));
  EXPECT_EQ(release("r1", "u:1"), Int(0));
  EXPECT_EQ(c()({"HGETALL", "s"}), Array({Bulk("u:1"), Bulk("1")}));
  EXPECT_TRUE(TtlWithin("s", 10000));
  EXPECT_EQ(c()({"GET", "redisson_unlock_latch:{s}:r1"}), Bulk("0"));
  EXPECT_TRUE(TtlWithin("redisson_unlock_latch:{s}:r1", 5000));
  EXPECT_EQ(release("r1", "u:1"), Int(0));  // a retry: the latch answers
  EXPECT_EQ(c()({"HGET", "s", "u:1"}), Bulk("1"));
  EXPECT_EQ(release("r2", "u:1"), Int(1));
  EXPECT_EQ(c()({"EXISTS", "s"}), Int(0));
  EXPECT_EQ(c()({"GET", "redisson_unlock_latch:{s}:r2"}), Bulk("1"));
  EXPECT_EQ(release("r2", "u:1"), Int(1));
  EXPECT_EQ(release("r3", "u:1"), Nil());
  EXPECT_EQ(listener.Received(c()), std::vector<Listener::Message>{});
}

TEST_F(LockScriptsTest, SpinForceReleaseDeletesWithoutPublishing) {
  Listener listener = Listen({ChannelOf("s")});
  Acquire("s", "30000", "u:1");
  EXPECT_EQ(Run("spin_lock_force_release", {"s"}, {}), Int(1));
  EXPECT_EQ(c()({"EXISTS", "s"}), Int(0));
  EXPECT_EQ(Run("spin_lock_force_release", {"s"}, {}), Int(0));
  EXPECT_EQ(listener.Received(c()), std::vector<Listener::Message>{});
}

}  // namespace
}  // namespace redlab::conformance
