#include "server/engine/stats/latency.h"

#include <gtest/gtest.h>

namespace redlab::server::engine {
namespace {

TEST(LatencyMonitorTest, OneSamplePerSecondKeepingTheHighest) {
  LatencyMonitor m;
  m.AddSample("command", 5, 100);
  m.AddSample("command", 9, 100);
  m.AddSample("command", 3, 100);
  m.AddSample("command", 4, 101);
  const LatencyMonitor::Series* ts = m.Find("command");
  ASSERT_NE(ts, nullptr);
  EXPECT_EQ(ts->max, 9u);
  EXPECT_EQ(ts->latest().time_s, 101);
  EXPECT_EQ(ts->latest().latency_ms, 4u);
  EXPECT_EQ(ts->samples[0].latency_ms, 9u);
  EXPECT_EQ(m.Find("COMMAND"), nullptr);  // lookups are exact
  EXPECT_EQ(m.Reset("COMMAND"), 1u);      // RESET ignores case
  EXPECT_EQ(m.Find("command"), nullptr);
}

TEST(LatencyMonitorTest, HistoryWrapsAfter160Seconds) {
  LatencyMonitor m;
  for (int i = 1; i <= 170; ++i) m.AddSample("e", i, i);
  const LatencyMonitor::Series* ts = m.Find("e");
  EXPECT_EQ(ts->latest().latency_ms, 170u);
  EXPECT_EQ(ts->samples[ts->next].time_s, 11);  // the oldest kept
}

TEST(LatencyMonitorTest, GraphAsRedisDrawsIt) {
  LatencyMonitor m;
  m.AddSample("command", 10, 1000);
  m.AddSample("command", 20, 1001);
  std::string graph = LatencyMonitor::Graph(*m.Find("command"), 1001);
  EXPECT_EQ(graph, "command - high 20 ms, low 10 ms (all time high 20 ms)\n" +
                       std::string(80, '-') + "\n #\n |\n |\n_|\n  \n10\nss\n");
}

TEST(LatencyHistogramTest, BucketsAreRedisReportedBounds) {
  // Reported as 1, 2, 4, 8, 16, 33, 66... µs: the HDR buckets' highest values.
  EXPECT_EQ(LatencyHistogram::BucketOf(0), 0u);
  EXPECT_EQ(LatencyHistogram::BucketOf(1), 0u);
  EXPECT_EQ(LatencyHistogram::BucketOf(2), 1u);
  EXPECT_EQ(LatencyHistogram::BucketOf(3), 2u);
  EXPECT_EQ(LatencyHistogram::BucketOf(33), 5u);
  EXPECT_EQ(LatencyHistogram::BucketOf(34), 6u);
  EXPECT_EQ(LatencyHistogram::BucketOf(5000000), 20u);
  LatencyHistogram h;
  h.Record(1);
  h.Record(3);
  h.Record(3);
  h.Record(20);
  h.Record(2000000);
  auto c = h.Cumulative();
  ASSERT_EQ(c.size(), 4u);
  EXPECT_EQ(c[0], (std::pair<int64_t, uint64_t>{1, 1}));
  EXPECT_EQ(c[1], (std::pair<int64_t, uint64_t>{4, 3}));
  EXPECT_EQ(c[2], (std::pair<int64_t, uint64_t>{33, 4}));
  EXPECT_EQ(c[3], (std::pair<int64_t, uint64_t>{1073741, 5}));
}

}  // namespace
}  // namespace redlab::server::engine
