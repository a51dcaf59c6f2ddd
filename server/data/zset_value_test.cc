// The sorted-set value on its own: range parsing, ZADD's flag rules, the listpack -> skiplist
// conversion, and both forms driven side by side through the same random operations, which
// must answer every query alike.
#include "server/data/zset_value.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "server/data/object.h"

namespace redlab::server {
namespace {

using Encoding = ZsetValue::Encoding;
using Pairs = std::vector<std::pair<std::string, double>>;

constexpr ZsetLimits kSmallForever{1u << 30, 1u << 30};

Pairs All(const ZsetValue& z) {
  Pairs out;
  if (z.empty()) return out;
  for (auto it = z.AtRank(0); it.valid(); it.Next()) out.emplace_back(it.member(), it.score());
  return out;
}

Pairs AllReversed(const ZsetValue& z) {
  Pairs out;
  if (z.empty()) return out;
  for (auto it = z.AtRank(z.size() - 1); it.valid(); it.Prev()) {
    out.emplace_back(it.member(), it.score());
  }
  return out;
}

double Add(ZsetValue& z, double score, std::string_view member, uint32_t flags = 0,
           ZaddResult* result = nullptr, const ZsetLimits& limits = ZsetLimits{}) {
  double out = std::numeric_limits<double>::quiet_NaN();
  ZaddResult r = z.Add(score, member, flags, limits, &out);
  if (result) *result = r;
  return out;
}

TEST(ZsetRangeTest, ParsesScoreRangesAsRedis) {
  ScoreRange r;
  ASSERT_TRUE(ParseScoreRange("(1.5", "+inf", &r));
  EXPECT_EQ(r.min, 1.5);
  EXPECT_TRUE(r.min_exclusive);
  EXPECT_TRUE(std::isinf(r.max));
  EXPECT_FALSE(r.max_exclusive);
  ASSERT_TRUE(ParseScoreRange("-inf", "(-inf", &r));
  EXPECT_TRUE(r.Empty());
  // strtod's leniency: leading spaces, hex, and an empty bound meaning 0.
  ASSERT_TRUE(ParseScoreRange(" 1", "0x10", &r));
  EXPECT_EQ(r.min, 1);
  EXPECT_EQ(r.max, 16);
  ASSERT_TRUE(ParseScoreRange("", "(", &r));
  EXPECT_EQ(r.min, 0);
  EXPECT_TRUE(r.max_exclusive);
  EXPECT_FALSE(ParseScoreRange("nan", "1", &r));
  EXPECT_FALSE(ParseScoreRange("1", "1 ", &r));
  EXPECT_FALSE(ParseScoreRange("x", "1", &r));
  EXPECT_FALSE(ParseScoreRange("((1", "1", &r));
  EXPECT_TRUE(ParseScoreRange(std::string("1\0junk", 6), "2", &r));  // stops at the NUL
}

TEST(ZsetRangeTest, ParsesLexRangesAsRedis) {
  LexRange r;
  ASSERT_TRUE(ParseLexRange("[a", "(b", &r));
  EXPECT_FALSE(r.min.exclusive);
  EXPECT_EQ(r.min.value, "a");
  EXPECT_TRUE(r.max.exclusive);
  EXPECT_TRUE(r.GteMin("a"));
  EXPECT_FALSE(r.LteMax("b"));
  EXPECT_TRUE(r.LteMax("az"));
  ASSERT_TRUE(ParseLexRange("-", "+", &r));
  EXPECT_TRUE(r.GteMin(""));
  EXPECT_TRUE(r.LteMax("\xff\xff"));
  EXPECT_FALSE(r.Empty());
  ASSERT_TRUE(ParseLexRange("+", "-", &r));
  EXPECT_TRUE(r.Empty());
  ASSERT_TRUE(ParseLexRange("-", "-", &r));
  EXPECT_TRUE(r.Empty());
  ASSERT_TRUE(ParseLexRange("[", "(", &r));  // the empty string, inclusive and exclusive
  EXPECT_TRUE(r.Empty());
  ASSERT_TRUE(ParseLexRange("[a", "[a", &r));
  EXPECT_FALSE(r.Empty());
  EXPECT_FALSE(ParseLexRange("a", "+", &r));
  EXPECT_FALSE(ParseLexRange("", "+", &r));
  EXPECT_FALSE(ParseLexRange("-", "+x", &r));
  EXPECT_FALSE(ParseLexRange("-a", "+", &r));
}

TEST(ZsetValueTest, OrdersByScoreThenMemberBytes) {
  for (Encoding e : {Encoding::kListpack, Encoding::kSkiplist}) {
    ZsetValue z(e);
    Add(z, 2, "b");
    Add(z, 1, "\xff");
    Add(z, 1, "a");
    Add(z, 1, "ab");
    Add(z, -std::numeric_limits<double>::infinity(), "z");
    EXPECT_EQ(All(z), (Pairs{{"z", -std::numeric_limits<double>::infinity()},
                             {"a", 1},
                             {"ab", 1},
                             {"\xff", 1},
                             {"b", 2}}));
    EXPECT_EQ(z.Rank("\xff", false), 3);
    EXPECT_EQ(z.Rank("\xff", true), 1);
    EXPECT_EQ(z.Rank("nope", false), -1);
  }
}

TEST(ZsetValueTest, AddFollowsZaddFlagRules) {
  for (Encoding e : {Encoding::kListpack, Encoding::kSkiplist}) {
    ZsetValue z(e);
    ZaddResult r;
    EXPECT_EQ(Add(z, 5, "m", 0, &r), 5);
    EXPECT_EQ(r, ZaddResult::kAdded);
    Add(z, 5, "m", 0, &r);
    EXPECT_EQ(r, ZaddResult::kUnchanged);
    Add(z, 6, "m", kZaddNx, &r);
    EXPECT_EQ(r, ZaddResult::kSkipped);
    Add(z, 1, "new", kZaddXx, &r);
    EXPECT_EQ(r, ZaddResult::kSkipped);
    Add(z, 4, "m", kZaddGt, &r);
    EXPECT_EQ(r, ZaddResult::kSkipped);
    EXPECT_EQ(Add(z, 7, "m", kZaddGt, &r), 7);
    EXPECT_EQ(r, ZaddResult::kUpdated);
    Add(z, 7, "m", kZaddLt, &r);
    EXPECT_EQ(r, ZaddResult::kSkipped);
    EXPECT_EQ(Add(z, 2, "g", kZaddGt, &r), 2);  // GT and LT do not stop new members
    EXPECT_EQ(r, ZaddResult::kAdded);
    EXPECT_EQ(Add(z, 1.5, "m", kZaddIncr, &r), 8.5);
    EXPECT_EQ(r, ZaddResult::kUpdated);
    Add(z, 0, "m", kZaddIncr, &r);
    EXPECT_EQ(r, ZaddResult::kUnchanged);
    Add(z, -1, "m", kZaddIncr | kZaddGt, &r);
    EXPECT_EQ(r, ZaddResult::kSkipped);
    Add(z, std::numeric_limits<double>::infinity(), "m", kZaddIncr, &r);
    Add(z, -std::numeric_limits<double>::infinity(), "m", kZaddIncr, &r);
    EXPECT_EQ(r, ZaddResult::kNaN);
    double score = 0;
    ASSERT_TRUE(z.Score("m", &score));
    EXPECT_TRUE(std::isinf(score));
    Add(z, std::nan(""), "x", 0, &r);
    EXPECT_EQ(r, ZaddResult::kNaN);
    EXPECT_EQ(z.size(), 2u);
  }
}

TEST(ZsetValueTest, ListpackLosesTheSignOfZeroButSkiplistKeepsIt) {
  ZsetValue small(Encoding::kListpack), large(Encoding::kSkiplist);
  EXPECT_TRUE(std::signbit(Add(small, -0.0, "m")));  // the reply shows the score given
  Add(large, -0.0, "m");
  double s = 1, l = 1;
  ASSERT_TRUE(small.Score("m", &s));
  ASSERT_TRUE(large.Score("m", &l));
  EXPECT_FALSE(std::signbit(s));
  EXPECT_TRUE(std::signbit(l));
}

TEST(ZsetValueTest, ConvertsPastTheListpackLimits) {
  ZsetLimits limits{3, 5};
  EXPECT_EQ(ZsetValue::EncodingFor(limits, "12345"), Encoding::kListpack);
  EXPECT_EQ(ZsetValue::EncodingFor(limits, "123456"), Encoding::kSkiplist);
  EXPECT_EQ(ZsetValue::EncodingFor({0, 64}, "a"), Encoding::kSkiplist);

  ZsetValue z;
  for (int i = 0; i < 3; ++i) Add(z, i, std::to_string(i), 0, nullptr, limits);
  EXPECT_EQ(z.encoding(), Encoding::kListpack);
  Add(z, 9, "1", 0, nullptr, limits);  // updates never convert
  EXPECT_EQ(z.encoding(), Encoding::kListpack);
  Pairs before = All(z);
  Add(z, 5, "3", 0, nullptr, limits);
  EXPECT_EQ(z.encoding(), Encoding::kSkiplist);
  before.emplace_back("3", 5);
  std::swap(before[2], before[3]);
  EXPECT_EQ(All(z), before);

  ZsetValue longer;
  Add(longer, 1, "a", 0, nullptr, limits);
  Add(longer, 2, "123456", kZaddXx, nullptr, limits);  // XX adds nothing, so no conversion
  EXPECT_EQ(longer.encoding(), Encoding::kListpack);
  Add(longer, 2, "123456", 0, nullptr, limits);
  EXPECT_EQ(longer.encoding(), Encoding::kSkiplist);
  EXPECT_EQ(All(longer), (Pairs{{"a", 1}, {"123456", 2}}));
}

TEST(ZsetValueTest, ObjectNamesTheEncodingAsRedis) {
  Object small = Object::NewZset(Encoding::kListpack);
  EXPECT_EQ(small.type(), ObjectType::kZset);
  EXPECT_EQ(TypeName(small.type()), "zset");
  EXPECT_EQ(small.EncodingName(), "listpack");
  Add(small.zset(), 1, std::string(65, 'x'));
  EXPECT_EQ(small.EncodingName(), "skiplist");
  EXPECT_EQ(Object::NewZset(Encoding::kSkiplist).EncodingName(), "skiplist");
}

TEST(ZsetValueTest, ScanReturnsAListpackWholeAndVisitsEverySkiplistMember) {
  ZsetValue small, large(Encoding::kSkiplist);
  for (int i = 0; i < 100; ++i) {
    Add(small, i, "m" + std::to_string(i), 0, nullptr, kSmallForever);
    Add(large, i, "m" + std::to_string(i));
  }
  size_t seen = 0;
  EXPECT_EQ(small.Scan(0, [&](std::string_view, double) { ++seen; }), 0u);
  EXPECT_EQ(seen, 100u);
  std::set<std::string> members;
  uint64_t cursor = 0;
  int steps = 0;
  do {
    cursor = large.Scan(cursor, [&](std::string_view m, double) { members.emplace(m); });
    ++steps;
  } while (cursor != 0);
  EXPECT_EQ(members.size(), 100u);
  EXPECT_GT(steps, 1);
}

// Removes range r from both forms (remove) or asks both for its count and its first and last
// members, asserting the same answers.
template <typename Range>
void AnswerRangeAlike(ZsetValue& small, ZsetValue& large, const Range& r, bool remove) {
  if (remove) {
    ASSERT_EQ(small.RemoveRange(r), large.RemoveRange(r));
    return;
  }
  ASSERT_EQ(small.Count(r), large.Count(r));
  auto a = small.FirstInRange(r), b = large.FirstInRange(r);
  ASSERT_EQ(a.valid(), b.valid());
  if (a.valid()) {
    ASSERT_EQ(a.member(), b.member());
  }
  a = small.LastInRange(r);
  b = large.LastInRange(r);
  ASSERT_EQ(a.valid(), b.valid());
  if (a.valid()) {
    ASSERT_EQ(a.member(), b.member());
  }
}

// Applies the same random operations to a listpack that never converts and to a skiplist, and
// compares every answer after each one.
TEST(ZsetValueTest, BothFormsAnswerAlike) {
  std::mt19937_64 rng(7);
  ZsetValue small(Encoding::kListpack), large(Encoding::kSkiplist);
  auto member = [&] {
    return std::string(1, static_cast<char>('a' + rng() % 20)) + std::to_string(rng() % 5);
  };
  auto score = [&] { return static_cast<double>(static_cast<int>(rng() % 9) - 4) / 2; };
  for (int step = 0; step < 3000; ++step) {
    switch (rng() % 5) {
      case 0:
      case 1: {
        double s = score();
        std::string m = member();
        uint32_t flags = rng() % 2 ? uint32_t{kZaddIncr} : 0u;
        ZaddResult rs, rl;
        double a = Add(small, s, m, flags, &rs, kSmallForever);
        double b = Add(large, s, m, flags, &rl);
        ASSERT_EQ(rs, rl);
        if (rs != ZaddResult::kSkipped) {
          ASSERT_EQ(a, b);
        }
        break;
      }
      case 2: {
        std::string m = member();
        ASSERT_EQ(small.Remove(m), large.Remove(m));
        break;
      }
      case 3: {
        ScoreRange r{score(), score(), rng() % 2 == 0, rng() % 2 == 0};
        ASSERT_NO_FATAL_FAILURE(AnswerRangeAlike(small, large, r, rng() % 8 == 0));
        break;
      }
      case 4:
        if (!small.empty() && rng() % 4 == 0) {
          size_t a = rng() % small.size(), b = rng() % small.size();
          if (a > b) std::swap(a, b);
          ASSERT_EQ(small.RemoveRanks(a, b), large.RemoveRanks(a, b));
        }
        break;
    }
    ASSERT_EQ(All(small), All(large)) << "step " << step;
    Pairs forward = All(large);
    ASSERT_EQ(AllReversed(large), Pairs(forward.rbegin(), forward.rend()));
    for (size_t i = 0; i < large.size(); i += 7) {
      auto it = large.AtRank(i);
      ASSERT_EQ(large.Rank(it.member(), false), static_cast<int64_t>(i));
      ASSERT_EQ(small.Rank(it.member(), true), large.Rank(it.member(), true));
    }
  }
}

// BYLEX ranges assume equal scores (over mixed scores Redis's two encodings answer differently,
// and so do ours, in the same way).
TEST(ZsetValueTest, BothFormsAnswerLexRangesAlike) {
  std::mt19937_64 rng(11);
  ZsetValue small(Encoding::kListpack), large(Encoding::kSkiplist);
  auto member = [&] {
    return std::string(1, static_cast<char>('a' + rng() % 8)) + std::string(rng() % 3, 'x');
  };
  auto bound = [&] {
    switch (rng() % 6) {
      case 0:
        return std::string("-");
      case 1:
        return std::string("+");
      case 2:
        return "(" + member();
      default:
        return "[" + member();
    }
  };
  for (int step = 0; step < 2000; ++step) {
    if (rng() % 3 != 0) {
      std::string m = member();
      Add(small, 0, m, 0, nullptr, kSmallForever);
      Add(large, 0, m);
    }
    LexRange r;
    ASSERT_TRUE(ParseLexRange(bound(), bound(), &r));
    ASSERT_NO_FATAL_FAILURE(AnswerRangeAlike(small, large, r, rng() % 10 == 0));
    ASSERT_EQ(All(small), All(large)) << "step " << step;
  }
}

}  // namespace
}  // namespace redlab::server
