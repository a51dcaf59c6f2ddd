// Consumer groups on their own (stream_group.h): consumers and shared NACKs, copies that keep
// their NACKs pointing at their own consumers; and the StreamValue helpers t_stream.c has for
// them: the read-counter estimate, the lag, and the rax node count XINFO reports.
#include "server/data/stream_group.h"

#include <gtest/gtest.h>

#include "server/data/stream.h"

namespace redlab::server {
namespace {

StreamValue Stream(int n) {
  StreamValue s;
  for (int i = 1; i <= n; ++i) s.Append({static_cast<uint64_t>(i), 0}, {"f", "v"}, {});
  return s;
}

TEST(StreamGroupTest, ConsumersShareTheGroupsNacks) {
  StreamGroup g({0, 0}, 0);
  StreamConsumer* alice = g.CreateConsumer("alice", 5);
  ASSERT_NE(alice, nullptr);
  EXPECT_EQ(g.CreateConsumer("alice", 6), nullptr);
  StreamNack& nack = g.pel()[{1, 0}];
  StreamGroup::Assign({1, 0}, &nack, alice);
  EXPECT_EQ(alice->pel.size(), 1u);
  StreamConsumer* bob = g.CreateConsumer("bob", 7);
  StreamGroup::Assign({1, 0}, &nack, bob);
  EXPECT_TRUE(alice->pel.empty());
  EXPECT_EQ(bob->pel.at({1, 0}), &nack);
  // A copy's NACKs belong to the copy's consumers.
  StreamGroup copy = g;
  EXPECT_EQ(copy.pel().at({1, 0}).consumer, copy.FindConsumer("bob"));
  EXPECT_EQ(copy.FindConsumer("bob")->pel.at({1, 0}), &copy.pel().at({1, 0}));
  EXPECT_TRUE(g.Ack({1, 0}));
  EXPECT_FALSE(g.Ack({1, 0}));
  EXPECT_TRUE(bob->pel.empty());
  EXPECT_EQ(copy.pel().size(), 1u);
  EXPECT_EQ(copy.DeleteConsumer("bob"), 1u);
  EXPECT_TRUE(copy.pel().empty());
}

TEST(StreamGroupTest, ReadCounterAndLagAsRedisEstimates) {
  StreamValue s = Stream(5);
  StreamGroup* g = s.CreateGroup("g", {0, 0}, kInvalidEntriesRead);
  EXPECT_EQ(s.CreateGroup("g", {0, 0}, 0), nullptr);
  // Before the first entry: the entries added before it (none); at the last: all of them.
  EXPECT_EQ(s.EstimateDistanceFromFirstEverEntry({0, 0}), 0);
  EXPECT_EQ(s.EstimateDistanceFromFirstEverEntry({1, 0}), 1);
  EXPECT_EQ(s.EstimateDistanceFromFirstEverEntry({5, 0}), 5);
  EXPECT_EQ(s.EstimateDistanceFromFirstEverEntry({3, 0}), kInvalidEntriesRead);
  EXPECT_EQ(s.EstimateDistanceFromFirstEverEntry({9, 0}), kInvalidEntriesRead);
  int64_t lag = -1;
  ASSERT_TRUE(s.GroupLag(*g, &lag));
  EXPECT_EQ(lag, 5);
  s.AdvanceGroup(*g, {1, 0});
  s.AdvanceGroup(*g, {2, 0});
  EXPECT_EQ(g->entries_read(), 2);
  ASSERT_TRUE(s.GroupLag(*g, &lag));
  EXPECT_EQ(lag, 3);
  // A tombstone ahead of the group: the lag cannot be known.
  ASSERT_TRUE(s.Delete({4, 0}));
  EXPECT_FALSE(s.GroupLag(*g, &lag));
  // Delivered in order: at 3-0 the tombstone ahead makes the counter unknown; at the last
  // entry it is known again.
  s.AdvanceGroup(*g, {3, 0});
  EXPECT_EQ(g->entries_read(), kInvalidEntriesRead);
  s.AdvanceGroup(*g, {5, 0});
  EXPECT_EQ(g->entries_read(), 5);
  ASSERT_TRUE(s.GroupLag(*g, &lag));
  EXPECT_EQ(lag, 0);
}

TEST(StreamGroupTest, RaxNodeCount) {
  StreamValue empty;
  EXPECT_EQ(empty.RaxNodeCount(), 1u);  // the empty root
  StreamValue one = Stream(1);
  EXPECT_EQ(one.RaxNodeCount(), 2u);  // a compressed root and the key's leaf
  // Two keys parting at the last byte of the ms half: the shared run, the branch, the second
  // half of each (compressed) and two leaves.
  StreamValue two;
  two.Append({1, 0}, {"f", "v"}, {.max_bytes = 0, .max_entries = 1});
  two.Append({2, 0}, {"f", "v"}, {.max_bytes = 0, .max_entries = 1});
  EXPECT_EQ(two.node_count(), 2u);
  EXPECT_EQ(two.RaxNodeCount(), 6u);
}

}  // namespace
}  // namespace redlab::server
