// The HDR histogram against known data: exact values below 2048 (3 digits), HdrHistogram's
// equivalence ranges above, and hdr_value_at_percentile's choice of value.
#include "tools/bench/histogram.h"

#include <gtest/gtest.h>

namespace redlab::tools::bench {
namespace {

TEST(HistogramTest, OneToThousandIsExact) {
  Histogram h(3600000000000, 3);
  for (int v = 1; v <= 1000; ++v) h.Record(v);
  EXPECT_EQ(h.total_count(), 1000);
  EXPECT_EQ(h.min(), 1);
  EXPECT_EQ(h.max(), 1000);
  EXPECT_EQ(h.ValueAtPercentile(50), 500);
  EXPECT_EQ(h.ValueAtPercentile(90), 900);
  EXPECT_EQ(h.ValueAtPercentile(99), 990);
  EXPECT_EQ(h.ValueAtPercentile(99.9), 999);
  EXPECT_EQ(h.ValueAtPercentile(99.99), 1000);
  EXPECT_EQ(h.ValueAtPercentile(100), 1000);
  EXPECT_DOUBLE_EQ(h.mean(), 500.5);
}

TEST(HistogramTest, LargerValuesShareSlotsAsHdrHistogram) {
  Histogram h(3600000000000, 3);
  // 10000 lies in the bucket of unit 8 (8192..16383): the slot 10000..10007.
  EXPECT_EQ(h.LowestEquivalent(10000), 10000);
  EXPECT_EQ(h.HighestEquivalent(10000), 10007);
  EXPECT_EQ(h.LowestEquivalent(10007), 10000);
  EXPECT_EQ(h.CountsIndex(10000), h.CountsIndex(10007));
  EXPECT_NE(h.CountsIndex(10000), h.CountsIndex(10008));
  // 1 ms in ns: unit 512, slot 999936..1000447 (within 0.05%).
  h.Record(1000000);
  EXPECT_EQ(h.max(), 1000447);
  EXPECT_EQ(h.min(), 999936);
}

TEST(HistogramTest, PercentileIsTheHighestEquivalentOfItsSlot) {
  Histogram h(3600000000000, 3);
  for (int v = 1; v <= 10000; ++v) h.Record(v);
  // The 5000th value lies in the slot 5000..5003 (unit 4 above 4096).
  EXPECT_EQ(h.ValueAtPercentile(50), 5003);
  EXPECT_EQ(h.ValueAtPercentile(99), 9903);  // slot 9896..9903 holds the 9900th
  EXPECT_EQ(h.max(), 10007);
  EXPECT_EQ(h.ValueAtPercentile(0), 1);
}

TEST(HistogramTest, AddResetAndClamp) {
  Histogram a(1000000, 2), b(1000000, 2);
  a.Record(10, 3);
  b.Record(20, 2);
  b.Record(5000000);  // above the highest trackable: counted as the highest
  a.Add(b);
  EXPECT_EQ(a.total_count(), 6);
  EXPECT_EQ(a.clamped(), 1);
  EXPECT_EQ(a.ValueAtPercentile(50), 10);
  EXPECT_EQ(a.ValueAtPercentile(80), 20);
  EXPECT_EQ(a.LowestEquivalent(a.max()), a.LowestEquivalent(1000000));
  a.Reset();
  EXPECT_EQ(a.total_count(), 0);
  EXPECT_EQ(a.max(), 0);
  EXPECT_EQ(a.ValueAtPercentile(99), 0);
  Histogram other(2000000, 2);
  EXPECT_THROW(a.Add(other), std::invalid_argument);
}

}  // namespace
}  // namespace redlab::tools::bench
