// The fair lock's scripts of lua/ (acquire, release, leaving the queue), run by EVAL as the
// client sends them: replies, the lock hash, the waiters' queue and their deadlines, and who is
// woken, identical on embedded redlab and real redis-server. Every "now" is passed in, as the
// clients' clock is: the waiters' deadlines never depend on the server's time.
#include "conformance/lock_family_support.h"

namespace redlab::conformance {
namespace {

constexpr int64_t kT = 1700000000000;  // the callers' clock, Unix ms
constexpr int64_t kWait = 5000;        // the wait allowance per waiter

std::string At(int64_t offset) { return std::to_string(kT + offset); }

class FairLockScriptsTest : public LockFamilyTest {
 protected:
  const std::string queue_ = Prefixed("redisson_lock_queue", "l");
  const std::string timeouts_ = Prefixed("redisson_lock_timeout", "l");
  const std::string channel_ = Prefixed("redisson_lock__channel", "l");

  Reply Acquire(const std::string& owner, const std::string& now,
                const std::string& lease = "30000") {
    return Run("fair_lock_acquire", {"l", queue_, timeouts_},
               {lease, owner, std::to_string(kWait), now});
  }
  Reply Release(const std::string& owner, const std::string& request, const std::string& now,
                const std::string& lease = "30000") {
    return Run("fair_lock_release", {"l", queue_, timeouts_, channel_, Latch(request)},
               {"0", lease, owner, now, "PUBLISH", "5000"});
  }
  Reply Leave(const std::string& owner) {
    return Run("fair_lock_leave_queue", {queue_, timeouts_}, {owner, std::to_string(kWait)});
  }
  std::string Latch(const std::string& request) {
    return Prefixed("redisson_unlock_latch", "l") + ":" + request;
  }
  // The wake-up channel of waiter `owner`.
  std::string WakeChannel(const std::string& owner) { return channel_ + ":" + owner; }
  // u:1 holds the lock (lease 30 s); u:2 and u:3 queue behind it at kT. Returns u:2's answer.
  int64_t HoldAndQueueTwo() {
    EXPECT_EQ(Acquire("u:1", At(0)), Nil());
    Reply r = Acquire("u:2", At(0));
    EXPECT_EQ(r.type, Reply::Type::kInteger);
    EXPECT_EQ(Acquire("u:3", At(0)), Int(r.integer + kWait));
    return r.integer;
  }
};

TEST_F(FairLockScriptsTest, FreeLockIsTakenAndReentered) {
  EXPECT_EQ(Acquire("u:1", At(0)), Nil());
  EXPECT_TRUE(KeyIs(c(), "l", HashKey({"u:1", "1"}, 30000)));
  EXPECT_EQ(Acquire("u:1", At(0), "60000"), Nil());
  EXPECT_TRUE(KeyIs(c(), "l", HashKey({"u:1", "2"}, 60000)));
  EXPECT_EQ(AllKeys(c()), (std::vector<std::string>{"l"}));  // no queue without waiters
}

TEST_F(FairLockScriptsTest, WaitersQueueInOrderEachDueOneAllowanceAfterThePrevious) {
  EXPECT_EQ(Acquire("u:1", At(0)), Nil());
  // The first waiter waits for the holder's lease: its PTTL, and a deadline one allowance on.
  Reply first = Acquire("u:2", At(0));
  ASSERT_EQ(first.type, Reply::Type::kInteger);
  EXPECT_GT(first.integer, 29000);
  EXPECT_LE(first.integer, 30000);
  int64_t deadline2 = kT + first.integer + kWait;
  EXPECT_EQ(Score(timeouts_, "u:2"), deadline2);
  // The next waits for the one before it.
  EXPECT_EQ(Acquire("u:3", At(0)), Int(deadline2 - kT));
  EXPECT_EQ(Score(timeouts_, "u:3"), deadline2 + kWait);
  EXPECT_TRUE(KeyIs(c(), queue_, ListKey({"u:2", "u:3"})));
  EXPECT_TRUE(KeyIs(c(), "l", HashKey({"u:1", "1"}, 30000)));
  // Asking again keeps the place and the deadline; the answer is the holder's PTTL (current
  // Redisson; it used to be the deadline less one allowance).
  for (const char* owner : {"u:2", "u:3"}) {
    Reply again = Acquire(owner, At(1000));
    ASSERT_EQ(again.type, Reply::Type::kInteger) << again;
    EXPECT_GT(again.integer, 29000);
    EXPECT_LE(again.integer, 30000);
  }
  EXPECT_TRUE(KeyIs(c(), queue_, ListKey({"u:2", "u:3"})));
  EXPECT_EQ(Score(timeouts_, "u:2"), deadline2);
  EXPECT_EQ(Score(timeouts_, "u:3"), deadline2 + kWait);
  EXPECT_EQ(ReadKeyState(c(), timeouts_).pttl, -1);
}

TEST_F(FairLockScriptsTest, ReleaseWakesTheFirstWaiterAndOnlyItMayTakeTheLock) {
  Listener listener = Listen({channel_, WakeChannel("u:2"), WakeChannel("u:3")});
  HoldAndQueueTwo();
  int64_t deadline3 = Score(timeouts_, "u:3");
  EXPECT_EQ(Release("u:1", "r1", At(0)), Int(1));
  EXPECT_TRUE(KeyIs(c(), "l", NoKey()));
  EXPECT_TRUE(KeyIs(c(), Latch("r1"), StringKey("1", 5000)));
  EXPECT_EQ(listener.Received(c()), (std::vector<Listener::Message>{{WakeChannel("u:2"), "0"}}));
  // Free, but u:2 is first: u:3 keeps waiting, its place and deadline unchanged; it is told
  // max(0, PTTL) = 0.
  EXPECT_EQ(Acquire("u:3", At(0)), Int(0));
  EXPECT_TRUE(KeyIs(c(), "l", NoKey()));
  EXPECT_EQ(Acquire("u:2", At(0)), Nil());
  EXPECT_TRUE(KeyIs(c(), "l", HashKey({"u:2", "1"}, 30000)));
  EXPECT_TRUE(KeyIs(c(), queue_, ListKey({"u:3"})));
  EXPECT_EQ(Score(timeouts_, "u:3"), deadline3 - kWait);  // everyone moved up one place
  // u:2's release wakes u:3, which takes the lock and leaves no queue behind.
  EXPECT_EQ(Release("u:2", "r2", At(0)), Int(1));
  EXPECT_EQ(listener.Received(c()), (std::vector<Listener::Message>{{WakeChannel("u:3"), "0"}}));
  EXPECT_EQ(Acquire("u:3", At(0)), Nil());
  EXPECT_EQ(AllKeys(c()), (std::vector<std::string>{"l", Latch("r1"), Latch("r2")}));
}

TEST_F(FairLockScriptsTest, ReleaseCountsDownRefusesNonHoldersAndLatches) {
  Listener listener = Listen({channel_, WakeChannel("u:2")});
  Acquire("u:1", At(0));
  Acquire("u:1", At(0));
  EXPECT_EQ(Release("u:2", "r0", At(0)), Nil());
  EXPECT_TRUE(KeyIs(c(), Latch("r0"), NoKey()));
  EXPECT_EQ(Release("u:1", "r1", At(0), "10000"), Int(0));
  EXPECT_TRUE(KeyIs(c(), "l", HashKey({"u:1", "1"}, 10000)));
  EXPECT_TRUE(KeyIs(c(), Latch("r1"), StringKey("0", 5000)));
  EXPECT_EQ(Release("u:1", "r1", At(0)), Int(0));  // a retry: same answer, nothing changed
  EXPECT_TRUE(KeyIs(c(), "l", HashKey({"u:1", "1"}, 10000)));
  EXPECT_EQ(Release("u:1", "r2", At(0)), Int(1));
  EXPECT_TRUE(KeyIs(c(), "l", NoKey()));
  EXPECT_EQ(Release("u:1", "r2", At(0)), Int(1));
  // With no waiters, no one is told.
  EXPECT_TRUE(listener.Received(c()).empty());
}

TEST_F(FairLockScriptsTest, ReleaseOfAGoneLockStillWakesTheFirstWaiter) {
  Listener listener = Listen({WakeChannel("u:2"), WakeChannel("u:3")});
  HoldAndQueueTwo();
  c()({"PEXPIRE", "l", "20"});
  ASSERT_TRUE(Eventually([&] { return c()({"EXISTS", "l"}) == Int(0); }));
  // As Redisson: an expired (or forced) lock answers 1, whoever asks, and the head is told.
  EXPECT_EQ(Release("u:9", "r1", At(0)), Int(1));
  EXPECT_TRUE(KeyIs(c(), Latch("r1"), StringKey("1", 5000)));
  EXPECT_EQ(listener.Received(c()), (std::vector<Listener::Message>{{WakeChannel("u:2"), "0"}}));
  EXPECT_TRUE(KeyIs(c(), queue_, ListKey({"u:2", "u:3"})));
}

TEST_F(FairLockScriptsTest, WaitersPastTheirDeadlineAreDroppedFromTheHead) {
  int64_t first = HoldAndQueueTwo();
  int64_t deadline2 = kT + first + kWait;
  int64_t deadline3 = deadline2 + kWait;
  // At u:2's deadline it counts as gone; u:3 keeps its own deadline, and u:4 queues behind it.
  EXPECT_EQ(Acquire("u:4", std::to_string(deadline2)), Int(kWait));
  EXPECT_TRUE(KeyIs(c(), queue_, ListKey({"u:3", "u:4"})));
  EXPECT_EQ(Score(timeouts_, "u:3"), deadline3);
  EXPECT_EQ(Score(timeouts_, "u:4"), deadline3 + kWait);
  EXPECT_EQ(c()({"ZSCORE", timeouts_, "u:2"}), Nil());
  // A release once every waiter is past its deadline empties the queue and tells no one.
  Listener listener = Listen({WakeChannel("u:3"), WakeChannel("u:4")});
  EXPECT_EQ(Release("u:1", "r1", std::to_string(deadline3 + kWait)), Int(1));
  EXPECT_TRUE(listener.Received(c()).empty());
  EXPECT_EQ(AllKeys(c()), (std::vector<std::string>{Latch("r1")}));
}

TEST_F(FairLockScriptsTest, FreeLockWithOnlyStaleWaitersGoesToANewcomer) {
  int64_t first = HoldAndQueueTwo();
  c()({"DEL", "l"});
  int64_t late = kT + first + 2 * kWait;  // both waiters past their deadlines
  EXPECT_EQ(Acquire("u:5", std::to_string(late)), Nil());
  EXPECT_EQ(AllKeys(c()), (std::vector<std::string>{"l"}));
  EXPECT_TRUE(KeyIs(c(), "l", HashKey({"u:5", "1"}, 30000)));
}

TEST_F(FairLockScriptsTest, QueuedWaiterWithoutDeadlineStopsThePruning) {
  // A head with no deadline (a queue written by hand) stays, as in current Redisson: it is
  // first in line, so a newcomer queues behind it, and with no deadline to follow it is due
  // after the lock's PTTL (-2: no lock) plus one allowance.
  c()({"RPUSH", queue_, "ghost"});
  EXPECT_EQ(Acquire("u:1", At(0)), Int(-2));
  EXPECT_TRUE(KeyIs(c(), queue_, ListKey({"ghost", "u:1"})));
  EXPECT_EQ(Score(timeouts_, "u:1"), kT - 2 + kWait);
  EXPECT_TRUE(KeyIs(c(), "l", NoKey()));
}

TEST_F(FairLockScriptsTest, TryAcquireNeverQueues) {
  auto try_acquire = [&](const std::string& owner, const std::string& now) {
    return Run("fair_lock_try_acquire", {"l", queue_, timeouts_},
               {"30000", owner, now, std::to_string(kWait)});
  };
  EXPECT_EQ(try_acquire("u:1", At(0)), Nil());
  EXPECT_EQ(try_acquire("u:1", At(0)), Nil());  // re-entry
  EXPECT_TRUE(KeyIs(c(), "l", HashKey({"u:1", "2"}, 30000)));
  EXPECT_EQ(try_acquire("u:2", At(0)), Int(1));
  EXPECT_EQ(AllKeys(c()), (std::vector<std::string>{"l"}));  // no queue
  // Free but u:3 is first in line: refused; once u:3 is past its deadline, taken.
  c()({"DEL", "l"});
  EXPECT_EQ(Acquire("u:9", At(0)), Nil());
  Reply queued = Acquire("u:3", At(0));
  ASSERT_EQ(queued.type, Reply::Type::kInteger);
  c()({"DEL", "l"});
  EXPECT_EQ(try_acquire("u:2", At(0)), Int(1));
  int64_t deadline3 = Score(timeouts_, "u:3");
  EXPECT_EQ(try_acquire("u:2", std::to_string(deadline3)), Nil());
  EXPECT_EQ(AllKeys(c()), (std::vector<std::string>{"l"}));
}

TEST_F(FairLockScriptsTest, ForceReleaseWakesTheFirstLiveWaiter) {
  Listener listener = Listen({WakeChannel("u:2"), WakeChannel("u:3")});
  int64_t first = HoldAndQueueTwo();
  auto force = [&](const std::string& now) {
    return Run("fair_lock_force_release", {"l", queue_, timeouts_, channel_},
               {"0", now, "PUBLISH"});
  };
  // At u:2's deadline it is dropped; u:3 is told.
  EXPECT_EQ(force(std::to_string(kT + first + kWait)), Int(1));
  EXPECT_EQ(listener.Received(c()), (std::vector<Listener::Message>{{WakeChannel("u:3"), "0"}}));
  EXPECT_TRUE(KeyIs(c(), queue_, ListKey({"u:3"})));
  EXPECT_EQ(force(At(0)), Int(0));
  EXPECT_TRUE(listener.Received(c()).empty());
}

TEST_F(FairLockScriptsTest, LeavingTheQueueMovesThoseBehindUp) {
  HoldAndQueueTwo();
  EXPECT_EQ(Acquire("u:4", At(0)), Int(Score(timeouts_, "u:3") - kT));
  int64_t d2 = Score(timeouts_, "u:2"), d3 = Score(timeouts_, "u:3"), d4 = Score(timeouts_, "u:4");
  EXPECT_EQ(Leave("u:3"), Nil());
  EXPECT_TRUE(KeyIs(c(), queue_, ListKey({"u:2", "u:4"})));
  EXPECT_EQ(Score(timeouts_, "u:2"), d2);
  EXPECT_EQ(Score(timeouts_, "u:4"), d4 - kWait);
  EXPECT_EQ(c()({"ZCARD", timeouts_}), Int(2));
  EXPECT_EQ(Leave("u:9"), Nil());  // not queued: nothing moves
  EXPECT_TRUE(KeyIs(c(), queue_, ListKey({"u:2", "u:4"})));
  EXPECT_EQ(Score(timeouts_, "u:4"), d4 - kWait);
  EXPECT_EQ(Leave("u:2"), Nil());
  EXPECT_TRUE(KeyIs(c(), queue_, ListKey({"u:4"})));
  EXPECT_EQ(Score(timeouts_, "u:4"), d3 - kWait);
  EXPECT_EQ(Leave("u:4"), Nil());
  EXPECT_EQ(AllKeys(c()), (std::vector<std::string>{"l"}));
}

TEST_F(FairLockScriptsTest, ExpiredHolderLetsTheHeadWaiterIn) {
  HoldAndQueueTwo();
  int64_t deadline2 = Score(timeouts_, "u:2");
  c()({"PEXPIRE", "l", "20"});
  ASSERT_TRUE(Eventually([&] { return c()({"EXISTS", "l"}) == Int(0); }));
  EXPECT_EQ(Acquire("u:4", At(0)), Int(deadline2 + kWait - kT));  // queues behind u:3
  EXPECT_EQ(Acquire("u:2", At(0)), Nil());
  EXPECT_TRUE(KeyIs(c(), queue_, ListKey({"u:3", "u:4"})));
  EXPECT_EQ(Score(timeouts_, "u:3"), deadline2);
  EXPECT_EQ(Score(timeouts_, "u:4"), deadline2 + kWait);
}

}  // namespace
}  // namespace redlab::conformance
