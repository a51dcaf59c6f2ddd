// The fenced lock client (Redisson's RFencedLock): tokens from redisson_lock_token:{name} that
// strictly increase per lock, across re-entries, owners, clients and expired holders; the plain
// Lock/TryLock forms advancing the counter too; waiting, async and owner-id forms; and a peer
// running RedissonFencedLock's own scripts. On embedded redlab and on real redis-server.
#include <algorithm>
#include <future>
#include <mutex>
#include <thread>

#include "client/fenced_lock.h"
#include "conformance/lock_support.h"

namespace redlab::conformance {
namespace {

using std::chrono::milliseconds;

// RedissonFencedLock's scripts as it sends them (tryLockInnerAsync, both forms).
constexpr char kRedissonFencedAcquire[] =
    "if (redis.call('exists', KEYS[1]) == 0 "
    "or (redis.call('hexists', KEYS[1], ARGV[2]) == 1)) then "
    "local token = redis.call('incr', KEYS[2]);"
    "redis.call('hincrby', KEYS[1], ARGV[2], 1); "
    "redis.call('pexpire', KEYS[1], ARGV[1]); "
    "return {-1, token}; "
    "end; "
    "return {redis.call('pttl', KEYS[1]), -1};";
constexpr char kRedissonFencedAcquirePlain[] =
    "if ((redis.call('exists', KEYS[1]) == 0) "
    "or (redis.call('hexists', KEYS[1], ARGV[2]) == 1)) then "
    "redis.call('incr', KEYS[2]);"
    "redis.call('hincrby', KEYS[1], ARGV[2], 1); "
    "redis.call('pexpire', KEYS[1], ARGV[1]); "
    "return nil; "
    "end; "
    "return redis.call('pttl', KEYS[1]);";
constexpr char kPeerOwner[] = "8a5b6f9e-0d1c-4e2f-9a3b-7c6d5e4f3a2b:57";

class FencedLockTest : public LockTest {};

TEST_F(FencedLockTest, TokensGrowWithEveryAcquisitionReentriesIncluded) {
  auto client = NewClient();
  redlab::FencedLock lock = client->GetFencedLock("ledger");
  EXPECT_EQ(lock.token_key(), "redisson_lock_token:{ledger}");
  EXPECT_EQ(lock.Token(), std::nullopt);
  EXPECT_EQ(lock.LockWithToken(), 1);
  EXPECT_EQ(lock.TryLockWithToken(), std::optional<int64_t>(2));  // re-entry: a new token
  EXPECT_EQ(lock.Token(), std::optional<int64_t>(2));
  EXPECT_EQ(c()({"GET", "redisson_lock_token:{ledger}"}), Bulk("2"));
  EXPECT_EQ(c()({"PTTL", "redisson_lock_token:{ledger}"}), Int(-1));  // the counter never expires
  EXPECT_EQ(c()({"HGETALL", "ledger"}), Array({Bulk(lock.OwnerId()), Bulk("2")}));
  EXPECT_EQ(lock.GetHoldCount(), 2);
  lock.Unlock();
  lock.Unlock();
  EXPECT_EQ(c()({"EXISTS", "ledger"}), Int(0));
  // The plain forms advance the counter too (Redisson's second script).
  lock.Lock();
  EXPECT_EQ(lock.Token(), std::optional<int64_t>(3));
  EXPECT_TRUE(lock.TryLock());
  EXPECT_EQ(lock.Token(), std::optional<int64_t>(4));
  lock.Unlock();
  lock.Unlock();
  // Another client continues the same sequence.
  auto other = NewClient();
  EXPECT_EQ(other->GetFencedLock("ledger").LockWithToken(milliseconds(5000)), 5);
  other->GetFencedLock("ledger").Unlock();
}

TEST_F(FencedLockTest, AFailedAttemptLeavesTheCounterAlone) {
  auto holder = NewClient();
  auto other = NewClient();
  redlab::FencedLock held = holder->GetFencedLock("busy");
  EXPECT_EQ(held.LockWithToken(), 1);
  redlab::FencedLock lock = other->GetFencedLock("busy");
  EXPECT_EQ(lock.TryLockWithToken(), std::nullopt);
  EXPECT_FALSE(lock.TryLock());
  EXPECT_EQ(lock.TryLockWithToken(milliseconds(50), milliseconds(1000)), std::nullopt);
  EXPECT_EQ(c()({"GET", "redisson_lock_token:{busy}"}), Bulk("1"));
  EXPECT_THROW(lock.Unlock(), IllegalMonitorState);
  held.Unlock();
  EXPECT_EQ(lock.TryLockWithToken(), std::optional<int64_t>(2));
  lock.Unlock();
}

TEST_F(FencedLockTest, AWaiterIsWokenAndGetsTheNextToken) {
  auto holder = NewClient();
  auto waiter = NewClient();
  redlab::FencedLock held = holder->GetFencedLock("queue");
  EXPECT_EQ(held.LockWithToken(), 1);
  redlab::FencedLock lock = waiter->GetFencedLock("queue");
  std::future<std::optional<int64_t>> got = lock.TryLockWithTokenAsync(milliseconds(20000));
  ASSERT_TRUE(Eventually([&] { return waiter->ParkedWaiters("queue") == 1; }));
  held.Unlock();
  EXPECT_EQ(got.get(), std::optional<int64_t>(2));
  EXPECT_TRUE(lock.IsHeldByCurrentThread());
  lock.Unlock();
}

TEST_F(FencedLockTest, AnExpiredHolderIsOvertakenWithALargerToken) {
  auto dead = NewClient();
  auto live = NewClient();
  // The first holder takes a short lease and never releases (it died).
  EXPECT_EQ(dead->GetFencedLock("lease").LockWithToken(milliseconds(100)), 1);
  redlab::FencedLock lock = live->GetFencedLock("lease");
  // Lock waits for the lease to run out: no unlock message ever comes, the PTTL bounds the wait.
  EXPECT_EQ(lock.LockWithToken(), 2);
  EXPECT_EQ(c()({"HGETALL", "lease"}), Array({Bulk(lock.OwnerId()), Bulk("1")}));
  lock.Unlock();
}

TEST_F(FencedLockTest, OwnerIdsAndAsyncForms) {
  auto client = NewClient();
  redlab::FencedLock lock = client->GetFencedLock("owners");
  ThreadId a{1001}, b{1002};
  EXPECT_EQ(lock.LockWithTokenAsync(a).get(), 1);
  EXPECT_EQ(lock.TryLockWithTokenAsync(b).get(), std::nullopt);
  std::future<int64_t> b_waits = lock.LockWithTokenAsync(milliseconds(10000), b);
  ASSERT_TRUE(Eventually([&] { return client->ParkedWaiters("owners") == 1; }));
  lock.UnlockAsync(a).get();
  EXPECT_EQ(b_waits.get(), 2);
  EXPECT_TRUE(lock.IsHeldByThread(b));
  EXPECT_EQ(c()({"HGET", "owners", lock.OwnerId(b)}), Bulk("1"));
  int64_t pttl = c()({"PTTL", "owners"}).integer;
  EXPECT_GT(pttl, 0);
  EXPECT_LE(pttl, 10000);  // the lease, not the watchdog's 30 s
  EXPECT_EQ(lock.TryLockWithTokenAsync(milliseconds(0), milliseconds(10000), b).get(),
            std::optional<int64_t>(3));
  EXPECT_EQ(lock.TokenAsync().get(), std::optional<int64_t>(3));
  lock.Unlock(b);
  lock.Unlock(b);
  EXPECT_FALSE(lock.IsLocked());
}

TEST_F(FencedLockTest, ContendedTokensFollowTheOrderOfHolds) {
  // Three clients, two threads each, take the lock in turn; inside each hold the thread checks
  // that its token is larger than any token seen before it (the fencing a resource would do).
  constexpr int kClients = 3, kThreads = 2, kRounds = 15;
  std::vector<std::unique_ptr<redlab::Client>> clients;
  for (int i = 0; i < kClients; ++i) clients.push_back(NewClient());
  std::mutex mu;
  int64_t last_seen = 0;
  int in_hold = 0;
  std::vector<int64_t> tokens;
  std::vector<std::string> problems;
  std::vector<std::thread> threads;
  for (int i = 0; i < kClients; ++i) {
    for (int t = 0; t < kThreads; ++t) {
      threads.emplace_back([&, i] {
        redlab::FencedLock lock = clients[i]->GetFencedLock("contended");
        for (int r = 0; r < kRounds; ++r) {
          int64_t token = lock.LockWithToken();
          {
            std::lock_guard<std::mutex> g(mu);
            if (++in_hold != 1) problems.push_back("two holders at once");
            if (token <= last_seen) {
              problems.push_back("token " + std::to_string(token) + " after " +
                                 std::to_string(last_seen));
            }
            last_seen = token;
            tokens.push_back(token);
          }
          // Inside the hold: a round trip to the server, during which another holder would show.
          EXPECT_EQ(lock.Token(), std::optional<int64_t>(token));
          {
            std::lock_guard<std::mutex> g(mu);
            --in_hold;
          }
          lock.Unlock();
        }
      });
    }
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(problems, std::vector<std::string>{});
  std::vector<int64_t> expected(kClients * kThreads * kRounds);
  for (size_t k = 0; k < expected.size(); ++k) expected[k] = static_cast<int64_t>(k + 1);
  EXPECT_EQ(tokens, expected);
  EXPECT_EQ(c()({"EXISTS", "contended"}), Int(0));
}

TEST_F(FencedLockTest, SharedWithARedissonPeer) {
  Client peer = Connect();
  const std::string token_key = "redisson_lock_token:{shared}";
  // The peer takes it with tokens (lockAndGetToken), then plainly (lock()).
  EXPECT_EQ(peer({"EVAL", kRedissonFencedAcquire, "2", "shared", token_key, "30000", kPeerOwner}),
            Array({Int(-1), Int(1)}));
  EXPECT_EQ(
      peer({"EVAL", kRedissonFencedAcquirePlain, "2", "shared", token_key, "30000", kPeerOwner}),
      Nil());
  auto client = NewClient();
  redlab::FencedLock lock = client->GetFencedLock("shared");
  EXPECT_EQ(lock.TryLockWithToken(), std::nullopt);
  EXPECT_EQ(lock.Token(), std::optional<int64_t>(2));
  std::future<int64_t> got = lock.LockWithTokenAsync();
  ASSERT_TRUE(Eventually([&] { return client->ParkedWaiters("shared") == 1; }));
  // Redisson's unlock (the reentrant lock's) publishes on the same channel.
  EXPECT_EQ(peer.Call(RedissonUnlock("shared", kPeerOwner)), Int(0));
  EXPECT_EQ(peer.Call(RedissonUnlock("shared", kPeerOwner)), Int(1));
  EXPECT_EQ(got.get(), 3);
  // Now the peer waits on us: it sees our PTTL and no token drawn.
  Reply busy =
      peer({"EVAL", kRedissonFencedAcquire, "2", "shared", token_key, "30000", kPeerOwner});
  ASSERT_EQ(busy.type, Reply::Type::kArray);
  ASSERT_EQ(busy.elements.size(), 2u);
  EXPECT_GT(busy.elements[0].integer, 0);
  EXPECT_EQ(busy.elements[1], Int(-1));
  lock.Unlock();
  EXPECT_EQ(peer({"EVAL", kRedissonFencedAcquire, "2", "shared", token_key, "30000", kPeerOwner}),
            Array({Int(-1), Int(4)}));
}

}  // namespace
}  // namespace redlab::conformance
