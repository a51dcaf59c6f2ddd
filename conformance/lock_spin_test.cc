// The spin lock client (Redisson's RSpinLock): the reentrant lock's hash, waiters that back off
// and try again instead of subscribing, releases that publish nothing (RedissonSpinLock's own
// unlock and forceUnlock scripts), contention across clients, and a holder that dies. On
// embedded redlab and on real redis-server.
#include <future>
#include <mutex>
#include <thread>

#include "client/spin_lock.h"
#include "conformance/lock_family_support.h"
#include "conformance/lock_support.h"

namespace redlab::conformance {
namespace {

using std::chrono::milliseconds;

class SpinLockTest : public LockTest {};

TEST_F(SpinLockTest, WaitersBackOffWithoutSubscribing) {
  auto holder = NewClient();
  auto waiter = NewClient();
  redlab::SpinLock held = holder->GetSpinLock("spin");
  held.Lock();
  EXPECT_EQ(c()({"HGETALL", "spin"}), Array({Bulk(held.OwnerId()), Bulk("1")}));
  redlab::SpinLock lock = waiter->GetSpinLock("spin");
  EXPECT_FALSE(lock.TryLock(milliseconds(100)));
  std::future<bool> got = lock.TryLockAsync(milliseconds(20000));
  EXPECT_EQ(got.wait_for(milliseconds(100)), std::future_status::timeout);
  EXPECT_EQ(Subscribers(ChannelOf("spin")), 0);  // no pub/sub: it polls
  EXPECT_EQ(waiter->ParkedWaiters("spin"), 0u);
  held.Unlock();
  EXPECT_TRUE(got.get());
  EXPECT_EQ(c()({"HGETALL", "spin"}), Array({Bulk(lock.OwnerId()), Bulk("1")}));
  lock.Unlock();
}

TEST_F(SpinLockTest, AHolderThatDiesFreesItWhenItsLeaseEnds) {
  auto dead = NewClient();
  dead->GetSpinLock("lease").Lock(milliseconds(100));
  dead->Shutdown();
  auto live = NewClient();
  redlab::SpinLock lock = live->GetSpinLock("lease");
  lock.Lock();
  EXPECT_TRUE(lock.IsHeldByCurrentThread());
  lock.Unlock();
}

TEST_F(SpinLockTest, ContendingClientsNeverOverlap) {
  constexpr int kClients = 3, kThreads = 2, kRounds = 10;
  std::vector<std::unique_ptr<redlab::Client>> clients;
  for (int i = 0; i < kClients; ++i) clients.push_back(NewClient());
  std::mutex mu;
  int inside = 0, entries = 0;
  std::vector<std::string> problems;
  std::vector<std::thread> threads;
  for (int i = 0; i < kClients; ++i) {
    for (int t = 0; t < kThreads; ++t) {
      threads.emplace_back([&, i] {
        redlab::SpinLock lock = clients[i]->GetSpinLock("contended");
        Client probe = Connect();
        for (int r = 0; r < kRounds; ++r) {
          std::lock_guard<redlab::SpinLock> hold(lock);
          {
            std::lock_guard<std::mutex> g(mu);
            if (++inside != 1) problems.push_back("two holders at once");
            ++entries;
          }
          probe({"PING"});
          std::lock_guard<std::mutex> g(mu);
          --inside;
        }
      });
    }
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(problems, std::vector<std::string>{});
  EXPECT_EQ(entries, kClients * kThreads * kRounds);
  EXPECT_EQ(Subscribers(ChannelOf("contended")), 0);
  EXPECT_EQ(c()({"EXISTS", "contended"}), Int(0));
}

TEST_F(SpinLockTest, ReleasesPublishNothingAsRedissonSpinLock) {
  auto client = NewClient();
  Listener listener(port(), {ChannelOf("quiet")});
  redlab::SpinLock lock = client->GetSpinLock("quiet");
  lock.Lock();
  lock.Lock();
  lock.Unlock();
  EXPECT_EQ(c()({"HGETALL", "quiet"}), Array({Bulk(lock.OwnerId()), Bulk("1")}));
  lock.Unlock();
  EXPECT_EQ(c()({"EXISTS", "quiet"}), Int(0));
  EXPECT_THROW(lock.Unlock(), IllegalMonitorState);
  lock.Lock();
  EXPECT_TRUE(lock.ForceUnlock());
  EXPECT_FALSE(lock.ForceUnlock());
  EXPECT_EQ(c()({"EXISTS", "quiet"}), Int(0));
  EXPECT_EQ(listener.Received(c()), std::vector<Listener::Message>{});
  // The reentrant lock of the same name publishes Redisson's unlock message, "0".
  redlab::ReentrantLock plain = client->GetLock("quiet");
  plain.Lock();
  plain.Unlock();
  EXPECT_EQ(listener.Received(c()),
            (std::vector<Listener::Message>{{ChannelOf("quiet"), "0"}}));
}

}  // namespace
}  // namespace redlab::conformance
