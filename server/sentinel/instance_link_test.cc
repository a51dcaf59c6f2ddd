// Sentinel's link replies (hiredis's reply reader in Redis's sentinel.c): RESP2 replies parsed
// whole, and nothing taken from an incomplete one.
#include "server/sentinel/instance_link.h"

#include <gtest/gtest.h>

namespace redlab::server::sentinel {
namespace {

TEST(InstanceLinkTest, ParsesEachReplyType) {
  Reply r;
  EXPECT_EQ(ParseReply("+PONG\r\n", &r), 7);
  EXPECT_EQ(r.type, '+');
  EXPECT_EQ(r.str, "PONG");
  EXPECT_EQ(ParseReply("-LOADING Redis is loading\r\n", &r), 27);
  EXPECT_EQ(r.type, '-');
  EXPECT_EQ(r.str, "LOADING Redis is loading");
  EXPECT_EQ(ParseReply(":42\r\n", &r), 5);
  EXPECT_EQ(r.integer, 42);
  EXPECT_EQ(ParseReply("$5\r\na\r\nbc\r\n", &r), 11);
  EXPECT_EQ(r.str, "a\r\nbc");
  EXPECT_EQ(ParseReply("$-1\r\n", &r), 5);
  EXPECT_TRUE(r.null);
  EXPECT_EQ(ParseReply("*3\r\n$7\r\nmessage\r\n$1\r\nc\r\n$2\r\nhi\r\n", &r), 32);
  ASSERT_EQ(r.elements.size(), 3u);
  EXPECT_EQ(r.elements[0].str, "message");
  EXPECT_EQ(r.elements[2].str, "hi");
}

TEST(InstanceLinkTest, AnIncompleteReplyTakesNothing) {
  Reply r;
  EXPECT_EQ(ParseReply("", &r), 0);
  EXPECT_EQ(ParseReply("+PON", &r), 0);
  EXPECT_EQ(ParseReply("$5\r\nab", &r), 0);
  EXPECT_EQ(ParseReply("*2\r\n:1\r\n", &r), 0);
  EXPECT_EQ(ParseReply("?x\r\n", &r), -1);
}

}  // namespace
}  // namespace redlab::server::sentinel
