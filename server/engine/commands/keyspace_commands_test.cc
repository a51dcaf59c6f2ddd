// What the keyspace commands hand to replication and how they count as changes, as Redis 7.0
// (checked against redis-server's replication stream): RESTORE with an absolute TTL, COPY, MOVE
// and SWAPDB as called, SORT only when it stores, snapshots and DEBUG never.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "server/engine/core/engine_test_support.h"
#include "server/rdb/value.h"

namespace redlab::server::engine {
namespace {

using testing::Args;
using KeyspaceCommandsTest = testing::EngineTest;

std::string StringPayload(std::string_view s) {
  return rdb::CreateDumpPayload(Object::FromString(s), rdb::ValueOptions{});
}

TEST_F(KeyspaceCommandsTest, RestorePropagatesAnAbsoluteTtl) {
  std::string payload = StringPayload("v");
  std::vector<Args> effects = Effects({"RESTORE", "k", "5000", payload});
  ASSERT_EQ(effects.size(), 1u);
  ASSERT_EQ(effects[0].size(), 5u);
  EXPECT_EQ(effects[0][0], "RESTORE");
  int64_t when = std::stoll(effects[0][2]);
  EXPECT_GE(when, Now() + 4000);
  EXPECT_LE(when, Now() + 5000);
  EXPECT_EQ(effects[0][4], "ABSTTL");
  // Without a TTL, or with ABSTTL already, it goes as called.
  EXPECT_EQ(Effects({"RESTORE", "k2", "0", payload}),
            (std::vector<Args>{{"RESTORE", "k2", "0", payload}}));
  std::string at = std::to_string(Now() + 100000);
  EXPECT_EQ(Effects({"RESTORE", "k3", at, payload, "ABSTTL"}),
            (std::vector<Args>{{"RESTORE", "k3", at, payload, "ABSTTL"}}));
  // Restored already expired over an existing key: the key's deletion is what replicas get.
  std::string past = std::to_string(Now() - 1000);
  EXPECT_EQ(Effects({"RESTORE", "k3", past, payload, "ABSTTL", "REPLACE"}),
            (std::vector<Args>{{"DEL", "k3"}}));
  EXPECT_EQ(Effects({"RESTORE", "k4", past, payload, "ABSTTL"}), std::vector<Args>{});
  EXPECT_TRUE(Touches("k5", {"RESTORE", "k5", "0", payload}));
}

TEST_F(KeyspaceCommandsTest, CopyMoveSwapdbPropagateAsCalled) {
  Run({"SET", "a", "1"});
  uint64_t dirty = 0;
  EXPECT_EQ(Effects({"COPY", "a", "b", "DB", "2"}, &dirty),
            (std::vector<Args>{{"COPY", "a", "b", "DB", "2"}}));
  EXPECT_EQ(dirty, 1u);
  EXPECT_EQ(Effects({"COPY", "a", "b", "DB", "2"}), std::vector<Args>{});  // not copied
  EXPECT_EQ(Effects({"MOVE", "a", "3"}, &dirty), (std::vector<Args>{{"MOVE", "a", "3"}}));
  EXPECT_EQ(dirty, 1u);
  EXPECT_EQ(Effects({"MOVE", "a", "3"}), std::vector<Args>{});
  EXPECT_EQ(Effects({"SWAPDB", "0", "0"}, &dirty), (std::vector<Args>{{"SWAPDB", "0", "0"}}));
  EXPECT_EQ(dirty, 1u);
  Run({"SET", "w", "1"});
  EXPECT_TRUE(Touches("c", {"COPY", "w", "c"}));
  EXPECT_TRUE(Touches("w", {"SWAPDB", "0", "5"}));
}

TEST_F(KeyspaceCommandsTest, SortPropagatesOnlyWhenItStores) {
  Run({"RPUSH", "l", "3", "1", "2"});
  EXPECT_EQ(Effects({"SORT", "l"}), std::vector<Args>{});
  uint64_t dirty = 0;
  EXPECT_EQ(Effects({"SORT", "l", "STORE", "d"}, &dirty),
            (std::vector<Args>{{"SORT", "l", "STORE", "d"}}));
  EXPECT_EQ(dirty, 3u);
  EXPECT_EQ(Effects({"SORT", "missing", "STORE", "d"}, &dirty),
            (std::vector<Args>{{"SORT", "missing", "STORE", "d"}}));
  EXPECT_EQ(dirty, 1u);  // the destination was deleted
  EXPECT_EQ(Effects({"SORT", "missing", "STORE", "d"}), std::vector<Args>{});
  EXPECT_TRUE(Touches("d", {"SORT", "l", "STORE", "d"}));
}

TEST_F(KeyspaceCommandsTest, DumpAndDebugDoNotPropagate) {
  Run({"SET", "a", "1"});
  EXPECT_EQ(Effects({"DUMP", "a"}), std::vector<Args>{});
  EXPECT_EQ(Effects({"OBJECT", "FREQ", "a"}), std::vector<Args>{});
}

}  // namespace
}  // namespace redlab::server::engine
