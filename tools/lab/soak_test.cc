// The soak on embedded nodes: without faults the reentrant lock keeps mutual exclusion and no
// update is lost (the checker finds nothing in thousands of operations); with crashes the
// nemesis's faults are in the history beside the operations.
#include "tools/lab/soak.h"

#include <gtest/gtest.h>

namespace redlab::lab {
namespace {

TEST(SoakTest, WithoutFaultsTheLockHolds) {
  SoakOptions o;
  o.clients = 4;
  o.duration = Millis(1500);
  RunResult r = RunSoak(o);
  ASSERT_EQ(r.error, "");
  ASSERT_TRUE(r.verdict);
  EXPECT_EQ(*r.verdict, Verdict::kSafe) << r.check.violations.size() << " overlaps";
  EXPECT_GT(r.check.acquires_ok, 0);
  EXPECT_EQ(r.check.writes_accepted, r.check.acquires_ok);
  EXPECT_EQ(r.check.acquires_unknown, 0);
  EXPECT_EQ(r.metrics.at("faults"), 0);
}

TEST(SoakTest, CrashesAreRecordedAsFaults) {
  SoakOptions o;
  o.clients = 2;
  o.duration = Millis(2500);
  o.faults = {"crash"};
  RunResult r = RunSoak(o);
  ASSERT_EQ(r.error, "");
  int crashes = 0, restarts = 0;
  for (const Event& e : r.faults) {
    crashes += e.kind == "crash" ? 1 : 0;
    restarts += e.kind == "restart" ? 1 : 0;
  }
  EXPECT_GE(crashes, 1);
  EXPECT_EQ(crashes, restarts);
  EXPECT_EQ(r.metrics.at("faults"), crashes);
}

TEST(SoakTest, AFencedResourceAcceptsNoStaleWriteWhateverTheFaults) {
  SoakOptions o;
  o.clients = 4;
  o.duration = Millis(3000);
  o.lock = "fenced";
  o.faults = {"crash", "pause", "lag", "clock", "partition"};
  RunResult r = RunSoak(o);
  ASSERT_EQ(r.error, "");
  EXPECT_GT(r.check.writes_accepted, 0);
  EXPECT_GT(r.metrics.at("faults"), 0);
  EXPECT_EQ(r.metrics.at("stale_writes_accepted"), 0);
  for (const Op& op : r.history) {
    if (op.kind == OpKind::kAcquire && op.outcome == Outcome::kOk) {
      EXPECT_TRUE(op.token);
    }
  }
}

TEST(SoakTest, AnUnknownFaultKindIsRefused) {
  SoakOptions o;
  o.faults = {"meteor"};
  EXPECT_THROW(RunSoak(o), std::invalid_argument);
  o.faults = {};
  o.lock = "spinlock";
  EXPECT_THROW(RunSoak(o), std::invalid_argument);
}

}  // namespace
}  // namespace redlab::lab
