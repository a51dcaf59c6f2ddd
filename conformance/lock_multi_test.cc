// MultiLock (Redisson's RedissonMultiLock): several reentrant locks, of one client or of clients
// of two servers, all held or none; a partial round given back (also when a lock's attempt
// fails with an error); waiting for a holder; a lease with a wait taken as Redisson takes it
// (twice the wait, then every lock shortened to the lease by RExpirable's expire script). On
// embedded redlab and on real redis-server.
#include <future>

#include "client/multi_lock.h"
#include "conformance/harness/target.h"
#include "conformance/lock_support.h"

namespace redlab::conformance {
namespace {

using std::chrono::milliseconds;

class MultiLockTest : public LockTest {};

TEST_F(MultiLockTest, AllOrNone) {
  auto client = NewClient();
  auto other = NewClient();
  redlab::Lock b_held = other->GetLock("b");
  b_held.Lock();
  redlab::MultiLock all({client->GetLock("a"), client->GetLock("b"), client->GetLock("c")});
  EXPECT_FALSE(all.TryLock());
  // "a" was taken, then given back when "b" could not be had; "c" was never tried.
  EXPECT_EQ(c()({"EXISTS", "a"}), Int(0));
  EXPECT_EQ(c()({"EXISTS", "c"}), Int(0));
  EXPECT_FALSE(all.TryLock(milliseconds(100), milliseconds(10000)));
  EXPECT_EQ(c()({"EXISTS", "a"}), Int(0));
  b_held.Unlock();
  ASSERT_TRUE(all.TryLock(milliseconds(2000), milliseconds(10000)));
  std::string owner = client->GetLock("a").OwnerId();
  for (const char* name : {"a", "b", "c"}) {
    EXPECT_EQ(c()({"HGETALL", name}), Array({Bulk(owner), Bulk("1")})) << name;
    int64_t pttl = c()({"PTTL", name}).integer;
    EXPECT_GT(pttl, 0);
    EXPECT_LE(pttl, 10000);
  }
  EXPECT_FALSE(other->GetLock("b").TryLock());
  all.Unlock();
  for (const char* name : {"a", "b", "c"}) EXPECT_EQ(c()({"EXISTS", name}), Int(0)) << name;
  EXPECT_THROW(all.Unlock(), IllegalMonitorState);
}

TEST_F(MultiLockTest, LocksOfTwoServersWaitForTheirHolder) {
  std::unique_ptr<conformance::Server> second = StartServer();
  auto here = NewClient();
  auto there = std::make_unique<redlab::Client>(TestConfig(second->port()));
  auto holder = std::make_unique<redlab::Client>(TestConfig(second->port()));
  redlab::Lock held = holder->GetLock("y");
  held.Lock();
  redlab::MultiLock both({here->GetLock("x"), there->GetLock("y")});
  ThreadId owner{4242};
  std::future<bool> got = both.TryLockAsync(milliseconds(20000), milliseconds(10000), owner);
  ASSERT_TRUE(Eventually([&] { return there->ParkedWaiters("y") == 1; }));
  held.Unlock();
  EXPECT_TRUE(got.get());
  EXPECT_TRUE(here->GetLock("x").IsHeldByThread(owner));
  EXPECT_TRUE(there->GetLock("y").IsHeldByThread(owner));
  Client second_conn(second->port());
  EXPECT_EQ(second_conn({"HGETALL", "y"}),
            Array({Bulk(there->GetLock("y").OwnerId(owner)), Bulk("1")}));
  both.UnlockAsync(owner).get();
  EXPECT_EQ(c()({"EXISTS", "x"}), Int(0));
  EXPECT_EQ(second_conn({"EXISTS", "y"}), Int(0));
}

TEST_F(MultiLockTest, ALockWhoseAttemptFailsCountsAsNotAcquired) {
  // Redisson's tryLock catches the failure of one lock's attempt: that lock is not acquired,
  // the round's locks are given back and the answer is false (no exception, nothing kept).
  auto client = NewClient();
  ASSERT_EQ(c()({"SET", "broken", "a string"}), Status("OK"));
  redlab::MultiLock both({client->GetLock("fine"), client->GetLock("broken")});
  EXPECT_FALSE(both.TryLock());
  EXPECT_EQ(c()({"EXISTS", "fine"}), Int(0));
  EXPECT_FALSE(both.TryLock(milliseconds(100), milliseconds(10000)));
  EXPECT_EQ(c()({"EXISTS", "fine"}), Int(0));
  EXPECT_EQ(c()({"GET", "broken"}), Bulk("a string"));
  ASSERT_EQ(c()({"DEL", "broken"}), Int(1));
  EXPECT_TRUE(both.TryLock());
  both.Unlock();
}

TEST_F(MultiLockTest, ALeaseShorterThanTheWaitOutlivesTheWaitThenEveryLockGetsTheLease) {
  // RedissonMultiLock.tryLock(waitTime, leaseTime): each lock is taken with 2 x waitTime as its
  // lease, so "m1" cannot run out while "m2" is awaited; once all are held, each is given the
  // lease by RedissonExpirable's expire script (KEYS the lock; ARGV the lease, '').
  auto client = NewClient();
  auto other = NewClient();
  redlab::Lock m2_held = other->GetLock("m2");
  m2_held.Lock();
  ASSERT_EQ(c()({"CONFIG", "SET", "slowlog-log-slower-than", "0"}), Status("OK"));
  ASSERT_EQ(c()({"SLOWLOG", "RESET"}), Status("OK"));
  redlab::MultiLock all({client->GetLock("m1"), client->GetLock("m2"), client->GetLock("m3")});
  ThreadId owner{777};
  std::future<bool> got = all.TryLockAsync(milliseconds(20000), milliseconds(400), owner);
  ASSERT_TRUE(Eventually([&] { return client->ParkedWaiters("m2") == 1; }));
  int64_t waiting_pttl = c()({"PTTL", "m1"}).integer;
  EXPECT_GT(waiting_pttl, 400);
  EXPECT_LE(waiting_pttl, 40000);
  m2_held.Unlock();
  ASSERT_TRUE(got.get());
  std::string field = client->GetLock("m1").OwnerId(owner);
  for (const char* name : {"m1", "m2", "m3"}) {
    EXPECT_EQ(c()({"HGETALL", name}), Array({Bulk(field), Bulk("1")})) << name;
    int64_t pttl = c()({"PTTL", name}).integer;
    EXPECT_GT(pttl, 0) << name;
    EXPECT_LE(pttl, 400) << name;
    std::vector<std::vector<std::string>> evals = LoggedEvals(c(), name);
    ASSERT_GE(evals.size(), 2u) << name << " " << c()({"SLOWLOG", "GET", "-1"});
    // tryLockInnerAsync with newLeaseTime (40000), then expireAsync(400).
    EXPECT_EQ(std::vector<std::string>(evals.front().begin() + 2, evals.front().end()),
              (std::vector<std::string>{"1", name, "40000", field}))
        << name;
    EXPECT_EQ(std::vector<std::string>(evals.back().begin() + 2, evals.back().end()),
              (std::vector<std::string>{"1", name, "400", ""}))
        << name;
  }
  ASSERT_EQ(c()({"CONFIG", "SET", "slowlog-log-slower-than", "10000"}), Status("OK"));
  all.Unlock(owner);
  for (const char* name : {"m1", "m2", "m3"}) EXPECT_EQ(c()({"EXISTS", name}), Int(0)) << name;
}

TEST_F(MultiLockTest, ALeaseWithoutAWaitIsTheLeaseEachLockIsTakenWithAndGivenAgain) {
  // No wait: newLeaseTime is the lease itself; the expire script still follows (leaseTime > 0).
  auto client = NewClient();
  ASSERT_EQ(c()({"CONFIG", "SET", "slowlog-log-slower-than", "0"}), Status("OK"));
  ASSERT_EQ(c()({"SLOWLOG", "RESET"}), Status("OK"));
  redlab::MultiLock both({client->GetLock("n1"), client->GetLock("n2")});
  ASSERT_TRUE(both.TryLock(milliseconds(0), milliseconds(5000)));
  std::string field = client->GetLock("n1").OwnerId();
  for (const char* name : {"n1", "n2"}) {
    int64_t pttl = c()({"PTTL", name}).integer;
    EXPECT_GT(pttl, 0) << name;
    EXPECT_LE(pttl, 5000) << name;
    std::vector<std::vector<std::string>> evals = LoggedEvals(c(), name);
    ASSERT_EQ(evals.size(), 2u) << name << " " << c()({"SLOWLOG", "GET", "-1"});
    EXPECT_EQ(std::vector<std::string>(evals[0].begin() + 2, evals[0].end()),
              (std::vector<std::string>{"1", name, "5000", field}));
    EXPECT_EQ(std::vector<std::string>(evals[1].begin() + 2, evals[1].end()),
              (std::vector<std::string>{"1", name, "5000", ""}));
  }
  ASSERT_EQ(c()({"CONFIG", "SET", "slowlog-log-slower-than", "10000"}), Status("OK"));
  both.Unlock();
}

}  // namespace
}  // namespace redlab::conformance
