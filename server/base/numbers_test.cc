#include "server/base/numbers.h"

#include <gtest/gtest.h>

namespace redlab::server {
namespace {

TEST(NumbersTest, ParseDoubleLikeStrtodWithRedisChecks) {
  double d = 0;
  EXPECT_TRUE(ParseDouble("1.5", &d));
  EXPECT_EQ(d, 1.5);
  for (const char* s : {"inf", "-inf", "1e3"}) EXPECT_TRUE(ParseDouble(s, &d)) << s;
  for (const char* s : {"nan", " 1", "1 ", "", "1e400"}) EXPECT_FALSE(ParseDouble(s, &d)) << s;
}

TEST(NumbersTest, LongDoubleHumanFormat) {
  EXPECT_EQ(FormatLongDoubleHuman(10.5L), "10.5");
  EXPECT_EQ(FormatLongDoubleHuman(3.0L), "3");
  EXPECT_EQ(FormatLongDoubleHuman(-0.0L), "0");
  EXPECT_EQ(FormatLongDoubleHuman(5.0e3L), "5000");
  long double v = 0;
  ASSERT_TRUE(ParseLongDouble("10.5", &v));
  EXPECT_EQ(FormatLongDoubleHuman(v + 0.1L), "10.6");
}

TEST(NumbersTest, AddOverflowsAtTheInt64Ends) {
  EXPECT_FALSE(AddOverflows(INT64_MAX, 0));
  EXPECT_TRUE(AddOverflows(INT64_MAX, 1));
  EXPECT_TRUE(AddOverflows(INT64_MIN, -1));
  EXPECT_FALSE(AddOverflows(INT64_MIN, INT64_MAX));
}

TEST(ParseInt64Test, MatchesString2ll) {
  int64_t v = 0;
  EXPECT_TRUE(ParseInt64("0", &v));
  EXPECT_TRUE(ParseInt64("-9223372036854775808", &v));
  EXPECT_EQ(v, INT64_MIN);
  EXPECT_TRUE(ParseInt64("9223372036854775807", &v));
  for (const char* s : {"9223372036854775808", "-0", "01", "+1", " 1", "", "1a"}) {
    EXPECT_FALSE(ParseInt64(s, &v)) << s;
  }
}

}  // namespace
}  // namespace redlab::server
