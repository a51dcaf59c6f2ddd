// Sorted sets, member commands: ZADD (NX/XX/GT/LT/CH/INCR), ZINCRBY, ZREM, ZSCORE, ZMSCORE,
// ZCARD, ZRANK, ZREVRANK, ZPOPMIN, ZPOPMAX, ZRANDMEMBER, ZSCAN; score formatting, RESP3 shapes,
// the listpack -> skiplist conversion, WATCH and the dirty counter. Ranges: zset_range_test.cc.
#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "conformance/harness/script.h"
#include "conformance/zset_fixture.h"

namespace redlab::conformance {
namespace {

using Strings = std::vector<std::string>;

TEST_F(ZsetTest, ZaddAddsAndUpdates) {
  EXPECT_EQ(c()({"ZADD", "z", "1", "a", "2", "b"}), Int(2));
  EXPECT_EQ(c()({"ZADD", "z", "3", "a", "4", "c"}), Int(1));  // a updated, c added
  EXPECT_EQ(c()({"ZRANGE", "z", "0", "-1", "WITHSCORES"}),
            BulkArray({"b", "2", "a", "3", "c", "4"}));
  EXPECT_EQ(c()({"ZADD", "z", "5", "d", "6", "d"}), Int(1));  // the last score wins
  EXPECT_EQ(c()({"ZSCORE", "z", "d"}), Bulk("6"));
  EXPECT_EQ(c()({"TYPE", "z"}), Status("zset"));
}

TEST_F(ZsetTest, ZaddChCountsChangedMembers) {
  Zadd("z", {"1", "a", "2", "b"});
  EXPECT_EQ(c()({"ZADD", "z", "CH", "1", "a", "5", "b", "1", "c"}), Int(2));
  EXPECT_EQ(c()({"ZADD", "z", "ch", "1", "a"}), Int(0));
}

TEST_F(ZsetTest, ZaddNxXx) {
  Zadd("z", {"1", "a"});
  EXPECT_EQ(c()({"ZADD", "z", "NX", "5", "a", "2", "b"}), Int(1));
  EXPECT_EQ(c()({"ZSCORE", "z", "a"}), Bulk("1"));
  EXPECT_EQ(c()({"ZADD", "z", "XX", "5", "a", "3", "c"}), Int(0));
  EXPECT_EQ(c()({"ZSCORE", "z", "a"}), Bulk("5"));
  EXPECT_EQ(c()({"ZSCORE", "z", "c"}), Nil());
  EXPECT_EQ(c()({"ZADD", "z", "XX", "CH", "6", "a", "3", "c"}), Int(1));
  // XX on a missing key creates nothing.
  EXPECT_EQ(c()({"ZADD", "none", "XX", "1", "a"}), Int(0));
  EXPECT_EQ(c()({"EXISTS", "none"}), Int(0));
  EXPECT_EQ(c()({"ZADD", "none", "XX", "INCR", "1", "a"}), Nil());
  EXPECT_EQ(c()({"EXISTS", "none"}), Int(0));
}

TEST_F(ZsetTest, ZaddGtLt) {
  Zadd("z", {"5", "a"});
  EXPECT_EQ(c()({"ZADD", "z", "GT", "CH", "4", "a"}), Int(0));
  EXPECT_EQ(c()({"ZADD", "z", "GT", "CH", "6", "a"}), Int(1));
  EXPECT_EQ(c()({"ZADD", "z", "LT", "CH", "7", "a"}), Int(0));
  EXPECT_EQ(c()({"ZADD", "z", "LT", "CH", "2", "a"}), Int(1));
  EXPECT_EQ(c()({"ZADD", "z", "LT", "CH", "2", "a"}), Int(0));
  // GT and LT still add new members; XX combines with them.
  EXPECT_EQ(c()({"ZADD", "z", "GT", "1", "b"}), Int(1));
  EXPECT_EQ(c()({"ZADD", "z", "XX", "GT", "10", "b", "10", "c"}), Int(0));
  EXPECT_EQ(c()({"ZRANGE", "z", "0", "-1", "WITHSCORES"}), BulkArray({"a", "2", "b", "10"}));
}

TEST_F(ZsetTest, ZaddIncr) {
  EXPECT_EQ(c()({"ZADD", "z", "INCR", "1.5", "a"}), Bulk("1.5"));
  EXPECT_EQ(c()({"ZADD", "z", "incr", "2", "a"}), Bulk("3.5"));
  EXPECT_EQ(c()({"ZADD", "z", "NX", "INCR", "2", "a"}), Nil());
  EXPECT_EQ(c()({"ZADD", "z", "XX", "INCR", "2", "b"}), Nil());
  EXPECT_EQ(c()({"ZADD", "z", "GT", "INCR", "-1", "a"}), Nil());
  EXPECT_EQ(c()({"ZADD", "z", "LT", "INCR", "-1", "a"}), Bulk("2.5"));
  EXPECT_EQ(c()({"ZADD", "z", "INCR", "0", "a"}), Bulk("2.5"));
  EXPECT_EQ(c()({"ZADD", "z", "CH", "INCR", "1", "a"}), Bulk("3.5"));
  EXPECT_EQ(c()({"ZADD", "z", "INCR", "1", "a", "1", "b"}),
            Error("ERR INCR option supports a single increment-element pair"));
}

TEST_F(ZsetTest, ZaddOptionErrors) {
  EXPECT_EQ(c()({"ZADD", "z", "NX", "XX", "1", "a"}),
            Error("ERR XX and NX options at the same time are not compatible"));
  for (const Strings& opts : {Strings{"GT", "LT"}, Strings{"NX", "GT"}, Strings{"LT", "NX"}}) {
    Strings args = {"ZADD", "z"};
    args.insert(args.end(), opts.begin(), opts.end());
    args.insert(args.end(), {"1", "a"});
    EXPECT_EQ(c().Call(args),
              Error("ERR GT, LT, and/or NX options at the same time are not compatible"));
  }
  EXPECT_EQ(c()({"ZADD", "z", "1"}), Error("ERR wrong number of arguments for 'zadd' command"));
  EXPECT_EQ(c()({"ZADD", "z", "NX", "1"}), Error("ERR syntax error"));
  EXPECT_EQ(c()({"ZADD", "z", "1", "a", "2"}), Error("ERR syntax error"));
  EXPECT_EQ(c()({"ZADD", "z", "NX", "XX"}), Error("ERR syntax error"));
  // An option after the first pair is a score.
  EXPECT_EQ(c()({"ZADD", "z", "1", "a", "NX", "b"}), Error("ERR value is not a valid float"));
  EXPECT_EQ(c()({"ZADD", "z", "1", "a", "x", "b"}), Error("ERR value is not a valid float"));
  EXPECT_EQ(c()({"ZADD", "z", "nan", "a"}), Error("ERR value is not a valid float"));
  EXPECT_EQ(c()({"ZADD", "z", " 1", "a"}), Error("ERR value is not a valid float"));
  EXPECT_EQ(c()({"ZADD", "z", "", "a"}), Error("ERR value is not a valid float"));
  EXPECT_EQ(c()({"ZADD", "z", "1e400", "a"}), Error("ERR value is not a valid float"));
  // Nothing was added by the failed calls.
  EXPECT_EQ(c()({"EXISTS", "z"}), Int(0));
  // Option errors come before the type check; score errors too.
  c()({"SET", "s", "v"});
  EXPECT_EQ(c()({"ZADD", "s", "NX", "XX", "1", "a"}),
            Error("ERR XX and NX options at the same time are not compatible"));
  EXPECT_EQ(c()({"ZADD", "s", "x", "a"}), Error("ERR value is not a valid float"));
  EXPECT_EQ(c()({"ZADD", "s", "1", "a"}), Error(kWrongType));
}

TEST_F(ZsetTest, ScoresAreFormattedAsRedisDoes) {
  Zadd("z", {"0.1",
             "a",
             "1e20",
             "b",
             "-3",
             "c",
             "inf",
             "d",
             "-inf",
             "e",
             "1.5e-7",
             "f",
             "+5",
             "g",
             "0x10",
             "h",
             "12345678901234567890",
             "i",
             "3.0",
             "j"});
  EXPECT_EQ(c()({"ZMSCORE", "z", "a", "b", "c", "d", "e", "f", "g", "h", "i", "j"}),
            BulkArray({"0.10000000000000001", "1e+20", "-3", "inf", "-inf",
                       "1.4999999999999999e-07", "5", "16", "1.2345678901234567e+19", "3"}));
  EXPECT_EQ(c()({"ZADD", "z", "+inf", "k", "-INF", "l", "Infinity", "m"}), Int(3));
  EXPECT_EQ(c()({"ZMSCORE", "z", "k", "l", "m"}), BulkArray({"inf", "-inf", "inf"}));
}

TEST_F(ZsetTest, IncrementToNaNIsRefused) {
  Zadd("z", {"inf", "a"});
  EXPECT_EQ(c()({"ZADD", "z", "INCR", "-inf", "a"}),
            Error("ERR resulting score is not a number (NaN)"));
  EXPECT_EQ(c()({"ZINCRBY", "z", "-inf", "a"}), Error("ERR resulting score is not a number (NaN)"));
  EXPECT_EQ(c()({"ZSCORE", "z", "a"}), Bulk("inf"));
  EXPECT_EQ(c()({"ZINCRBY", "z", "inf", "a"}), Bulk("inf"));
}

TEST_F(ZsetTest, Zincrby) {
  EXPECT_EQ(c()({"ZINCRBY", "z", "2.5", "a"}), Bulk("2.5"));
  EXPECT_EQ(c()({"ZINCRBY", "z", "-1", "a"}), Bulk("1.5"));
  EXPECT_EQ(c()({"ZINCRBY", "z", "0.1", "a"}), Bulk("1.6000000000000001"));
  EXPECT_EQ(c()({"ZINCRBY", "z", "x", "a"}), Error("ERR value is not a valid float"));
  EXPECT_EQ(c()({"ZINCRBY", "z", "1"}),
            Error("ERR wrong number of arguments for 'zincrby' command"));
  // ZINCRBY is ZADD INCR underneath: an option word in the increment's place is an option.
  EXPECT_EQ(c()({"ZINCRBY", "z", "nx", "a"}), Error("ERR syntax error"));
  c()({"SET", "s", "v"});
  EXPECT_EQ(c()({"ZINCRBY", "s", "1", "a"}), Error(kWrongType));
}

TEST_F(ZsetTest, ZremDeletesMembersAndEmptiedKeys) {
  Zadd("z", {"1", "a", "2", "b", "3", "c"});
  EXPECT_EQ(c()({"ZREM", "z", "a", "x", "a"}), Int(1));
  EXPECT_EQ(c()({"ZCARD", "z"}), Int(2));
  EXPECT_EQ(c()({"ZREM", "z", "b", "c", "d"}), Int(2));
  EXPECT_EQ(c()({"EXISTS", "z"}), Int(0));
  EXPECT_EQ(c()({"ZREM", "z", "a"}), Int(0));
  EXPECT_EQ(c()({"ZREM", "z"}), Error("ERR wrong number of arguments for 'zrem' command"));
  c()({"SET", "s", "v"});
  EXPECT_EQ(c()({"ZREM", "s", "a"}), Error(kWrongType));
}

TEST_F(ZsetTest, ZscoreZmscoreZcard) {
  Zadd("z", {"1.5", "a", "2", "b"});
  EXPECT_EQ(c()({"ZSCORE", "z", "a"}), Bulk("1.5"));
  EXPECT_EQ(c()({"ZSCORE", "z", "x"}), Nil());
  EXPECT_EQ(c()({"ZSCORE", "none", "a"}), Nil());
  EXPECT_EQ(c()({"ZMSCORE", "z", "a", "x", "b"}), Array({Bulk("1.5"), Nil(), Bulk("2")}));
  EXPECT_EQ(c()({"ZMSCORE", "none", "a", "b"}), Array({Nil(), Nil()}));
  EXPECT_EQ(c()({"ZCARD", "z"}), Int(2));
  EXPECT_EQ(c()({"ZCARD", "none"}), Int(0));
  EXPECT_EQ(c()({"ZMSCORE", "z"}), Error("ERR wrong number of arguments for 'zmscore' command"));
  c()({"SET", "s", "v"});
  EXPECT_EQ(c()({"ZSCORE", "s", "a"}), Error(kWrongType));
  EXPECT_EQ(c()({"ZMSCORE", "s", "a"}), Error(kWrongType));
  EXPECT_EQ(c()({"ZCARD", "s"}), Error(kWrongType));
}

TEST_F(ZsetTest, ZrankZrevrank) {
  Zadd("z", {"1", "a", "2", "b", "2", "c", "3", "d"});
  EXPECT_EQ(c()({"ZRANK", "z", "a"}), Int(0));
  EXPECT_EQ(c()({"ZRANK", "z", "c"}), Int(2));
  EXPECT_EQ(c()({"ZREVRANK", "z", "c"}), Int(1));
  EXPECT_EQ(c()({"ZREVRANK", "z", "a"}), Int(3));
  EXPECT_EQ(c()({"ZRANK", "z", "x"}), Nil());
  EXPECT_EQ(c()({"ZRANK", "none", "a"}), Nil());
  EXPECT_EQ(c()({"ZREVRANK", "none", "a"}), Nil());
  EXPECT_EQ(c()({"ZRANK", "z", "a", "WITHSCORE"}),
            Error("ERR wrong number of arguments for 'zrank' command"));
  c()({"SET", "s", "v"});
  EXPECT_EQ(c()({"ZRANK", "s", "a"}), Error(kWrongType));
  EXPECT_EQ(c()({"ZREVRANK", "s", "a"}), Error(kWrongType));
}

TEST_F(ZsetTest, TiesAreOrderedByMemberBytes) {
  Zadd("z", {"1", "b", "1", "B", "1", "\xff", "1", "a", "1", "", "1", "ab", "0", "z"});
  EXPECT_EQ(c()({"ZRANGE", "z", "0", "-1"}), BulkArray({"z", "", "B", "a", "ab", "b", "\xff"}));
}

TEST_F(ZsetTest, ZpopminZpopmax) {
  Zadd("z", {"1", "a", "2", "b", "3", "c", "4", "d"});
  EXPECT_EQ(c()({"ZPOPMIN", "z"}), BulkArray({"a", "1"}));
  EXPECT_EQ(c()({"ZPOPMAX", "z"}), BulkArray({"d", "4"}));
  EXPECT_EQ(c()({"ZPOPMIN", "z", "0"}), Array({}));
  EXPECT_EQ(c()({"ZPOPMAX", "z", "1"}), BulkArray({"c", "3"}));
  Zadd("z", {"5", "e", "6", "f"});
  EXPECT_EQ(c()({"ZPOPMAX", "z", "2"}), BulkArray({"f", "6", "e", "5"}));
  EXPECT_EQ(c()({"ZPOPMIN", "z", "10"}), BulkArray({"b", "2"}));
  EXPECT_EQ(c()({"EXISTS", "z"}), Int(0));
  EXPECT_EQ(c()({"ZPOPMIN", "z"}), Array({}));
  EXPECT_EQ(c()({"ZPOPMAX", "z", "3"}), Array({}));
}

TEST_F(ZsetTest, ZpopErrors) {
  Zadd("z", {"1", "a"});
  EXPECT_EQ(c()({"ZPOPMIN", "z", "-1"}), Error("ERR value is out of range, must be positive"));
  EXPECT_EQ(c()({"ZPOPMAX", "z", "x"}), Error("ERR value is out of range, must be positive"));
  EXPECT_EQ(c()({"ZPOPMIN", "z", "1", "2"}), Error("ERR syntax error"));
  EXPECT_EQ(c()({"ZPOPMIN"}), Error("ERR wrong number of arguments for 'zpopmin' command"));
  c()({"SET", "s", "v"});
  EXPECT_EQ(c()({"ZPOPMIN", "s"}), Error(kWrongType));
  EXPECT_EQ(c()({"ZPOPMAX", "s", "0"}), Error(kWrongType));
  EXPECT_EQ(c()({"ZPOPMAX", "s", "-1"}), Error("ERR value is out of range, must be positive"));
}

TEST_F(ZsetTest, Resp3Shapes) {
  Zadd("z", {"1", "a", "2.5", "b", "3", "c", "4", "d"});
  c()({"HELLO", "3"});
  EXPECT_EQ(c().Raw({"ZSCORE", "z", "b"}), ",2.5\r\n");
  EXPECT_EQ(c().Raw({"ZSCORE", "z", "x"}), "_\r\n");
  EXPECT_EQ(c().Raw({"ZSCORE", "none", "x"}), "_\r\n");
  EXPECT_EQ(c().Raw({"ZMSCORE", "z", "a", "x"}), "*2\r\n,1\r\n_\r\n");
  EXPECT_EQ(c().Raw({"ZRANK", "z", "x"}), "_\r\n");
  EXPECT_EQ(c().Raw({"ZINCRBY", "z", "1", "a"}), ",2\r\n");
  EXPECT_EQ(c().Raw({"ZADD", "z", "INCR", "1", "a"}), ",3\r\n");
  EXPECT_EQ(c().Raw({"ZADD", "z", "NX", "INCR", "1", "a"}), "_\r\n");
  EXPECT_EQ(c().Raw({"ZRANGE", "z", "0", "1", "WITHSCORES"}),
            "*2\r\n*2\r\n$1\r\nb\r\n,2.5\r\n*2\r\n$1\r\na\r\n,3\r\n");
  EXPECT_EQ(c().Raw({"ZRANGE", "z", "0", "1"}), "*2\r\n$1\r\nb\r\n$1\r\na\r\n");
  // ZPOP without a count is flat; with a count, pairs.
  EXPECT_EQ(c().Raw({"ZPOPMIN", "z"}), "*2\r\n$1\r\nb\r\n,2.5\r\n");
  EXPECT_EQ(c().Raw({"ZPOPMAX", "z", "1"}), "*1\r\n*2\r\n$1\r\nd\r\n,4\r\n");
  EXPECT_EQ(c().Raw({"ZPOPMIN", "z", "5"}), "*2\r\n*2\r\n$1\r\na\r\n,3\r\n*2\r\n$1\r\nc\r\n,3\r\n");
  EXPECT_EQ(c().Raw({"ZPOPMIN", "z"}), "*0\r\n");
  EXPECT_EQ(c().Raw({"ZPOPMIN", "z", "2"}), "*0\r\n");
  Zadd("z", {"1", "a", "inf", "b"});
  EXPECT_EQ(c().Raw({"ZRANDMEMBER", "z", "5", "WITHSCORES"}),
            "*2\r\n*2\r\n$1\r\nb\r\n,inf\r\n*2\r\n$1\r\na\r\n,1\r\n");
  EXPECT_EQ(c().Raw({"ZRANDMEMBER", "none"}), "_\r\n");
  EXPECT_EQ(c().Raw({"ZRANDMEMBER", "none", "1"}), "*0\r\n");
  // ZSCAN's scores stay bulk strings.
  EXPECT_EQ(c().Raw({"ZSCAN", "z", "0"}),
            "*2\r\n$1\r\n0\r\n*4\r\n$1\r\na\r\n$1\r\n1\r\n$1\r\nb\r\n$3\r\ninf\r\n");
}

TEST_F(ZsetTest, Resp2ShapesAreFlat) {
  Zadd("z", {"1", "a", "2", "b"});
  EXPECT_EQ(c().Raw({"ZSCORE", "z", "a"}), "$1\r\n1\r\n");
  EXPECT_EQ(c().Raw({"ZSCORE", "z", "x"}), "$-1\r\n");
  EXPECT_EQ(c().Raw({"ZPOPMAX", "z", "2"}), "*4\r\n$1\r\nb\r\n$1\r\n2\r\n$1\r\na\r\n$1\r\n1\r\n");
}

TEST_F(ZsetTest, ZrandmemberWithoutCount) {
  Zadd("z", {"1", "a", "2", "b", "3", "c"});
  std::set<std::string> seen;
  for (int i = 0; i < 100 && seen.size() < 3; ++i) {
    Reply r = c()({"ZRANDMEMBER", "z"});
    ASSERT_EQ(r.type, Reply::Type::kBulk);
    seen.insert(r.str);
  }
  EXPECT_EQ(seen, (std::set<std::string>{"a", "b", "c"}));
  EXPECT_EQ(c()({"ZRANDMEMBER", "none"}), Nil());
  c()({"SET", "s", "v"});
  EXPECT_EQ(c()({"ZRANDMEMBER", "s"}), Error(kWrongType));
}

// Checks a ZRANDMEMBER reply: `n` members (pairs with scores), each from `z`, distinct if asked.
void CheckSample(const Reply& r, size_t n, bool withscores, bool distinct,
                 const std::map<std::string, std::string>& z) {
  ASSERT_EQ(r.type, Reply::Type::kArray) << r;
  ASSERT_EQ(r.elements.size(), withscores ? n * 2 : n) << r;
  std::set<std::string> members;
  for (size_t i = 0; i < r.elements.size(); i += withscores ? 2 : 1) {
    const std::string& m = r.elements[i].str;
    ASSERT_TRUE(z.count(m)) << r;
    if (withscores) {
      EXPECT_EQ(r.elements[i + 1], Bulk(z.at(m))) << r;
    }
    members.insert(m);
  }
  if (distinct) {
    EXPECT_EQ(members.size(), n) << r;
  }
}

TEST_F(ZsetTest, ZrandmemberWithCount) {
  std::map<std::string, std::string> z;
  std::vector<std::string> pairs;
  for (int i = 0; i < 20; ++i) {
    z["m" + std::to_string(i)] = std::to_string(i);
    pairs.insert(pairs.end(), {std::to_string(i), "m" + std::to_string(i)});
  }
  Zadd("z", pairs);
  for (bool skiplist : {false, true}) {
    if (skiplist) {
      // The same members, converted: past 16 entries the listpack becomes a skiplist.
      c()({"DEL", "z"});
      c()({"CONFIG", "SET", "zset-max-listpack-entries", "16"});
      Zadd("z", pairs);
    }
    for (bool withscores : {false, true}) {
      auto call = [&](const std::string& count) {
        Strings args = {"ZRANDMEMBER", "z", count};
        if (withscores) args.push_back("WITHSCORES");
        return c().Call(args);
      };
      CheckSample(call("1"), 1, withscores, true, z);
      CheckSample(call("5"), 5, withscores, true, z);    // few of many
      CheckSample(call("15"), 15, withscores, true, z);  // most of them
      CheckSample(call("-5"), 5, withscores, false, z);
      CheckSample(call("-40"), 40, withscores, false, z);  // repeats
      EXPECT_EQ(call("0"), Array({}));
    }
    // Asking for the whole set returns it from the highest score down.
    Reply all = c()({"ZRANDMEMBER", "z", "20"});
    Strings expected;
    for (int i = 19; i >= 0; --i) expected.push_back("m" + std::to_string(i));
    EXPECT_EQ(all, BulkArray(expected));
    EXPECT_EQ(c()({"ZRANDMEMBER", "z", "100", "WITHSCORES"}).elements.size(), 40u);
  }
}

TEST_F(ZsetTest, ZrandmemberErrors) {
  Zadd("z", {"1", "a"});
  EXPECT_EQ(c()({"ZRANDMEMBER", "z", "x"}), Error("ERR value is not an integer or out of range"));
  EXPECT_EQ(c()({"ZRANDMEMBER", "z", "1", "x"}), Error("ERR syntax error"));
  EXPECT_EQ(c()({"ZRANDMEMBER", "z", "1", "WITHSCORES", "x"}), Error("ERR syntax error"));
  EXPECT_EQ(c()({"ZRANDMEMBER", "z", "x", "y"}),
            Error("ERR value is not an integer or out of range"));
  EXPECT_EQ(c()({"ZRANDMEMBER", "z", "-9223372036854775808"}),
            Error("ERR value is out of range, value must between -9223372036854775807 and "
                  "9223372036854775807"));
  EXPECT_EQ(c()({"ZRANDMEMBER", "z", "-4611686018427387904", "WITHSCORES"}),
            Error("ERR value is out of range"));
  EXPECT_EQ(c()({"ZRANDMEMBER", "z", "4611686018427387904", "WITHSCORES"}),
            Error("ERR value is out of range"));
  EXPECT_EQ(c()({"ZRANDMEMBER", "z", "4611686018427387903", "WITHSCORES"}), BulkArray({"a", "1"}));
  EXPECT_EQ(c()({"ZRANDMEMBER", "none", "3"}), Array({}));
  EXPECT_EQ(c()({"ZRANDMEMBER", "none", "3", "bad"}), Error("ERR syntax error"));
  c()({"SET", "s", "v"});
  EXPECT_EQ(c()({"ZRANDMEMBER", "s", "3"}), Error(kWrongType));
  EXPECT_EQ(c()({"ZRANDMEMBER", "s", "0"}), Error(kWrongType));
}

// Every member/score pair a full ZSCAN iteration returns.
TEST_F(ZsetTest, ZscanListpackIsReturnedWhole) {
  Zadd("z", {"1", "a", "2.5", "b", "-0.5", "c", "1", "ab"});
  EXPECT_EQ(c()({"ZSCAN", "z", "0", "COUNT", "1"}),
            Array({Bulk("0"), BulkArray({"c", "-0.5", "a", "1", "ab", "1", "b", "2.5"})}));
  EXPECT_EQ(c()({"ZSCAN", "z", "0", "MATCH", "a*"}),
            Array({Bulk("0"), BulkArray({"a", "1", "ab", "1"})}));
  EXPECT_EQ(c()({"ZSCAN", "z", "0", "MATCH", "x*", "COUNT", "100"}), Array({Bulk("0"), Array({})}));
}

TEST_F(ZsetTest, ZscanSkiplistVisitsEveryMember) {
  std::vector<std::string> pairs;
  std::map<std::string, std::string> expected;
  for (int i = 0; i < 300; ++i) {
    pairs.insert(pairs.end(), {std::to_string(i) + ".5", "m" + std::to_string(i)});
    expected["m" + std::to_string(i)] = std::to_string(i) + ".5";
  }
  Zadd("z", pairs);
  ScanSteps steps = ScanAll(c(), {"ZSCAN", "z"});
  EXPECT_EQ(FieldValues(steps), expected);
  EXPECT_GT(steps.calls, 1);
  std::map<std::string, std::string> ones;
  for (const auto& [m, s] : expected) {
    if (m.size() == 3 && m[1] == '1') ones[m] = s;
  }
  EXPECT_EQ(FieldValues(ScanAll(c(), {"ZSCAN", "z"}, {"MATCH", "m1?", "COUNT", "50"})), ones);
}

TEST_F(ZsetTest, ZscanErrors) {
  EXPECT_EQ(c()({"ZSCAN", "none", "0"}), Array({Bulk("0"), Array({})}));
  // Options are only read once the key is found.
  EXPECT_EQ(c()({"ZSCAN", "none", "0", "COUNT", "0"}), Array({Bulk("0"), Array({})}));
  EXPECT_EQ(c()({"ZSCAN", "none", "x"}), Error("ERR invalid cursor"));
  Zadd("z", {"1", "a"});
  EXPECT_EQ(c()({"ZSCAN", "z", "x"}), Error("ERR invalid cursor"));
  EXPECT_EQ(c()({"ZSCAN", "z", "0", "COUNT", "0"}), Error("ERR syntax error"));
  EXPECT_EQ(c()({"ZSCAN", "z", "0", "COUNT", "x"}),
            Error("ERR value is not an integer or out of range"));
  EXPECT_EQ(c()({"ZSCAN", "z", "0", "TYPE", "zset"}), Error("ERR syntax error"));
  EXPECT_EQ(c()({"ZSCAN", "z", "0", "MATCH"}), Error("ERR syntax error"));
  c()({"SET", "s", "v"});
  EXPECT_EQ(c()({"ZSCAN", "s", "0"}), Error(kWrongType));
  EXPECT_EQ(c()({"ZSCAN", "s", "x"}), Error("ERR invalid cursor"));
}

// A listpack stores scores as text, where -0 becomes 0; a skiplist keeps the sign.
TEST_F(ZsetTest, NegativeZeroScore) {
  EXPECT_EQ(c()({"ZADD", "small", "INCR", "-0", "m"}), Bulk("-0"));
  EXPECT_EQ(c()({"ZSCORE", "small", "m"}), Bulk("0"));
  EXPECT_EQ(c()({"ZADD", "small", "-0", "m"}), Int(0));
  UseSkiplists();
  EXPECT_EQ(c()({"ZADD", "large", "-0", "m"}), Int(1));
  EXPECT_EQ(c()({"ZSCORE", "large", "m"}), Bulk("-0"));
  EXPECT_EQ(c()({"ZADD", "large", "CH", "0", "m"}), Int(0));  // -0 == 0: no update
  EXPECT_EQ(c()({"ZSCORE", "large", "m"}), Bulk("-0"));
  EXPECT_EQ(c()({"ZSCAN", "large", "0"}), Array({Bulk("0"), BulkArray({"m", "-0"})}));
  // Copied into a listpack, the score loses its sign.
  ASSERT_EQ(c()({"CONFIG", "SET", "zset-max-listpack-entries", "128"}), Status("OK"));
  EXPECT_EQ(c()({"ZRANGESTORE", "copy", "large", "0", "-1"}), Int(1));
  EXPECT_EQ(c()({"ZRANGE", "copy", "0", "-1", "WITHSCORES"}), BulkArray({"m", "0"}));
  EXPECT_EQ(c()({"ZRANGE", "large", "0", "-1", "WITHSCORES"}), BulkArray({"m", "-0"}));
}

// Growing past zset-max-listpack-entries, or adding a member longer than
// zset-max-listpack-value, converts the set; its answers do not change.
TEST_F(ZsetTest, ConversionDoesNotChangeReplies) {
  ASSERT_EQ(c()({"CONFIG", "SET", "zset-max-listpack-entries", "4"}), Status("OK"));
  ASSERT_EQ(c()({"CONFIG", "SET", "zset-max-listpack-value", "8"}), Status("OK"));
  Zadd("z", {"3", "c", "1", "a", "2", "b", "2", "bb"});
  auto snapshot = [&] {
    return std::vector<Reply>{
        c()({"ZRANGE", "z", "0", "-1", "WITHSCORES"}),
        c()({"ZREVRANGE", "z", "0", "-1", "WITHSCORES"}),
        c()({"ZRANGEBYSCORE", "z", "(1", "+inf", "WITHSCORES", "LIMIT", "1", "2"}),
        c()({"ZRANK", "z", "bb"}),
        c()({"ZREVRANK", "z", "a"}),
        c()({"ZCOUNT", "z", "2", "3"}),
        c()({"ZSCORE", "z", "c"}),
        c()({"ZRANGE", "z", "-2", "-1"}),
    };
  };
  std::vector<Reply> small = snapshot();
  // Still a listpack: ZSCAN returns everything at once, even with COUNT 1.
  EXPECT_EQ(c()({"ZSCAN", "z", "0", "COUNT", "1"}).elements[0], Bulk("0"));
  EXPECT_EQ(c()({"ZADD", "z", "100", "zz"}), Int(1));  // a fifth member converts
  EXPECT_EQ(c()({"ZREM", "z", "zz"}), Int(1));
  EXPECT_EQ(snapshot(), small);

  c()({"DEL", "z"});
  Zadd("z", {"3", "c", "1", "a", "2", "b"});
  EXPECT_EQ(c()({"ZADD", "z", "2", "bb"}), Int(1));
  std::vector<Reply> before = snapshot();
  EXPECT_EQ(c()({"ZADD", "z", "5", "a-long-member"}), Int(1));  // 13 bytes > 8
  EXPECT_EQ(c()({"ZREM", "z", "a-long-member"}), Int(1));
  EXPECT_EQ(snapshot(), before);
  EXPECT_EQ(before, small);
}

TEST_F(ZsetTest, LargeSetsKeepOrderAndRanks) {
  UseSkiplists();
  std::vector<std::string> pairs;
  for (int i = 0; i < 500; ++i)
    pairs.insert(pairs.end(), {std::to_string(i % 50), "m" + std::to_string(i)});
  Zadd("z", pairs);
  EXPECT_EQ(c()({"ZCARD", "z"}), Int(500));
  // Score 0 holds m0, m50, m100... ordered by member bytes.
  EXPECT_EQ(c()({"ZRANGE", "z", "0", "2"}), BulkArray({"m0", "m100", "m150"}));
  // Score 49 holds m49, m99, ..., m499: by bytes m49 comes third from the end.
  EXPECT_EQ(c()({"ZRANK", "z", "m49"}), Int(497));
  EXPECT_EQ(c()({"ZREVRANK", "z", "m49"}), Int(2));
  EXPECT_EQ(c()({"ZRANK", "z", "m1"}), Int(10));
  EXPECT_EQ(c()({"ZCOUNT", "z", "10", "(20"}), Int(100));
  for (int i = 0; i < 500; i += 2) c()({"ZINCRBY", "z", "100", "m" + std::to_string(i)});
  EXPECT_EQ(c()({"ZCOUNT", "z", "100", "+inf"}), Int(250));
  EXPECT_EQ(c()({"ZRANK", "z", "m0"}), Int(250));
  EXPECT_EQ(c()({"ZREMRANGEBYRANK", "z", "0", "99"}), Int(100));
  EXPECT_EQ(c()({"ZCARD", "z"}), Int(400));
  EXPECT_EQ(c()({"ZPOPMAX", "z"}), BulkArray({"m98", "148"}));
}

// A write that changes nothing must not touch WATCHed keys; one that changes them must.
TEST_F(ZsetTest, WritesSignalWatchers) {
  auto breaks_watch = [&](const Strings& command) {
    Client watcher = Connect();
    watcher({"WATCH", "z"});
    c().Call(command);
    watcher({"MULTI"});
    watcher({"PING"});
    return watcher({"EXEC"}).type == Reply::Type::kNil;
  };
  Zadd("z", {"1", "a", "2", "b", "3", "c", "4", "d"});
  EXPECT_FALSE(breaks_watch({"ZADD", "z", "NX", "9", "a"}));
  EXPECT_FALSE(breaks_watch({"ZADD", "z", "1", "a"}));
  EXPECT_TRUE(breaks_watch({"ZADD", "z", "XX", "9", "a"}));
  EXPECT_TRUE(breaks_watch({"ZINCRBY", "z", "1", "a"}));
  EXPECT_FALSE(breaks_watch({"ZREM", "z", "x"}));
  EXPECT_TRUE(breaks_watch({"ZREM", "z", "a"}));
  EXPECT_FALSE(breaks_watch({"ZREMRANGEBYSCORE", "z", "100", "200"}));
  EXPECT_TRUE(breaks_watch({"ZREMRANGEBYSCORE", "z", "2", "2"}));
  EXPECT_FALSE(breaks_watch({"ZPOPMIN", "z", "0"}));
  EXPECT_TRUE(breaks_watch({"ZPOPMIN", "z"}));
  EXPECT_FALSE(breaks_watch({"ZRANGESTORE", "other", "z", "0", "-1"}));
  EXPECT_TRUE(breaks_watch({"ZRANGESTORE", "z", "none", "0", "-1"}));
}

// server.dirty counts what changed, as Redis counts it (what replication propagates follows it).
TEST_F(ZsetTest, DirtyCountsChanges) {
  auto delta = [&](const Strings& command) {
    int64_t before = Dirty();
    c().Call(command);
    return Dirty() - before;
  };
  EXPECT_EQ(delta({"ZADD", "z", "1", "a", "2", "b", "3", "c"}), 3);
  EXPECT_EQ(delta({"ZADD", "z", "1", "a", "5", "b", "4", "d"}), 2);
  EXPECT_EQ(delta({"ZADD", "z", "NX", "1", "a"}), 0);
  EXPECT_EQ(delta({"ZINCRBY", "z", "0", "a"}), 0);
  EXPECT_EQ(delta({"ZINCRBY", "z", "1", "a"}), 1);
  EXPECT_EQ(delta({"ZREM", "z", "a", "x", "b"}), 2);
  EXPECT_EQ(delta({"ZPOPMIN", "z", "5"}), 2);
  Zadd("z", {"1", "a", "2", "b", "3", "c"});
  EXPECT_EQ(delta({"ZREMRANGEBYRANK", "z", "0", "1"}), 2);
  EXPECT_EQ(delta({"ZREMRANGEBYSCORE", "z", "10", "20"}), 0);
  EXPECT_EQ(delta({"ZRANGESTORE", "dst", "z", "0", "-1"}), 1);
  EXPECT_EQ(delta({"ZRANGESTORE", "dst", "none", "0", "-1"}), 1);
  EXPECT_EQ(delta({"ZRANGESTORE", "dst", "none", "0", "-1"}), 0);
  EXPECT_EQ(delta({"ZADD", "z", "INCR", "-inf", "c"}), 1);
}

}  // namespace
}  // namespace redlab::conformance
