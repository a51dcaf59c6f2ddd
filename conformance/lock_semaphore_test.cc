// The semaphore client (Redisson's RSemaphore): the string `name` holding the free permits,
// all-or-nothing acquisition, waiters woken by the counts published on redisson_sc:{name},
// trySetPermits (with a TTL), addPermits, drainPermits, releaseIfExists, contention across
// clients, and a peer running RedissonSemaphore's scripts. On embedded redlab and redis-server.
#include <future>
#include <mutex>
#include <thread>

#include "client/semaphore.h"
#include "conformance/lock_support.h"

namespace redlab::conformance {
namespace {

using std::chrono::milliseconds;

// RedissonSemaphore's scripts as it sends them today (tryAcquireAsync0, releaseAsync).
constexpr char kRedissonTryAcquire[] =
    "local value = redis.call('get', KEYS[1]); "
    "if (value ~= false and tonumber(value) >= tonumber(ARGV[1])) then "
    "local val = redis.call('decrby', KEYS[1], ARGV[1]); "
    "return 1; "
    "end; "
    "return 0;";
constexpr char kRedissonRelease[] =
    "local value = redis.call('incrby', KEYS[1], ARGV[1]); "
    "redis.call(ARGV[2], KEYS[2], value); ";

class SemaphoreTest : public LockTest {};

TEST_F(SemaphoreTest, PermitsAsRedissonKeepsThem) {
  auto client = NewClient();
  redlab::Semaphore s = client->GetSemaphore("slots");
  EXPECT_EQ(s.channel(), "redisson_sc:{slots}");
  EXPECT_EQ(s.AvailablePermits(), 0);
  EXPECT_FALSE(s.TryAcquire());  // never set: no permits, nothing created
  EXPECT_EQ(c()({"EXISTS", "slots"}), Int(0));
  EXPECT_TRUE(s.TrySetPermits(3));
  EXPECT_FALSE(s.TrySetPermits(5));
  EXPECT_EQ(c()({"GET", "slots"}), Bulk("3"));
  EXPECT_TRUE(s.TryAcquire(2));
  EXPECT_FALSE(s.TryAcquire(2));  // all or nothing
  EXPECT_EQ(s.AvailablePermits(), 1);
  EXPECT_TRUE(s.TryAcquire(0));  // answered without asking, as Redisson
  s.Release(2);
  EXPECT_EQ(c()({"GET", "slots"}), Bulk("3"));
  EXPECT_EQ(s.DrainPermits(), 3);
  EXPECT_EQ(s.AvailablePermits(), 0);
  s.AddPermits(2);
  EXPECT_EQ(s.AvailablePermits(), 2);
  s.AddPermits(-3);
  EXPECT_EQ(s.AvailablePermits(), -1);
  EXPECT_TRUE(s.Delete());
  EXPECT_FALSE(s.ReleaseIfExists(1));
  // Releasing 0 permits is answered without a call, as Redisson's releaseAsync(0): no INCRBY 0
  // creates the semaphore.
  s.Release(0);
  EXPECT_EQ(c()({"EXISTS", "slots"}), Int(0));
  EXPECT_TRUE(s.TrySetPermits(4, milliseconds(60000)));
  int64_t pttl = c()({"PTTL", "slots"}).integer;
  EXPECT_GT(pttl, 0);
  EXPECT_LE(pttl, 60000);
  EXPECT_TRUE(s.ReleaseIfExists(1));
  EXPECT_EQ(s.AvailablePermits(), 5);
  EXPECT_THROW(s.TryAcquire(-1), redlab::Error);
}

TEST_F(SemaphoreTest, AWaiterIsWokenByARelease) {
  auto holder = NewClient();
  auto waiter = NewClient();
  redlab::Semaphore held = holder->GetSemaphore("one");
  ASSERT_TRUE(held.TrySetPermits(1));
  ASSERT_TRUE(held.TryAcquire());
  redlab::Semaphore s = waiter->GetSemaphore("one");
  std::future<bool> got = s.TryAcquireAsync(1, milliseconds(20000));
  ASSERT_TRUE(Eventually([&] { return waiter->ParkedWaiters("redisson_sc:{one}") == 1; }));
  EXPECT_EQ(Subscribers("redisson_sc:{one}"), 1);
  held.Release();
  EXPECT_TRUE(got.get());
  EXPECT_EQ(c()({"GET", "one"}), Bulk("0"));
  // The waiter unsubscribed once served.
  EXPECT_TRUE(Eventually([&] { return Subscribers("redisson_sc:{one}") == 0; }));
  EXPECT_FALSE(s.TryAcquire(1, milliseconds(50)));
}

TEST_F(SemaphoreTest, AcquireOnANeverSetSemaphoreWaitsForItsPermits) {
  auto client = NewClient();
  auto other = NewClient();
  redlab::Semaphore s = client->GetSemaphore("later");
  std::future<void> got = s.AcquireAsync(2);
  ASSERT_TRUE(Eventually([&] { return client->ParkedWaiters("redisson_sc:{later}") == 1; }));
  EXPECT_TRUE(other->GetSemaphore("later").TrySetPermits(1));  // not enough yet
  EXPECT_TRUE(Eventually([&] { return client->ParkedWaiters("redisson_sc:{later}") == 1; }));
  other->GetSemaphore("later").AddPermits(1);
  got.get();
  EXPECT_EQ(c()({"GET", "later"}), Bulk("0"));
}

TEST_F(SemaphoreTest, ContendingClientsNeverExceedThePermits) {
  constexpr int kClients = 3, kThreads = 2, kRounds = 10;
  std::vector<std::unique_ptr<redlab::Client>> clients;
  for (int i = 0; i < kClients; ++i) clients.push_back(NewClient());
  ASSERT_TRUE(clients[0]->GetSemaphore("pool").TrySetPermits(2));
  std::mutex mu;
  int inside = 0, most = 0, entries = 0;
  std::vector<std::thread> threads;
  for (int i = 0; i < kClients; ++i) {
    for (int t = 0; t < kThreads; ++t) {
      threads.emplace_back([&, i] {
        redlab::Semaphore s = clients[i]->GetSemaphore("pool");
        Client probe = Connect();
        for (int r = 0; r < kRounds; ++r) {
          s.Acquire();
          {
            std::lock_guard<std::mutex> g(mu);
            most = std::max(most, ++inside);
            ++entries;
          }
          probe({"PING"});  // a round trip inside, while others may enter
          {
            std::lock_guard<std::mutex> g(mu);
            --inside;
          }
          s.Release();
        }
      });
    }
  }
  for (auto& th : threads) th.join();
  EXPECT_LE(most, 2);
  EXPECT_EQ(entries, kClients * kThreads * kRounds);
  EXPECT_EQ(c()({"GET", "pool"}), Bulk("2"));
}

TEST_F(SemaphoreTest, SharedWithARedissonPeer) {
  auto client = NewClient();
  redlab::Semaphore s = client->GetSemaphore("shared");
  ASSERT_TRUE(s.TrySetPermits(1));
  Client peer = Connect();
  EXPECT_EQ(peer({"EVAL", kRedissonTryAcquire, "1", "shared", "1"}), Int(1));
  EXPECT_FALSE(s.TryAcquire());
  std::future<bool> got = s.TryAcquireAsync(1, milliseconds(20000));
  ASSERT_TRUE(Eventually([&] { return client->ParkedWaiters("redisson_sc:{shared}") == 1; }));
  // The peer's release publishes the count on redisson_sc:{shared}: that wakes us.
  EXPECT_EQ(peer({"EVAL", kRedissonRelease, "2", "shared", "redisson_sc:{shared}", "1", "PUBLISH"}),
            Nil());
  EXPECT_TRUE(got.get());
  // Ours wakes a peer listening as Redisson does.
  Client sub = Connect();
  sub.SendCommand({"SUBSCRIBE", "redisson_sc:{shared}"});
  sub.Read();
  s.Release();
  EXPECT_EQ(sub.Read(), Array({Bulk("message"), Bulk("redisson_sc:{shared}"), Bulk("1")}));
  EXPECT_EQ(peer({"EVAL", kRedissonTryAcquire, "1", "shared", "1"}), Int(1));
}

}  // namespace
}  // namespace redlab::conformance
