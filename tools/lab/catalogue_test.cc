// The catalogue, run: on embedded nodes every scenario's verdict (the checker's) is the one it
// documents; on real redis-server the quick share gives the same verdicts, and a scenario real
// Redis cannot run skips with its reason.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>

#include "tools/lab/report.h"
#include "tools/lab/runner.h"

namespace redlab::lab {
namespace {

class CatalogueTest : public ::testing::TestWithParam<const Scenario*> {};

std::string Describe(const RunResult& r) { return VerdictTable({r}) + RunToJson(r).dump(1); }

// The shipped node-redlock driver, when its npm packages are installed (tools/install-deps.sh).
std::string NodeRedlockDriver() {
  std::filesystem::path dir =
      std::filesystem::path(REDLAB_SOURCE_DIR) / "tools/lab/drivers/node-redlock";
  if (!std::filesystem::exists(dir / "node_modules/redlock") ||
      !std::filesystem::exists(dir / "node_modules/ioredis") ||
      system("node --version >/dev/null 2>&1") != 0) {
    return "";
  }
  return "node " + (dir / "driver.js").string();
}

TEST_P(CatalogueTest, EmbeddedGivesTheDocumentedVerdict) {
  RunResult r = RunScenario(*GetParam(), Target::kEmbedded, 1);
  ASSERT_EQ(r.error, "");
  ASSERT_FALSE(r.skipped) << *r.skipped;
  ASSERT_TRUE(r.verdict);
  EXPECT_EQ(VerdictName(*r.verdict), std::string(VerdictName(r.documented))) << Describe(r);
  // An unsafe verdict comes with what made it so.
  EXPECT_EQ(*r.verdict == Verdict::kUnsafe,
            !r.check.violations.empty() || !r.check.resource_violations.empty());
}

TEST_P(CatalogueTest, RealRedisGivesTheSameVerdictAsEmbedded) {
  if (!GetParam()->redis_quick) GTEST_SKIP() << "not in the quick share run on real Redis";
  RunResult redis = RunScenario(*GetParam(), Target::kRedis, 1);
  ASSERT_EQ(redis.error, "");
  if (redis.skipped) GTEST_SKIP() << *redis.skipped;  // a clock fault
  RunResult embedded = RunScenario(*GetParam(), Target::kEmbedded, 1);
  ASSERT_TRUE(redis.verdict && embedded.verdict);
  EXPECT_EQ(VerdictName(*redis.verdict), std::string(VerdictName(redis.documented)))
      << Describe(redis);
  EXPECT_EQ(*redis.verdict, *embedded.verdict) << Describe(embedded);
}

std::vector<const Scenario*> All() { return SelectScenarios({}); }

std::string ScenarioName(const ::testing::TestParamInfo<const Scenario*>& info) {
  std::string id = info.param->id();
  for (char& c : id) {
    if (!isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return id;
}

INSTANTIATE_TEST_SUITE_P(Lab, CatalogueTest, ::testing::ValuesIn(All()), ScenarioName);

// node-redlock (npm redlock 4.2 on ioredis) through the JSON-lines driver protocol, on both
// targets: it keeps the lock through a minority crash and loses it to a master restarted empty.
class DriverTest : public ::testing::TestWithParam<const Scenario*> {};

TEST_P(DriverTest, NodeRedlockGivesTheDocumentedVerdictOnBothTargets) {
  std::string driver = NodeRedlockDriver();
  if (driver.empty()) GTEST_SKIP() << "node-redlock is not installed (tools/install-deps.sh)";
  for (Target t : {Target::kEmbedded, Target::kRedis}) {
    RunResult r = RunScenario(*GetParam(), t, 1, {.driver = driver});
    ASSERT_EQ(r.error, "") << TargetName(t);
    ASSERT_FALSE(r.skipped) << *r.skipped;
    EXPECT_EQ(r.driver, driver);
    ASSERT_TRUE(r.verdict);
    EXPECT_EQ(VerdictName(*r.verdict), std::string(VerdictName(r.documented))) << Describe(r);
    for (const Op& op : r.history) {
      if (op.kind == OpKind::kAcquire || op.kind == OpKind::kRelease) {
        EXPECT_EQ(op.owner.rfind("driver:", 0), 0u) << op.owner;  // the driver's process took it
      }
    }
  }
}

std::vector<const Scenario*> TakingDrivers() {
  std::vector<const Scenario*> out;
  for (const Scenario* s : SelectScenarios({})) {
    if (s->takes_driver) out.push_back(s);
  }
  return out;
}

INSTANTIATE_TEST_SUITE_P(Lab, DriverTest, ::testing::ValuesIn(TakingDrivers()), ScenarioName);

// The sentinels, not the lab, promote the replica in sentinel-failover-race, and the failover is
// timed, from the master's crash to a sentinel naming the replica.
TEST(CatalogueSentinelTest, TheSentinelsPromoteTheReplicaAndTheFailoverIsTimed) {
  RunResult r =
      RunScenario(*SelectScenarios({"sentinel-failover-race"}).at(0), Target::kEmbedded, 1);
  ASSERT_EQ(r.error, "");
  ASSERT_EQ(r.metrics.count("failover_ms"), 1u);
  EXPECT_GT(r.metrics.at("failover_ms"), 0);
  std::vector<std::string> faults;
  for (const Event& e : r.faults) faults.push_back(e.kind + " " + e.target);
  EXPECT_EQ(faults, (std::vector<std::string>{"start lab", "repl-hold r0", "crash m0",
                                              "sentinel-promote r0"}));
}

// The split brain: the partition, then the majority's promotion while the old master still
// holds A's lock; two holders at once. Real Redis cannot be partitioned: skipped with the reason.
TEST(CatalogueSentinelTest, APartitionMakesASplitBrainWithTwoHolders) {
  RunResult r =
      RunScenario(*SelectScenarios({"sentinel-split-brain"}).at(0), Target::kEmbedded, 1);
  ASSERT_EQ(r.error, "");
  ASSERT_TRUE(r.verdict);
  EXPECT_EQ(*r.verdict, Verdict::kUnsafe);
  EXPECT_FALSE(r.check.violations.empty());
  ASSERT_EQ(r.metrics.count("failover_ms"), 1u);
  std::vector<std::string> faults;
  for (const Event& e : r.faults) faults.push_back(e.kind + " " + e.target);
  EXPECT_EQ(faults, (std::vector<std::string>{"start lab", "partition m0",
                                              "sentinel-promote r0"}));
  RunResult redis =
      RunScenario(*SelectScenarios({"sentinel-split-brain"}).at(0), Target::kRedis, 1);
  ASSERT_TRUE(redis.skipped);
  EXPECT_EQ(*redis.skipped,
            "real redis-server nodes and sentinels cannot be partitioned (FAULT PARTITION is "
            "redlab's)");
}

TEST(CatalogueSkipTest, AClockFaultSkipsOnRealRedisWithTheReason) {
  RunResult r = RunScenario(*SelectScenarios({"clock-jump"}).at(0), Target::kRedis, 1);
  ASSERT_TRUE(r.skipped);
  EXPECT_EQ(*r.skipped, "a real redis-server's clock cannot be moved (FAULT CLOCK is redlab's)");
  EXPECT_FALSE(r.verdict);
  EXPECT_TRUE(r.history.empty());
}

}  // namespace
}  // namespace redlab::lab
