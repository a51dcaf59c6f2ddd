// RedLock over five independent masters of the current target (embedded redlab nodes, or real
// redis-server processes): Redisson's lock hash on each, majority of three, acquisition with two
// masters crashed, a clean failure with three (what answered is released), contention, the
// watchdog extending the validity and reporting a loss, a dead holder's lease, a Redisson peer
// holding the lock on some masters, and back-to-back holds leaving nothing behind.
#include <future>
#include <mutex>
#include <thread>

#include "client/client.h"
#include "conformance/harness/client.h"
#include "conformance/harness/target.h"
#include "conformance/lock_support.h"

namespace redlab::conformance {
namespace {

using std::chrono::milliseconds;

constexpr char kPeerOwner[] = "8a5b6f9e-0d1c-4e2f-9a3b-7c6d5e4f3a2b:57";

class RedLockTest : public ::testing::Test {
 protected:
  static constexpr size_t kMasters = 5;

  void SetUp() override {
    for (size_t i = 0; i < kMasters; ++i) servers_.push_back(StartServer());
  }

  Config MastersConfig() {
    std::vector<std::string> urls;
    for (auto& s : servers_) urls.push_back("redis://127.0.0.1:" + std::to_string(s->port()));
    Config config = Config::IndependentMasters(urls);
    config.connect_timeout = milliseconds(2000);
    config.timeout = milliseconds(2000);
    config.retry_interval = milliseconds(50);
    // Generous for a loaded test machine: a crashed master answers at once (refused).
    config.red_lock_node_timeout = milliseconds(500);
    config.red_lock_retry_delay = milliseconds(20);
    return config;
  }
  std::unique_ptr<redlab::Client> NewClient() {
    return std::make_unique<redlab::Client>(MastersConfig());
  }
  Client Master(size_t i) { return Client(servers_[i]->port()); }
  void Crash(size_t i) { servers_[i]->Stop(); }
  // The lock hash `name` on master i, as HGETALL shows it.
  Reply HashOn(size_t i, const std::string& name) { return Master(i)({"HGETALL", name}); }

