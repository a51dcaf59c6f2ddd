// Actor (tools/lab/workload.h): the workload records what the built-in client's watchdog does.
// On an embedded node, the reentrant and the fenced drivers' renewals land in the history as
// renew ops, invoked when sent and answered after, and the checker reads them.
#include "tools/lab/workload.h"

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "tools/lab/checker.h"
#include "tools/lab/cluster.h"

namespace redlab::lab {
namespace {

constexpr Millis kWatchdog{300};

class WorkloadRenewalTest : public ::testing::TestWithParam<bool> {};  // fenced?

// The ops of `kind` in `h` with outcome `o`.
size_t Count(const History& h, OpKind kind, Outcome o) {
  size_t n = 0;
  for (const Op& op : h.ops()) n += op.kind == kind && op.outcome == o;
  return n;
}

TEST_P(WorkloadRenewalTest, WatchdogRenewalsAreRecordedAndTheCheckerReadsThem) {
  bool fenced = GetParam();
  auto cluster = Cluster::Start(Target::kEmbedded, {});
  LabClock clock;
  History history(&clock);
  Config config = LabConfig(Config::SingleServer(cluster->Url(cluster->Master())));
  config.lock_watchdog_timeout = kWatchdog;  // renewed every 100 ms
  {
    Actor a("A", fenced ? MakeFencedDriver(config) : MakeReentrantDriver(config), history);
    ASSERT_EQ(a.Acquire("L", Millis(0), Millis(0)).outcome, Outcome::kOk);
    // Polled with a deadline: the renewals are the client's, on its own schedule.
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (Count(history, OpKind::kRenew, Outcome::kOk) < 3 &&
           std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(Millis(10));
    }
    ASSERT_GE(Count(history, OpKind::kRenew, Outcome::kOk), 3u);
    ASSERT_EQ(a.Release("L").outcome, Outcome::kOk);
  }
  std::vector<Op> ops = history.ops();
  const Op* acquire = nullptr;
  const Op* release = nullptr;
  for (const Op& op : ops) {
    if (op.kind == OpKind::kAcquire) acquire = &op;
    if (op.kind == OpKind::kRelease) release = &op;
  }
  ASSERT_NE(acquire, nullptr);
  ASSERT_NE(release, nullptr);
  for (const Op& op : ops) {
    if (op.kind != OpKind::kRenew) continue;
    EXPECT_EQ(op.outcome, Outcome::kOk) << op.error;
    EXPECT_EQ(op.process, "A");
    EXPECT_EQ(op.owner, acquire->owner);
    EXPECT_EQ(op.lock, "L");
    EXPECT_EQ(op.lease_ms, kWatchdog.count());
    EXPECT_EQ(op.error, "");
    EXPECT_GE(op.invoke_us, acquire->complete_us);  // sent once the lock was taken
    EXPECT_GE(op.complete_us, op.invoke_us);
  }
  CheckResult r = Check(history);
  ASSERT_EQ(r.holds.size(), 1u);
  EXPECT_EQ(r.holds[0].from_us, acquire->complete_us);
  // Renewed all along (each renewal within the lease of the one before): the hold ends at the
  // release, not at a lease end.
  EXPECT_EQ(r.holds[0].to_us, release->invoke_us);
  EXPECT_EQ(r.holds[0].fenced, fenced);
  EXPECT_TRUE(r.safe());
}

INSTANTIATE_TEST_SUITE_P(Lab, WorkloadRenewalTest, ::testing::Values(false, true),
                         [](const auto& info) { return info.param ? "fenced" : "reentrant"; });

}  // namespace
}  // namespace redlab::lab
