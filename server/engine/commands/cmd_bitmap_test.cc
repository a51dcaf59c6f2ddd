// What the bitmap writes hand to replication and WATCH: Redis propagates SETBIT, BITOP and BITFIELD
// as called, and only when they changed something (server.dirty moved).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "server/engine/core/engine_test_support.h"

namespace redlab::server::engine {
namespace {

using testing::Args;
using BitmapPropagationTest = testing::EngineTest;

TEST_F(BitmapPropagationTest, SetBitPropagatesRealChangesOnly) {
  uint64_t dirty = 0;
  EXPECT_EQ(Effects({"SETBIT", "k", "7", "0"}, &dirty),
            (std::vector<Args>{{"SETBIT", "k", "7", "0"}}));  // creates the key
  EXPECT_EQ(dirty, 1u);
  EXPECT_TRUE(Effects({"SETBIT", "k", "7", "0"}, &dirty).empty());
  EXPECT_EQ(dirty, 0u);
  EXPECT_EQ(Effects({"SETBIT", "k", "7", "1"}, &dirty),
            (std::vector<Args>{{"SETBIT", "k", "7", "1"}}));
  EXPECT_EQ(Effects({"SETBIT", "k", "20", "0"}, &dirty).size(), 1u);  // lengthens the string
  EXPECT_TRUE(Touches("k", {"SETBIT", "k", "0", "1"}));
  EXPECT_FALSE(Touches("k", {"SETBIT", "k", "0", "1"}));
}

TEST_F(BitmapPropagationTest, BitOpPropagatesAsCalled) {
  Run({"SET", "a", "x"});
  uint64_t dirty = 0;
  EXPECT_EQ(Effects({"BITOP", "NOT", "d", "a"}, &dirty),
            (std::vector<Args>{{"BITOP", "NOT", "d", "a"}}));
  EXPECT_EQ(dirty, 1u);
  // An empty result deletes the destination: a change only when there was one.
  EXPECT_EQ(Effects({"BITOP", "OR", "d", "missing"}, &dirty).size(), 1u);
  EXPECT_TRUE(Effects({"BITOP", "OR", "d", "missing"}, &dirty).empty());
  EXPECT_EQ(dirty, 0u);
  EXPECT_TRUE(Touches("d", {"BITOP", "AND", "d", "a"}));
}

TEST_F(BitmapPropagationTest, BitFieldCountsEachChange) {
  uint64_t dirty = 0;
  Args cmd = {"BITFIELD", "f", "SET", "u8", "0", "1", "INCRBY", "u8", "8", "2", "GET", "u8", "0"};
  EXPECT_EQ(Effects(cmd, &dirty), std::vector<Args>{cmd});
  EXPECT_EQ(dirty, 2u);
  EXPECT_TRUE(Effects({"BITFIELD", "f", "SET", "u8", "0", "1"}, &dirty).empty());
  // OVERFLOW FAIL refuses the write: nothing changes (the key is created all the same).
  EXPECT_TRUE(
      Effects({"BITFIELD", "g", "OVERFLOW", "FAIL", "SET", "u2", "0", "9"}, &dirty).empty());
  EXPECT_EQ(dirty, 0u);
  EXPECT_TRUE(Effects({"BITFIELD_RO", "f", "GET", "u8", "0"}, &dirty).empty());
  EXPECT_TRUE(Touches("f", {"BITFIELD", "f", "INCRBY", "i8", "0", "1"}));
  EXPECT_FALSE(Touches("f", {"BITFIELD", "f", "GET", "i8", "0"}));
}

}  // namespace
}  // namespace redlab::server::engine
