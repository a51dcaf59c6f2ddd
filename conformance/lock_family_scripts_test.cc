// The fenced lock's, the semaphore's and the count-down latch's scripts of lua/, run by EVAL as
// the client sends them: exact replies, the keys they leave (types, values, TTLs) and what they
// publish, identical on embedded redlab and real redis-server.
#include "client/script.h"
#include "conformance/lock_family_support.h"
#include "lua/scripts.h"

namespace redlab::conformance {
namespace {

class FencedLockScriptsTest : public LockFamilyTest {
 protected:
  const std::string token_ = Prefixed("redisson_lock_token", "l");
  Reply Acquire(const std::string& lease, const std::string& owner) {
    return Run("fenced_lock_acquire", {"l", token_}, {lease, owner});
  }
  Reply Release(const std::string& request, const std::string& owner) {
    return Run("lock_release",
               {"l", Prefixed("redisson_lock__channel", "l"),
                Prefixed("redisson_unlock_latch", "l") + ":" + request},
               {"0", "30000", owner, "PUBLISH", "5000"});
  }
};

TEST_F(FencedLockScriptsTest, EveryAcquisitionDrawsTheNextToken) {
  EXPECT_EQ(Acquire("30000", "u:1"), Array({Int(-1), Int(1)}));
  EXPECT_TRUE(KeyIs(c(), "l", HashKey({"u:1", "1"}, 30000)));
  EXPECT_TRUE(KeyIs(c(), token_, StringKey("1")));
  // A re-entry is an acquisition too: a new token, and the lease restarts.
  EXPECT_EQ(Acquire("60000", "u:1"), Array({Int(-1), Int(2)}));
  EXPECT_TRUE(KeyIs(c(), "l", HashKey({"u:1", "2"}, 60000)));
  EXPECT_TRUE(KeyIs(c(), token_, StringKey("2")));
  EXPECT_EQ(AllKeys(c()), (std::vector<std::string>{"l", token_}));
}

TEST_F(FencedLockScriptsTest, ContenderGetsTheHoldersTtlAndNoToken) {
  Acquire("60000", "u:1");
  Reply r = Acquire("30000", "u:2");
  ASSERT_EQ(r.type, Reply::Type::kArray);
  ASSERT_EQ(r.elements.size(), 2u);
  EXPECT_EQ(r.elements[0].type, Reply::Type::kInteger);
  EXPECT_GT(r.elements[0].integer, 59000);
  EXPECT_LE(r.elements[0].integer, 60000);
  EXPECT_EQ(r.elements[1], Int(-1));
  EXPECT_TRUE(KeyIs(c(), "l", HashKey({"u:1", "1"}, 60000)));
  EXPECT_TRUE(KeyIs(c(), token_, StringKey("1")));
  // As in Redisson, a holder without expiry answers {-1, -1}: only the -1 token says "held".
  c()({"PERSIST", "l"});
  EXPECT_EQ(Acquire("30000", "u:2"), Array({Int(-1), Int(-1)}));
  EXPECT_TRUE(KeyIs(c(), token_, StringKey("1")));
}

TEST_F(FencedLockScriptsTest, TokensKeepGrowingAcrossHolders) {
  Acquire("30000", "u:1");
  Acquire("30000", "u:1");
  EXPECT_EQ(Release("r1", "u:1"), Int(0));
  EXPECT_EQ(Release("r2", "u:1"), Int(1));
  EXPECT_TRUE(KeyIs(c(), "l", NoKey()));
  EXPECT_TRUE(KeyIs(c(), token_, StringKey("2")));  // the counter outlives the lock
  EXPECT_EQ(Acquire("30000", "u:2"), Array({Int(-1), Int(3)}));
  EXPECT_TRUE(KeyIs(c(), "l", HashKey({"u:2", "1"}, 30000)));
}

TEST_F(FencedLockScriptsTest, ExpiredHolderIsReplacedWithAHigherToken) {
  EXPECT_EQ(Acquire("30", "u:1"), Array({Int(-1), Int(1)}));
  ASSERT_TRUE(Eventually([&] { return c()({"EXISTS", "l"}) == Int(0); }));
  EXPECT_EQ(Acquire("30000", "u:2"), Array({Int(-1), Int(2)}));
  EXPECT_TRUE(KeyIs(c(), "l", HashKey({"u:2", "1"}, 30000)));
  EXPECT_TRUE(KeyIs(c(), token_, StringKey("2")));
}

TEST_F(FencedLockScriptsTest, CounterIsAnOrdinaryInteger) {
  c()({"SET", token_, "41"});
  EXPECT_EQ(Acquire("30000", "u:1"), Array({Int(-1), Int(42)}));
  // A counter that is not an integer fails the script before it takes the lock.
  c()({"DEL", "l"});
  c()({"SET", token_, "abc"});
  std::string sha = client::Sha1Hex(lua::ScriptText("fenced_lock_acquire"));
  // Line 13 of lua/fenced_lock_acquire.lua: the INCR of the counter.
  EXPECT_EQ(Acquire("30000", "u:1"), Error("ERR value is not an integer or out of range script: " +
                                           sha + ", on @user_script:13."));
  EXPECT_TRUE(KeyIs(c(), "l", NoKey()));
  EXPECT_TRUE(KeyIs(c(), token_, StringKey("abc")));
}

class SemaphoreScriptsTest : public LockFamilyTest {
 protected:
  const std::string channel_ = Prefixed("redisson_sc", "s");
  Reply TrySet(const std::string& permits) {
    return Run("semaphore_try_set_permits", {"s", channel_}, {permits, "PUBLISH"});
  }
  Reply Acquire(const std::string& permits, const std::string& name = "s") {
    return Run("semaphore_acquire", {name}, {permits});
  }
  Reply Release(const std::string& permits, const std::string& name = "s") {
    return Run("semaphore_release", {name, Prefixed("redisson_sc", name)}, {permits, "PUBLISH"});
  }
};

TEST_F(SemaphoreScriptsTest, PermitsAreSetOnceAndAnnounced) {
  Listener listener = Listen({channel_});
  EXPECT_EQ(TrySet("3"), Int(1));
  EXPECT_TRUE(KeyIs(c(), "s", StringKey("3")));
  EXPECT_EQ(TrySet("5"), Int(0));
  EXPECT_TRUE(KeyIs(c(), "s", StringKey("3")));
  EXPECT_EQ(listener.Received(c()), (std::vector<Listener::Message>{{channel_, "3"}}));
  // Set even when all permits were taken: "0" is a value.
  c()({"SET", "s", "0"});
  EXPECT_EQ(TrySet("5"), Int(0));
  EXPECT_TRUE(listener.Received(c()).empty());
}

TEST_F(SemaphoreScriptsTest, AcquireTakesAllOrNothing) {
  TrySet("3");
  EXPECT_EQ(Acquire("2"), Int(1));
  EXPECT_TRUE(KeyIs(c(), "s", StringKey("1")));
  EXPECT_EQ(Acquire("2"), Int(0));
  EXPECT_TRUE(KeyIs(c(), "s", StringKey("1")));
  EXPECT_EQ(Acquire("1"), Int(1));
  EXPECT_EQ(Acquire("1"), Int(0));
  EXPECT_TRUE(KeyIs(c(), "s", StringKey("0")));  // an empty semaphore stays, at zero
}

TEST_F(SemaphoreScriptsTest, AcquireOnUnsetSemaphoreCreatesNothing) {
  EXPECT_EQ(Acquire("1", "none"), Int(0));
  EXPECT_TRUE(AllKeys(c()).empty());
}

TEST_F(SemaphoreScriptsTest, ReleaseAnnouncesTheFreePermits) {
  Listener listener = Listen({channel_, Prefixed("redisson_sc", "fresh")});
  TrySet("1");
  Acquire("1");
  EXPECT_EQ(Release("2"), Nil());
  EXPECT_TRUE(KeyIs(c(), "s", StringKey("2")));  // anyone may release, even past the start
  EXPECT_EQ(Release("1"), Nil());
  EXPECT_TRUE(KeyIs(c(), "s", StringKey("3")));
  // Releasing into a semaphore never set creates it.
  EXPECT_EQ(Release("4", "fresh"), Nil());
  EXPECT_TRUE(KeyIs(c(), "fresh", StringKey("4")));
  EXPECT_EQ(listener.Received(c()),
            (std::vector<Listener::Message>{{channel_, "1"},
                                            {channel_, "2"},
                                            {channel_, "3"},
                                            {Prefixed("redisson_sc", "fresh"), "4"}}));
}

TEST_F(SemaphoreScriptsTest, PermitsKeepTheirTtlThroughAcquireAndRelease) {
  TrySet("2");
  c()({"PEXPIRE", "s", "60000"});
  EXPECT_EQ(Acquire("1"), Int(1));
  EXPECT_TRUE(KeyIs(c(), "s", StringKey("1", 60000)));
  EXPECT_EQ(Release("1"), Nil());
  EXPECT_TRUE(KeyIs(c(), "s", StringKey("2", 60000)));
}

TEST_F(SemaphoreScriptsTest, ContendedPermitsGoToWhoeverAsksFirst) {
  TrySet("2");
  Client other = Connect();
  EXPECT_EQ(Acquire("1"), Int(1));
  std::vector<std::string> cmd{"EVAL", std::string(lua::ScriptText("semaphore_acquire")), "1", "s",
                               "2"};
  EXPECT_EQ(other.Call(cmd), Int(0));  // one left, two wanted
  cmd.back() = "1";
  EXPECT_EQ(other.Call(cmd), Int(1));
  EXPECT_EQ(Acquire("1"), Int(0));
  EXPECT_TRUE(KeyIs(c(), "s", StringKey("0")));
}

TEST_F(SemaphoreScriptsTest, TrySetPermitsWithATimeToLive) {
  Listener listener = Listen({channel_});
  EXPECT_EQ(Run("semaphore_try_set_permits_ttl", {"s", channel_}, {"4", "PUBLISH", "60000"}),
            Int(1));
  EXPECT_TRUE(KeyIs(c(), "s", StringKey("4", 60000)));
  EXPECT_EQ(Run("semaphore_try_set_permits_ttl", {"s", channel_}, {"9", "PUBLISH", "1000"}),
            Int(0));
  EXPECT_TRUE(KeyIs(c(), "s", StringKey("4", 60000)));
  EXPECT_EQ(listener.Received(c()), (std::vector<Listener::Message>{{channel_, "4"}}));
}

TEST_F(SemaphoreScriptsTest, ReleaseIfExistsCreatesNothing) {
  Listener listener = Listen({channel_});
  EXPECT_EQ(Run("semaphore_release_if_exists", {"s", channel_}, {"2", "PUBLISH"}), Int(0));
  EXPECT_TRUE(AllKeys(c()).empty());
  TrySet("1");
  EXPECT_EQ(Run("semaphore_release_if_exists", {"s", channel_}, {"2", "PUBLISH"}), Int(1));
  EXPECT_TRUE(KeyIs(c(), "s", StringKey("3")));
  EXPECT_EQ(listener.Received(c()),
            (std::vector<Listener::Message>{{channel_, "1"}, {channel_, "3"}}));
}

TEST_F(SemaphoreScriptsTest, DrainTakesEveryFreePermit) {
  EXPECT_EQ(Run("semaphore_drain_permits", {"s"}, {}), Int(0));
  EXPECT_TRUE(AllKeys(c()).empty());
  EXPECT_EQ(Run("semaphore_try_set_permits_ttl", {"s", channel_}, {"5", "PUBLISH", "60000"}),
            Int(1));
  // The count comes back as GET gave it (a bulk string); SET drops the time to live.
  EXPECT_EQ(Run("semaphore_drain_permits", {"s"}, {}), Bulk("5"));
  EXPECT_TRUE(KeyIs(c(), "s", StringKey("0")));
  EXPECT_EQ(Run("semaphore_drain_permits", {"s"}, {}), Bulk("0"));
}

TEST_F(SemaphoreScriptsTest, AddPermitsCountsFromZeroAndMayGoNegative) {
  Listener listener = Listen({channel_});
  EXPECT_EQ(Run("semaphore_add_permits", {"s", channel_}, {"2", "PUBLISH"}), Nil());
  EXPECT_TRUE(KeyIs(c(), "s", StringKey("2")));
  EXPECT_EQ(Run("semaphore_add_permits", {"s", channel_}, {"-5", "PUBLISH"}), Nil());
  EXPECT_TRUE(KeyIs(c(), "s", StringKey("-3")));
  EXPECT_EQ(listener.Received(c()),
            (std::vector<Listener::Message>{{channel_, "2"}, {channel_, "-3"}}));
}

class CountDownLatchScriptsTest : public LockFamilyTest {
 protected:
  // Redisson always adds the braces here, even to a name that has some.
  static std::string ChannelOf(const std::string& name) {
    return "redisson_countdownlatch__channel__{" + name + "}";
  }
  Reply TrySetCount(const std::string& count, const std::string& name = "d") {
    return Run("countdown_latch_try_set_count", {name, ChannelOf(name)}, {"1", count, "PUBLISH"});
  }
  Reply CountDown(const std::string& name = "d") {
    return Run("countdown_latch_count_down", {name, ChannelOf(name)}, {"0", "PUBLISH"});
  }
};

TEST_F(CountDownLatchScriptsTest, CountIsSetOnceAndAnnounced) {
  Listener listener = Listen({ChannelOf("d")});
  EXPECT_EQ(TrySetCount("2"), Int(1));
  EXPECT_TRUE(KeyIs(c(), "d", StringKey("2")));
  EXPECT_EQ(TrySetCount("5"), Int(0));
  EXPECT_TRUE(KeyIs(c(), "d", StringKey("2")));
  EXPECT_EQ(listener.Received(c()), (std::vector<Listener::Message>{{ChannelOf("d"), "1"}}));
}

TEST_F(CountDownLatchScriptsTest, ReachingZeroDeletesAndOpens) {
  Listener listener = Listen({ChannelOf("d")});
  TrySetCount("3");
  EXPECT_EQ(CountDown(), Nil());
  EXPECT_TRUE(KeyIs(c(), "d", StringKey("2")));
  EXPECT_EQ(CountDown(), Nil());
  EXPECT_TRUE(KeyIs(c(), "d", StringKey("1")));
  EXPECT_EQ(CountDown(), Nil());
  EXPECT_TRUE(AllKeys(c()).empty());
  EXPECT_EQ(listener.Received(c()),
            (std::vector<Listener::Message>{{ChannelOf("d"), "1"}, {ChannelOf("d"), "0"}}));
  // Past zero: the -1 made is deleted, and no one is told again.
  EXPECT_EQ(CountDown(), Nil());
  EXPECT_TRUE(AllKeys(c()).empty());
  EXPECT_TRUE(listener.Received(c()).empty());
  // A latch that reached zero can count again.
  EXPECT_EQ(TrySetCount("1"), Int(1));
  EXPECT_EQ(CountDown(), Nil());
  EXPECT_EQ(listener.Received(c()),
            (std::vector<Listener::Message>{{ChannelOf("d"), "1"}, {ChannelOf("d"), "0"}}));
}

TEST_F(CountDownLatchScriptsTest, DeleteAnnouncesANewCount) {
  Listener listener = Listen({ChannelOf("d")});
  auto del = [&] { return Run("countdown_latch_delete", {"d", ChannelOf("d")}, {"1", "PUBLISH"}); };
  EXPECT_EQ(del(), Int(0));
  TrySetCount("2");
  EXPECT_EQ(del(), Int(1));
  EXPECT_TRUE(AllKeys(c()).empty());
  EXPECT_EQ(listener.Received(c()),
            (std::vector<Listener::Message>{{ChannelOf("d"), "1"}, {ChannelOf("d"), "1"}}));
}

TEST_F(CountDownLatchScriptsTest, CountSetBelowOneIsDeletedAtTheFirstCountDown) {
  Listener listener = Listen({ChannelOf("d")});
  c()({"SET", "d", "-3"});
  EXPECT_EQ(CountDown(), Nil());
  EXPECT_TRUE(KeyIs(c(), "d", NoKey()));
  EXPECT_TRUE(listener.Received(c()).empty());  // -4 is not zero
}

}  // namespace
}  // namespace redlab::conformance
