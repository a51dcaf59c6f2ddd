// The read/write lock client (Redisson's RReadWriteLock): readers share, a writer excludes, the
// writer may also read, a write release wakes every waiting reader, per-hold timeout keys kept
// alive by the watchdog's read-lock renewal, std::shared_lock, IllegalMonitorState for a
// release of nothing. On embedded redlab and on real redis-server.
#include <future>
#include <shared_mutex>

#include "client/read_write_lock.h"
#include "conformance/lock_support.h"

namespace redlab::conformance {
namespace {

using std::chrono::milliseconds;

class ReadWriteLockTest : public LockTest {
 protected:
  static std::string Timeout(const std::string& owner, int n) {
    return "{rw}:" + owner + ":rwlock_timeout:" + std::to_string(n);
  }
};

TEST_F(ReadWriteLockTest, ReadersShareAWriterExcludesAndMayAlsoRead) {
  auto a = NewClient();
  auto b = NewClient();
  auto w = NewClient();
  redlab::ReadLock ra = a->GetReadWriteLock("rw").ReadLock();
  redlab::ReadLock rb = b->GetReadWriteLock("rw").ReadLock();
  redlab::WriteLock writer = w->GetReadWriteLock("rw").WriteLock();
  {
    std::shared_lock<redlab::ReadLock> reading_a(ra);
    std::shared_lock<redlab::ReadLock> reading_b(rb);
    EXPECT_EQ(c()({"HGET", "rw", "mode"}), Bulk("read"));
    EXPECT_EQ(c()({"HGET", "rw", ra.OwnerId()}), Bulk("1"));
    EXPECT_EQ(c()({"HGET", "rw", rb.OwnerId()}), Bulk("1"));
    EXPECT_EQ(c()({"EXISTS", Timeout(ra.OwnerId(), 1)}), Int(1));
    EXPECT_TRUE(ra.IsLocked());
    EXPECT_FALSE(writer.IsLocked());
    EXPECT_FALSE(writer.TryLock());
    EXPECT_FALSE(writer.TryLock(milliseconds(50)));
  }
  EXPECT_EQ(c()({"EXISTS", "rw"}), Int(0));
  ASSERT_TRUE(writer.TryLock(milliseconds(2000)));
  EXPECT_EQ(writer.OwnerId(), w->id() + ":" + std::to_string(ThreadId::Current().value) + ":write");
  EXPECT_EQ(c()({"HGETALL", "rw"}),
            Array({Bulk("mode"), Bulk("write"), Bulk(writer.OwnerId()), Bulk("1")}));
  EXPECT_TRUE(writer.IsLocked());
  EXPECT_FALSE(ra.TryLock());
  // The writer's own thread may read under its write lock.
  redlab::ReadLock writer_reads = w->GetReadWriteLock("rw").ReadLock();
  EXPECT_TRUE(writer_reads.TryLock());
  EXPECT_TRUE(writer_reads.IsLocked());
  writer_reads.Unlock();
  writer.Unlock();
  EXPECT_EQ(c()({"EXISTS", "rw"}), Int(0));
  EXPECT_THROW(ra.Unlock(), IllegalMonitorState);  // current Redisson: nil, not 1
  EXPECT_THROW(writer.Unlock(), IllegalMonitorState);
}

TEST_F(ReadWriteLockTest, AWriteReleaseWakesEveryWaitingReader) {
  auto w = NewClient();
  auto r = NewClient();
  redlab::WriteLock writer = w->GetReadWriteLock("rw").WriteLock();
  writer.Lock();
  redlab::ReadLock reader = r->GetReadWriteLock("rw").ReadLock();
  ThreadId one{11}, two{12};
  std::future<bool> first = reader.TryLockAsync(milliseconds(20000), one);
  std::future<bool> second = reader.TryLockAsync(milliseconds(20000), two);
  ASSERT_TRUE(Eventually([&] { return r->ParkedWaiters("redisson_rwlock:{rw}") == 2; }));
  writer.Unlock();
  EXPECT_TRUE(first.get());
  EXPECT_TRUE(second.get());
  EXPECT_EQ(c()({"HGET", "rw", "mode"}), Bulk("read"));
  reader.Unlock(one);
  reader.Unlock(two);
  EXPECT_EQ(c()({"EXISTS", "rw"}), Int(0));
}

TEST_F(ReadWriteLockTest, TheWatchdogKeepsReadHoldsAndTheirTimeoutKeys) {
  Config config = TestConfig(port());
  config.lock_watchdog_timeout = milliseconds(300);
  redlab::Client client(config);
  redlab::ReadLock reader = client.GetReadWriteLock("rw").ReadLock();
  reader.Lock();
  std::string hold = Timeout(reader.OwnerId(), 1);
  EXPECT_EQ(c()({"EXISTS", hold}), Int(1));
  // Unrenewed, a TTL only falls; the read-lock renewal restarts the hold's timeout key (and the
  // hash) every 100 ms, so each rises again above what it was.
  for (const std::string& key : {hold, std::string("rw")}) {
    int64_t low = 0;
    ASSERT_TRUE(Eventually([&] {
      low = c()({"PTTL", key}).integer;
      return low > 0 && low < 250;  // fallen since the last restart...
    })) << key;
    EXPECT_TRUE(Eventually([&] { return c()({"PTTL", key}).integer > low; })) << key;  // ...up
  }
  EXPECT_EQ(c()({"HGET", "rw", reader.OwnerId()}), Bulk("1"));
  EXPECT_EQ(client.WatchedLocks(), 1u);
  reader.Unlock();
  EXPECT_EQ(c()({"EXISTS", "rw"}), Int(0));
  EXPECT_EQ(client.WatchedLocks(), 0u);
}

TEST_F(ReadWriteLockTest, ForceUnlockTakesItsOwnModeOnly) {
  auto client = NewClient();
  redlab::ReadWriteLock rw = client->GetReadWriteLock("rw");
  redlab::ReadLock reader = rw.ReadLock();
  reader.Lock(milliseconds(10000));
  EXPECT_FALSE(rw.WriteLock().ForceUnlock());
  EXPECT_TRUE(reader.ForceUnlock());
  EXPECT_EQ(c()({"EXISTS", "rw"}), Int(0));
}

}  // namespace
}  // namespace redlab::conformance
