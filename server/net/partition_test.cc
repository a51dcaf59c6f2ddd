#include "server/net/partition.h"

#include <gtest/gtest.h>

namespace redlab::server::net {
namespace {

TEST(PartitionTest, CutsTheIsolatedSideOffFromTheRestBothWays) {
  EXPECT_FALSE(Partitioned(7000, 7001));
  int changes = 0;
  int watch = WatchPartition([&] { ++changes; });
  SetPartition({7001, 7002});
  EXPECT_EQ(changes, 1);
  EXPECT_TRUE(Partitioned(7000, 7001));
  EXPECT_TRUE(Partitioned(7001, 7000));
  EXPECT_TRUE(Partitioned(7002, 7000));
  EXPECT_FALSE(Partitioned(7001, 7002));  // same side
  EXPECT_FALSE(Partitioned(7000, 7003));  // same side
  EXPECT_FALSE(Partitioned(0, 7001));     // not a node
  EXPECT_EQ(PartitionedPorts(), (std::vector<int>{7001, 7002}));
  SetPartition({7003});  // replaces the last one
  EXPECT_FALSE(Partitioned(7000, 7001));
  EXPECT_TRUE(Partitioned(7000, 7003));
  SetPartition({});
  EXPECT_EQ(changes, 3);
  EXPECT_FALSE(Partitioned(7000, 7003));
  EXPECT_TRUE(PartitionedPorts().empty());
  UnwatchPartition(watch);
  SetPartition({});
  EXPECT_EQ(changes, 3);  // never called once unwatched
}

TEST(PartitionTest, ALinksLocalPortNamesItsNode) {
  EXPECT_EQ(NodeOfLinkPort(51000), 0);
  RegisterLinkPort(51000, 7001);
  EXPECT_EQ(NodeOfLinkPort(51000), 7001);
  UnregisterLinkPort(51000);
  EXPECT_EQ(NodeOfLinkPort(51000), 0);
}

}  // namespace
}  // namespace redlab::server::net
