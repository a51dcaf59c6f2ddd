#include "server/base/clock.h"

#include <gtest/gtest.h>

#include <chrono>

namespace redlab::server {
namespace {

TEST(ClockTest, ManualClockMovesOnlyWhenAdvanced) {
  Clock c;
  c.SetManual();
  int64_t t0 = c.NowMs();
  EXPECT_EQ(c.NowMs(), t0);
  c.Advance(1500);
  EXPECT_EQ(c.NowMs(), t0 + 1500);
  c.Jump(-500);
  EXPECT_EQ(c.NowMs(), t0 + 1000);
}

TEST(ClockTest, JumpShiftsRealTime) {
  Clock c;
  int64_t real = std::chrono::duration_cast<std::chrono::milliseconds>(
                     std::chrono::system_clock::now().time_since_epoch())
                     .count();
  c.Jump(60000);
  EXPECT_GE(c.NowMs(), real + 60000);
  EXPECT_GE(c.OffsetMs(), 59000);
  c.SetReal();
  EXPECT_LT(c.OffsetMs(), 1000);
}

TEST(ClockTest, MovesStayWithinTheClocksYears) {
  Clock c;
  c.SetManual();
  EXPECT_TRUE(c.CanMove(1000));
  EXPECT_FALSE(c.CanMove(-c.NowMs() - 1));  // before 1970
  EXPECT_TRUE(c.CanMove(-c.NowMs()));
  EXPECT_FALSE(c.CanMove(INT64_MAX));  // no signed overflow on the way
  EXPECT_FALSE(c.CanMove(INT64_MIN));
  EXPECT_FALSE(c.CanMove(Clock::kMaxUs / 1000));
  c.Jump(INT64_MAX);  // a move CanMove refuses stops at the end
  EXPECT_EQ(c.NowUs(), Clock::kMaxUs);
  c.Jump(INT64_MIN);
  EXPECT_EQ(c.NowUs(), 0);
}

TEST(ClockTest, AFastClockStopsAtTheEndInsteadOfOverflowing) {
  Clock c;
  c.Jump((Clock::kMaxUs / 1000) - c.NowMs() - 1);  // 1 ms before the end
  c.SetRate(Clock::kMaxRate);
  c.SetRate(1e300);  // clamped to kMaxRate
  EXPECT_EQ(c.rate(), Clock::kMaxRate);
  int64_t before = c.NowUs();
  while (c.NowUs() < Clock::kMaxUs) {
  }  // 1 ms of node time at a million times real time: a microsecond or so
  EXPECT_GE(c.NowUs(), before);
  EXPECT_EQ(c.NowUs(), Clock::kMaxUs);
}

TEST(ClockTest, RealTimeForNodeTimeFollowsTheRate) {
  Clock c;
  EXPECT_EQ(c.RealMsFor(5000), 5000);
  EXPECT_EQ(c.RealMsFor(0), 0);
  c.SetRate(100);
  EXPECT_EQ(c.RealMsFor(5000), 50);
  EXPECT_EQ(c.RealMsFor(1), 1);  // rounded up: never early
  c.SetRate(0.5);
  EXPECT_EQ(c.RealMsFor(5000), 10000);
  c.SetRate(0);
  EXPECT_EQ(c.RealMsFor(5000), -1);  // a stopped clock never gets there
  c.SetRate(2);
  c.SetManual();
  EXPECT_EQ(c.RealMsFor(5000), -1);  // nor does a frozen one, by itself
}

TEST(ClockTest, ARateSetWhileFrozenAppliesWhenTheClockResumes) {
  Clock c;
  c.SetManual();
  int64_t t0 = c.NowUs();
  c.SetRate(1000);
  EXPECT_EQ(c.rate(), 1000);
  EXPECT_EQ(c.NowUs(), t0);  // still frozen
  c.SetRunning();
  EXPECT_FALSE(c.manual());
  EXPECT_EQ(c.RealMsFor(1000), 1);
  // Runs from where it stood, a thousand times as fast: 2 ms of node time pass in 2 µs.
  while (c.NowUs() < t0 + 2000) {
  }
  EXPECT_GE(c.NowUs(), t0 + 2000);
  c.SetReal();
  EXPECT_EQ(c.rate(), 1.0);
}

}  // namespace
}  // namespace redlab::server
