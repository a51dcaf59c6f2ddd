// What stream writes hand to replication (t_stream.c): XADD with the ID it chose, approximate
// trims as the exact trims they did (MAXLEN/MINID = ...), XREAD nothing, and their dirty counts.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "server/engine/core/engine_test_support.h"

namespace redlab::server::engine {
namespace {

using testing::Args;
using StreamPropagationTest = testing::EngineTest;

TEST_F(StreamPropagationTest, XAddPropagatesTheIdItChose) {
  uint64_t dirty = 0;
  EXPECT_EQ(Effects({"XADD", "s", "5-1", "f", "v"}, &dirty),
            (std::vector<Args>{{"XADD", "s", "5-1", "f", "v"}}));
  EXPECT_EQ(dirty, 1u);
  EXPECT_EQ(Effects({"XADD", "s", "5-*", "f", "v"}, &dirty),
            (std::vector<Args>{{"XADD", "s", "5-2", "f", "v"}}));
  std::vector<Args> effects = Effects({"XADD", "s", "*", "f", "v"}, &dirty);
  ASSERT_EQ(effects.size(), 1u);
  EXPECT_NE(effects[0][2], "*");
  EXPECT_EQ(effects[0][2].substr(effects[0][2].size() - 2), "-0");
}

TEST_F(StreamPropagationTest, ApproximateTrimsPropagateAsExact) {
  Run({"CONFIG", "SET", "stream-node-max-entries", "2"});
  for (int i = 1; i <= 5; ++i) Run({"XADD", "s", std::to_string(i) + "-0", "f", "v"});
  uint64_t dirty = 0;
  EXPECT_EQ(Effects({"XTRIM", "s", "MAXLEN", "~", "2"}, &dirty),
            (std::vector<Args>{{"XTRIM", "s", "MAXLEN", "=", "3"}}));
  EXPECT_EQ(dirty, 2u);
  // The first entry, deleted or not, as streamGetEdgeID reads it without skipping tombstones.
  Run({"XDEL", "s", "3-0"});
  EXPECT_EQ(Effects({"XADD", "s", "MINID", "~", "4", "6-0", "f", "v"}, &dirty),
            (std::vector<Args>{{"XADD", "s", "MINID", "=", "3-0", "6-0", "f", "v"}}));
  // All trimmed: no first entry is the largest ID.
  EXPECT_EQ(Effects({"XADD", "s", "MINID", "~", "9", "7-0", "f", "v"}, &dirty),
            (std::vector<Args>{{"XADD", "s", "MINID", "=",
                                "18446744073709551615-18446744073709551615", "7-0", "f", "v"}}));
  // Nothing trimmed: XTRIM is not propagated.
  EXPECT_TRUE(Effects({"XTRIM", "s", "MAXLEN", "~", "100"}, &dirty).empty());
  EXPECT_EQ(dirty, 0u);
}

TEST_F(StreamPropagationTest, ReadsAndNoOpsAreNotPropagated) {
  Run({"XADD", "s", "1-0", "f", "v"});
  for (Args no_op : std::vector<Args>{{"XREAD", "STREAMS", "s", "0"},
                                      {"XDEL", "s", "9-9"},
                                      {"XRANGE", "s", "-", "+"}}) {
    uint64_t dirty = 99;
    EXPECT_TRUE(Effects(no_op, &dirty).empty()) << no_op[0];
    EXPECT_EQ(dirty, 0u) << no_op[0];
  }
}

}  // namespace
}  // namespace redlab::server::engine
