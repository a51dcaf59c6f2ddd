// The toxics' attributes and the timing of latency, slicer and bandwidth (toxiproxy's
// toxics/*_test.go checks the same on real links; here the clock is passed in).
#include "tools/proxy/toxics.h"

#include <gtest/gtest.h>

namespace redlab::tools {
namespace {

std::string Add(Toxics* t, std::vector<std::string_view> words) { return AddToxic(t, words); }

TEST(ToxicsTest, AttributesAsToxiproxyNamesThem) {
  Toxics t;
  EXPECT_EQ(Add(&t, {"latency", "latency", "100", "jitter", "10"}), "");
  EXPECT_EQ(Add(&t, {"bandwidth", "rate", "64"}), "");
  EXPECT_EQ(Add(&t, {"SLICER", "average_size", "10", "size_variation", "2", "delay", "500"}), "");
  EXPECT_EQ(Add(&t, {"timeout", "timeout", "0"}), "");
  EXPECT_EQ(Add(&t, {"reset_peer", "timeout", "20"}), "");
  EXPECT_EQ(Add(&t, {"limit_data", "bytes", "5"}), "");
  EXPECT_EQ(Add(&t, {"slow_close", "delay", "300"}), "");
  EXPECT_EQ(DescribeToxics(t),
            (std::vector<std::string>{"latency latency=100 jitter=10", "bandwidth rate=64",
                                      "slicer average_size=10 size_variation=2 delay=500",
                                      "timeout timeout=0", "reset_peer timeout=20",
                                      "limit_data bytes=5", "slow_close delay=300"}));
  EXPECT_TRUE(RemoveToxic(&t, "latency"));
  EXPECT_FALSE(RemoveToxic(&t, "latency"));
  EXPECT_FALSE(RemoveToxic(&t, "nosuch"));
  EXPECT_FALSE(t.latency.has_value());
}

TEST(ToxicsTest, RefusesWhatToxiproxyWouldNotTake) {
  Toxics t;
  EXPECT_EQ(Add(&t, {"flood"}),
            "unknown toxic 'flood' (latency, bandwidth, slicer, timeout, reset_peer, limit_data, "
            "slow_close)");
  EXPECT_EQ(Add(&t, {"latency", "latency"}), "toxic 'latency' takes <attribute> <value> pairs");
  EXPECT_EQ(Add(&t, {"latency", "delay", "5"}),
            "toxic 'latency' has no attribute 'delay' (it has: latency, jitter)");
  EXPECT_EQ(Add(&t, {"latency", "latency", "-1"}),
            "attribute 'latency' must be an integer from 0 to 2^40");
  EXPECT_EQ(Add(&t, {"bandwidth"}), "bandwidth needs a rate above 0 (KB/s)");
  EXPECT_EQ(Add(&t, {"slicer", "average_size", "4", "size_variation", "4"}),
            "slicer's size_variation must be smaller than its average_size");
  EXPECT_TRUE(t.empty());
}

TEST(ToxicsTest, ConnectionToxicsWinTypeByType) {
  Toxics all, one;
  Add(&all, {"latency", "latency", "100"});
  Add(&all, {"limit_data", "bytes", "7"});
  Add(&one, {"latency", "latency", "5"});
  Toxics t = Toxics::Merge(all, one);
  EXPECT_EQ(t.latency->latency_ms, 5);
  EXPECT_EQ(*t.limit_data, 7);
}

TEST(ToxicsTest, ToxicityChoosesTheConnectionsAToxicActsOn) {
  Toxics t;
  EXPECT_EQ(Add(&t, {"latency", "latency", "5", "toxicity", "0.25"}), "");
  EXPECT_EQ(Add(&t, {"limit_data", "toxicity", "1", "bytes", "9"}), "");
  EXPECT_EQ(DescribeToxics(t), (std::vector<std::string>{"latency latency=5 jitter=0 toxicity=0.25",
                                                         "limit_data bytes=9"}));
  std::array<double, Toxics::kTypes> draws;
  draws.fill(0.3);
  Toxics one = t.ForDraws(draws);
  EXPECT_FALSE(one.latency.has_value());  // 0.3 is not below 0.25
  EXPECT_EQ(*one.limit_data, 9);
  draws.fill(0.2);
  EXPECT_TRUE(t.ForDraws(draws).latency.has_value());
  EXPECT_EQ(Add(&t, {"latency", "toxicity", "2"}), "toxicity must be a number from 0 to 1");
  EXPECT_EQ(Add(&t, {"latency", "toxicity", "x"}), "toxicity must be a number from 0 to 1");
}

TEST(StreamQueueTest, LatencyDelaysAndKeepsOrder) {
  Toxics t;
  Add(&t, {"latency", "latency", "100", "jitter", "90"});
  StreamQueue q(7);
  for (int i = 0; i < 50; ++i) q.Push(i, t, std::string(1, static_cast<char>('a' + i % 26)));
  std::vector<std::string> out;
  q.TakeDue(9.9, &out);
  EXPECT_TRUE(out.empty());  // nothing before latency - jitter
  q.TakeDue(1e9, &out);
  std::string all;
  for (auto& s : out) all += s;
  std::string expected;
  for (int i = 0; i < 50; ++i) expected += static_cast<char>('a' + i % 26);
  EXPECT_EQ(all, expected);
}

TEST(StreamQueueTest, SlicerCutsIntoPiecesSpacedByItsDelay) {
  Toxics t;
  Add(&t, {"slicer", "average_size", "10", "size_variation", "0", "delay", "2000"});
  StreamQueue q;
  q.Push(0, t, std::string(35, 'x'));
  std::vector<std::string> out;
  q.TakeDue(0, &out);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0], std::string(10, 'x'));
  EXPECT_DOUBLE_EQ(q.NextDueMs(), 2.0);
  q.TakeDue(6, &out);
  ASSERT_EQ(out.size(), 4u);
  EXPECT_EQ(out[3], std::string(5, 'x'));
  EXPECT_TRUE(q.empty());
}

TEST(StreamQueueTest, BandwidthLetsBytesOutAtItsRate) {
  Toxics t;
  Add(&t, {"bandwidth", "rate", "1"});  // 1024 bytes/s: 10 ms carry 10 bytes
  StreamQueue q;
  q.Push(0, t, std::string(1024, 'b'));
  EXPECT_EQ(q.queued_bytes(), 1024u);
  std::vector<std::string> out;
  q.TakeDue(499, &out);
  size_t sent = 0;
  for (auto& s : out) sent += s.size();
  EXPECT_LT(sent, 512u);
  EXPECT_GT(sent, 490u);
  q.TakeDue(1000, &out);
  sent = 0;
  for (auto& s : out) sent += s.size();
  EXPECT_EQ(sent, 1024u);
  // An idle link does not bank its unused rate.
  q.Push(5000, t, std::string(20, 'c'));
  EXPECT_GT(q.NextDueMs(), 5000.0);
}

}  // namespace
}  // namespace redlab::tools
