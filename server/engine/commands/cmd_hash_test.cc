// What the hash commands propagate to replicas (the one thing the conformance suite cannot see
// before replication exists): HINCRBYFLOAT as HSET of its result, the others as called, and
// nothing for a command that changed nothing.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "server/engine/core/engine_test_support.h"

namespace redlab::server::engine {
namespace {

using testing::Args;
using HashPropagationTest = testing::EngineTest;

using Batch = std::vector<Args>;

TEST_F(HashPropagationTest, HIncrByFloatPropagatesAsHSetOfTheResult) {
  EXPECT_EQ(Run({"HINCRBYFLOAT", "h", "f", "1.50"}), "$3\r\n1.5\r\n");
  EXPECT_EQ(Run({"hincrbyfloat", "h", "f", "5.0e3"}), "$6\r\n5001.5\r\n");
  EXPECT_EQ(sink_.args, (Batch{{"HSET", "h", "f", "1.5"}, {"HSET", "h", "f", "5001.5"}}));
}

TEST_F(HashPropagationTest, WritesPropagateAsCalledAndNoOpsNotAtAll) {
  Run({"hset", "h", "a", "1", "a", "2"});
  Run({"hsetnx", "h", "a", "3"});          // no change
  Run({"hdel", "h", "x"});                 // no change
  Run({"hincrby", "h", "a", "x"});         // error
  Run({"hincrbyfloat", "h", "a", "inf"});  // error
  Run({"hincrby", "h", "n", "1"});
  Run({"hmset", "h", "x", "1"});
  Run({"hdel", "h", "a", "n", "x"});
  EXPECT_EQ(sink_.args, (Batch{{"hset", "h", "a", "1", "a", "2"},
                               {"hincrby", "h", "n", "1"},
                               {"hmset", "h", "x", "1"},
                               {"hdel", "h", "a", "n", "x"}}));
  EXPECT_EQ(Run({"hlen", "h"}), ":0\r\n");
}

TEST_F(HashPropagationTest, DirtyCountsAsRedis) {
  uint64_t start = engine_.stats().dirty();
  Run({"hset", "h", "a", "1", "b", "2", "a", "3"});  // one per pair, even repeated
  EXPECT_EQ(engine_.stats().dirty() - start, 3u);
  Run({"hdel", "h", "a", "zz", "b"});  // one per field deleted
  EXPECT_EQ(engine_.stats().dirty() - start, 5u);
}

}  // namespace
}  // namespace redlab::server::engine
