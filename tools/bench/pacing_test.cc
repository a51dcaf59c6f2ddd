// Open-loop pacing on a manual schedule: calls issued per interval, late ticks, limits.
#include "tools/bench/pacing.h"

#include <gtest/gtest.h>

#include <vector>

namespace redlab::tools::bench {
namespace {

using std::chrono::milliseconds;

TEST(PacingTest, SteadyTicksIssueTheRateInEverySecond) {
  Clock::time_point start{};  // a manual time line
  OpenLoopPacer pacer(1000, start);
  std::vector<int64_t> per_second(3, 0);
  for (int ms = 0; ms < 3000; ++ms) {
    pacer.Tick(start + milliseconds(ms),
               [&](int64_t, Clock::time_point) { ++per_second[ms / 1000]; });
  }
  EXPECT_EQ(per_second, (std::vector<int64_t>{1000, 1000, 1000}));
  EXPECT_EQ(pacer.issued(), 3000);
}

TEST(PacingTest, UnevenRateOverTenSeconds) {
  Clock::time_point start{};
  OpenLoopPacer pacer(2.5, start);
  std::vector<int64_t> per_second(10, 0);
  for (int ms = 0; ms < 10000; ms += 7) {
    pacer.Tick(start + milliseconds(ms), [&](int64_t, Clock::time_point intended) {
      ++per_second[std::chrono::duration_cast<milliseconds>(intended - start).count() / 1000];
    });
  }
  // 2.5 per second: calls at 0, 0.4, 0.8, 1.2, ... s.
  EXPECT_EQ(per_second, (std::vector<int64_t>{3, 2, 3, 2, 3, 2, 3, 2, 3, 2}));
}

TEST(PacingTest, ALateTickIssuesEveryOverdueCallWithItsOwnIntendedStart) {
  Clock::time_point start{};
  OpenLoopPacer pacer(1000, start);
  std::vector<std::pair<int64_t, Clock::time_point>> issued;
  auto record = [&](int64_t k, Clock::time_point t) { issued.emplace_back(k, t); };
  EXPECT_EQ(pacer.Tick(start, record), 1);
  // The loop was stalled for 50 ms: the 50 calls due meanwhile go out now, each charged from
  // when it should have started.
  EXPECT_EQ(pacer.Tick(start + milliseconds(50), record), 50);
  ASSERT_EQ(issued.size(), 51u);
  for (int64_t k = 0; k <= 50; ++k) {
    EXPECT_EQ(issued[static_cast<size_t>(k)].first, k);
    EXPECT_EQ(issued[static_cast<size_t>(k)].second, start + milliseconds(k));
  }
  EXPECT_EQ(pacer.Tick(start + milliseconds(50), record), 0);
}

TEST(PacingTest, LimitAndStop) {
  Clock::time_point start{};
  OpenLoopPacer limited(1000, start, 10);
  int n = 0;
  limited.Tick(start + milliseconds(1000), [&](int64_t, Clock::time_point) { ++n; });
  EXPECT_EQ(n, 10);
  EXPECT_TRUE(limited.done());

  OpenLoopPacer stopped(1000, start);
  stopped.Tick(start + milliseconds(4), [&](int64_t, Clock::time_point) { ++n; });
  EXPECT_EQ(n, 15);
  EXPECT_FALSE(stopped.done());
  stopped.Stop();
  EXPECT_TRUE(stopped.done());
  EXPECT_EQ(stopped.Tick(start + milliseconds(100), [&](int64_t, Clock::time_point) { ++n; }), 0);
  EXPECT_EQ(n, 15);
}

TEST(PacingTest, DueByCountsCallsStartingAtOrBeforeNow) {
  Clock::time_point start = Clock::time_point{} + std::chrono::seconds(5);
  OpenLoopPacer pacer(3, start);
  EXPECT_EQ(pacer.DueBy(start - milliseconds(1)), 0);
  EXPECT_EQ(pacer.DueBy(start), 1);
  EXPECT_EQ(pacer.DueBy(start + milliseconds(333)), 1);
  EXPECT_EQ(pacer.DueBy(start + milliseconds(334)), 2);
  EXPECT_EQ(pacer.DueBy(start + std::chrono::seconds(1)), 4);
  EXPECT_THROW(OpenLoopPacer(0, start), std::invalid_argument);
}

}  // namespace
}  // namespace redlab::tools::bench
