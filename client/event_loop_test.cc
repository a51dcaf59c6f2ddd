#include "client/event_loop.h"

#include <gtest/gtest.h>

#include <future>
#include <vector>

namespace redlab::client {
namespace {

TEST(EventLoopTest, RunsPostedTasksInOrderOnItsThread) {
  EventLoop loop;
  std::vector<int> seen;
  std::promise<bool> on_loop;
  for (int i = 0; i < 100; ++i) loop.Post([&seen, i] { seen.push_back(i); });
  loop.Post([&] { on_loop.set_value(loop.InLoopThread()); });
  EXPECT_TRUE(on_loop.get_future().get());
  EXPECT_FALSE(loop.InLoopThread());
  loop.Stop();
  ASSERT_EQ(seen.size(), 100u);
  for (int i = 0; i < 100; ++i) EXPECT_EQ(seen[i], i);
}

TEST(EventLoopTest, StopRunsShutdownLastAndRefusesLaterPosts) {
  EventLoop loop;
  std::vector<std::string> seen;
  loop.Post([&] { seen.push_back("task"); });
  loop.Stop([&] { seen.push_back("shutdown"); });
  EXPECT_EQ(seen, (std::vector<std::string>{"task", "shutdown"}));
  EXPECT_FALSE(loop.Post([] {}));
  loop.Stop();  // idempotent
}

TEST(EventLoopTest, TimersFireRearmAndCancel) {
  EventLoop loop;
  std::promise<void> done;
  std::unique_ptr<Timer> repeating, cancelled;
  int rounds = 0;
  bool cancelled_fired = false;
  std::function<void()> tick = [&] {
    if (++rounds < 3) {
      repeating->Start(std::chrono::milliseconds(2), tick);
    } else {
      repeating.reset();  // a timer may be destroyed from its own callback
      done.set_value();
    }
  };
  loop.Post([&] {
    cancelled = std::make_unique<Timer>(loop);
    cancelled->Start(std::chrono::milliseconds(1), [&] { cancelled_fired = true; });
    cancelled->Stop();
    repeating = std::make_unique<Timer>(loop);
    repeating->Start(std::chrono::milliseconds(2), tick);
  });
  done.get_future().get();
  loop.Stop([&] { cancelled.reset(); });
  EXPECT_EQ(rounds, 3);
  EXPECT_FALSE(cancelled_fired);  // 1 ms, while the others ran 6
}

}  // namespace
}  // namespace redlab::client
