// The permit-expirable semaphore (Redisson's RPermitExpirableSemaphore) over the wire, on both
// targets: the keys as Redisson keeps them (free permits in `name`, the taken ones in the zset
// {name}:timeout as 16-byte ids scored with their expiry date), leases that give permits back,
// waiters woken by a release and by the nearest lease's end, updateLeaseTime, getLeaseTime,
// getPermits, acquiredPermits, setPermits, the release of several permits, and a peer that
// takes a permit with Redisson's own script text.
#include <functional>
#include <future>

#include "client/permit_semaphore_core.h"
#include "conformance/lock_family_support.h"
#include "conformance/lock_support.h"

namespace redlab::conformance {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

// RedissonPermitExpirableSemaphore.tryAcquireAsync(ids, timeoutDate), as Redisson sends it.
constexpr char kRedissonTryAcquire[] =
    "local expiredIds = redis.call('zrangebyscore', KEYS[2], 0, ARGV[3], 'limit', 0, ARGV[1]); "
    "if #expiredIds > 0 then "
    "redis.call('zrem', KEYS[2], unpack(expiredIds)); "
    "local value = redis.call('incrby', KEYS[1], #expiredIds); "
    "if tonumber(value) > 0 then "
    "redis.call(ARGV[5], KEYS[3], value); "
    "end;"
    "end; "
    "local value = redis.call('get', KEYS[1]); "
    "if (value ~= false and tonumber(value) >= tonumber(ARGV[1])) then "
    "redis.call('decrby', KEYS[1], ARGV[1]); "
    "for i = 6, #ARGV, 1 do "
    "redis.call('zadd', KEYS[2], ARGV[2], ARGV[i]); "
    "end; "
    "local ttl = redis.call('pttl', KEYS[1]); "
    "if ttl > 0 then "
    "redis.call('pexpire', KEYS[2], ttl); "
    "end; "
    "return 'OK'; "
    "end; "
    "local v = redis.call('zrange', KEYS[2], 0, 0, 'WITHSCORES'); "
    "if v[1] ~= nil and v[2] ~= ARGV[4] then "
    "return ':' .. tostring(v[2]); "
    "end "
    "return nil;";

class PermitSemaphoreTest : public LockTest {};

TEST_F(PermitSemaphoreTest, PermitsAsRedissonKeepsThem) {
  auto client = NewClient();
  redlab::PermitExpirableSemaphore s = client->GetPermitExpirableSemaphore("gpu");
  EXPECT_EQ(s.timeout_name(), "{gpu}:timeout");
  EXPECT_EQ(s.channel(), "redisson_sc:{gpu}");
  EXPECT_EQ(s.AvailablePermits(), 0);
  EXPECT_FALSE(s.TryAcquire().has_value());
  EXPECT_TRUE(s.TrySetPermits(2));
  EXPECT_FALSE(s.TrySetPermits(5));
  int64_t before = client::UnixMillis();
  std::string leased = s.Acquire(seconds(60));
  int64_t after = client::UnixMillis();
  ASSERT_EQ(leased.size(), 32u);
  std::string bytes = client::HexToBytes(leased);
  Reply score = c().Call({"ZSCORE", "{gpu}:timeout", bytes});
  ASSERT_EQ(score.type, Reply::Type::kBulk);
  EXPECT_GE(std::stoll(score.str), before + 60000);
  EXPECT_LE(std::stoll(score.str), after + 60000);
  std::optional<std::string> forever = s.TryAcquire();
  ASSERT_TRUE(forever.has_value());
  EXPECT_EQ(c().Call({"ZSCORE", "{gpu}:timeout", client::HexToBytes(*forever)}),
            Bulk("922337203685477"));
  EXPECT_EQ(c()({"GET", "gpu"}), Bulk("0"));
  EXPECT_EQ(c()({"ZCARD", "{gpu}:timeout"}), Int(2));
  EXPECT_FALSE(s.TryAcquire().has_value());

  EXPECT_TRUE(s.UpdateLeaseTime(leased, std::nullopt));
  EXPECT_EQ(c().Call({"ZSCORE", "{gpu}:timeout", bytes}), Bulk("922337203685477"));
  EXPECT_FALSE(s.UpdateLeaseTime(std::string(32, '0'), seconds(1)));

  EXPECT_TRUE(s.TryRelease(leased));
  EXPECT_EQ(s.AvailablePermits(), 1);
  EXPECT_FALSE(s.TryRelease(leased));
  try {
    s.Release(leased);
    FAIL() << "a released permit was released again";
  } catch (const redlab::Error& e) {
    EXPECT_EQ(std::string(e.what()),
              "Permit with id " + leased + " has already been released or doesn't exist");
  }
  s.AddPermits(3);
  EXPECT_EQ(c()({"GET", "gpu"}), Bulk("4"));
  s.Release(*forever);
  EXPECT_EQ(s.AvailablePermits(), 5);
  EXPECT_EQ(c()({"ZCARD", "{gpu}:timeout"}), Int(0));
  EXPECT_TRUE(s.Delete());
  EXPECT_EQ(c()({"EXISTS", "gpu", "{gpu}:timeout"}), Int(0));
}

TEST_F(PermitSemaphoreTest, SeveralPermitsAllOrNone) {
  auto client = NewClient();
  redlab::PermitExpirableSemaphore s = client->GetPermitExpirableSemaphore("batch");
  ASSERT_TRUE(s.TrySetPermits(3));
  std::vector<std::string> two = s.TryAcquire(2, milliseconds(0), seconds(30));
  ASSERT_EQ(two.size(), 2u);
  EXPECT_NE(two[0], two[1]);
  EXPECT_TRUE(s.TryAcquire(2, milliseconds(0), seconds(30)).empty());
  EXPECT_EQ(c()({"GET", "batch"}), Bulk("1"));
  for (const std::string& id : two) s.Release(id);
  EXPECT_EQ(s.AvailablePermits(), 3);
}

// A lease that ends gives the permit back: a waiter sleeps at most until the nearest lease's
// end (no message announces it) and takes it then.
TEST_F(PermitSemaphoreTest, AnExpiredLeaseFreesThePermit) {
  auto client = NewClient();
  redlab::PermitExpirableSemaphore s = client->GetPermitExpirableSemaphore("short");
  ASSERT_TRUE(s.TrySetPermits(1));
  std::string first = s.Acquire(milliseconds(200));
  std::optional<std::string> next = s.TryAcquire(seconds(10), seconds(30));
  ASSERT_TRUE(next.has_value());
  EXPECT_NE(*next, first);
  EXPECT_FALSE(s.TryRelease(first));  // reclaimed already
  EXPECT_EQ(c()({"ZCARD", "{short}:timeout"}), Int(1));
  s.Release(*next);
}

TEST_F(PermitSemaphoreTest, AReleaseWakesAWaiterOfAnotherClient) {
  auto holder = NewClient();
  auto waiter = NewClient();
  redlab::PermitExpirableSemaphore held = holder->GetPermitExpirableSemaphore("one");
  ASSERT_TRUE(held.TrySetPermits(1));
  std::string id = held.Acquire();  // no lease: only a release frees it
  redlab::PermitExpirableSemaphore wanted = waiter->GetPermitExpirableSemaphore("one");
  std::future<std::vector<std::string>> got = wanted.AcquireAsync(1, seconds(30));
  ASSERT_TRUE(Eventually([&] { return waiter->ParkedWaiters("redisson_sc:{one}") == 1; }));
  held.Release(id);
  std::vector<std::string> ids = got.get();
  ASSERT_EQ(ids.size(), 1u);
  EXPECT_EQ(c()({"ZCARD", "{one}:timeout"}), Int(1));
  wanted.Release(ids[0]);
}

// A Redisson peer takes a permit with Redisson's script text and its own id; the C++ client
// sees it taken, and releases it by that id.
TEST_F(PermitSemaphoreTest, SharesPermitsWithARedissonPeer) {
  auto client = NewClient();
  redlab::PermitExpirableSemaphore s = client->GetPermitExpirableSemaphore("shared");
  ASSERT_TRUE(s.TrySetPermits(1));
  std::string peer_id = client::RandomHex(16);
  int64_t now = client::UnixMillis();
  EXPECT_EQ(c().Call({"EVAL", kRedissonTryAcquire, "3", "shared", "{shared}:timeout",
                      "redisson_sc:{shared}", "1", std::to_string(now + 60000), std::to_string(now),
                      "922337203685477", "PUBLISH", client::HexToBytes(peer_id)}),
            Bulk("OK"));
  EXPECT_EQ(s.AvailablePermits(), 0);
  // The peer's answer to a second taker: the nearest expiry date.
  Reply nearest =
      c().Call({"EVAL", kRedissonTryAcquire, "3", "shared", "{shared}:timeout",
                "redisson_sc:{shared}", "1", "922337203685477", std::to_string(now),
                "922337203685477", "PUBLISH", client::HexToBytes(client::RandomHex(16))});
  EXPECT_EQ(nearest, Bulk(":" + std::to_string(now + 60000)));
  EXPECT_FALSE(s.TryAcquire().has_value());
  s.Release(peer_id);
  EXPECT_TRUE(s.TryAcquire().has_value());
}

TEST_F(PermitSemaphoreTest, CountsLeasesAndReleasesOfSeveralAsRedisson) {
  auto client = NewClient();
  redlab::PermitExpirableSemaphore s = client->GetPermitExpirableSemaphore("pool");
  auto error_of = [](const std::function<void()>& f) {
    try {
      f();
    } catch (const redlab::Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(s.GetPermits(), 0);  // never set
  EXPECT_EQ(s.AcquiredPermits(), 0);
  Listener listener(port(), {"redisson_sc:{pool}"});
  s.SetPermits(4);  // not set yet: SET, and the total announced
  EXPECT_EQ(c()({"GET", "pool"}), Bulk("4"));
  std::vector<std::string> ids = s.TryAcquire(3, milliseconds(0), std::nullopt);
  ASSERT_EQ(ids.size(), 3u);
  EXPECT_EQ(s.GetPermits(), 4);
  EXPECT_EQ(s.AcquiredPermits(), 3);
  EXPECT_EQ(s.AvailablePermits(), 1);
  EXPECT_EQ(s.GetLeaseTime(ids[0]), -1);  // no lease
  ASSERT_TRUE(s.UpdateLeaseTime(ids[1], seconds(60)));
  int64_t left = s.GetLeaseTime(ids[1]);
  EXPECT_GT(left, 0);
  EXPECT_LE(left, 60000);
  s.SetPermits(6);  // the total moves from 4 to 6: two more free
  EXPECT_EQ(c()({"GET", "pool"}), Bulk("3"));
  s.SetPermits(6);  // unchanged: nothing announced
  // All or nothing: one id not held, and none goes back.
  EXPECT_EQ(s.TryRelease(std::vector<std::string>{ids[0], std::string(32, '0')}), 0);
  EXPECT_EQ(s.AcquiredPermits(), 3);
  EXPECT_EQ(s.TryRelease(std::vector<std::string>{ids[0], ids[1]}), 2);
  EXPECT_EQ(c()({"GET", "pool"}), Bulk("5"));
  EXPECT_EQ(error_of([&] {
              s.Release(std::vector<std::string>{ids[0], ids[2]});
            }),
            "Permits with ids [" + ids[0] + ", " + ids[2] +
                "] have already been released or don't exist");
  EXPECT_EQ(error_of([&] { s.TryRelease(std::vector<std::string>{}); }),
            "permitIds can't be null or empty");
  EXPECT_EQ(error_of([&] { s.GetLeaseTime(ids[0]); }),
            "Permit with id " + ids[0] + " has already been released or doesn't exist");
  s.Release(std::vector<std::string>{ids[2]});
  EXPECT_EQ(s.AcquiredPermits(), 0);
  EXPECT_EQ(s.GetPermits(), 6);
  EXPECT_EQ(listener.Received(c()), (std::vector<Listener::Message>{
                                        {"redisson_sc:{pool}", "4"},  // SetPermits(4)
                                        {"redisson_sc:{pool}", "6"},  // SetPermits(6)
                                        {"redisson_sc:{pool}", "2"},  // two released
                                        {"redisson_sc:{pool}", "1"},  // one released
                                    }));
}

}  // namespace
}  // namespace redlab::conformance
