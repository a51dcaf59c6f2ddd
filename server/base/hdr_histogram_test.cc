#include "server/base/hdr_histogram.h"

#include <gtest/gtest.h>

namespace redlab::server {
namespace {

TEST(HdrHistogramTest, SmallValuesAreExact) {
  HdrHistogram h;
  for (int64_t v = 1; v <= 100; ++v) h.Record(v);
  EXPECT_EQ(h.ValueAtPercentile(50), 50);
  EXPECT_EQ(h.ValueAtPercentile(99), 99);
  EXPECT_EQ(h.ValueAtPercentile(100), 100);
  EXPECT_EQ(h.ValueAtPercentile(0), 1);
}

TEST(HdrHistogramTest, LargerValuesReportTheTopOfTheirSubBucket) {
  HdrHistogram h;
  h.Record(1000);  // range 2: sub-buckets 4 ns wide, [1000, 1003]
  EXPECT_EQ(h.ValueAtPercentile(50), 1003);
  EXPECT_EQ(h.ValueAtPercentile(0), 1000);  // percentile 0 answers the lowest equivalent value
  HdrHistogram big;
  big.Record(int64_t{1} << 40);  // clamped to the highest trackable value, 1e9
  EXPECT_EQ(big.ValueAtPercentile(99.9), 998244352 + (int64_t{1} << 22) - 1);
}

TEST(HdrHistogramTest, PercentilesCountAsTheLibraryCounts) {
  HdrHistogram h;
  for (int i = 0; i < 99; ++i) h.Record(10);
  h.Record(5000);  // range 5: 32 ns wide, [4992, 5023]
  EXPECT_EQ(h.total(), 100);
  EXPECT_EQ(h.ValueAtPercentile(99), 10);      // the 99th of 100 values
  EXPECT_EQ(h.ValueAtPercentile(99.9), 5023);  // rounds up to the 100th
  EXPECT_TRUE(HdrHistogram().empty());
}

}  // namespace
}  // namespace redlab::server
