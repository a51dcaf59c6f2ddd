// What list and set writes hand to replication, and how much they count as changes: the effects
// and dirty counts Redis 7.0 produces (checked against `redis-cli --replica` on redis-server).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "server/engine/core/engine_test_support.h"

namespace redlab::server::engine {
namespace {

using testing::Args;
using CollectionsPropagationTest = testing::EngineTest;

TEST_F(CollectionsPropagationTest, ListWritesPropagateAsCalled) {
  uint64_t dirty = 0;
  EXPECT_EQ(Effects({"RPUSH", "l", "a", "b", "c"}, &dirty),
            (std::vector<Args>{{"RPUSH", "l", "a", "b", "c"}}));
  EXPECT_EQ(dirty, 3u);
  EXPECT_EQ(Effects({"LPOP", "l", "2"}, &dirty), (std::vector<Args>{{"LPOP", "l", "2"}}));
  EXPECT_EQ(dirty, 2u);
  EXPECT_EQ(Effects({"LMOVE", "l", "m", "LEFT", "RIGHT"}, &dirty),
            (std::vector<Args>{{"LMOVE", "l", "m", "LEFT", "RIGHT"}}));
  EXPECT_EQ(dirty, 1u);
  Run({"RPUSH", "l", "a", "a", "a"});
  EXPECT_EQ(Effects({"LTRIM", "l", "1", "-1"}, &dirty),
            (std::vector<Args>{{"LTRIM", "l", "1", "-1"}}));
  EXPECT_EQ(dirty, 1u);
  EXPECT_EQ(Effects({"LREM", "l", "0", "a"}, &dirty), (std::vector<Args>{{"LREM", "l", "0", "a"}}));
  EXPECT_EQ(dirty, 2u);
}

TEST_F(CollectionsPropagationTest, ListNoOpsAreNotPropagated) {
  Run({"RPUSH", "l", "a", "b"});
  for (Args no_op : std::vector<Args>{{"LTRIM", "l", "0", "-1"},
                                      {"LREM", "l", "0", "z"},
                                      {"LPOP", "l", "0"},
                                      {"LPOP", "missing"},
                                      {"LINSERT", "l", "BEFORE", "z", "x"},
                                      {"LPUSHX", "missing", "a"},
                                      {"LMOVE", "missing", "l", "LEFT", "LEFT"}}) {
    uint64_t dirty = 99;
    EXPECT_TRUE(Effects(no_op, &dirty).empty()) << no_op[0];
    EXPECT_EQ(dirty, 0u) << no_op[0];
  }
}

TEST_F(CollectionsPropagationTest, SpopIsPropagatedAsSrem) {
  Run({"SADD", "s", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10"});
  uint64_t dirty = 0;
  std::vector<Args> effects = Effects({"SPOP", "s"}, &dirty);
  ASSERT_EQ(effects.size(), 1u);
  EXPECT_EQ(effects[0][0], "SREM");
  EXPECT_EQ(effects[0][1], "s");
  EXPECT_EQ(dirty, 1u);
  // Few members: popped one by one, one SREM each.
  effects = Effects({"SPOP", "s", "2"}, &dirty);
  ASSERT_EQ(effects.size(), 2u);
  for (const Args& e : effects) EXPECT_EQ(Args(e.begin(), e.begin() + 2), (Args{"SREM", "s"}));
  EXPECT_EQ(dirty, 2u);
  // Most of the set (the keep-the-rest strategy): still one SREM per popped member.
  effects = Effects({"SPOP", "s", "6"}, &dirty);
  EXPECT_EQ(effects.size(), 6u);
  EXPECT_EQ(dirty, 6u);
  EXPECT_EQ(Run({"SCARD", "s"}), ":1\r\n");
  // The whole set: a DEL.
  EXPECT_EQ(Effects({"SPOP", "s", "5"}, &dirty), (std::vector<Args>{{"DEL", "s"}}));
  EXPECT_EQ(dirty, 1u);
  EXPECT_TRUE(Effects({"SPOP", "s", "5"}, &dirty).empty());
  EXPECT_TRUE(Effects({"SPOP", "s"}, &dirty).empty());
}

TEST_F(CollectionsPropagationTest, SpopInsideTransactionLeavesWithIt) {
  Run({"SADD", "s", "a", "b", "c", "d", "e", "f"});
  Run({"MULTI"});
  Run({"SPOP", "s", "2"});
  Run({"SET", "k", "v"});
  std::vector<Args> effects = Effects({"EXEC"});
  ASSERT_EQ(effects.size(), 3u);
  EXPECT_EQ(effects[0][0], "SREM");
  EXPECT_EQ(effects[1][0], "SREM");
  EXPECT_EQ(effects[2], (Args{"SET", "k", "v"}));
}

TEST_F(CollectionsPropagationTest, SetWritesCountLikeRedis) {
  uint64_t dirty = 0;
  Effects({"SADD", "s", "a", "b", "a"}, &dirty);
  EXPECT_EQ(dirty, 2u);
  EXPECT_TRUE(Effects({"SADD", "s", "a"}, &dirty).empty());
  EXPECT_EQ(Effects({"SMOVE", "s", "d", "a"}, &dirty),
            (std::vector<Args>{{"SMOVE", "s", "d", "a"}}));
  EXPECT_EQ(dirty, 2u);  // removed from the source and added to the destination
  Run({"SADD", "d", "b"});
  Effects({"SMOVE", "s", "d", "b"}, &dirty);
  EXPECT_EQ(dirty, 1u);  // already in the destination
  EXPECT_TRUE(Effects({"SMOVE", "d", "d", "b"}, &dirty).empty());
  EXPECT_EQ(Effects({"SINTERSTORE", "x", "d", "missing"}, &dirty), std::vector<Args>{});
  Run({"SET", "x", "string"});
  EXPECT_EQ(Effects({"SINTERSTORE", "x", "d", "missing"}, &dirty),
            (std::vector<Args>{{"SINTERSTORE", "x", "d", "missing"}}));
  EXPECT_EQ(dirty, 1u);  // the destination was deleted
  EXPECT_EQ(Effects({"SUNIONSTORE", "u", "d"}, &dirty),
            (std::vector<Args>{{"SUNIONSTORE", "u", "d"}}));
  EXPECT_EQ(dirty, 1u);
  Effects({"SREM", "d", "a", "b", "zz"}, &dirty);
  EXPECT_EQ(dirty, 2u);
}

}  // namespace
}  // namespace redlab::server::engine
