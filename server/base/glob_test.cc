#include "server/base/glob.h"

#include <gtest/gtest.h>

namespace redlab::server {
namespace {

TEST(GlobTest, RedisPatterns) {
  EXPECT_TRUE(GlobMatch("*", "anything"));
  EXPECT_TRUE(GlobMatch("h?llo", "hello"));
  EXPECT_TRUE(GlobMatch("h*llo", "heeeello"));
  EXPECT_TRUE(GlobMatch("h[ae]llo", "hallo"));
  EXPECT_FALSE(GlobMatch("h[ae]llo", "hillo"));
  EXPECT_TRUE(GlobMatch("h[^e]llo", "hallo"));
  EXPECT_FALSE(GlobMatch("h[^e]llo", "hello"));
  EXPECT_TRUE(GlobMatch("h[a-b]llo", "hbllo"));
  EXPECT_TRUE(GlobMatch("h\\*llo", "h*llo"));
  EXPECT_FALSE(GlobMatch("h\\*llo", "hello"));
  EXPECT_TRUE(GlobMatch("MAXMEM*", "maxmemory", true));
  EXPECT_FALSE(GlobMatch("MAXMEM*", "maxmemory", false));
  EXPECT_TRUE(GlobMatch("", ""));
  EXPECT_FALSE(GlobMatch("a", ""));
}

TEST(GlobTest, PathologicalPatternTerminates) {
  std::string text(200, 'a');
  EXPECT_FALSE(GlobMatch("a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*b", text));
}

}  // namespace
}  // namespace redlab::server
