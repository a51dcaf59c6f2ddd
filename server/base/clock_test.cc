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

}  // namespace
}  // namespace redlab::server
