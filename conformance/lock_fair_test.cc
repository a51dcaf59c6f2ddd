// The fair lock client (Redisson's RedissonFairLock): waiters served in the order they asked,
// each woken on its own channel, a waiter that gives up leaving the queue, TryLock() without a
// wait never queueing, the allowance each queued waiter gets (the caller's wait, else
// Config::fair_lock_wait_timeout, Redisson's fairLockWaitTimeout), and a Redisson-protocol peer
// waking our waiter. On embedded redlab and on real redis-server.
#include <chrono>
#include <future>
#include <string>

#include "client/fair_lock.h"
#include "conformance/lock_support.h"

namespace redlab::conformance {
namespace {

using std::chrono::milliseconds;

class FairLockTest : public LockTest {
 protected:
  const std::string queue_ = "redisson_lock_queue:{fair}";
  const std::string timeouts_ = "redisson_lock_timeout:{fair}";
};

TEST_F(FairLockTest, WaitersAreServedInTheOrderTheyAsked) {
  auto holder = NewClient();
  redlab::FairLock held = holder->GetFairLock("fair");
  held.Lock();
  std::vector<std::unique_ptr<redlab::Client>> clients;
  std::vector<std::future<void>> waiting;
  std::vector<std::string> owners;
  for (int i = 0; i < 3; ++i) {
    clients.push_back(NewClient());
    redlab::FairLock lock = clients.back()->GetFairLock("fair");
    owners.push_back(lock.OwnerId(ThreadId{100}));
    waiting.push_back(lock.LockAsync(milliseconds(10000), ThreadId{100}));
    // Queued before the next one asks.
    ASSERT_TRUE(Eventually([&] { return c()({"ZCARD", timeouts_}).integer == i + 1; }));
  }
  EXPECT_EQ(c()({"LRANGE", queue_, "0", "-1"}),
            Array({Bulk(owners[0]), Bulk(owners[1]), Bulk(owners[2])}));
  held.Unlock();
  for (int i = 0; i < 3; ++i) {
    waiting[i].get();  // the i-th waiter holds it now, and only it
    EXPECT_EQ(c()({"HGETALL", "fair"}), Array({Bulk(owners[i]), Bulk("1")}));
    for (int j = i + 1; j < 3; ++j) {
      EXPECT_EQ(waiting[j].wait_for(milliseconds(0)), std::future_status::timeout);
    }
    clients[i]->GetFairLock("fair").Unlock(ThreadId{100});
  }
  EXPECT_EQ(c()({"EXISTS", "fair", queue_, timeouts_}), Int(0));
}

TEST_F(FairLockTest, AWaiterThatGivesUpLeavesTheQueue) {
  auto holder = NewClient();
  auto waiter = NewClient();
  redlab::FairLock held = holder->GetFairLock("fair");
  held.Lock();
  redlab::FairLock lock = waiter->GetFairLock("fair");
  EXPECT_FALSE(lock.TryLock());  // no wait: never queued
  EXPECT_EQ(c()({"EXISTS", queue_, timeouts_}), Int(0));
  EXPECT_FALSE(lock.TryLock(milliseconds(200)));
  // It queued while waiting, and left when it gave up.
  EXPECT_TRUE(Eventually([&] { return c()({"EXISTS", queue_, timeouts_}) == Int(0); }));
  held.Unlock();
  EXPECT_TRUE(lock.TryLock());
  lock.Unlock();
}

TEST_F(FairLockTest, AReleaseTellsTheFirstWaiterOnItsOwnChannel) {
  auto holder = NewClient();
  auto waiter = NewClient();
  redlab::FairLock held = holder->GetFairLock("fair");
  held.Lock();
  redlab::FairLock lock = waiter->GetFairLock("fair");
  std::string channel = "redisson_lock__channel:{fair}:" + lock.OwnerId();
  std::future<bool> got = lock.TryLockAsync(milliseconds(20000));
  ASSERT_TRUE(Eventually([&] { return Subscribers(channel) == 1; }));
  EXPECT_EQ(Subscribers("redisson_lock__channel:{fair}"), 0);
  held.Unlock();
  EXPECT_TRUE(got.get());
  lock.Unlock();
}

TEST_F(FairLockTest, AQueuedWaiterGetsItsWaitOrTheConfiguredAllowance) {
  auto unix_ms = [] {
    return std::chrono::duration_cast<milliseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
  };
  auto score = [&](const std::string& owner) {
    Reply r = c()({"ZSCORE", timeouts_, owner});
    EXPECT_EQ(r.type, Reply::Type::kBulk) << r;
    return std::stoll(r.str);
  };
  auto holder = NewClient();
  redlab::FairLock held = holder->GetFairLock("fair");
  held.Lock();  // the watchdog's 30 s lease
  Config config = TestConfig(port());
  config.fair_lock_wait_timeout = milliseconds(60000);
  auto first = NewClient(config);
  auto second = NewClient();
  redlab::FairLock a = first->GetFairLock("fair");
  redlab::FairLock b = second->GetFairLock("fair");
  int64_t before = unix_ms();
  std::future<void> a_waits = a.LockAsync(ThreadId{7});
  ASSERT_TRUE(Eventually([&] { return c()({"ZCARD", timeouts_}).integer == 1; }));
  int64_t after = unix_ms();
  // Lock() gives no wait: the deadline is now + the holder's PTTL + fairLockWaitTimeout.
  int64_t a_deadline = score(a.OwnerId(ThreadId{7}));
  EXPECT_GT(a_deadline, before + 60000);
  EXPECT_LE(a_deadline, after + 30000 + 60000);
  // TryLock(wait) queues behind it with its own wait as the allowance.
  std::future<bool> b_waits = b.TryLockAsync(milliseconds(20000), ThreadId{8});
  ASSERT_TRUE(Eventually([&] { return c()({"ZCARD", timeouts_}).integer == 2; }));
  EXPECT_EQ(score(b.OwnerId(ThreadId{8})), a_deadline + 20000);
  held.Unlock();
  a_waits.get();
  // Taking the lock moved every waiter behind up by the taker's allowance.
  EXPECT_EQ(score(b.OwnerId(ThreadId{8})), a_deadline + 20000 - 60000);
  a.Unlock(ThreadId{7});
  EXPECT_TRUE(b_waits.get());
  b.Unlock(ThreadId{8});
  EXPECT_EQ(c()({"EXISTS", "fair", queue_, timeouts_}), Int(0));
}

}  // namespace
}  // namespace redlab::conformance
