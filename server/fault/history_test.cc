#include "server/fault/history.h"

#include <gtest/gtest.h>

#include "server/engine/core/engine_test_support.h"

namespace redlab::server::fault {
namespace {

class DataHistoryTest : public engine::testing::EngineTest {
 protected:
  void SetUp() override { engine_.clock().SetManual(); }
  int64_t Now() { return engine_.clock().NowMs(); }
};

TEST_F(DataHistoryTest, RestoresTheNewestSnapshotAtOrBeforeAMoment) {
  DataHistory h;
  h.Restart(engine_);  // the empty dataset, now
  int64_t t0 = Now();
  Run({"SET", "a", "1"});
  engine_.clock().Advance(1000);
  h.Tick(engine_, /*force=*/true);  // a=1 at t0 + 1000
  Run({"SET", "b", "2"});
  h.Tick(engine_, /*force=*/true);  // a, b at t0 + 1000 too: the newest one wins
  engine_.clock().Advance(1000);
  Run({"SET", "c", "3"});
  h.Tick(engine_, /*force=*/true);  // a, b, c at t0 + 2000
  h.Tick(engine_, /*force=*/true);  // nothing changed: no new snapshot

  ASSERT_TRUE(h.At(t0 + 1500).has_value());
  ASSERT_FALSE(DataHistory::Load(engine_, *h.At(t0 + 1500)).has_value());
  EXPECT_EQ(Run({"MGET", "a", "b", "c"}), "*3\r\n$1\r\n1\r\n$1\r\n2\r\n$-1\r\n");
  ASSERT_FALSE(DataHistory::Load(engine_, *h.At(t0 + 999)).has_value());
  EXPECT_EQ(Run({"DBSIZE"}), ":0\r\n");
  ASSERT_FALSE(DataHistory::Load(engine_, *h.At(t0 + 2000)).has_value());
  EXPECT_EQ(Run({"DBSIZE"}), ":3\r\n");
  EXPECT_FALSE(h.At(t0 - 1).has_value());  // before the history
}

TEST_F(DataHistoryTest, KeepsAWindowAndDropsKeysThatExpiredMeanwhile) {
  DataHistory h;
  h.Restart(engine_);
  int64_t t0 = Now();
  Run({"SET", "lease", "x", "PX", "500"});
  h.Tick(engine_, /*force=*/true);
  engine_.clock().Advance(DataHistory::kWindowMs + 1000);
  Run({"SET", "k", "v"});
  h.Tick(engine_, /*force=*/true);
  // The newest snapshot older than the window still answers for the window's start...
  ASSERT_TRUE(h.At(Now() - DataHistory::kWindowMs).has_value());
  // ...and the lease in it expired long ago: loaded as a master loads its file, it is gone.
  ASSERT_FALSE(DataHistory::Load(engine_, *h.At(t0)).has_value());
  EXPECT_EQ(Run({"EXISTS", "lease"}), ":0\r\n");
  engine_.clock().Advance(DataHistory::kWindowMs + 1000);
  Run({"SET", "k", "w"});
  h.Tick(engine_, /*force=*/true);
  EXPECT_FALSE(h.At(t0).has_value());  // fell out of the window
}

}  // namespace
}  // namespace redlab::server::fault
