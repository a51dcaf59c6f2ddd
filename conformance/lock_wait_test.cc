// Waiting for the reentrant lock: mutual exclusion under contention from several clients and
// threads, wake-up by the unlock message (not the TTL), one waiter woken per message, the
// PTTL as the longest sleep, TryLock's wait budget, one subscription per client and name,
// ForceUnlock waking waiters, and LockInterruptibly. On embedded redlab and real redis-server.
#include <atomic>
#include <future>
#include <set>
#include <thread>

#include "conformance/lock_support.h"

namespace redlab::conformance {
namespace {

using std::chrono::milliseconds;

class LockWaitTest : public LockTest {};

// Checks that holders never overlap: each holder enters, works, leaves; a second holder inside
// at the same time is seen by one of them.
class HolderRecorder {
 public:
  void Enter() {
    int now = ++inside_;
    int seen = max_inside_.load();
    while (now > seen && !max_inside_.compare_exchange_weak(seen, now)) {
    }
    ++entries_;
  }
  void Leave() { --inside_; }
  int max_inside() const { return max_inside_; }
  int entries() const { return entries_; }

 private:
  std::atomic<int> inside_{0};
  std::atomic<int> max_inside_{0};
  std::atomic<int> entries_{0};
};

TEST_F(LockWaitTest, MutualExclusionAcrossClientsAndThreads) {
  constexpr int kClients = 3;
  constexpr int kThreads = 3;
  constexpr int kRounds = 15;
  std::vector<std::unique_ptr<redlab::Client>> clients;
  for (int i = 0; i < kClients; ++i) clients.push_back(NewClient());
  c()({"SET", "counter", "0"});
  HolderRecorder recorder;
  std::vector<std::thread> threads;
  for (int i = 0; i < kClients; ++i) {
    for (int t = 0; t < kThreads; ++t) {
      threads.emplace_back([&, i] {
        redlab::Lock lock = clients[i]->GetLock("contended");
        Client conn(port());
        for (int r = 0; r < kRounds; ++r) {
          lock.Lock();
          recorder.Enter();
          // A read-modify-write that loses updates unless the holders take turns.
          int64_t v = std::stoll(conn({"GET", "counter"}).str);
          conn({"SET", "counter", std::to_string(v + 1)});
          recorder.Leave();
          lock.Unlock();
        }
      });
    }
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(recorder.max_inside(), 1);
  EXPECT_EQ(recorder.entries(), kClients * kThreads * kRounds);
  EXPECT_EQ(c()({"GET", "counter"}), Bulk(std::to_string(kClients * kThreads * kRounds)));
  EXPECT_EQ(c()({"EXISTS", "contended"}), Int(0));
  EXPECT_TRUE(Eventually([&] { return Subscribers(ChannelOf("contended")) == 0; }));
}

TEST_F(LockWaitTest, WaiterWakesOnTheUnlockMessageNotTheTtl) {
  auto holder = NewClient();
  auto waiter = NewClient();
  redlab::Lock held = holder->GetLock("wake");
  held.Lock(milliseconds(60000));
  // Without the message the waiter would sleep for the holder's TTL (60 s), past its budget.
  std::future<bool> got = waiter->GetLock("wake").TryLockAsync(milliseconds(20000));
  ASSERT_TRUE(Eventually([&] { return waiter->ParkedWaiters("wake") == 1; }));
  held.Unlock();
  EXPECT_TRUE(got.get());
}

TEST_F(LockWaitTest, EachUnlockWakesOneWaiter) {
  auto holder = NewClient();
  auto waiters = NewClient();
  redlab::Lock held = holder->GetLock("one-by-one");
  held.Lock(milliseconds(60000));
  redlab::Lock lock = waiters->GetLock("one-by-one");
  std::vector<std::future<void>> pending;
  for (uint64_t t = 1; t <= 3; ++t) pending.push_back(lock.LockAsync(ThreadId{700000 + t}));
  ASSERT_TRUE(Eventually([&] { return waiters->ParkedWaiters("one-by-one") == 3; }));
  // Three waiters of one client share one subscription.
  EXPECT_EQ(Subscribers(ChannelOf("one-by-one")), 1);
  held.Unlock();
  // One message, one waiter woken and holding; the two others sleep on.
  ASSERT_TRUE(Eventually([&] {
    return c()({"HLEN", "one-by-one"}) == Int(1) && waiters->ParkedWaiters("one-by-one") == 2;
  }));
  std::set<uint64_t> order;
  for (int round = 0; round < 3; ++round) {
    uint64_t owner = 0;
    ASSERT_TRUE(Eventually([&] {
      for (uint64_t t = 1; t <= 3; ++t) {
        if (order.count(700000 + t) == 0 && lock.IsHeldByThread(ThreadId{700000 + t})) {
          owner = 700000 + t;
        }
      }
      return owner != 0;
    }));
    order.insert(owner);
    lock.Unlock(ThreadId{owner});  // wakes the next
  }
  for (auto& f : pending) f.get();
  EXPECT_EQ(order.size(), 3u);
  EXPECT_TRUE(Eventually([&] { return Subscribers(ChannelOf("one-by-one")) == 0; }));
}

TEST_F(LockWaitTest, HolderTtlBoundsTheSleepWhenNoMessageComes) {
  auto holder = NewClient();
  auto waiter = NewClient();
  // The lease runs out without an unlock message: the waiter retries when the TTL it was
  // given ends.
  holder->GetLock("expiring").Lock(milliseconds(150));
  EXPECT_TRUE(waiter->GetLock("expiring").TryLock(milliseconds(20000)));
}

TEST_F(LockWaitTest, TryLockGivesUpWhenTheBudgetIsSpent) {
  auto holder = NewClient();
  auto waiter = NewClient();
  holder->GetLock("patience").Lock(milliseconds(60000));
  redlab::Lock lock = waiter->GetLock("patience");
  auto start = std::chrono::steady_clock::now();
  EXPECT_FALSE(lock.TryLock(milliseconds(150)));
  EXPECT_GE(std::chrono::steady_clock::now() - start, milliseconds(150));
  EXPECT_FALSE(lock.TryLock(milliseconds(50), milliseconds(1000)));
  EXPECT_FALSE(lock.IsHeldByCurrentThread());
  EXPECT_EQ(waiter->ParkedWaiters("patience"), 0u);
  // The subscription ends with the last waiter.
  EXPECT_TRUE(Eventually([&] { return Subscribers(ChannelOf("patience")) == 0; }));
}

TEST_F(LockWaitTest, OneSubscriptionPerClientAndName) {
  auto holder = NewClient();
  auto a = NewClient();
  auto b = NewClient();
  redlab::Lock held = holder->GetLock("shared-sub");
  held.Lock(milliseconds(60000));
  std::vector<std::future<bool>> waits;
  for (uint64_t t = 1; t <= 3; ++t) {
    waits.push_back(a->GetLock("shared-sub")
                        .TryLockAsync(milliseconds(20000), milliseconds(-1), ThreadId{800000 + t}));
  }
  waits.push_back(b->GetLock("shared-sub").TryLockAsync(milliseconds(20000)));
  ASSERT_TRUE(Eventually(
      [&] { return a->ParkedWaiters("shared-sub") == 3 && b->ParkedWaiters("shared-sub") == 1; }));
  EXPECT_EQ(Subscribers(ChannelOf("shared-sub")), 2);
  held.ForceUnlock();
  // Each winner is then deleted behind its back with an unlock message, as a crashed holder
  // expiring would be, so every waiter gets its turn.
  for (int round = 0; round < 4; ++round) {
    ASSERT_TRUE(Eventually([&] { return c()({"EXISTS", "shared-sub"}) == Int(1); }));
    c()({"DEL", "shared-sub"});
    c()({"PUBLISH", ChannelOf("shared-sub"), "0"});
  }
  int acquired = 0;
  for (auto& w : waits) acquired += w.get();
  EXPECT_EQ(acquired, 4);
  EXPECT_TRUE(Eventually([&] { return Subscribers(ChannelOf("shared-sub")) == 0; }));
}

TEST_F(LockWaitTest, ForceUnlockWakesAWaiter) {
  auto holder = NewClient();
  auto waiter = NewClient();
  auto admin = NewClient();
  holder->GetLock("stuck").Lock(milliseconds(60000));
  std::future<bool> got = waiter->GetLock("stuck").TryLockAsync(milliseconds(20000));
  ASSERT_TRUE(Eventually([&] { return waiter->ParkedWaiters("stuck") == 1; }));
  EXPECT_TRUE(admin->GetLock("stuck").ForceUnlock());
  EXPECT_TRUE(got.get());
}

TEST_F(LockWaitTest, WaitersSurviveALostSubscriptionAndTheMessagesMissedMeanwhile) {
  auto holder = NewClient();
  Config config = TestConfig(port());
  config.retry_interval = milliseconds(300);  // the subscription comes back after this
  auto waiter = NewClient(config);
  redlab::Lock held = holder->GetLock("resub");
  held.Lock(milliseconds(60000));
  std::future<bool> got = waiter->GetLock("resub").TryLockAsync(milliseconds(20000));
  ASSERT_TRUE(Eventually([&] { return waiter->ParkedWaiters("resub") == 1; }));
  // Kill the waiter's pub/sub connection (the only client subscribed to anything)...
  std::string clients = c()({"CLIENT", "LIST"}).str;
  size_t sub = clients.find(" sub=1 ");
  ASSERT_NE(sub, std::string::npos) << clients;
  size_t line = clients.rfind('\n', sub);
  line = line == std::string::npos ? 0 : line + 1;
  std::string id = clients.substr(line + 3, clients.find(' ', line) - line - 3);  // "id=N "
  EXPECT_EQ(c()({"CLIENT", "KILL", "ID", id}), Int(1));
  EXPECT_EQ(Subscribers(ChannelOf("resub")), 0);
  // ...and unlock while nobody listens: the message is lost. The waiter still gets the lock
  // within its budget, long before the holder's 60 s TTL: resubscribing wakes it to retry.
  held.Unlock();
  EXPECT_TRUE(got.get());
  EXPECT_TRUE(Eventually([&] { return Subscribers(ChannelOf("resub")) == 0; }));
}

TEST_F(LockWaitTest, LockInterruptiblyStopsWaitingOnRequest) {
  auto holder = NewClient();
  auto waiter = NewClient();
  holder->GetLock("interrupt").Lock(milliseconds(60000));
  redlab::Lock lock = waiter->GetLock("interrupt");
  std::promise<std::string> outcome;
  std::jthread worker([&](std::stop_token stop) {
    try {
      lock.LockInterruptibly(stop);
      outcome.set_value("acquired");
    } catch (const LockInterrupted&) {
      outcome.set_value("interrupted");
    } catch (const std::exception& e) {
      outcome.set_value(e.what());
    }
  });
  ASSERT_TRUE(Eventually([&] { return waiter->ParkedWaiters("interrupt") == 1; }));
  worker.request_stop();
  EXPECT_EQ(outcome.get_future().get(), "interrupted");
  EXPECT_EQ(waiter->ParkedWaiters("interrupt"), 0u);
  EXPECT_TRUE(Eventually([&] { return Subscribers(ChannelOf("interrupt")) == 0; }));
  // A stop requested before the call: no attempt at all, even on a free lock.
  std::stop_source stopped;
  stopped.request_stop();
  redlab::Lock free_lock = waiter->GetLock("free");
  EXPECT_THROW(free_lock.LockInterruptibly(stopped.get_token()), LockInterrupted);
  EXPECT_FALSE(free_lock.IsLocked());
  // Not stopped: it simply locks.
  std::stop_source idle;
  free_lock.LockInterruptibly(idle.get_token());
  EXPECT_TRUE(free_lock.IsHeldByCurrentThread());
  free_lock.Unlock();
}

}  // namespace
}  // namespace redlab::conformance
