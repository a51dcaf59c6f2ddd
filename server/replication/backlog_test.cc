// The backlog's bookkeeping, against Redis's (repl_backlog_first_byte_offset, histlen, what a
// PSYNC offset may continue from).
#include "server/replication/backlog.h"

#include <gtest/gtest.h>

namespace redlab::server::replication {
namespace {

TEST(BacklogTest, StartsEmptyAtTheNextOffset) {
  Backlog b(16, 1);  // a master at offset 0: the first byte will be offset 1
  EXPECT_EQ(b.first_offset(), 1);
  EXPECT_EQ(b.histlen(), 0u);
  EXPECT_EQ(b.next_offset(), 1);
  EXPECT_TRUE(b.Covers(1));   // nothing missed
  EXPECT_FALSE(b.Covers(2));  // ahead of the stream
  EXPECT_EQ(b.CopyFrom(1), "");
}

TEST(BacklogTest, KeepsTheNewestBytesAcrossTheWrap) {
  Backlog b(8, 1);
  b.Append("abcdef");
  EXPECT_EQ(b.first_offset(), 1);
  EXPECT_EQ(b.histlen(), 6u);
  EXPECT_EQ(b.CopyFrom(3), "cdef");
  b.Append("ghijk");  // 11 bytes in all: the oldest 3 are gone
  EXPECT_EQ(b.histlen(), 8u);
  EXPECT_EQ(b.first_offset(), 4);
  EXPECT_EQ(b.next_offset(), 12);
  EXPECT_FALSE(b.Covers(3));
  EXPECT_TRUE(b.Covers(4));
  EXPECT_EQ(b.CopyFrom(4), "defghijk");
  EXPECT_EQ(b.CopyFrom(10), "jk");
  EXPECT_EQ(b.CopyFrom(12), "");
}

TEST(BacklogTest, AWriteLargerThanTheBacklogKeepsItsTail) {
  Backlog b(4, 100);
  b.Append("0123456789");
  EXPECT_EQ(b.first_offset(), 106);
  EXPECT_EQ(b.CopyFrom(106), "6789");
  EXPECT_EQ(b.next_offset(), 110);
}

TEST(BacklogTest, ResizeStartsOverAtTheNextByte) {
  Backlog b(8, 1);
  b.Append("abc");
  b.Resize(32);
  EXPECT_EQ(b.size(), 32u);
  EXPECT_EQ(b.histlen(), 0u);
  EXPECT_EQ(b.first_offset(), 4);
  b.Append("de");
  EXPECT_EQ(b.CopyFrom(4), "de");
}

}  // namespace
}  // namespace redlab::server::replication
