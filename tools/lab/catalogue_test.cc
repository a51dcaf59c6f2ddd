// The catalogue, run: on embedded nodes every scenario's verdict (the checker's) is the one it
// documents; on real redis-server the quick share gives the same verdicts, and a scenario real
// Redis cannot run skips with its reason.
#include <gtest/gtest.h>

#include "tools/lab/report.h"
#include "tools/lab/runner.h"

namespace redlab::lab {
namespace {

class CatalogueTest : public ::testing::TestWithParam<const Scenario*> {};

std::string Describe(const RunResult& r) { return VerdictTable({r}) + RunToJson(r).dump(1); }

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
  if (redis.skipped) GTEST_SKIP() << *redis.skipped;
  RunResult embedded = RunScenario(*GetParam(), Target::kEmbedded, 1);
  ASSERT_TRUE(redis.verdict && embedded.verdict);
  EXPECT_EQ(VerdictName(*redis.verdict), std::string(VerdictName(redis.documented)))
      << Describe(redis);
  EXPECT_EQ(*redis.verdict, *embedded.verdict);
}

std::vector<const Scenario*> All() { return SelectScenarios({}); }

INSTANTIATE_TEST_SUITE_P(Lab, CatalogueTest, ::testing::ValuesIn(All()),
                         [](const ::testing::TestParamInfo<const Scenario*>& info) {
                           std::string id = info.param->id();
                           for (char& c : id) {
                             if (!isalnum(static_cast<unsigned char>(c))) c = '_';
                           }
                           return id;
                         });

TEST(CatalogueSkipTest, AClockFaultSkipsOnRealRedisWithTheReason) {
  RunResult r = RunScenario(*SelectScenarios({"clock-jump"}).at(0), Target::kRedis, 1);
  ASSERT_TRUE(r.skipped);
  EXPECT_EQ(*r.skipped, "a real redis-server's clock cannot be moved (FAULT CLOCK is redlab's)");
  EXPECT_FALSE(r.verdict);
  EXPECT_TRUE(r.history.empty());
}

}  // namespace
}  // namespace redlab::lab