  std::vector<std::unique_ptr<Server>> servers_;
};

TEST_F(RedLockTest, HeldOnEveryMasterAsRedissonsHashAndReleasedEverywhere) {
  auto client = NewClient();
  redlab::RedLock lock = client->GetRedLock("payments");
  EXPECT_EQ(lock.quorum(), 3u);
  EXPECT_EQ(lock.Validity(), milliseconds(0));
  ASSERT_TRUE(lock.TryLock(milliseconds(2000), milliseconds(10000)));
  EXPECT_TRUE(lock.IsHeldByCurrentThread());
  // A majority answered before TryLock returned; the others follow.
  for (size_t i = 0; i < kMasters; ++i) {
    EXPECT_TRUE(Eventually([&] {
      return HashOn(i, "payments") == Array({Bulk(lock.OwnerId()), Bulk("1")});
    })) << "master "
        << i;
    int64_t pttl = Master(i)({"PTTL", "payments"}).integer;
    EXPECT_GT(pttl, 0);
    EXPECT_LE(pttl, 10000);
  }
  // Validity: the lease less the attempt's time and the drift (10000 x 1% + 2 ms).
  milliseconds validity = lock.Validity();
  EXPECT_GT(validity, milliseconds(0));
  EXPECT_LE(validity, milliseconds(10000 - 102));
  // Not reentrant.
  EXPECT_THROW(lock.TryLock(), redlab::Error);
  lock.Unlock();
  EXPECT_FALSE(lock.IsHeldByCurrentThread());
  EXPECT_EQ(lock.Validity(), milliseconds(0));
  for (size_t i = 0; i < kMasters; ++i) {
    EXPECT_TRUE(Eventually([&] {
      return Master(i)({"EXISTS", "payments"}) == Int(0);
    })) << "master "
        << i;
  }
  EXPECT_THROW(lock.Unlock(), IllegalMonitorState);
}

TEST_F(RedLockTest, TwoMastersCrashedStillAMajority) {
  Crash(1);
  Crash(3);
  auto client = NewClient();  // starts with a majority up
  redlab::RedLock lock = client->GetRedLock("two-down");
  ASSERT_TRUE(lock.TryLock(milliseconds(2000), milliseconds(10000)));
  EXPECT_GT(lock.Validity(), milliseconds(0));
  for (size_t i : {0u, 2u, 4u}) {
    EXPECT_EQ(HashOn(i, "two-down"), Array({Bulk(lock.OwnerId()), Bulk("1")})) << "master " << i;
  }
  // Another client cannot have it meanwhile.
  auto other = NewClient();
  EXPECT_FALSE(other->GetRedLock("two-down").TryLock(milliseconds(100), milliseconds(10000)));
  lock.Unlock();
  for (size_t i : {0u, 2u, 4u}) EXPECT_EQ(Master(i)({"EXISTS", "two-down"}), Int(0));
  EXPECT_TRUE(other->GetRedLock("two-down").TryLock(milliseconds(2000), milliseconds(10000)));
}

TEST_F(RedLockTest, ThreeMastersCrashedFailsCleanlyAndReleasesWhatAnswered) {
  auto client = NewClient();
  Crash(0);
  Crash(2);
  Crash(4);
  redlab::RedLock lock = client->GetRedLock("three-down");
  EXPECT_FALSE(lock.TryLock());
  EXPECT_FALSE(lock.TryLock(milliseconds(300), milliseconds(10000)));
  EXPECT_FALSE(lock.IsHeldByCurrentThread());
  EXPECT_EQ(lock.Validity(), milliseconds(0));
  // The two masters that granted each attempt had it taken back.
  for (size_t i : {1u, 3u}) EXPECT_EQ(Master(i)({"EXISTS", "three-down"}), Int(0));
  EXPECT_THROW(lock.Unlock(), IllegalMonitorState);
}

TEST_F(RedLockTest, ARedissonPeerOnAMajorityKeepsUsOutUntilItsUnlock) {
  // The peer holds Redisson's reentrant lock on masters 0, 1, 2 (as RedissonRedLock would).
  for (size_t i : {0u, 1u, 2u}) {
    Client m = Master(i);
    EXPECT_EQ(m({"EVAL", kRedissonAcquire, "1", "shared", "60000", kPeerOwner}), Nil());
  }
  auto client = NewClient();
  redlab::RedLock lock = client->GetRedLock("shared");
  EXPECT_FALSE(lock.TryLock(milliseconds(200), milliseconds(10000)));
  // The two it did get were given back; the peer's holds are untouched.
  for (size_t i : {3u, 4u}) EXPECT_EQ(Master(i)({"EXISTS", "shared"}), Int(0));
  for (size_t i : {0u, 1u, 2u})
    EXPECT_EQ(HashOn(i, "shared"), Array({Bulk(kPeerOwner), Bulk("1")}));
  // The peer lets go of one master: three are free, a majority.
  Client m0 = Master(0);
  EXPECT_EQ(m0.Call(RedissonUnlock("shared", kPeerOwner)), Int(1));
  ASSERT_TRUE(lock.TryLock(milliseconds(2000), milliseconds(10000)));
  for (size_t i : {0u, 3u, 4u}) {
    EXPECT_EQ(HashOn(i, "shared"), Array({Bulk(lock.OwnerId()), Bulk("1")}));
  }
  lock.Unlock();
  for (size_t i : {1u, 2u}) EXPECT_EQ(HashOn(i, "shared"), Array({Bulk(kPeerOwner), Bulk("1")}));
}

TEST_F(RedLockTest, ContendingClientsNeverOverlap) {
  constexpr int kClients = 3, kRounds = 8;
  std::vector<std::unique_ptr<redlab::Client>> clients;
  for (int i = 0; i < kClients; ++i) clients.push_back(NewClient());
  std::mutex mu;
  int in_hold = 0, holds = 0;
  std::vector<std::string> problems;
  std::vector<std::thread> threads;
  for (int i = 0; i < kClients; ++i) {
    threads.emplace_back([&, i] {
      redlab::RedLock lock = clients[i]->GetRedLock("contended");
      for (int r = 0; r < kRounds; ++r) {
        lock.Lock(milliseconds(3000));
        {
          std::lock_guard<std::mutex> g(mu);
          if (++in_hold != 1) problems.push_back("two holders at once");
        }
        // Inside the hold: a master round trip, during which another holder would show.
        Master(static_cast<size_t>(r) % kMasters)({"PING"});
        {
          std::lock_guard<std::mutex> g(mu);
          ++holds;
          --in_hold;
        }
        lock.Unlock();
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(problems, std::vector<std::string>{});
  EXPECT_EQ(holds, kClients * kRounds);
  // Every hold was released everywhere. An attempt's acquisition that reached a slow master
  // after the attempt was given up leaves a key that expires by itself: within the lease, or,
  // when it stacked on an earlier acquisition of the same owner, within the watchdog timeout
  // the unlock script sets on a count that stays above zero (Redisson's unlock: pexpire
  // internalLockLeaseTime). Never a key without a TTL.
  const int64_t watchdog_ms = MastersConfig().lock_watchdog_timeout.count();
  for (size_t i = 0; i < kMasters; ++i) {
    Reply ttl = Master(i)({"PTTL", "contended"});
    EXPECT_TRUE(ttl == Int(-2) || (ttl.integer > 0 && ttl.integer <= watchdog_ms))
        << "master " << i << ": " << ttl.Describe();
  }
}

TEST_F(RedLockTest, BackToBackHoldsLeaveNothingBehindOnAnyMaster) {
  // Each attempt and each release ends once a majority answered; the other masters' commands
  // are still in flight when the next one is sent. A master must run them in the order sent
  // (one connection per name): a release overtaking the acquisition before it would find
  // nothing, and the acquisition would then leave the lock held there for its lease.
  constexpr int kRounds = 300;
  auto client = NewClient();
  redlab::RedLock lock = client->GetRedLock("back-to-back");
  int held = 0;
  for (int r = 0; r < kRounds; ++r) {
    if (!lock.TryLock(milliseconds(5000), milliseconds(60000))) break;
    ++held;
    lock.Unlock();
  }
  EXPECT_EQ(held, kRounds);
  for (size_t i = 0; i < kMasters; ++i) {
    EXPECT_TRUE(Eventually([&] { return Master(i)({"EXISTS", "back-to-back"}) == Int(0); }))
        << "master " << i << ": PTTL " << Master(i)({"PTTL", "back-to-back"}).Describe();
  }
}

TEST_F(RedLockTest, AHolderThatDiesFreesTheLockWhenItsLeaseEnds) {
  auto dead = NewClient();
  ASSERT_TRUE(dead->GetRedLock("lease").TryLock(milliseconds(2000), milliseconds(300)));
  dead->Shutdown();  // never releases
  auto live = NewClient();
  redlab::RedLock lock = live->GetRedLock("lease");
  EXPECT_FALSE(lock.TryLock());
  lock.Lock(milliseconds(10000));  // attempts until the dead holder's lease has run out
  // A majority granted it before Lock returned. The others may still have answered with the
  // dead holder's last milliseconds (its key expires on each master at its own moment), and
  // then stay without the new hold: RedLock needs only the majority.
  size_t holding = 0;
  for (size_t i = 0; i < kMasters; ++i) {
    holding += HashOn(i, "lease") == Array({Bulk(lock.OwnerId()), Bulk("1")}) ? 1 : 0;
  }
  EXPECT_GE(holding, lock.quorum());
  lock.Unlock();
  for (size_t i = 0; i < kMasters; ++i) {
    EXPECT_TRUE(Eventually([&] { return Master(i)({"EXISTS", "lease"}) == Int(0); })) << i;
  }
}

TEST_F(RedLockTest, WatchdogExtendsTheValidityThenReportsTheLossOfTheMajority) {
  Config config = MastersConfig();
  config.lock_watchdog_timeout = milliseconds(600);
  redlab::Client client(config);
  redlab::RedLock lock = client.GetRedLock("watched");
  std::promise<LockLost> lost;
  lock.OnLost([&lost](const LockLost& l) { lost.set_value(l); });
  lock.Lock();
  milliseconds first = lock.Validity();
  auto measured = std::chrono::steady_clock::now();
  EXPECT_GT(first, milliseconds(0));
  EXPECT_LE(first, milliseconds(600 - 8));
  // Unrenewed, the validity would shrink with time; a renewal by the masters (every 200 ms)
  // restarts it, so it stays well above `first` less the time since.
  ASSERT_TRUE(Eventually(
      [&] {
        auto since =
            std::chrono::duration_cast<milliseconds>(std::chrono::steady_clock::now() - measured);
        return lock.Validity() > first - since + milliseconds(100);
      },
      std::chrono::seconds(5)));
  for (size_t i = 0; i < kMasters; ++i) {
    EXPECT_EQ(HashOn(i, "watched"), Array({Bulk(lock.OwnerId()), Bulk("1")}));
  }
  // Three masters lose it (deleted there): the next renewal finds only two, not a majority.
  for (size_t i : {0u, 1u, 2u}) EXPECT_EQ(Master(i)({"DEL", "watched"}), Int(1));
  std::future<LockLost> reported = lost.get_future();
  ASSERT_EQ(reported.wait_for(std::chrono::seconds(5)), std::future_status::ready);
  LockLost l = reported.get();
  EXPECT_EQ(l.name, "watched");
  EXPECT_EQ(l.owner, lock.OwnerId());
  EXPECT_FALSE(lock.IsHeldByCurrentThread());
  EXPECT_EQ(lock.Validity(), milliseconds(0));
  lock.OnLost(nullptr);
}

TEST_F(RedLockTest, OwnerIdsAndAsyncForms) {
  auto client = NewClient();
  redlab::RedLock lock = client->GetRedLock("owners");
  ThreadId a{2001}, b{2002};
  EXPECT_TRUE(lock.TryLockAsync(milliseconds(1000), milliseconds(10000), a).get());
  EXPECT_FALSE(lock.TryLockAsync(b).get());
  std::future<void> b_waits = lock.LockAsync(milliseconds(10000), b);
  EXPECT_TRUE(lock.IsHeldByThread(a));
  lock.UnlockAsync(a).get();
  b_waits.get();
  EXPECT_TRUE(lock.IsHeldByThread(b));
  EXPECT_TRUE(Eventually([&] {
    return HashOn(4, "owners") == Array({Bulk(lock.OwnerId(b)), Bulk("1")});
  }));
  EXPECT_THROW(lock.UnlockAsync(a).get(), IllegalMonitorState);
  lock.UnlockAsync(b).get();
}

}  // namespace
}  // namespace redlab::conformance
