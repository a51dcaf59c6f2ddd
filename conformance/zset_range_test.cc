// Sorted sets, range commands: ZRANGE (by rank, BYSCORE, BYLEX, REV, LIMIT, WITHSCORES),
// ZRANGESTORE, ZREVRANGE, Z[REV]RANGEBYSCORE, Z[REV]RANGEBYLEX, ZCOUNT, ZLEXCOUNT and
// ZREMRANGEBY{RANK,SCORE,LEX}, with their range syntax and errors, on both encodings.
#include <string>
#include <vector>

#include "conformance/harness/script.h"
#include "conformance/zset_fixture.h"

namespace redlab::conformance {
namespace {

using Strings = std::vector<std::string>;

class ZsetRangeTest : public ZsetTest, public ::testing::WithParamInterface<bool> {
 protected:
  void SetUp() override {
    ZsetTest::SetUp();
    if (GetParam()) UseSkiplists();
  }
  // a..g with scores 1..7 (d and e share 4).
  void Numbers() {
    Zadd("z", {"1", "a", "2", "b", "3", "c", "4", "d", "4", "e", "6", "f", "7", "g"});
  }
  // Members with one score, for the BYLEX forms.
  void Letters() {
    Zadd("l", {"0", "a", "0", "b", "0", "c", "0", "d", "0", "e", "0", "ee", "0", "f"});
  }
};

INSTANTIATE_TEST_SUITE_P(Encodings, ZsetRangeTest, ::testing::Values(false, true),
                         [](const auto& info) { return info.param ? "Skiplist" : "Listpack"; });

TEST_P(ZsetRangeTest, ZrangeByRank) {
  Numbers();
  EXPECT_EQ(c()({"ZRANGE", "z", "0", "-1"}), BulkArray({"a", "b", "c", "d", "e", "f", "g"}));
  EXPECT_EQ(c()({"ZRANGE", "z", "1", "2", "WITHSCORES"}), BulkArray({"b", "2", "c", "3"}));
  EXPECT_EQ(c()({"ZRANGE", "z", "-2", "-1"}), BulkArray({"f", "g"}));
  EXPECT_EQ(c()({"ZRANGE", "z", "-100", "1"}), BulkArray({"a", "b"}));
  EXPECT_EQ(c()({"ZRANGE", "z", "5", "100"}), BulkArray({"f", "g"}));
  EXPECT_EQ(c()({"ZRANGE", "z", "3", "2"}), Array({}));
  EXPECT_EQ(c()({"ZRANGE", "z", "7", "10"}), Array({}));
  EXPECT_EQ(c()({"ZRANGE", "z", "0", "-8"}), Array({}));
  EXPECT_EQ(c()({"ZRANGE", "z", "0", "1", "REV"}), BulkArray({"g", "f"}));
  EXPECT_EQ(c()({"ZRANGE", "z", "-1", "-1", "rev", "withscores"}), BulkArray({"a", "1"}));
  EXPECT_EQ(c()({"ZREVRANGE", "z", "0", "2", "WITHSCORES"}),
            BulkArray({"g", "7", "f", "6", "e", "4"}));
  EXPECT_EQ(c()({"ZREVRANGE", "z", "5", "-1"}), BulkArray({"b", "a"}));
  EXPECT_EQ(c()({"ZRANGE", "none", "0", "-1"}), Array({}));
  // LIMIT 0 -1 is the same as no LIMIT, so rank ranges accept it.
  EXPECT_EQ(c()({"ZRANGE", "z", "0", "0", "LIMIT", "0", "-1"}), BulkArray({"a"}));
}

TEST_P(ZsetRangeTest, ZrangeByScore) {
  Numbers();
  EXPECT_EQ(c()({"ZRANGE", "z", "2", "4", "BYSCORE"}), BulkArray({"b", "c", "d", "e"}));
  EXPECT_EQ(c()({"ZRANGE", "z", "(2", "(4", "BYSCORE"}), BulkArray({"c"}));
  EXPECT_EQ(c()({"ZRANGE", "z", "-inf", "+inf", "BYSCORE", "LIMIT", "2", "3"}),
            BulkArray({"c", "d", "e"}));
  EXPECT_EQ(c()({"ZRANGE", "z", "+inf", "-inf", "BYSCORE", "REV", "LIMIT", "1", "2", "WITHSCORES"}),
            BulkArray({"f", "6", "e", "4"}));
  EXPECT_EQ(c()({"ZRANGE", "z", "4", "(1", "BYSCORE", "REV"}), BulkArray({"e", "d", "c", "b"}));
  EXPECT_EQ(c()({"ZRANGEBYSCORE", "z", "(4", "inf", "WITHSCORES"}),
            BulkArray({"f", "6", "g", "7"}));
  EXPECT_EQ(c()({"ZRANGEBYSCORE", "z", "4", "4"}), BulkArray({"d", "e"}));
  EXPECT_EQ(c()({"ZRANGEBYSCORE", "z", "(4", "4"}), Array({}));
  EXPECT_EQ(c()({"ZRANGEBYSCORE", "z", "5", "3"}), Array({}));
  EXPECT_EQ(c()({"ZRANGEBYSCORE", "z", "10", "20"}), Array({}));
  EXPECT_EQ(c()({"ZRANGEBYSCORE", "z", "-inf", "0"}), Array({}));
  EXPECT_EQ(c()({"ZREVRANGEBYSCORE", "z", "4", "2"}), BulkArray({"e", "d", "c", "b"}));
  EXPECT_EQ(c()({"ZREVRANGEBYSCORE", "z", "+inf", "(6", "WITHSCORES"}), BulkArray({"g", "7"}));
  EXPECT_EQ(c()({"ZREVRANGEBYSCORE", "z", "2", "4"}), Array({}));
  EXPECT_EQ(c()({"ZRANGEBYSCORE", "none", "0", "1"}), Array({}));
}

TEST_P(ZsetRangeTest, ScoreLimits) {
  Numbers();
  auto by_score = [&](const std::string& offset, const std::string& count) {
    return c()({"ZRANGEBYSCORE", "z", "-inf", "+inf", "LIMIT", offset, count});
  };
  EXPECT_EQ(by_score("0", "2"), BulkArray({"a", "b"}));
  EXPECT_EQ(by_score("5", "10"), BulkArray({"f", "g"}));
  EXPECT_EQ(by_score("6", "-1"), BulkArray({"g"}));
  EXPECT_EQ(by_score("1", "0"), Array({}));
  EXPECT_EQ(by_score("7", "1"), Array({}));
  EXPECT_EQ(by_score("-1", "5"), Array({}));  // a negative offset skips everything
  EXPECT_EQ(by_score("0", "-5"), BulkArray({"a", "b", "c", "d", "e", "f", "g"}));
  EXPECT_EQ(c()({"ZREVRANGEBYSCORE", "z", "+inf", "-inf", "LIMIT", "2", "2", "WITHSCORES"}),
            BulkArray({"e", "4", "d", "4"}));
  // Repeated options: the last LIMIT wins.
  EXPECT_EQ(c()({"ZRANGEBYSCORE", "z", "-inf", "+inf", "LIMIT", "0", "1", "LIMIT", "1", "1",
                 "WITHSCORES", "WITHSCORES"}),
            BulkArray({"b", "2"}));
}

TEST_P(ZsetRangeTest, ScoreRangeSyntax) {
  Numbers();
  // Bounds are read by strtod: leading spaces, hex and an empty bound (0) pass.
  ExpectReplies(c(), {
                         {{"ZRANGEBYSCORE", "z", " 1", "0x2"}, BulkArray({"a", "b"})},
                         {{"ZRANGEBYSCORE", "z", "", "1"}, BulkArray({"a"})},
                         {{"ZRANGEBYSCORE", "z", "(", "1"}, BulkArray({"a"})},
                         {{"ZRANGEBYSCORE", "z", "6.5", "1e400"}, BulkArray({"g"})},
                         {{"ZRANGEBYSCORE", "z", "-INF", "(1.5"}, BulkArray({"a"})},
                     });
  for (const Strings& bounds : {Strings{"x", "1"}, Strings{"1", "2 "}, Strings{"nan", "1"},
                                Strings{"((1", "2"}, Strings{"1", "[2"}, Strings{"-", "+"}}) {
    EXPECT_EQ(c()({"ZRANGEBYSCORE", "z", bounds[0], bounds[1]}),
              Error("ERR min or max is not a float"))
        << bounds[0] << " " << bounds[1];
  }
  ExpectReplies(c(),
                {
                    {{"ZRANGE", "z", "x", "1", "BYSCORE"}, Error("ERR min or max is not a float")},
                    {{"ZCOUNT", "z", "1", "x"}, Error("ERR min or max is not a float")},
                    {{"ZREMRANGEBYSCORE", "z", "x", "1"}, Error("ERR min or max is not a float")},
                    // The range is checked before the key: even a missing or wrong-typed one.
                    {{"ZRANGEBYSCORE", "none", "x", "1"}, Error("ERR min or max is not a float")},
                });
  c()({"SET", "s", "v"});
  EXPECT_EQ(c()({"ZCOUNT", "s", "x", "1"}), Error("ERR min or max is not a float"));
  EXPECT_EQ(c()({"ZCOUNT", "s", "0", "1"}), Error(kWrongType));
}

TEST_P(ZsetRangeTest, ZrangeByLex) {
  Letters();
  EXPECT_EQ(c()({"ZRANGE", "l", "[b", "(e", "BYLEX"}), BulkArray({"b", "c", "d"}));
  EXPECT_EQ(c()({"ZRANGE", "l", "-", "+", "BYLEX", "LIMIT", "1", "2"}), BulkArray({"b", "c"}));
  EXPECT_EQ(c()({"ZRANGE", "l", "+", "[e", "BYLEX", "REV"}), BulkArray({"f", "ee", "e"}));
  EXPECT_EQ(c()({"ZRANGEBYLEX", "l", "(e", "+"}), BulkArray({"ee", "f"}));
  EXPECT_EQ(c()({"ZRANGEBYLEX", "l", "[e", "[e"}), BulkArray({"e"}));
  EXPECT_EQ(c()({"ZRANGEBYLEX", "l", "(e", "(e"}), Array({}));
  EXPECT_EQ(c()({"ZRANGEBYLEX", "l", "[", "[b"}), BulkArray({"a", "b"}));  // "" is below all
  EXPECT_EQ(c()({"ZRANGEBYLEX", "l", "[z", "+"}), Array({}));
  EXPECT_EQ(c()({"ZRANGEBYLEX", "l", "+", "-"}), Array({}));
  EXPECT_EQ(c()({"ZRANGEBYLEX", "l", "-", "-"}), Array({}));
  EXPECT_EQ(c()({"ZRANGEBYLEX", "l", "-", "+", "LIMIT", "5", "-1"}), BulkArray({"ee", "f"}));
  EXPECT_EQ(c()({"ZRANGEBYLEX", "l", "-", "+", "LIMIT", "-1", "1"}), Array({}));
  EXPECT_EQ(c()({"ZRANGEBYLEX", "l", "-", "+", "LIMIT", "10", "1"}), Array({}));
  EXPECT_EQ(c()({"ZREVRANGEBYLEX", "l", "[d", "-"}), BulkArray({"d", "c", "b", "a"}));
  EXPECT_EQ(c()({"ZREVRANGEBYLEX", "l", "+", "-", "LIMIT", "0", "2"}), BulkArray({"f", "ee"}));
  EXPECT_EQ(c()({"ZRANGEBYLEX", "none", "-", "+"}), Array({}));
  for (const Strings& bounds : {Strings{"a", "+"}, Strings{"-", "z"}, Strings{"", "+"},
                                Strings{"-a", "+"}, Strings{"-", "++"}, Strings{"1", "2"}}) {
    EXPECT_EQ(c()({"ZRANGEBYLEX", "l", bounds[0], bounds[1]}),
              Error("ERR min or max not valid string range item"))
        << bounds[0] << " " << bounds[1];
  }
  EXPECT_EQ(c()({"ZLEXCOUNT", "none", "x", "+"}),
            Error("ERR min or max not valid string range item"));
}

TEST_P(ZsetRangeTest, ZrangeOptionErrors) {
  Numbers();
  ExpectReplies(
      c(),
      {
          {{"ZRANGE", "z", "0", "1", "LIMIT", "0", "1"},
           Error("ERR syntax error, LIMIT is only supported in combination with either BYSCORE "
                 "or BYLEX")},
          {{"ZREVRANGE", "z", "0", "1", "LIMIT", "0", "1"},
           Error("ERR syntax error, LIMIT is only supported in combination with either BYSCORE "
                 "or BYLEX")},
          {{"ZRANGE", "z", "-", "+", "BYLEX", "WITHSCORES"},
           Error("ERR syntax error, WITHSCORES not supported in combination with BYLEX")},
          {{"ZRANGEBYLEX", "z", "-", "+", "WITHSCORES"},
           Error("ERR syntax error, WITHSCORES not supported in combination with BYLEX")},
      });
  for (const Strings& extra :
       {Strings{"BYSCORE", "BYLEX"}, Strings{"BYSCORE", "BYSCORE"}, Strings{"REV", "REV"},
        Strings{"LIMIT", "0"}, Strings{"FOO"}, Strings{"WITHSCORE"}}) {
    Strings args = {"ZRANGE", "z", "0", "1"};
    args.insert(args.end(), extra.begin(), extra.end());
    EXPECT_EQ(c().Call(args), Error("ERR syntax error")) << extra[0];
  }
  // The fixed forms take no BY* or REV.
  ExpectReplies(
      c(), {
               {{"ZRANGEBYSCORE", "z", "0", "1", "REV"}, Error("ERR syntax error")},
               {{"ZRANGEBYSCORE", "z", "0", "1", "BYSCORE"}, Error("ERR syntax error")},
               {{"ZREVRANGE", "z", "0", "1", "REV"}, Error("ERR syntax error")},
               {{"ZRANGEBYLEX", "z", "-", "+", "BYLEX"}, Error("ERR syntax error")},
               {{"ZRANGE", "z", "0", "1", "BYSCORE", "LIMIT", "x", "1"},
                Error("ERR value is not an integer or out of range")},
               {{"ZRANGE", "z", "x", "1"}, Error("ERR value is not an integer or out of range")},
               {{"ZRANGE", "z", "0", "1.5"}, Error("ERR value is not an integer or out of range")},
               // Option errors come before range errors, which come before the type check.
               {{"ZRANGE", "z", "x", "1", "FOO"}, Error("ERR syntax error")},
           });
  c()({"SET", "s", "v"});
  ExpectReplies(
      c(),
      {
          {{"ZRANGE", "s", "0", "1", "LIMIT", "0", "1"},
           Error("ERR syntax error, LIMIT is only supported in combination with either BYSCORE "
                 "or BYLEX")},
          {{"ZRANGE", "s", "x", "1"}, Error("ERR value is not an integer or out of range")},
          {{"ZRANGE", "s", "0", "1"}, Error(kWrongType)},
          {{"ZRANGEBYLEX", "s", "-", "+"}, Error(kWrongType)},
          {{"ZREVRANGEBYSCORE", "s", "1", "0"}, Error(kWrongType)},
          {{"ZRANGE", "z", "0"}, Error("ERR wrong number of arguments for 'zrange' command")},
      });
}

TEST_P(ZsetRangeTest, Resp3WithScoresArePairs) {
  Numbers();
  c()({"HELLO", "3"});
  EXPECT_EQ(c().Raw({"ZRANGEBYSCORE", "z", "6", "+inf", "WITHSCORES"}),
            "*2\r\n*2\r\n$1\r\nf\r\n,6\r\n*2\r\n$1\r\ng\r\n,7\r\n");
  EXPECT_EQ(c().Raw({"ZREVRANGE", "z", "0", "0", "WITHSCORES"}), "*1\r\n*2\r\n$1\r\ng\r\n,7\r\n");
  EXPECT_EQ(c().Raw({"ZRANGE", "z", "10", "20", "WITHSCORES"}), "*0\r\n");
  EXPECT_EQ(c().Raw({"ZRANGE", "none", "0", "-1", "WITHSCORES"}), "*0\r\n");
  EXPECT_EQ(c().Raw({"ZRANGE", "z", "0", "0"}), "*1\r\n$1\r\na\r\n");
}

TEST_P(ZsetRangeTest, Zrangestore) {
  Numbers();
  EXPECT_EQ(c()({"ZRANGESTORE", "dst", "z", "1", "3"}), Int(3));
  EXPECT_EQ(c()({"ZRANGE", "dst", "0", "-1", "WITHSCORES"}),
            BulkArray({"b", "2", "c", "3", "d", "4"}));
  EXPECT_EQ(c()({"ZRANGESTORE", "dst", "z", "(4", "+inf", "BYSCORE"}), Int(2));
  EXPECT_EQ(c()({"ZRANGE", "dst", "0", "-1", "WITHSCORES"}), BulkArray({"f", "6", "g", "7"}));
  EXPECT_EQ(c()({"ZRANGESTORE", "dst", "z", "+inf", "-inf", "BYSCORE", "REV", "LIMIT", "0", "2"}),
            Int(2));
  EXPECT_EQ(c()({"ZRANGE", "dst", "0", "-1"}), BulkArray({"f", "g"}));
  EXPECT_EQ(c()({"ZRANGESTORE", "dst", "z", "0", "0", "REV"}), Int(1));
  EXPECT_EQ(c()({"ZRANGE", "dst", "0", "-1", "WITHSCORES"}), BulkArray({"g", "7"}));
  Letters();
  EXPECT_EQ(c()({"ZRANGESTORE", "dst", "l", "[c", "[d", "BYLEX"}), Int(2));
  EXPECT_EQ(c()({"ZRANGE", "dst", "0", "-1", "WITHSCORES"}), BulkArray({"c", "0", "d", "0"}));
  // The destination is replaced whatever it held, and loses its TTL.
  c()({"SET", "dst", "string"});
  c()({"EXPIRE", "dst", "100"});
  EXPECT_EQ(c()({"ZRANGESTORE", "dst", "z", "0", "0"}), Int(1));
  EXPECT_EQ(c()({"TYPE", "dst"}), Status("zset"));
  EXPECT_EQ(c()({"TTL", "dst"}), Int(-1));
  // An empty result deletes the destination.
  EXPECT_EQ(c()({"ZRANGESTORE", "dst", "z", "10", "20"}), Int(0));
  EXPECT_EQ(c()({"EXISTS", "dst"}), Int(0));
  c()({"SET", "dst", "string"});
  EXPECT_EQ(c()({"ZRANGESTORE", "dst", "none", "0", "-1"}), Int(0));
  EXPECT_EQ(c()({"EXISTS", "dst"}), Int(0));
  // Source and destination may be the same key.
  EXPECT_EQ(c()({"ZRANGESTORE", "z", "z", "0", "1"}), Int(2));
  EXPECT_EQ(c()({"ZRANGE", "z", "0", "-1", "WITHSCORES"}), BulkArray({"a", "1", "b", "2"}));
}

TEST_P(ZsetRangeTest, ZrangestoreErrors) {
  Numbers();
  EXPECT_EQ(c()({"ZRANGESTORE", "dst", "z", "0", "1", "WITHSCORES"}), Error("ERR syntax error"));
  EXPECT_EQ(c()({"ZRANGESTORE", "dst", "z", "0", "1", "LIMIT", "0", "1"}),
            Error("ERR syntax error, LIMIT is only supported in combination with either BYSCORE "
                  "or BYLEX"));
  EXPECT_EQ(c()({"ZRANGESTORE", "dst", "z", "0"}),
            Error("ERR wrong number of arguments for 'zrangestore' command"));
  c()({"SET", "s", "v"});
  EXPECT_EQ(c()({"ZRANGESTORE", "dst", "s", "0", "1"}), Error(kWrongType));
  // A string destination is fine: it is overwritten.
  EXPECT_EQ(c()({"ZRANGESTORE", "s", "z", "0", "0"}), Int(1));
}

TEST_P(ZsetRangeTest, ZcountZlexcount) {
  Numbers();
  EXPECT_EQ(c()({"ZCOUNT", "z", "-inf", "+inf"}), Int(7));
  EXPECT_EQ(c()({"ZCOUNT", "z", "2", "4"}), Int(4));
  EXPECT_EQ(c()({"ZCOUNT", "z", "(2", "(4"}), Int(1));
  EXPECT_EQ(c()({"ZCOUNT", "z", "4", "4"}), Int(2));
  EXPECT_EQ(c()({"ZCOUNT", "z", "5", "5"}), Int(0));
  EXPECT_EQ(c()({"ZCOUNT", "z", "10", "1"}), Int(0));
  EXPECT_EQ(c()({"ZCOUNT", "none", "0", "1"}), Int(0));
  Letters();
  EXPECT_EQ(c()({"ZLEXCOUNT", "l", "-", "+"}), Int(7));
  EXPECT_EQ(c()({"ZLEXCOUNT", "l", "[b", "(e"}), Int(3));
  EXPECT_EQ(c()({"ZLEXCOUNT", "l", "(e", "+"}), Int(2));
  EXPECT_EQ(c()({"ZLEXCOUNT", "l", "[x", "+"}), Int(0));
  EXPECT_EQ(c()({"ZLEXCOUNT", "l", "+", "-"}), Int(0));
  EXPECT_EQ(c()({"ZLEXCOUNT", "none", "-", "+"}), Int(0));
  EXPECT_EQ(c()({"ZLEXCOUNT", "l", "a", "+"}), Error("ERR min or max not valid string range item"));
  EXPECT_EQ(c()({"ZCOUNT", "z", "0"}), Error("ERR wrong number of arguments for 'zcount' command"));
  c()({"SET", "s", "v"});
  EXPECT_EQ(c()({"ZLEXCOUNT", "s", "-", "+"}), Error(kWrongType));
}

TEST_P(ZsetRangeTest, Zremrangebyrank) {
  Numbers();
  EXPECT_EQ(c()({"ZREMRANGEBYRANK", "z", "0", "1"}), Int(2));
  EXPECT_EQ(c()({"ZRANGE", "z", "0", "-1"}), BulkArray({"c", "d", "e", "f", "g"}));
  EXPECT_EQ(c()({"ZREMRANGEBYRANK", "z", "-2", "-1"}), Int(2));
  EXPECT_EQ(c()({"ZREMRANGEBYRANK", "z", "5", "10"}), Int(0));
  EXPECT_EQ(c()({"ZREMRANGEBYRANK", "z", "2", "1"}), Int(0));
  EXPECT_EQ(c()({"ZREMRANGEBYRANK", "z", "1", "100"}), Int(2));
  EXPECT_EQ(c()({"ZRANGE", "z", "0", "-1"}), BulkArray({"c"}));
  EXPECT_EQ(c()({"ZREMRANGEBYRANK", "z", "-100", "0"}), Int(1));
  EXPECT_EQ(c()({"EXISTS", "z"}), Int(0));
  EXPECT_EQ(c()({"ZREMRANGEBYRANK", "z", "0", "-1"}), Int(0));
  EXPECT_EQ(c()({"ZREMRANGEBYRANK", "z", "x", "1"}),
            Error("ERR value is not an integer or out of range"));
  c()({"SET", "s", "v"});
  EXPECT_EQ(c()({"ZREMRANGEBYRANK", "s", "0", "1"}), Error(kWrongType));
  EXPECT_EQ(c()({"ZREMRANGEBYRANK", "s", "0", "x"}),
            Error("ERR value is not an integer or out of range"));
}

TEST_P(ZsetRangeTest, Zremrangebyscore) {
  Numbers();
  EXPECT_EQ(c()({"ZREMRANGEBYSCORE", "z", "(1", "3"}), Int(2));
  EXPECT_EQ(c()({"ZRANGE", "z", "0", "-1"}), BulkArray({"a", "d", "e", "f", "g"}));
  EXPECT_EQ(c()({"ZREMRANGEBYSCORE", "z", "4", "(4"}), Int(0));
  EXPECT_EQ(c()({"ZREMRANGEBYSCORE", "z", "10", "20"}), Int(0));
  EXPECT_EQ(c()({"ZREMRANGEBYSCORE", "z", "(6", "+inf"}), Int(1));
  EXPECT_EQ(c()({"ZREMRANGEBYSCORE", "z", "-inf", "+inf"}), Int(4));
  EXPECT_EQ(c()({"EXISTS", "z"}), Int(0));
  EXPECT_EQ(c()({"ZREMRANGEBYSCORE", "z", "-inf", "+inf"}), Int(0));
  c()({"SET", "s", "v"});
  EXPECT_EQ(c()({"ZREMRANGEBYSCORE", "s", "0", "1"}), Error(kWrongType));
}

TEST_P(ZsetRangeTest, Zremrangebylex) {
  Letters();
  EXPECT_EQ(c()({"ZREMRANGEBYLEX", "l", "[b", "(d"}), Int(2));
  EXPECT_EQ(c()({"ZRANGE", "l", "0", "-1"}), BulkArray({"a", "d", "e", "ee", "f"}));
  EXPECT_EQ(c()({"ZREMRANGEBYLEX", "l", "(e", "+"}), Int(2));
  EXPECT_EQ(c()({"ZREMRANGEBYLEX", "l", "[x", "+"}), Int(0));
  EXPECT_EQ(c()({"ZREMRANGEBYLEX", "l", "-", "+"}), Int(3));
  EXPECT_EQ(c()({"EXISTS", "l"}), Int(0));
  EXPECT_EQ(c()({"ZREMRANGEBYLEX", "l", "x", "+"}),
            Error("ERR min or max not valid string range item"));
  c()({"SET", "s", "v"});
  EXPECT_EQ(c()({"ZREMRANGEBYLEX", "s", "-", "+"}), Error(kWrongType));
}

}  // namespace
}  // namespace redlab::conformance
