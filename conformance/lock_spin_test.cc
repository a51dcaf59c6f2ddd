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

// RedissonSpinLock's scripts as it sends them today (tryLockInnerAsync, unlockInnerAsync).
constexpr char kRedissonSpinAcquire[] =
    "if (redis.call('exists', KEYS[1]) == 0) then "
    "redis.call('hincrby', KEYS[1], ARGV[2], 1); "
    "redis.call('pexpire', KEYS[1], ARGV[1]); "
    "return nil; "
    "end; "
    "if (redis.call('hexists', KEYS[1], ARGV[2]) == 1) then "
    "redis.call('hincrby', KEYS[1], ARGV[2], 1); "
    "redis.call('pexpire', KEYS[1], ARGV[1]); "
    "return nil; "
    "end; "
    "return redis.call('pttl', KEYS[1]);";
constexpr char kRedissonSpinUnlock[] =
    "local val = redis.call('get', KEYS[2]); "
    "if val ~= false then "
    "return tonumber(val);"
    "end; "
    "if (redis.call('hexists', KEYS[1], ARGV[2]) == 0) then "
    "return nil;"
    "end; "
    "local counter = redis.call('hincrby', KEYS[1], ARGV[2], -1); "
    "if (counter > 0) then "
    "redis.call('pexpire', KEYS[1], ARGV[1]); "
    "redis.call('set', KEYS[2], 0, 'px', ARGV[3]); "
    "return 0; "
    "else "
    "redis.call('del', KEYS[1]); "
    "redis.call('set', KEYS[2], 1, 'px', ARGV[3]); "
    "return 1; "
    "end; ";

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
  EXPECT_EQ(listener.Received(c()), (std::vector<Listener::Message>{{ChannelOf("quiet"), "0"}}));
}

TEST_F(SpinLockTest, SharedWithARedissonSpinPeer) {
  constexpr char kPeer[] = "8a5b6f9e-0d1c-4e2f-9a3b-7c6d5e4f3a2b:57";
  Client peer = Connect();
  EXPECT_EQ(peer({"EVAL", kRedissonSpinAcquire, "1", "duo", "60000", kPeer}), Nil());
  auto client = NewClient();
  Listener listener(port(), {ChannelOf("duo")});
  redlab::SpinLock lock = client->GetSpinLock("duo");
  EXPECT_FALSE(lock.TryLock());
  std::future<bool> got = lock.TryLockAsync(milliseconds(20000));
  // The peer's release publishes nothing; our waiter finds the lock free on its next try.
  EXPECT_EQ(peer({"EVAL", kRedissonSpinUnlock, "2", "duo", "redisson_unlock_latch:{duo}:p1",
                  "30000", kPeer, "5000"}),
            Int(1));
  EXPECT_TRUE(got.get());
  Reply ttl = peer({"EVAL", kRedissonSpinAcquire, "1", "duo", "60000", kPeer});
  ASSERT_EQ(ttl.type, Reply::Type::kInteger);  // Redisson sees our hold and its PTTL
  EXPECT_GT(ttl.integer, 0);
  lock.Unlock();
  EXPECT_EQ(peer({"EVAL", kRedissonSpinAcquire, "1", "duo", "60000", kPeer}), Nil());
  EXPECT_EQ(listener.Received(c()), std::vector<Listener::Message>{});
}

}  // namespace
}  // namespace redlab::conformance
