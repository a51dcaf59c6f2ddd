// StreamNode on its own: listpack.c's bytes for each encoding, walking both ways, integers
// replaced in place or with the following elements moved, and the element count's header.
#include "server/data/stream_node.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace redlab::server {
namespace {

std::vector<std::string> Forward(const StreamNode& n) {
  std::vector<std::string> out;
  char buf[StreamNode::kIntBufSize];
  for (size_t p = StreamNode::First(); !n.AtEnd(p); p = n.Next(p)) out.emplace_back(n.Get(p, buf));
  return out;
}

std::vector<std::string> Backward(const StreamNode& n) {
  std::vector<std::string> out;
  char buf[StreamNode::kIntBufSize];
  for (size_t p = n.bytes() - 1; p != StreamNode::First();) {
    p = n.Prev(p);
    out.emplace_back(n.Get(p, buf));
  }
  return out;
}

TEST(StreamNodeTest, EncodesAsListpackC) {
  StreamNode n;
  n.AppendInteger(1);        // 7-bit unsigned: 01, back-length 01
  n.AppendInteger(-5);       // 13-bit: C0|(8187>>8)=DF FB, 02
  n.Append("ab");            // 6-bit string: 82 'a' 'b', 03
  n.Append("300");           // reads as an integer: 13-bit C1 2C, 02
  n.AppendInteger(-40000);   // 24-bit: F2 C0 63 FF, 04
  n.AppendInteger(1 << 20);  // 24-bit: F2 00 00 10, 04
  n.AppendInteger(5000);     // 16-bit: F1 88 13, 03
  const std::string expected(
      "\x21\x00\x00\x00\x07\x00"
      "\x01\x01"
      "\xdf\xfb\x02"
      "\x82"
      "ab\x03"
      "\xc1\x2c\x02"
      "\xf2\xc0\x63\xff\x04"
      "\xf2\x00\x00\x10\x04"
      "\xf1\x88\x13\x03"
      "\xff",
      33);
  EXPECT_EQ(n.view(), expected);
  EXPECT_EQ(Forward(n),
            (std::vector<std::string>{"1", "-5", "ab", "300", "-40000", "1048576", "5000"}));
  EXPECT_EQ(Backward(n),
            (std::vector<std::string>{"5000", "1048576", "-40000", "300", "ab", "-5", "1"}));
}

TEST(StreamNodeTest, LongStringsHaveLongerHeadersAndBackLengths) {
  StreamNode n;
  std::string s200(200, 'x'), s5000(5000, 'y');
  n.Append(s200);   // 12-bit header (2 bytes): 202 bytes, back-length of 2 bytes
  n.Append(s5000);  // 32-bit header (5 bytes): 5005 bytes, back-length of 2 bytes
  n.Append("z");
  EXPECT_EQ(n.bytes(), 6u + (202 + 2) + (5005 + 2) + (2 + 1) + 1);
  EXPECT_EQ(Forward(n), (std::vector<std::string>{s200, s5000, "z"}));
  EXPECT_EQ(Backward(n), (std::vector<std::string>{"z", s5000, s200}));
}

TEST(StreamNodeTest, ReplacingAnIntegerMovesWhatFollowsWhenItsSizeChanges) {
  StreamNode n;
  n.AppendInteger(127);
  n.Append("tail");
  size_t before = n.bytes();
  n.ReplaceInteger(StreamNode::First(), 126);  // same size: in place
  EXPECT_EQ(n.bytes(), before);
  n.ReplaceInteger(StreamNode::First(), 128);  // one byte more (13-bit form)
  EXPECT_EQ(n.bytes(), before + 1);
  EXPECT_EQ(n.GetInteger(StreamNode::First()), 128);
  EXPECT_EQ(Forward(n), (std::vector<std::string>{"128", "tail"}));
  n.ReplaceInteger(StreamNode::First(), 3);
  EXPECT_EQ(n.bytes(), before);
  EXPECT_EQ(Backward(n), (std::vector<std::string>{"tail", "3"}));
  StreamNode copy = n;
  copy.ShrinkToFit();
  EXPECT_EQ(copy.view(), n.view());
}

TEST(StreamNodeTest, TheCountHeaderStopsAtUnknown) {
  StreamNode n;
  for (int i = 0; i < 65536; ++i) n.AppendInteger(i % 100);
  EXPECT_EQ(static_cast<uint8_t>(n.view()[4]), 0xFF);
  EXPECT_EQ(static_cast<uint8_t>(n.view()[5]), 0xFF);  // 65535: "count unknown"
  StreamNode small;
  small.AppendInteger(7);
  small.AppendInteger(8);
  EXPECT_EQ(small.view().substr(4, 2), std::string("\x02\x00", 2));
}

}  // namespace
}  // namespace redlab::server
