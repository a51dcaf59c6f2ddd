// The read/write lock's scripts of lua/ (read acquire, release and renew; write acquire and
// release), run by EVAL as the client sends them: replies, the shared hash with its mode, the
// per-read-hold timeout keys and what is published on redisson_rwlock:{name}, identical on
// embedded redlab and real redis-server.
#include "conformance/lock_family_support.h"

namespace redlab::conformance {
namespace {

class ReadWriteLockScriptsTest : public LockFamilyTest {
 protected:
  const std::string channel_ = Prefixed("redisson_rwlock", "l");

  // Redisson's per-owner prefix of read-hold timeout keys, and the prefix shared by all owners.
  static std::string TimeoutPrefix(const std::string& owner) {
    return Suffixed("l", owner) + ":rwlock_timeout";
  }
  static std::string Hold(const std::string& owner, int n) {
    return TimeoutPrefix(owner) + ":" + std::to_string(n);
  }
  std::string Latch(const std::string& request) {
    return Prefixed("redisson_unlock_latch", "l") + ":" + request;
  }

  Reply ReadAcquire(const std::string& owner, const std::string& lease = "30000") {
    return Run("read_lock_acquire", {"l", TimeoutPrefix(owner)}, {lease, owner, owner + ":write"});
  }
  Reply ReadRelease(const std::string& owner, const std::string& request) {
    return Run("read_lock_release", {"l", channel_, TimeoutPrefix(owner), "{l}", Latch(request)},
               {"0", owner, "PUBLISH", "5000"});
  }
  Reply ReadRenew(const std::string& owner, const std::string& lease) {
    return Run("read_lock_renew", {"l", "{l}"}, {lease, "1", owner});
  }
  Reply WriteAcquire(const std::string& owner, const std::string& lease = "30000") {
    return Run("write_lock_acquire", {"l"}, {lease, owner + ":write"});
  }
  Reply WriteRelease(const std::string& owner, const std::string& request,
                     const std::string& lease = "30000") {
    return Run("write_lock_release", {"l", channel_, Latch(request)},
               {"1", lease, owner + ":write", "PUBLISH", "5000"});
  }
  // A refusal: the holder's PTTL, within a second under `lease`.
  void ExpectRefused(const Reply& r, int64_t lease) {
    ASSERT_EQ(r.type, Reply::Type::kInteger) << r;
    EXPECT_GT(r.integer, lease - 1000);
    EXPECT_LE(r.integer, lease);
  }
};

TEST_F(ReadWriteLockScriptsTest, ReadersShareAndEachHoldHasATimeoutKey) {
  EXPECT_EQ(ReadAcquire("u:1"), Nil());
  EXPECT_TRUE(KeyIs(c(), "l", HashKey({"mode", "read", "u:1", "1"}, 30000)));
  EXPECT_TRUE(KeyIs(c(), Hold("u:1", 1), StringKey("1", 30000)));
  // A re-entry with a shorter lease: its own timeout key, and the hash is not shortened.
  EXPECT_EQ(ReadAcquire("u:1", "10000"), Nil());
  EXPECT_TRUE(KeyIs(c(), "l", HashKey({"mode", "read", "u:1", "2"}, 30000)));
  EXPECT_TRUE(KeyIs(c(), Hold("u:1", 2), StringKey("1", 10000)));
  // Another reader with a longer lease lengthens it.
  EXPECT_EQ(ReadAcquire("u:2", "60000"), Nil());
  EXPECT_TRUE(KeyIs(c(), "l", HashKey({"mode", "read", "u:1", "2", "u:2", "1"}, 60000)));
  EXPECT_TRUE(KeyIs(c(), Hold("u:2", 1), StringKey("1", 60000)));
  EXPECT_EQ(AllKeys(c()),
            (std::vector<std::string>{"l", Hold("u:1", 1), Hold("u:1", 2), Hold("u:2", 1)}));
}

TEST_F(ReadWriteLockScriptsTest, WriterWaitsForReadersEvenItsOwn) {
  ReadAcquire("u:1");
  ExpectRefused(WriteAcquire("u:2"), 30000);
  ExpectRefused(WriteAcquire("u:1"), 30000);  // no upgrade from read to write
  EXPECT_TRUE(KeyIs(c(), "l", HashKey({"mode", "read", "u:1", "1"}, 30000)));
}

TEST_F(ReadWriteLockScriptsTest, WriteLockIsExclusiveAndReentrant) {
  EXPECT_EQ(WriteAcquire("u:1"), Nil());
  EXPECT_TRUE(KeyIs(c(), "l", HashKey({"mode", "write", "u:1:write", "1"}, 30000)));
  // A re-entry adds its lease to what is left.
  EXPECT_EQ(WriteAcquire("u:1"), Nil());
  EXPECT_TRUE(KeyIs(c(), "l", HashKey({"mode", "write", "u:1:write", "2"}, 60000)));
  ExpectRefused(WriteAcquire("u:2"), 60000);
  ExpectRefused(ReadAcquire("u:2"), 60000);
  EXPECT_EQ(AllKeys(c()), (std::vector<std::string>{"l"}));
}

TEST_F(ReadWriteLockScriptsTest, WriterMayAlsoRead) {
  WriteAcquire("u:1", "60000");
  EXPECT_EQ(ReadAcquire("u:1"), Nil());
  EXPECT_TRUE(KeyIs(c(), "l", HashKey({"mode", "write", "u:1:write", "1", "u:1", "1"}, 60000)));
  EXPECT_TRUE(KeyIs(c(), Hold("u:1", 1), StringKey("1", 30000)));
  ExpectRefused(ReadAcquire("u:2"), 60000);
}

TEST_F(ReadWriteLockScriptsTest, WriteReleaseCountsDownThenWakesEveryone) {
  Listener listener = Listen({channel_});
  WriteAcquire("u:1");
  WriteAcquire("u:1");
  EXPECT_EQ(WriteRelease("u:2", "r0"), Nil());
  EXPECT_TRUE(KeyIs(c(), Latch("r0"), NoKey()));
  EXPECT_EQ(WriteRelease("u:1", "r1", "10000"), Int(0));
  EXPECT_TRUE(KeyIs(c(), "l", HashKey({"mode", "write", "u:1:write", "1"}, 10000)));
  EXPECT_TRUE(KeyIs(c(), Latch("r1"), StringKey("0", 5000)));
  EXPECT_EQ(WriteRelease("u:1", "r1"), Int(0));  // a retry changes nothing
  EXPECT_TRUE(KeyIs(c(), "l", HashKey({"mode", "write", "u:1:write", "1"}, 10000)));
  EXPECT_EQ(WriteRelease("u:1", "r2"), Int(1));
  EXPECT_TRUE(KeyIs(c(), "l", NoKey()));
  EXPECT_TRUE(KeyIs(c(), Latch("r2"), StringKey("1", 5000)));
  EXPECT_EQ(WriteRelease("u:1", "r2"), Int(1));
  EXPECT_EQ(listener.Received(c()), (std::vector<Listener::Message>{{channel_, "1"}}));
}

TEST_F(ReadWriteLockScriptsTest, WriteReleaseLeavingOwnReadsTurnsIntoAReadLock) {
  Listener listener = Listen({channel_});
  WriteAcquire("u:1");
  ReadAcquire("u:1");
  EXPECT_EQ(WriteRelease("u:1", "r1"), Int(1));
  EXPECT_TRUE(KeyIs(c(), "l", HashKey({"mode", "read", "u:1", "1"}, 30000)));
  EXPECT_TRUE(listener.Received(c()).empty());  // still held: no one is told
  EXPECT_EQ(ReadAcquire("u:2"), Nil());
  EXPECT_EQ(ReadRelease("u:1", "r2"), Int(0));
  EXPECT_EQ(ReadRelease("u:2", "r3"), Int(1));
  EXPECT_EQ(listener.Received(c()), (std::vector<Listener::Message>{{channel_, "0"}}));
  EXPECT_EQ(AllKeys(c()), (std::vector<std::string>{Latch("r1"), Latch("r2"), Latch("r3")}));
}

TEST_F(ReadWriteLockScriptsTest, WriteReleaseRefusesAReadLock) {
  ReadAcquire("u:1");
  EXPECT_EQ(WriteRelease("u:1", "r1"), Nil());
  EXPECT_TRUE(KeyIs(c(), "l", HashKey({"mode", "read", "u:1", "1"}, 30000)));
  EXPECT_TRUE(KeyIs(c(), Latch("r1"), NoKey()));
}

TEST_F(ReadWriteLockScriptsTest, ReleaseOfNoLockAnswersNilYetPublishesAndLatchesOne) {
  // Current Redisson (since early 2025): nil, an IllegalMonitorState for the caller, while the
  // waiters are still told and the latch keeps 1, which a retry then answers.
  Listener listener = Listen({channel_});
  EXPECT_EQ(ReadRelease("u:1", "r1"), Nil());
  EXPECT_EQ(WriteRelease("u:1", "r2"), Nil());
  EXPECT_EQ(AllKeys(c()), (std::vector<std::string>{Latch("r1"), Latch("r2")}));
  EXPECT_TRUE(KeyIs(c(), Latch("r1"), StringKey("1", 5000)));
  EXPECT_EQ(listener.Received(c()),
            (std::vector<Listener::Message>{{channel_, "0"}, {channel_, "1"}}));
  EXPECT_EQ(ReadRelease("u:1", "r1"), Int(1));
}

TEST_F(ReadWriteLockScriptsTest, ForceReleaseTakesOnlyItsOwnMode) {
  Listener listener = Listen({channel_});
  ReadAcquire("u:1");
  EXPECT_EQ(Run("write_lock_force_release", {"l", channel_}, {"1", "PUBLISH"}), Int(0));
  EXPECT_EQ(Run("read_lock_is_locked", {"l"}, {}), Int(1));
  EXPECT_EQ(Run("read_lock_force_release", {"l", channel_}, {"0", "PUBLISH"}), Int(1));
  EXPECT_EQ(Run("read_lock_is_locked", {"l"}, {}), Int(0));
  WriteAcquire("u:2");
  EXPECT_EQ(Run("read_lock_is_locked", {"l"}, {}), Int(0));  // the writer alone does not read
  ReadAcquire("u:2");
  EXPECT_EQ(Run("read_lock_is_locked", {"l"}, {}), Int(1));  // ...until it takes a read hold
  EXPECT_EQ(Run("read_lock_force_release", {"l", channel_}, {"0", "PUBLISH"}), Int(0));
  EXPECT_EQ(Run("write_lock_force_release", {"l", channel_}, {"1", "PUBLISH"}), Int(1));
  EXPECT_TRUE(KeyIs(c(), "l", NoKey()));
  EXPECT_EQ(listener.Received(c()),
            (std::vector<Listener::Message>{{channel_, "0"}, {channel_, "1"}}));
}

TEST_F(ReadWriteLockScriptsTest, ReadReleaseShortensTheHashToTheLongestHoldLeft) {
  Listener listener = Listen({channel_});
  ReadAcquire("u:1", "60000");
  ReadAcquire("u:2", "20000");
  EXPECT_TRUE(KeyIs(c(), "l", HashKey({"mode", "read", "u:1", "1", "u:2", "1"}, 60000)));
  EXPECT_EQ(ReadRelease("u:3", "r0"), Nil());  // not a reader
  EXPECT_EQ(ReadRelease("u:1", "r1"), Int(0));
  EXPECT_TRUE(KeyIs(c(), "l", HashKey({"mode", "read", "u:2", "1"}, 20000)));
  EXPECT_TRUE(KeyIs(c(), Hold("u:1", 1), NoKey()));
  EXPECT_TRUE(KeyIs(c(), Latch("r1"), StringKey("0", 5000)));
  EXPECT_EQ(ReadRelease("u:1", "r1"), Int(0));  // a retry
  EXPECT_TRUE(listener.Received(c()).empty());
  EXPECT_EQ(ReadRelease("u:2", "r2"), Int(1));
  EXPECT_EQ(listener.Received(c()), (std::vector<Listener::Message>{{channel_, "0"}}));
  EXPECT_EQ(AllKeys(c()), (std::vector<std::string>{Latch("r1"), Latch("r2")}));
}

TEST_F(ReadWriteLockScriptsTest, ReadReleaseDropsTheNewestHold) {
  ReadAcquire("u:1", "60000");
  ReadAcquire("u:1", "20000");
  EXPECT_EQ(ReadRelease("u:1", "r1"), Int(0));
  EXPECT_TRUE(KeyIs(c(), Hold("u:1", 2), NoKey()));
  EXPECT_TRUE(KeyIs(c(), Hold("u:1", 1), StringKey("1", 60000)));
  EXPECT_TRUE(KeyIs(c(), "l", HashKey({"mode", "read", "u:1", "1"}, 60000)));
  EXPECT_EQ(ReadRelease("u:1", "r2"), Int(1));
  EXPECT_EQ(AllKeys(c()), (std::vector<std::string>{Latch("r1"), Latch("r2")}));
}

TEST_F(ReadWriteLockScriptsTest, ReaderWhoseHoldTimedOutNoLongerKeepsTheLock) {
  Listener listener = Listen({channel_});
  ReadAcquire("u:1", "60000");
  ReadAcquire("u:2", "30");
  ASSERT_TRUE(Eventually([&] { return c()({"EXISTS", Hold("u:2", 1)}) == Int(0); }));
  // u:2's field is still in the hash, but no hold of it is alive: u:1's release frees the lock.
  EXPECT_EQ(ReadRelease("u:1", "r1"), Int(1));
  EXPECT_TRUE(KeyIs(c(), "l", NoKey()));
  EXPECT_EQ(listener.Received(c()), (std::vector<Listener::Message>{{channel_, "0"}}));
}

TEST_F(ReadWriteLockScriptsTest, ReadReleaseUnderTheOwnersWriteLockKeepsIt) {
  Listener listener = Listen({channel_});
  WriteAcquire("u:1");
  ReadAcquire("u:1");
  EXPECT_EQ(ReadRelease("u:1", "r1"), Int(0));
  EXPECT_TRUE(KeyIs(c(), "l", HashKey({"mode", "write", "u:1:write", "1"}, 30000)));
  EXPECT_TRUE(KeyIs(c(), Hold("u:1", 1), NoKey()));
  EXPECT_TRUE(KeyIs(c(), Latch("r1"), StringKey("0", 5000)));
  EXPECT_EQ(WriteRelease("u:1", "r2"), Int(1));
  EXPECT_EQ(listener.Received(c()), (std::vector<Listener::Message>{{channel_, "1"}}));
}

TEST_F(ReadWriteLockScriptsTest, RenewRestartsTheHashAndTheOwnersReadHolds) {
  ReadAcquire("u:1", "1000");
  ReadAcquire("u:1", "1000");
  ReadAcquire("u:2", "1000");
  EXPECT_EQ(ReadRenew("u:9", "60000"), Array({Int(0)}));
  EXPECT_TRUE(KeyIs(c(), "l", HashKey({"mode", "read", "u:1", "2", "u:2", "1"}, 1000)));
  EXPECT_EQ(ReadRenew("u:1", "60000"), Array({Int(1)}));
  EXPECT_TRUE(KeyIs(c(), "l", HashKey({"mode", "read", "u:1", "2", "u:2", "1"}, 60000)));
  for (const std::string& hold : {Hold("u:1", 1), Hold("u:1", 2)}) {
    EXPECT_TRUE(KeyIs(c(), hold, StringKey("1", 60000)));
  }
  // Another owner's holds are its own client's to renew (ReadLockTask lists its owners only).
  EXPECT_TRUE(KeyIs(c(), Hold("u:2", 1), StringKey("1", 1000)));
  c()({"DEL", "l"});
  EXPECT_EQ(ReadRenew("u:1", "60000"), Array({Int(0)}));
}

TEST_F(ReadWriteLockScriptsTest, RenewIsBatchedAndRenewsOnlyTheListedOwners) {
  ReadAcquire("u:1", "1000");
  ReadAcquire("u:2", "1000");
  Run("read_lock_acquire", {"m", Suffixed("m", "u:1") + ":rwlock_timeout"},
      {"1000", "u:1", "u:1:write"});
  // Locks l (owners u:1 and u:9 listed) and m (u:9 only), in one call.
  EXPECT_EQ(
      Run("read_lock_renew", {"l", "{l}", "m", "{m}"}, {"60000", "2", "u:1", "u:9", "1", "u:9"}),
      Array({Int(1), Int(0)}));
  EXPECT_TRUE(KeyIs(c(), "l", HashKey({"mode", "read", "u:1", "1", "u:2", "1"}, 60000)));
  EXPECT_TRUE(KeyIs(c(), Hold("u:1", 1), StringKey("1", 60000)));
  EXPECT_TRUE(KeyIs(c(), Hold("u:2", 1), StringKey("1", 1000)));  // not listed: not renewed
  EXPECT_TRUE(KeyIs(c(), "m", HashKey({"mode", "read", "u:1", "1"}, 1000)));
}

TEST_F(ReadWriteLockScriptsTest, ExpiredReadLockLetsTheWriterIn) {
  ReadAcquire("u:1", "30");
  ASSERT_TRUE(Eventually([&] { return AllKeys(c()).empty(); }));
  EXPECT_EQ(WriteAcquire("u:2"), Nil());
  EXPECT_TRUE(KeyIs(c(), "l", HashKey({"mode", "write", "u:2:write", "1"}, 30000)));
}

}  // namespace
}  // namespace redlab::conformance
