// The book of holds behind each lock: the TTL a release leaves to the remaining holds (never a
// lease of an earlier or a failed acquisition), no OnLost for a lock released normally however
// renewals and releases interleave, the Lockable unlock() that never throws, OnLost per lock
// name (any handle) without leaking the client, and the owner-taking overloads. On embedded
// redlab and real redis-server.
#include <atomic>
#include <future>
#include <mutex>
#include <stop_token>
#include <thread>

#include "conformance/lock_support.h"

namespace redlab::conformance {
namespace {

using std::chrono::milliseconds;

constexpr milliseconds kWatchdog(3000);

class LockHoldsTest : public LockTest {
 protected:
  std::unique_ptr<redlab::Client> WatchdogClient(milliseconds watchdog = kWatchdog) {
    Config config = TestConfig(port());
    config.lock_watchdog_timeout = watchdog;
    return NewClient(config);
  }
  int64_t Pttl(const std::string& key) { return c()({"PTTL", key}).integer; }
};

TEST_F(LockHoldsTest, ReleaseLeavingHoldsRestartsTheWatchdogTtlNotAnEarlierLease) {
  auto client = WatchdogClient();
  redlab::Lock h = client->GetLock("reentry");
  std::atomic<int> lost{0};
  h.OnLost([&](const LockLost&) { ++lost; });
  h.Lock(milliseconds(100));
  h.Unlock();
  h.Lock();
  h.Lock();
  h.Unlock();
  // The hold left is the watchdog's: the key keeps the watchdog timeout, not the 100 ms lease.
  EXPECT_GT(Pttl("reentry"), 1000);
  EXPECT_EQ(client->WatchedLocks(), 1u);
  EXPECT_TRUE(h.IsHeldByCurrentThread());
  EXPECT_NO_THROW(h.Unlock());
  EXPECT_EQ(c()({"EXISTS", "reentry"}), Int(0));
  EXPECT_EQ(lost.load(), 0);
}

TEST_F(LockHoldsTest, AFailedAttemptWithALeaseChangesNoTtl) {
  auto client = WatchdogClient();
  redlab::Lock h = client->GetLock("contested");
  h.Lock();
  h.Lock();
  // Another owner, through the same handle, fails to get it with a 100 ms lease.
  EXPECT_FALSE(h.TryLock(milliseconds(1), milliseconds(100), ThreadId{880001}));
  h.Unlock();
  EXPECT_GT(Pttl("contested"), 1000);
  h.Unlock();
  EXPECT_EQ(c()({"EXISTS", "contested"}), Int(0));
}

TEST_F(LockHoldsTest, NestedHoldsEachKeepTheirOwnTtl) {
  auto client = WatchdogClient();
  redlab::Lock h = client->GetLock("nested");
  // A short lease inside a watched hold must not let the key expire under the outer hold.
  h.Lock();
  h.Lock(milliseconds(100));
  EXPECT_GT(Pttl("nested"), 1000);
  h.Unlock();
  EXPECT_GT(Pttl("nested"), 1000);
  EXPECT_EQ(client->WatchedLocks(), 1u);
  h.Unlock();
  EXPECT_EQ(c()({"EXISTS", "nested"}), Int(0));
  // A watched hold inside a long lease: its release restarts the lease, and stops the watchdog.
  h.Lock(milliseconds(60000));
  h.Lock();
  EXPECT_EQ(client->WatchedLocks(), 1u);
  h.Unlock();
  EXPECT_GT(Pttl("nested"), kWatchdog.count());
  EXPECT_EQ(client->WatchedLocks(), 0u);
  h.Unlock();
  EXPECT_EQ(c()({"EXISTS", "nested"}), Int(0));
}

TEST_F(LockHoldsTest, NoOnLostForLocksReleasedWhileRenewalsRun) {
  // Renewals every 10 ms on the pool's connections race the releases on others: a renewal
  // that runs just after a release finds the key gone, which is no loss. OnLost must fire for
  // real losses only: a hold that expired while its thread was descheduled (on a loaded
  // machine a 30 ms TTL can run out), which Unlock also reports with IllegalMonitorState.
  auto client = WatchdogClient(milliseconds(30));
  constexpr int kThreads = 4;
  constexpr int kCycles = 3000;
  std::atomic<int> lost{0};
  std::atomic<int> expired{0};
  std::vector<redlab::Lock> locks;
  for (int i = 0; i < kThreads; ++i) {
    locks.push_back(client->GetLock("cycle-" + std::to_string(i)));
    locks.back().OnLost([&](const LockLost&) { ++lost; });
  }
  std::vector<std::thread> threads;
  for (int i = 0; i < kThreads; ++i) {
    threads.emplace_back([&, i] {
      for (int n = 0; n < kCycles; ++n) {
        locks[i].Lock();
        try {
          locks[i].Unlock();
        } catch (const IllegalMonitorState&) {
          ++expired;
        }
      }
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(lost.load(), expired.load());
  EXPECT_EQ(client->WatchedLocks(), 0u);
  // A real loss is still reported.
  int before = lost.load();
  locks[0].Lock();
  EXPECT_EQ(c()({"DEL", "cycle-0"}), Int(1));
  EXPECT_TRUE(Eventually([&] { return lost.load() == before + 1; }));
}

TEST_F(LockHoldsTest, LockableUnlockNeverThrows) {
  auto client = NewClient();
  redlab::Lock lock = client->GetLock("guarded");
  EXPECT_TRUE(noexcept(lock.unlock()));
  std::promise<LockLost> lost;
  lock.OnLost([&](const LockLost& e) { lost.set_value(e); });
  {
    std::lock_guard<redlab::Lock> guard(lock);
    EXPECT_EQ(c()({"DEL", "guarded"}), Int(1));
  }  // unlock() finds no hold: IllegalMonitorState, which must not reach the guard
  std::future<LockLost> event = lost.get_future();
  ASSERT_EQ(event.wait_for(std::chrono::seconds(10)), std::future_status::ready);
  LockLost e = event.get();
  EXPECT_EQ(e.name, "guarded");
  EXPECT_EQ(e.owner, lock.OwnerId());
  EXPECT_EQ(client->WatchedLocks(), 0u);
}

TEST_F(LockHoldsTest, OnLostSetOnAnyHandleOfTheName) {
  auto client = WatchdogClient(milliseconds(300));
  redlab::Lock holder = client->GetLock("one-name");
  redlab::Lock watcher = client->GetLock("one-name");
  std::atomic<int> replaced{0};
  holder.OnLost([&](const LockLost&) { ++replaced; });
  std::promise<std::string> lost;
  watcher.OnLost([&](const LockLost& e) { lost.set_value(e.owner); });  // replaces holder's
  holder.Lock();
  EXPECT_EQ(c()({"DEL", "one-name"}), Int(1));
  std::future<std::string> owner = lost.get_future();
  ASSERT_EQ(owner.wait_for(std::chrono::seconds(10)), std::future_status::ready);
  EXPECT_EQ(owner.get(), holder.OwnerId());
  EXPECT_EQ(replaced.load(), 0);
}

TEST_F(LockHoldsTest, ACallbackHoldingItsLockDoesNotLeakTheClient) {
  auto sentinel = std::make_shared<int>(0);
  std::weak_ptr<int> watch = sentinel;
  {
    auto client = NewClient();
    redlab::Lock lock = client->GetLock("self-held");
    lock.OnLost([lock, sentinel](const LockLost&) { (void)lock; });
    sentinel.reset();
    EXPECT_FALSE(watch.expired());  // kept while the client runs
  }
  EXPECT_TRUE(watch.expired());
}

TEST_F(LockHoldsTest, EveryOperationTakesAnExplicitOwner) {
  auto client = NewClient();
  redlab::Lock lock = client->GetLock("owners");
  ThreadId job{910001};
  EXPECT_TRUE(lock.TryLock(job));
  EXPECT_TRUE(lock.IsHeldByThread(job));
  EXPECT_FALSE(lock.TryLock(ThreadId{910002}));
  EXPECT_FALSE(lock.TryLockAsync(milliseconds(10), ThreadId{910002}).get());
  EXPECT_TRUE(lock.TryLockAsync(milliseconds(10), job).get());
  EXPECT_TRUE(lock.TryLockAsync(milliseconds(10), milliseconds(60000), job).get());
  std::stop_source never;
  lock.LockInterruptibly(never.get_token(), job);
  lock.LockInterruptibly(never.get_token(), milliseconds(60000), job);
  EXPECT_EQ(lock.GetHoldCount(job), 5);
  EXPECT_EQ(c()({"HGET", "owners", client->id() + ":910001"}), Bulk("5"));
  // Another owner waits interruptibly, from another thread, and is stopped.
  std::stop_source stop;
  auto waiting = std::async(std::launch::async,
                            [&] { lock.LockInterruptibly(stop.get_token(), ThreadId{910003}); });
  ASSERT_TRUE(Eventually([&] { return client->ParkedWaiters("owners") == 1; }));
  stop.request_stop();
  EXPECT_THROW(waiting.get(), LockInterrupted);
  // The calling thread holds nothing, asked asynchronously.
  EXPECT_FALSE(lock.IsHeldByCurrentThreadAsync().get());
  EXPECT_EQ(lock.GetHoldCountAsync().get(), 0);
  for (int i = 0; i < 5; ++i) lock.Unlock(job);
  EXPECT_FALSE(lock.IsLocked());
  lock.Lock();
  EXPECT_TRUE(lock.IsHeldByCurrentThreadAsync().get());
  EXPECT_EQ(lock.GetHoldCountAsync().get(), 1);
  lock.Unlock();
}

}  // namespace
}  // namespace redlab::conformance
