// The results' JSON shape and table, from figures made by hand.
#include "tools/bench/report.h"

#include <gtest/gtest.h>

#include <sstream>

namespace redlab::tools::bench {
namespace {

RunStats Stats(int64_t calls, double elapsed_s, int64_t scale) {
  RunStats s;
  for (int64_t v = 1; v <= calls; ++v) s.latency.Record(v * scale);
  s.calls = calls;
  s.elapsed_s = elapsed_s;
  s.rounds = 3;
  Interval i;
  i.start_s = 0;
  i.length_s = elapsed_s;
  i.latency = s.latency;
  s.intervals.push_back(i);
  return s;
}

Report BothTargets() {
  Report r;
  r.call = "EVALSHA abc 1 lock:{rand:1..100} 30000 o:1";
  r.config = {{"clients", 4}};
  r.wait = true;
  RunStats redlab = Stats(1000, 2, 1000);  // 1..1000 us, 500 calls/s
  redlab.errors = {{"ERR", 2}, {"NOSCRIPT", 1}};
  redlab.wait_short = 5;
  RunStats redis = Stats(1000, 4, 2000);  // 2..2000 us, 250 calls/s
  r.targets = {{"redlab", redlab}, {"redis", redis}};
  return r;
}

TEST(ReportTest, JsonShape) {
  nlohmann::json j = ToJson(BothTargets());
  EXPECT_EQ(j["call"], "EVALSHA abc 1 lock:{rand:1..100} 30000 o:1");
  EXPECT_EQ(j["config"]["clients"], 4);
  ASSERT_TRUE(j["targets"].contains("redlab"));
  ASSERT_TRUE(j["targets"].contains("redis"));
  const auto& t = j["targets"]["redlab"];
  EXPECT_EQ(t["calls"], 1000);
  EXPECT_DOUBLE_EQ(t["throughput"].get<double>(), 500);
  EXPECT_DOUBLE_EQ(t["elapsed_s"].get<double>(), 2);
  EXPECT_EQ(t["rounds"], 3);
  EXPECT_EQ(t["errors_total"], 3);
  EXPECT_EQ(t["errors"], (nlohmann::json{{"ERR", 2}, {"NOSCRIPT", 1}}));
  EXPECT_EQ(t["wait_short"], 5);
  EXPECT_EQ(t["noscript"], 0);
  // 1..1000 us in ns: 500 us lies in the slot 499968..500223 ns.
  EXPECT_DOUBLE_EQ(t["latency_us"]["p50"].get<double>(), 500.223);
  EXPECT_DOUBLE_EQ(t["latency_us"]["min"].get<double>(), 1.0);
  for (const char* k : {"min", "mean", "p50", "p90", "p99", "p99.9", "p99.99", "max"}) {
    EXPECT_TRUE(t["latency_us"].contains(k)) << k;
  }
  ASSERT_EQ(t["intervals"].size(), 1u);
  EXPECT_EQ(t["intervals"][0]["calls"], 1000);
  for (const char* k : {"start_s", "length_s", "p50_us", "p99_us", "max_us"}) {
    EXPECT_TRUE(t["intervals"][0].contains(k)) << k;
  }
  EXPECT_DOUBLE_EQ(j["ratio"]["calls/s"].get<double>(), 2.0);
  EXPECT_NEAR(j["ratio"]["p50"].get<double>(), 0.5, 0.001);
  EXPECT_EQ(j["ratio"].size(), 8u);  // calls/s, five percentiles, max, mean
}

TEST(ReportTest, OneTargetHasNoRatio) {
  Report r = BothTargets();
  r.targets.pop_back();
  nlohmann::json j = ToJson(r);
  EXPECT_FALSE(j.contains("ratio"));
  EXPECT_EQ(j["targets"].size(), 1u);
  EXPECT_EQ(FormatTable(r).find("redlab/redis"), std::string::npos);
}

TEST(ReportTest, TableHasEveryFigureAndTheRatio) {
  std::string table = FormatTable(BothTargets());
  for (const char* row :
       {"calls/s", "p50 (us)", "p90 (us)", "p99 (us)", "p99.9 (us)", "p99.99 (us)", "max (us)",
        "mean (us)", "calls", "errors", "  ERR", "  NOSCRIPT", "WAIT short", "redlab/redis"}) {
    EXPECT_NE(table.find(row), std::string::npos) << row << "\n" << table;
  }
  // calls/s: 500 against 250.
  EXPECT_NE(table.find("calls/s                  500           250         2.00x"),
            std::string::npos)
      << table;
}

TEST(ReportTest, HdrLogTagsEachTarget) {
  std::ostringstream out;
  WriteHdrLog(BothTargets(), 1700000000, out);
  std::string log = out.str();
  EXPECT_EQ(log.rfind("#[Histogram log format version 1.3]\n", 0), 0u);
  EXPECT_NE(log.find("\nTag=redlab,0.000,2.000,"), std::string::npos);
  EXPECT_NE(log.find("\nTag=redis,0.000,4.000,"), std::string::npos);
}

}  // namespace
}  // namespace redlab::tools::bench
