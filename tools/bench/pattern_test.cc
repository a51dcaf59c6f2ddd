// Key and argument patterns: each placeholder, literal braces, and the errors.
#include "tools/bench/pattern.h"

#include <gtest/gtest.h>

#include <set>

namespace redlab::tools::bench {
namespace {

TEST(PatternTest, HashTagsAndOtherBracesStayLiteral) {
  std::mt19937_64 rng(1);
  for (const char* text :
       {"redisson_lock__channel:{lock}", "{", "}{", "a{client:1}b", "{rand}", "{seq:1-3}x"}) {
    SCOPED_TRACE(text);
    if (std::string(text) == "{seq:1-3}x") {
      EXPECT_THROW(Pattern p(text), std::invalid_argument);
      continue;
    }
    Pattern p(text);
    EXPECT_TRUE(p.is_literal());
    EXPECT_EQ(p.Expand(0, rng), text);
  }
}

TEST(PatternTest, SeqCyclesThroughItsRange) {
  std::mt19937_64 rng(1);
  Pattern p("job:{seq:3..5}");
  EXPECT_FALSE(p.is_literal());
  std::vector<std::string> got;
  for (int i = 0; i < 5; ++i) got.push_back(p.Expand(i, rng));
  EXPECT_EQ(got, (std::vector<std::string>{"job:3", "job:4", "job:5", "job:3", "job:4"}));
}

TEST(PatternTest, ClientIsTheConnectionNumber) {
  std::mt19937_64 rng(1);
  Pattern p("owner-{client}:1");
  EXPECT_EQ(p.Expand(0, rng), "owner-0:1");
  EXPECT_EQ(p.Expand(17, rng), "owner-17:1");
}

TEST(PatternTest, RandStaysInItsRangeAndCoversIt) {
  std::mt19937_64 rng(42);
  Pattern p("lock:{rand:-1..2}");
  std::set<std::string> seen;
  for (int i = 0; i < 1000; ++i) seen.insert(p.Expand(0, rng));
  EXPECT_EQ(seen, (std::set<std::string>{"lock:-1", "lock:0", "lock:1", "lock:2"}));
}

TEST(PatternTest, RandStrHasItsLengthAndAlphabet) {
  std::mt19937_64 rng(7);
  Pattern p("{randstr:16}.{randstr:0}|");
  std::string s = p.Expand(0, rng);
  ASSERT_EQ(s.size(), 18u);
  EXPECT_EQ(s.substr(16), ".|");
  for (char c : s.substr(0, 16)) EXPECT_TRUE(isalnum(static_cast<unsigned char>(c))) << c;
  EXPECT_NE(p.Expand(0, rng), s);  // fresh for every call
}

TEST(PatternTest, SeveralPlaceholdersAndTheSameSeedRepeat) {
  std::mt19937_64 a(9), b(9);
  Pattern p1("{client}:{seq:1..2}:{rand:1..1000000}"), p2("{client}:{seq:1..2}:{rand:1..1000000}");
  for (int i = 0; i < 10; ++i) EXPECT_EQ(p1.Expand(3, a), p2.Expand(3, b));
  std::mt19937_64 c(9);
  Pattern p3("{client}:{seq:1..2}:{rand:1..1000000}");
  EXPECT_EQ(p3.Expand(3, c).substr(0, 4), "3:1:");
}

TEST(PatternTest, BadPlaceholdersAreRefused) {
  for (const char* text : {"{rand:5..1}", "{rand:x..3}", "{rand:1..}", "{seq:}", "{randstr:-1}",
                           "{randstr:abc}", "{randstr:2000000}"}) {
    SCOPED_TRACE(text);
    EXPECT_THROW(Pattern p(text), std::invalid_argument);
  }
}

}  // namespace
}  // namespace redlab::tools::bench
