// The count-down latch client (Redisson's RCountDownLatch): the string `name` holding the count,
// deleted at zero, waiters opened by the message on redisson_countdownlatch__channel__{name},
// counted down by other clients and by a peer running RedissonCountDownLatch's scripts. On
// embedded redlab and on real redis-server.
#include <future>
#include <thread>

#include "client/countdown_latch.h"
#include "conformance/lock_support.h"

namespace redlab::conformance {
namespace {

using std::chrono::milliseconds;

// RedissonCountDownLatch.countDownAsync as it sends it today.
constexpr char kRedissonCountDown[] =
    "local v = redis.call('decr', KEYS[1]);"
    "if v <= 0 then redis.call('del', KEYS[1]) end;"
    "if v == 0 then redis.call(ARGV[2], KEYS[2], ARGV[1]) end;";

class CountDownLatchTest : public LockTest {};

TEST_F(CountDownLatchTest, WaitersOpenWhenTheCountReachesZero) {
  auto client = NewClient();
  auto other = NewClient();
  redlab::CountDownLatch latch = client->GetCountDownLatch("ready");
  EXPECT_EQ(latch.channel(), "redisson_countdownlatch__channel__{ready}");
  EXPECT_EQ(latch.GetCount(), 0);
  EXPECT_TRUE(latch.Await(milliseconds(0)));  // not set: open
  EXPECT_TRUE(latch.TrySetCount(2));
  EXPECT_FALSE(latch.TrySetCount(5));
  EXPECT_EQ(c()({"GET", "ready"}), Bulk("2"));
  EXPECT_FALSE(latch.Await(milliseconds(50)));
  std::future<bool> opened = latch.AwaitAsync(milliseconds(20000));
  ASSERT_TRUE(Eventually([&] { return client->ParkedWaiters(latch.channel()) == 1; }));
  other->GetCountDownLatch("ready").CountDown();
  EXPECT_EQ(latch.GetCount(), 1);
  // Still closed: the waiter is parked again after the new-count check.
  EXPECT_EQ(opened.wait_for(milliseconds(50)), std::future_status::timeout);
  other->GetCountDownLatch("ready").CountDown();
  EXPECT_TRUE(opened.get());
  EXPECT_EQ(c()({"EXISTS", "ready"}), Int(0));
  EXPECT_EQ(latch.GetCount(), 0);
  latch.Await();  // open again
  // Counting down past zero changes nothing.
  latch.CountDown();
  EXPECT_EQ(c()({"EXISTS", "ready"}), Int(0));
}

TEST_F(CountDownLatchTest, ManyWaitersOfSeveralClientsOpenTogether) {
  std::vector<std::unique_ptr<redlab::Client>> clients;
  for (int i = 0; i < 3; ++i) clients.push_back(NewClient());
  ASSERT_TRUE(clients[0]->GetCountDownLatch("start").TrySetCount(1));
  std::vector<std::future<void>> waiting;
  for (auto& cl : clients) {
    for (int t = 0; t < 2; ++t) waiting.push_back(cl->GetCountDownLatch("start").AwaitAsync());
  }
  for (auto& cl : clients) {
    ASSERT_TRUE(Eventually(
        [&] { return cl->ParkedWaiters("redisson_countdownlatch__channel__{start}") == 2; }));
  }
  clients[1]->GetCountDownLatch("start").CountDown();
  for (auto& w : waiting) w.get();
}

TEST_F(CountDownLatchTest, DeleteAnnouncesANewCountAndSharedWithARedissonPeer) {
  auto client = NewClient();
  redlab::CountDownLatch latch = client->GetCountDownLatch("peer");
  Client sub = Connect();
  sub.SendCommand({"SUBSCRIBE", latch.channel()});
  sub.Read();
  EXPECT_TRUE(latch.TrySetCount(3));
  EXPECT_EQ(sub.Read(), Array({Bulk("message"), Bulk(latch.channel()), Bulk("1")}));
  EXPECT_TRUE(latch.Delete());
  EXPECT_FALSE(latch.Delete());
  EXPECT_EQ(sub.Read(), Array({Bulk("message"), Bulk(latch.channel()), Bulk("1")}));
  // A Redisson peer counts down the last one: its "0" opens our waiter.
  EXPECT_TRUE(latch.TrySetCount(1));
  EXPECT_EQ(sub.Read(), Array({Bulk("message"), Bulk(latch.channel()), Bulk("1")}));
  std::future<bool> opened = latch.AwaitAsync(milliseconds(20000));
  ASSERT_TRUE(Eventually([&] { return client->ParkedWaiters(latch.channel()) == 1; }));
  Client peer = Connect();
  EXPECT_EQ(peer({"EVAL", kRedissonCountDown, "2", "peer", latch.channel(), "0", "PUBLISH"}),
            Nil());
  EXPECT_TRUE(opened.get());
  EXPECT_EQ(sub.Read(), Array({Bulk("message"), Bulk(latch.channel()), Bulk("0")}));
}

}  // namespace
}  // namespace redlab::conformance
