#include "client/lock_waiters.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

namespace redlab::client {
namespace {

// Records subscriptions; the test plays the server's side.
class FakeSubscriber : public ChannelSubscriber {
 public:
  void Subscribe(const std::string& channel, Listener* l) override {
    listeners[channel] = l;
    ++subscribes;
  }
  void Unsubscribe(const std::string& channel) override {
    listeners.erase(channel);
    ++unsubscribes;
  }
  std::map<std::string, Listener*> listeners;
  int subscribes = 0;
  int unsubscribes = 0;
};

struct FakeWaiter : LockWaiters::Waiter {
  explicit FakeWaiter(std::string n, std::vector<std::string>* log)
      : name(std::move(n)), log(log) {}
  void OnSubscribed() override { log->push_back(name + " subscribed"); }
  void OnWake() override { log->push_back(name + " woken"); }
  std::string name;
  std::vector<std::string>* log;
};

constexpr char kChannel[] = "redisson_lock__channel:{l}";

// A LockWaiters over a fake subscriber, and two waiters "a" and "b" that log what they are told.
class LockWaitersTest : public ::testing::Test {
 protected:
  // `a` and `b` join lock "l"; the server confirms the subscription; the log starts empty.
  void JoinBothSubscribed() {
    waiters.Join("l", kChannel, &a);
    waiters.Join("l", kChannel, &b);
    channel().OnSubscribed();
    log.clear();
  }
  ChannelSubscriber::Listener& channel() { return *sub.listeners.at(kChannel); }

  FakeSubscriber sub;
  LockWaiters waiters{sub};
  std::vector<std::string> log;
  FakeWaiter a{"a", &log}, b{"b", &log};
};

TEST_F(LockWaitersTest, OneSubscriptionPerNameCountedAcrossWaiters) {
  waiters.Join("l", kChannel, &a);
  waiters.Join("l", kChannel, &b);
  EXPECT_EQ(sub.subscribes, 1);
  EXPECT_TRUE(log.empty());  // nothing until the server confirms
  channel().OnSubscribed();
  EXPECT_EQ(log, (std::vector<std::string>{"a subscribed", "b subscribed"}));
  FakeWaiter c("c", &log);
  waiters.Join("l", kChannel, &c);  // already subscribed: told at once
  EXPECT_EQ(log.back(), "c subscribed");
  waiters.Leave("l", &a);
  waiters.Leave("l", &b);
  EXPECT_EQ(sub.unsubscribes, 0);
  waiters.Leave("l", &c);  // the last one out unsubscribes
  EXPECT_EQ(sub.unsubscribes, 1);
  EXPECT_EQ(waiters.entries(), 0u);
}

TEST_F(LockWaitersTest, EachUnlockMessageWakesOneWaiterInOrder) {
  JoinBothSubscribed();
  EXPECT_TRUE(waiters.Park("l", &a));
  EXPECT_TRUE(waiters.Park("l", &b));
  EXPECT_EQ(waiters.parked("l"), 2u);
  channel().OnMessage("0");
  EXPECT_EQ(log, (std::vector<std::string>{"a woken"}));
  EXPECT_EQ(waiters.parked("l"), 1u);
  channel().OnMessage("other");  // not an unlock message
  EXPECT_EQ(log.size(), 1u);
  channel().OnMessage("0");
  EXPECT_EQ(log.back(), "b woken");
}

TEST_F(LockWaitersTest, MessageWithNobodyParkedIsKeptAsAPermit) {
  waiters.Join("l", kChannel, &a);
  channel().OnSubscribed();
  // The unlock came while `a` was between attempts: it must not sleep past it.
  channel().OnMessage("0");
  EXPECT_FALSE(waiters.Park("l", &a));
  EXPECT_TRUE(waiters.Park("l", &a));  // the permit is spent
  waiters.Unpark("l", &a);
  EXPECT_EQ(waiters.parked("l"), 0u);
}

TEST_F(LockWaitersTest, ReadUnlockAndResubscriptionWakeEveryone) {
  JoinBothSubscribed();
  waiters.Park("l", &a);
  waiters.Park("l", &b);
  channel().OnMessage("1");
  EXPECT_EQ(log, (std::vector<std::string>{"a woken", "b woken"}));
  log.clear();
  waiters.Park("l", &a);
  waiters.Park("l", &b);
  channel().OnSubscribed();  // after a reconnect: messages may be lost
  EXPECT_EQ(log, (std::vector<std::string>{"a woken", "b woken"}));
}

// A waiter that leaves from inside its wake-up (its attempt failed at once): the entry must
// survive the callback and be freed after it.
struct LeavingWaiter : LockWaiters::Waiter {
  LockWaiters* waiters = nullptr;
  int woken = 0;
  void OnSubscribed() override {}
  void OnWake() override {
    ++woken;
    waiters->Leave("l", this);
  }
};

TEST_F(LockWaitersTest, LeavingFromACallbackIsSafe) {
  LeavingWaiter a, b;  // in place of the fixture's
  a.waiters = b.waiters = &waiters;
  waiters.Join("l", kChannel, &a);
  waiters.Join("l", kChannel, &b);
  ChannelSubscriber::Listener* listener = sub.listeners[kChannel];
  listener->OnSubscribed();
  waiters.Park("l", &a);
  waiters.Park("l", &b);
  listener->OnMessage("1");
  EXPECT_EQ(a.woken, 1);
  EXPECT_EQ(b.woken, 1);
  EXPECT_EQ(waiters.entries(), 0u);
  EXPECT_EQ(sub.unsubscribes, 1);
}

}  // namespace
}  // namespace redlab::client
