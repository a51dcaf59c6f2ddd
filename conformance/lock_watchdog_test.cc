// The lock watchdog: it keeps a lock taken without a lease alive well past the watchdog
// timeout, renews many locks at once, stops at release and when the holding client is gone
// (the lock then frees itself), calls OnLost when a renewal finds the lock gone, and reports
// each renewal's result to OnRenewed (a failed one before OnLost). On
// embedded redlab and real redis-server, with a short lock_watchdog_timeout.
#include <future>
#include <mutex>
#include <vector>

#include "conformance/lock_support.h"

namespace redlab::conformance {
namespace {

using std::chrono::milliseconds;

constexpr milliseconds kWatchdog(300);

class LockWatchdogTest : public LockTest {
 protected:
  std::unique_ptr<redlab::Client> WatchdogClient() {
    Config config = TestConfig(port());
    config.lock_watchdog_timeout = kWatchdog;
    return NewClient(config);
  }

  // Waits until the TTL of `key` has gone back up `renewals` times (each a watchdog renewal),
  // checking that the key never disappears meanwhile.
  bool SeeRenewals(const std::string& key, int renewals) {
    int seen = 0;
    int64_t last = c()({"PTTL", key}).integer;
    bool alive = true;
    bool done = Eventually(
        [&] {
          int64_t now = c()({"PTTL", key}).integer;
          if (now < 0) alive = false;
          if (now > last) ++seen;
          last = now;
          return !alive || seen >= renewals;
        },
        std::chrono::seconds(20));
    return done && alive;
  }
};

TEST_F(LockWatchdogTest, KeepsTheLockWellPastItsTimeout) {
  auto client = WatchdogClient();
  redlab::Lock lock = client->GetLock("kept");
  auto start = std::chrono::steady_clock::now();
  lock.Lock();
  // Nine renewals at one every 100 ms: three times the 300 ms timeout.
  EXPECT_TRUE(SeeRenewals("kept", 9));
  EXPECT_GT(std::chrono::steady_clock::now() - start, 3 * kWatchdog);
  EXPECT_TRUE(lock.IsHeldByCurrentThread());
  EXPECT_EQ(client->WatchedLocks(), 1u);
  lock.Unlock();
  EXPECT_EQ(client->WatchedLocks(), 0u);
}

TEST_F(LockWatchdogTest, RenewsEveryHeldLockAndStopsAtRelease) {
  Config config = TestConfig(port());
  config.lock_watchdog_timeout = kWatchdog;
  config.lock_watchdog_batch_size = 2;  // three locks: two renewal batches
  auto client = NewClient(config);
  redlab::Lock a = client->GetLock("wd-a");
  redlab::Lock b = client->GetLock("wd-b");
  redlab::Lock c_lock = client->GetLock("wd-c");
  a.Lock();
  a.Lock();  // re-entered: still one watched lock, released after both holds go
  b.Lock();
  c_lock.Lock(milliseconds(60000));  // a lease: not watched
  EXPECT_EQ(client->WatchedLocks(), 2u);
  std::future<void> waiting = b.LockAsync(ThreadId{4242});  // another owner waits for b
  EXPECT_TRUE(SeeRenewals("wd-a", 4));
  EXPECT_TRUE(SeeRenewals("wd-b", 2));
  a.Unlock();
  EXPECT_EQ(client->WatchedLocks(), 2u);
  a.Unlock();
  EXPECT_EQ(client->WatchedLocks(), 1u);
  EXPECT_EQ(c()({"EXISTS", "wd-a"}), Int(0));
  b.ForceUnlock();  // the waiter 4242 takes it, watched in turn
  waiting.get();
  EXPECT_TRUE(b.IsHeldByThread(ThreadId{4242}));
  EXPECT_TRUE(SeeRenewals("wd-b", 2));
  b.Unlock(ThreadId{4242});
  EXPECT_EQ(client->WatchedLocks(), 0u);
}

TEST_F(LockWatchdogTest, KeepsRenewingAfterFailedRenewals) {
  // Renewals time out for a while (their replies held by a proxy); the watchdog must keep the
  // lock and go on renewing after, not give up at the first error.
  TcpProxy proxy(port());
  Config config = TestConfig(proxy.port());
  config.lock_watchdog_timeout = milliseconds(900);
  config.timeout = milliseconds(80);
  config.retry_attempts = 1;
  config.retry_interval = milliseconds(20);
  auto client = NewClient(config);
  redlab::Lock lock = client->GetLock("flaky");
  lock.Lock();
  int accepted = proxy.accepted();
  proxy.Hold();
  // Two timed-out renewals (each reopens a connection), then the replies flow again.
  ASSERT_TRUE(Eventually([&] { return proxy.accepted() >= accepted + 2; }));
  proxy.Release();
  EXPECT_TRUE(SeeRenewals("flaky", 4));
  EXPECT_TRUE(lock.IsHeldByCurrentThread());
  EXPECT_EQ(client->WatchedLocks(), 1u);
  lock.Unlock();
}

TEST_F(LockWatchdogTest, LockFreesItselfWhenTheHoldingClientIsGone) {
  auto holder = WatchdogClient();
  holder->GetLock("orphan").Lock();
  EXPECT_TRUE(SeeRenewals("orphan", 2));
  holder.reset();  // shut down without unlocking: no more renewals
  EXPECT_TRUE(Eventually([&] { return c()({"EXISTS", "orphan"}) == Int(0); }));
  auto next = NewClient();
  EXPECT_TRUE(next->GetLock("orphan").TryLock());
}

TEST_F(LockWatchdogTest, OnLostAfterTheKeyIsDeletedBehindTheHoldersBack) {
  auto client = WatchdogClient();
  redlab::Lock lock = client->GetLock("stolen");
  std::promise<LockLost> lost;
  std::promise<bool> sync_call_refused;
  lock.OnLost([&](const LockLost& event) {
    // On the loop thread: a synchronous call would deadlock, so it throws.
    try {
      lock.IsLocked();
      sync_call_refused.set_value(false);
    } catch (const redlab::Error&) {
      sync_call_refused.set_value(true);
    }
    lost.set_value(event);
  });
  lock.Lock();
  EXPECT_EQ(c()({"DEL", "stolen"}), Int(1));
  std::future<LockLost> event = lost.get_future();
  ASSERT_EQ(event.wait_for(std::chrono::seconds(10)), std::future_status::ready);
  LockLost e = event.get();
  EXPECT_EQ(e.name, "stolen");
  EXPECT_EQ(e.thread, ThreadId::Current());
  EXPECT_EQ(e.owner, lock.OwnerId());
  EXPECT_TRUE(sync_call_refused.get_future().get());
  EXPECT_EQ(client->WatchedLocks(), 0u);
  EXPECT_THROW(lock.Unlock(), IllegalMonitorState);
}

TEST_F(LockWatchdogTest, OnLostWhenAnotherOwnerTookTheKey) {
  auto client = WatchdogClient();
  redlab::Lock lock = client->GetLock("usurped");
  std::promise<std::string> lost;
  lock.OnLost([&](const LockLost& event) { lost.set_value(event.owner); });
  lock.Lock();
  // Redisson elsewhere found the key expired (a stall) and took it.
  c()({"DEL", "usurped"});
  c()({"HSET", "usurped", "other-uuid:1", "1"});
  std::future<std::string> owner = lost.get_future();
  ASSERT_EQ(owner.wait_for(std::chrono::seconds(10)), std::future_status::ready);
  EXPECT_EQ(owner.get(), lock.OwnerId());
}

TEST_F(LockWatchdogTest, NoOnLostForAReleasedLock) {
  auto client = WatchdogClient();
  redlab::Lock released = client->GetLock("released");
  redlab::Lock kept = client->GetLock("kept-meanwhile");
  std::atomic<int> calls{0};
  released.OnLost([&](const LockLost&) { ++calls; });
  released.Lock();
  released.Unlock();
  kept.Lock();
  EXPECT_TRUE(SeeRenewals("kept-meanwhile", 3));  // renewal rounds ran meanwhile
  EXPECT_EQ(calls.load(), 0);
  kept.Unlock();
}

TEST_F(LockWatchdogTest, OnRenewedReportsRenewalsThenTheFailureBeforeOnLost) {
  auto client = WatchdogClient();
  redlab::Lock lock = client->GetLock("reported");
  std::mutex mu;
  std::vector<LockRenewed> renewals;
  std::vector<std::string> order;  // "renewed", "failed", "lost", in the order called
  std::promise<void> lost;
  lock.OnRenewed([&](const LockRenewed& event) {
    std::lock_guard<std::mutex> hold(mu);
    renewals.push_back(event);
    order.push_back(event.ok ? "renewed" : "failed");
  });
  lock.OnLost([&](const LockLost&) {
    {
      std::lock_guard<std::mutex> hold(mu);
      order.push_back("lost");
    }
    lost.set_value();
  });
  lock.Lock();
  ASSERT_TRUE(Eventually([&] {
    std::lock_guard<std::mutex> hold(mu);
    return renewals.size() >= 3;
  }));
  {
    std::lock_guard<std::mutex> hold(mu);
    for (const LockRenewed& r : renewals) {
      EXPECT_EQ(r.name, "reported");
      EXPECT_EQ(r.thread, ThreadId::Current());
      EXPECT_EQ(r.owner, lock.OwnerId());
      EXPECT_EQ(r.lease_ms, kWatchdog.count());
      EXPECT_TRUE(r.ok);
      EXPECT_EQ(r.error, "");
      EXPECT_LE(r.sent, std::chrono::steady_clock::now());
    }
  }
  EXPECT_EQ(c()({"DEL", "reported"}), Int(1));
  std::future<void> gone = lost.get_future();
  ASSERT_EQ(gone.wait_for(std::chrono::seconds(10)), std::future_status::ready);
  std::lock_guard<std::mutex> hold(mu);
  ASSERT_GE(order.size(), 5u);
  EXPECT_EQ(order[order.size() - 2], "failed");
  EXPECT_EQ(order.back(), "lost");
  for (size_t i = 0; i + 2 < order.size(); ++i) EXPECT_EQ(order[i], "renewed") << i;
  EXPECT_FALSE(renewals.back().ok);
  EXPECT_EQ(renewals.back().error, "");
}

TEST_F(LockWatchdogTest, OnRenewedSilentForLeasedHolds) {
  auto client = WatchdogClient();
  redlab::Lock leased = client->GetLock("leased-quiet");
  redlab::Lock kept = client->GetLock("kept-loud");
  std::atomic<int> leased_calls{0};
  std::atomic<int> kept_calls{0};
  leased.OnRenewed([&](const LockRenewed&) { ++leased_calls; });
  kept.OnRenewed([&](const LockRenewed&) { ++kept_calls; });
  leased.Lock(milliseconds(60000));
  kept.Lock();
  EXPECT_TRUE(Eventually([&] { return kept_calls.load() >= 3; }));
  EXPECT_EQ(leased_calls.load(), 0);
  kept.Unlock();
  leased.Unlock();
}

}  // namespace
}  // namespace redlab::conformance
