// Sorted-set algebra: ZUNION, ZINTER, ZDIFF, ZUNIONSTORE, ZINTERSTORE, ZDIFFSTORE and
// ZINTERCARD, with WEIGHTS, AGGREGATE, WITHSCORES, LIMIT and their errors. (Plain sets as
// inputs are not covered: redlab has no set type yet.)
#include <string>
#include <vector>

#include "conformance/zset_fixture.h"

namespace redlab::conformance {
namespace {

using Strings = std::vector<std::string>;

class ZsetSetOpsTest : public ZsetTest {
 protected:
  void SetUp() override {
    ZsetTest::SetUp();
    Zadd("a", {"1", "x", "2", "y", "3", "z"});
    Zadd("b", {"10", "y", "20", "z", "30", "w"});
    Zadd("c", {"100", "z"});
  }
};

TEST_F(ZsetSetOpsTest, Zunion) {
  EXPECT_EQ(c()({"ZUNION", "2", "a", "b"}), BulkArray({"x", "y", "z", "w"}));
  EXPECT_EQ(c()({"ZUNION", "2", "a", "b", "WITHSCORES"}),
            BulkArray({"x", "1", "y", "12", "z", "23", "w", "30"}));
  EXPECT_EQ(c()({"ZUNION", "3", "a", "b", "none", "WEIGHTS", "2", "0.5", "7", "WITHSCORES"}),
            BulkArray({"x", "2", "y", "9", "w", "15", "z", "16"}));
  EXPECT_EQ(c()({"ZUNION", "2", "a", "b", "AGGREGATE", "MIN", "WITHSCORES"}),
            BulkArray({"x", "1", "y", "2", "z", "3", "w", "30"}));
  EXPECT_EQ(c()({"ZUNION", "2", "a", "b", "aggregate", "max", "withscores"}),
            BulkArray({"x", "1", "y", "10", "z", "20", "w", "30"}));
  // Options may repeat and come in any order; the last one wins.
  EXPECT_EQ(c()({"ZUNION", "2", "a", "b", "AGGREGATE", "MIN", "WITHSCORES", "AGGREGATE", "SUM",
                 "WEIGHTS", "1", "1"}),
            BulkArray({"x", "1", "y", "12", "z", "23", "w", "30"}));
  EXPECT_EQ(c()({"ZUNION", "1", "none"}), Array({}));
  EXPECT_EQ(c()({"ZUNION", "2", "a", "a", "WITHSCORES"}),
            BulkArray({"x", "2", "y", "4", "z", "6"}));
}

// A plain set of integers (intset) as an input: every member counts, each with score 1 (ASan
// once caught the union keeping views of a number's formatting buffer, which lost members).
TEST_F(ZsetSetOpsTest, ZunionOfASetOfIntegers) {
  ASSERT_EQ(c()({"SADD", "ints", "1", "2", "3", "100"}), Int(4));
  EXPECT_EQ(c()({"ZUNION", "2", "ints", "c", "WITHSCORES"}),
            BulkArray({"1", "1", "100", "1", "2", "1", "3", "1", "z", "100"}));
  EXPECT_EQ(c()({"ZUNIONSTORE", "dest", "2", "ints", "ints"}), Int(4));
  EXPECT_EQ(c()({"ZRANGE", "dest", "0", "-1", "WITHSCORES"}),
            BulkArray({"1", "2", "100", "2", "2", "2", "3", "2"}));
}

TEST_F(ZsetSetOpsTest, ZunionInfinitiesAndNegativeZero) {
  Zadd("p", {"inf", "m", "0", "n"});
  Zadd("q", {"-inf", "m", "1", "n"});
  // inf + -inf is 0 under SUM, and so is a weight of 0 times inf.
  EXPECT_EQ(c()({"ZUNION", "2", "p", "q", "WITHSCORES"}), BulkArray({"m", "0", "n", "1"}));
  EXPECT_EQ(c()({"ZUNION", "1", "p", "WEIGHTS", "0", "WITHSCORES"}),
            BulkArray({"m", "0", "n", "0"}));
  // A direct reply keeps -0; a stored listpack does not.
  EXPECT_EQ(c()({"ZUNION", "1", "p", "WEIGHTS", "-1", "WITHSCORES"}),
            BulkArray({"m", "-inf", "n", "-0"}));
  EXPECT_EQ(c()({"ZUNIONSTORE", "dst", "1", "p", "WEIGHTS", "-1"}), Int(2));
  EXPECT_EQ(c()({"ZSCORE", "dst", "n"}), Bulk("0"));
}

TEST_F(ZsetSetOpsTest, Zinter) {
  EXPECT_EQ(c()({"ZINTER", "2", "a", "b", "WITHSCORES"}), BulkArray({"y", "12", "z", "23"}));
  EXPECT_EQ(c()({"ZINTER", "3", "a", "b", "c", "WITHSCORES"}), BulkArray({"z", "123"}));
  EXPECT_EQ(c()({"ZINTER", "2", "a", "b", "WEIGHTS", "-1", "1", "AGGREGATE", "MIN", "WITHSCORES"}),
            BulkArray({"z", "-3", "y", "-2"}));
  EXPECT_EQ(c()({"ZINTER", "2", "a", "b", "AGGREGATE", "MAX"}), BulkArray({"y", "z"}));
  EXPECT_EQ(c()({"ZINTER", "2", "a", "none"}), Array({}));
  EXPECT_EQ(c()({"ZINTER", "1", "a"}), BulkArray({"x", "y", "z"}));
}

TEST_F(ZsetSetOpsTest, Zdiff) {
  EXPECT_EQ(c()({"ZDIFF", "2", "a", "b"}), BulkArray({"x"}));
  EXPECT_EQ(c()({"ZDIFF", "2", "b", "a", "WITHSCORES"}), BulkArray({"w", "30"}));
  EXPECT_EQ(c()({"ZDIFF", "3", "a", "none", "c", "WITHSCORES"}), BulkArray({"x", "1", "y", "2"}));
  EXPECT_EQ(c()({"ZDIFF", "2", "a", "a"}), Array({}));
  EXPECT_EQ(c()({"ZDIFF", "1", "none"}), Array({}));
  EXPECT_EQ(c()({"ZDIFF", "1", "a", "WITHSCORES"}), BulkArray({"x", "1", "y", "2", "z", "3"}));
}

TEST_F(ZsetSetOpsTest, Zintercard) {
  EXPECT_EQ(c()({"ZINTERCARD", "2", "a", "b"}), Int(2));
  EXPECT_EQ(c()({"ZINTERCARD", "2", "a", "b", "LIMIT", "1"}), Int(1));
  EXPECT_EQ(c()({"ZINTERCARD", "2", "a", "b", "LIMIT", "0"}), Int(2));
  EXPECT_EQ(c()({"ZINTERCARD", "2", "a", "b", "LIMIT", "10"}), Int(2));
  EXPECT_EQ(c()({"ZINTERCARD", "3", "a", "b", "none"}), Int(0));
  EXPECT_EQ(c()({"ZINTERCARD", "2", "a", "b", "LIMIT", "-1"}),
            Error("ERR LIMIT can't be negative"));
  EXPECT_EQ(c()({"ZINTERCARD", "2", "a", "b", "LIMIT", "x"}), Error("ERR LIMIT can't be negative"));
  EXPECT_EQ(c()({"ZINTERCARD", "2", "a", "b", "WITHSCORES"}), Error("ERR syntax error"));
  EXPECT_EQ(c()({"ZINTERCARD", "2", "a", "b", "WEIGHTS", "1", "1"}), Error("ERR syntax error"));
  EXPECT_EQ(c()({"ZINTERCARD", "0", "a"}),
            Error("ERR at least 1 input key is needed for 'zintercard' command"));
}

TEST_F(ZsetSetOpsTest, StoreForms) {
  EXPECT_EQ(c()({"ZUNIONSTORE", "dst", "2", "a", "b"}), Int(4));
  EXPECT_EQ(c()({"ZRANGE", "dst", "0", "-1", "WITHSCORES"}),
            BulkArray({"x", "1", "y", "12", "z", "23", "w", "30"}));
  EXPECT_EQ(c()({"ZINTERSTORE", "dst", "2", "a", "b", "WEIGHTS", "1", "2", "AGGREGATE", "MAX"}),
            Int(2));
  EXPECT_EQ(c()({"ZRANGE", "dst", "0", "-1", "WITHSCORES"}), BulkArray({"y", "20", "z", "40"}));
  EXPECT_EQ(c()({"ZDIFFSTORE", "dst", "2", "b", "a"}), Int(1));
  EXPECT_EQ(c()({"ZRANGE", "dst", "0", "-1", "WITHSCORES"}), BulkArray({"w", "30"}));
  // The destination may be an input, and is replaced whatever it held (losing its TTL).
  EXPECT_EQ(c()({"ZUNIONSTORE", "a", "2", "a", "c"}), Int(3));
  EXPECT_EQ(c()({"ZSCORE", "a", "z"}), Bulk("103"));
  c()({"SET", "dst", "v"});
  c()({"EXPIRE", "dst", "100"});
  EXPECT_EQ(c()({"ZINTERSTORE", "dst", "1", "c"}), Int(1));
  EXPECT_EQ(c()({"TTL", "dst"}), Int(-1));
  // An empty result deletes the destination.
  EXPECT_EQ(c()({"ZINTERSTORE", "dst", "2", "c", "none"}), Int(0));
  EXPECT_EQ(c()({"EXISTS", "dst"}), Int(0));
  EXPECT_EQ(c()({"ZDIFFSTORE", "dst", "1", "none"}), Int(0));
}

TEST_F(ZsetSetOpsTest, StoredResultTakesTheEncodingItsSizeAllows) {
  // Past zset-max-listpack-entries the stored result is a skiplist, which ZSCAN pages through;
  // a small one is a listpack, returned whole.
  ASSERT_EQ(c()({"CONFIG", "SET", "zset-max-listpack-entries", "3"}), Status("OK"));
  EXPECT_EQ(c()({"ZUNIONSTORE", "small", "1", "a"}), Int(3));
  EXPECT_EQ(c()({"ZSCAN", "small", "0", "COUNT", "1"}),
            Array({Bulk("0"), BulkArray({"x", "1", "y", "2", "z", "3"})}));
  EXPECT_EQ(c()({"ZUNIONSTORE", "large", "2", "a", "b"}), Int(4));
  EXPECT_EQ(c()({"ZRANGE", "large", "0", "-1"}), BulkArray({"x", "y", "z", "w"}));
}

TEST_F(ZsetSetOpsTest, Resp3WithScores) {
  c()({"HELLO", "3"});
  EXPECT_EQ(c().Raw({"ZINTER", "2", "a", "b", "WITHSCORES"}),
            "*2\r\n*2\r\n$1\r\ny\r\n,12\r\n*2\r\n$1\r\nz\r\n,23\r\n");
  EXPECT_EQ(c().Raw({"ZDIFF", "2", "a", "b"}), "*1\r\n$1\r\nx\r\n");
  EXPECT_EQ(c().Raw({"ZUNION", "1", "none", "WITHSCORES"}), "*0\r\n");
}

TEST_F(ZsetSetOpsTest, Errors) {
  EXPECT_EQ(c()({"ZUNION", "0", "a"}),
            Error("ERR at least 1 input key is needed for 'zunion' command"));
  EXPECT_EQ(c()({"ZUNIONSTORE", "d", "-1", "a"}),
            Error("ERR at least 1 input key is needed for 'zunionstore' command"));
  EXPECT_EQ(c()({"ZDIFFSTORE", "d", "0", "a"}),
            Error("ERR at least 1 input key is needed for 'zdiffstore' command"));
  EXPECT_EQ(c()({"ZINTER", "x", "a"}), Error("ERR value is not an integer or out of range"));
  EXPECT_EQ(c()({"ZUNION", "3", "a", "b"}), Error("ERR syntax error"));
  EXPECT_EQ(c()({"ZUNION", "1", "a", "WEIGHTS"}), Error("ERR syntax error"));
  EXPECT_EQ(c()({"ZUNION", "2", "a", "b", "WEIGHTS", "1"}), Error("ERR syntax error"));
  EXPECT_EQ(c()({"ZUNION", "2", "a", "b", "WEIGHTS", "1", "x"}),
            Error("ERR weight value is not a float"));
  EXPECT_EQ(c()({"ZUNION", "1", "a", "WEIGHTS", "nan"}), Error("ERR weight value is not a float"));
  EXPECT_EQ(c()({"ZUNION", "1", "a", "AGGREGATE", "AVG"}), Error("ERR syntax error"));
  EXPECT_EQ(c()({"ZUNION", "1", "a", "AGGREGATE"}), Error("ERR syntax error"));
  EXPECT_EQ(c()({"ZUNION", "1", "a", "FOO"}), Error("ERR syntax error"));
  EXPECT_EQ(c()({"ZUNIONSTORE", "d", "1", "a", "WITHSCORES"}), Error("ERR syntax error"));
  EXPECT_EQ(c()({"ZDIFF", "1", "a", "WEIGHTS", "1"}), Error("ERR syntax error"));
  EXPECT_EQ(c()({"ZDIFF", "1", "a", "AGGREGATE", "SUM"}), Error("ERR syntax error"));
  EXPECT_EQ(c()({"ZINTER", "1", "a", "LIMIT", "1"}), Error("ERR syntax error"));
  EXPECT_EQ(c()({"ZUNION", "1"}), Error("ERR wrong number of arguments for 'zunion' command"));
  EXPECT_EQ(c()({"ZUNIONSTORE", "d", "1"}),
            Error("ERR wrong number of arguments for 'zunionstore' command"));
  // Input types are checked before the options are read; the destination's type does not
  // matter.
  c()({"SET", "s", "v"});
  EXPECT_EQ(c()({"ZUNION", "2", "a", "s", "WEIGHTS", "x"}), Error(kWrongType));
  EXPECT_EQ(c()({"ZINTERCARD", "2", "s", "a"}), Error(kWrongType));
  EXPECT_EQ(c()({"ZDIFFSTORE", "d", "2", "a", "s"}), Error(kWrongType));
  EXPECT_EQ(c()({"ZUNIONSTORE", "s", "1", "a"}), Int(3));
  EXPECT_EQ(c()({"TYPE", "s"}), Status("zset"));
}

TEST_F(ZsetSetOpsTest, PlainSetsAreInputsWithScoreOne) {
  c()({"ZADD", "z", "5", "a", "2", "b"});
  c()({"SADD", "s", "a", "c"});
  EXPECT_EQ(c()({"ZUNION", "2", "z", "s", "WITHSCORES"}),
            Array({Bulk("c"), Bulk("1"), Bulk("b"), Bulk("2"), Bulk("a"), Bulk("6")}));
  EXPECT_EQ(c()({"ZINTER", "2", "z", "s", "WEIGHTS", "1", "10", "WITHSCORES"}),
            Array({Bulk("a"), Bulk("15")}));
  EXPECT_EQ(c()({"ZDIFF", "2", "s", "z", "WITHSCORES"}), Array({Bulk("c"), Bulk("1")}));
  EXPECT_EQ(c()({"ZINTERCARD", "2", "s", "z"}), Int(1));
  EXPECT_EQ(c()({"ZDIFF", "2", "s", "s"}), Array({}));
  EXPECT_EQ(c()({"ZUNIONSTORE", "d", "1", "s"}), Int(2));
  EXPECT_EQ(c()({"ZRANGE", "d", "0", "-1", "WITHSCORES"}),
            Array({Bulk("a"), Bulk("1"), Bulk("c"), Bulk("1")}));
}

TEST_F(ZsetSetOpsTest, StoreCountsOneChange) {
  auto delta = [&](const Strings& command) {
    int64_t before = Dirty();
    c().Call(command);
    return Dirty() - before;
  };
  EXPECT_EQ(delta({"ZUNIONSTORE", "dst", "2", "a", "b"}), 1);
  EXPECT_EQ(delta({"ZINTERSTORE", "dst", "2", "a", "none"}), 1);  // deletes dst
  EXPECT_EQ(delta({"ZINTERSTORE", "dst", "2", "a", "none"}), 0);
  EXPECT_EQ(delta({"ZUNION", "2", "a", "b"}), 0);
}

}  // namespace
}  // namespace redlab::conformance
