// SORT and SORT_RO: numeric and ALPHA order, DESC, LIMIT, BY patterns (keys and hash fields),
// BY without '*' (no sorting), GET patterns, STORE, and Redis's errors.
#include <string>
#include <vector>

#include "conformance/harness/fixture.h"

namespace redlab::conformance {
namespace {

using SortTest = ConformanceTest;

std::vector<Reply> Bulks(std::initializer_list<std::string> items) {
  std::vector<Reply> out;
  for (const std::string& s : items) out.push_back(Bulk(s));
  return out;
}

TEST_F(SortTest, NumericAndAlpha) {
  ASSERT_FALSE(c()({"RPUSH", "l", "10", "2", "-1.5", "3e1", "2"}).is_error());
  EXPECT_EQ(c()({"SORT", "l"}), Array(Bulks({"-1.5", "2", "2", "10", "3e1"})));
  EXPECT_EQ(c()({"SORT", "l", "DESC"}), Array(Bulks({"3e1", "10", "2", "2", "-1.5"})));
  EXPECT_EQ(c()({"SORT", "l", "ALPHA"}), Array(Bulks({"-1.5", "10", "2", "2", "3e1"})));
  EXPECT_EQ(c()({"SORT", "l", "ALPHA", "DESC", "ASC"}),
            Array(Bulks({"-1.5", "10", "2", "2", "3e1"})));
  EXPECT_EQ(c()({"SORT", "l", "LIMIT", "1", "2"}), Array(Bulks({"2", "2"})));
  EXPECT_EQ(c()({"SORT", "l", "LIMIT", "-10", "100"}),
            Array(Bulks({"-1.5", "2", "2", "10", "3e1"})));
  EXPECT_EQ(c()({"SORT", "l", "LIMIT", "5", "1"}), Array({}));
  EXPECT_EQ(c()({"SORT", "l", "LIMIT", "2", "0"}), Array({}));
  EXPECT_EQ(c()({"SORT", "l", "LIMIT", "3", "-1"}), Array(Bulks({"10", "3e1"})));
  // Equal scores are ordered by the elements' bytes.
  ASSERT_FALSE(c()({"SADD", "s", "1.0", "1", "01", "0.5"}).is_error());
  EXPECT_EQ(c()({"SORT", "s"}), Array(Bulks({"0.5", "01", "1", "1.0"})));
  ASSERT_FALSE(c()({"ZADD", "z", "3", "c", "1", "b10", "2", "a"}).is_error());
  EXPECT_EQ(c()({"SORT", "z", "ALPHA"}), Array(Bulks({"a", "b10", "c"})));
  EXPECT_EQ(c()({"SORT", "missing"}), Array({}));
}

TEST_F(SortTest, ByPatternAndGet) {
  ASSERT_FALSE(c()({"RPUSH", "ids", "1", "2", "3", "4"}).is_error());
  ASSERT_EQ(
      c()({"MSET", "w_1", "30", "w_2", "10", "w_3", "20", "name_1", "one", "name_3", "three"}),
      Status("OK"));
  ASSERT_FALSE(c()({"HSET", "obj_1", "w", "3", "n", "x1"}).is_error());
  ASSERT_FALSE(c()({"HSET", "obj_2", "w", "1", "n", "x2"}).is_error());
  ASSERT_FALSE(c()({"HSET", "obj_4", "w", "2"}).is_error());
  // A missing weight counts as 0.
  EXPECT_EQ(c()({"SORT", "ids", "BY", "w_*"}), Array(Bulks({"4", "2", "3", "1"})));
  EXPECT_EQ(c()({"SORT", "ids", "BY", "w_*", "DESC", "LIMIT", "0", "2"}), Array(Bulks({"1", "3"})));
  EXPECT_EQ(c()({"SORT", "ids", "BY", "obj_*->w"}), Array(Bulks({"3", "2", "4", "1"})));
  EXPECT_EQ(c()({"SORT", "ids", "BY", "w_*", "ALPHA"}), Array(Bulks({"4", "2", "3", "1"})));
  EXPECT_EQ(c()({"SORT", "ids", "GET", "#", "GET", "name_*", "GET", "obj_*->n", "LIMIT", "0", "3"}),
            Array({Bulk("1"), Bulk("one"), Bulk("x1"), Bulk("2"), Nil(), Bulk("x2"), Bulk("3"),
                   Bulk("three"), Nil()}));
  // A GET pattern without '*' names no key; a hash pattern on a string key gives nil.
  EXPECT_EQ(c()({"SORT", "ids", "GET", "fixed", "GET", "w_*->f", "LIMIT", "0", "1"}),
            Array({Nil(), Nil()}));
  EXPECT_EQ(c()({"SORT_RO", "ids", "BY", "w_*", "GET", "#"}), Array(Bulks({"4", "2", "3", "1"})));
}

TEST_F(SortTest, ByConstantKeepsTheOrder) {
  ASSERT_FALSE(c()({"RPUSH", "l", "c", "a", "b"}).is_error());
  EXPECT_EQ(c()({"SORT", "l", "BY", "nosort"}), Array(Bulks({"c", "a", "b"})));
  EXPECT_EQ(c()({"SORT", "l", "BY", "nosort", "DESC"}), Array(Bulks({"b", "a", "c"})));
  EXPECT_EQ(c()({"SORT", "l", "BY", "nosort", "DESC", "LIMIT", "1", "5"}),
            Array(Bulks({"a", "c"})));
  ASSERT_FALSE(c()({"ZADD", "z", "1", "a", "5", "b", "2", "c", "10", "d", "3", "e"}).is_error());
  EXPECT_EQ(c()({"SORT", "z", "BY", "nosort", "ASC", "LIMIT", "0", "2"}), Array(Bulks({"a", "c"})));
  EXPECT_EQ(c()({"SORT", "z", "BY", "nosort", "DESC", "LIMIT", "0", "2"}),
            Array(Bulks({"d", "b"})));
  EXPECT_EQ(c()({"SORT", "z", "BY", "nosort", "LIMIT", "5", "10"}), Array({}));
  EXPECT_EQ(c()({"SORT", "z", "BY", "nosort", "LIMIT", "-10", "100"}),
            Array(Bulks({"a", "c", "e", "b", "d"})));
  // Sorting a sorted set converts it to a skiplist for good, as Redis does.
  EXPECT_EQ(c()({"OBJECT", "ENCODING", "z"}), Bulk("skiplist"));
  // A set stored unsorted would come out in hash order: STORE sorts it (binary, as ALPHA).
  ASSERT_FALSE(c()({"SADD", "s", "b", "c", "a", "10", "9"}).is_error());
  EXPECT_EQ(c()({"SORT", "s", "BY", "nosort", "STORE", "out"}), Int(5));
  EXPECT_EQ(c()({"LRANGE", "out", "0", "-1"}), Array(Bulks({"10", "9", "a", "b", "c"})));
}

TEST_F(SortTest, Store) {
  ASSERT_FALSE(c()({"RPUSH", "l", "3", "1", "2"}).is_error());
  ASSERT_EQ(c()({"SET", "dst", "old", "EX", "100"}), Status("OK"));
  EXPECT_EQ(c()({"SORT", "l", "STORE", "dst"}), Int(3));
  EXPECT_EQ(c()({"LRANGE", "dst", "0", "-1"}), Array(Bulks({"1", "2", "3"})));
  EXPECT_EQ(c()({"TTL", "dst"}), Int(-1));
  EXPECT_EQ(c()({"OBJECT", "ENCODING", "dst"}), Bulk("quicklist"));
  // With GET, every GET's value is stored ("" for a missing key).
  ASSERT_EQ(c()({"SET", "v_1", "one"}), Status("OK"));
  EXPECT_EQ(c()({"SORT", "l", "GET", "#", "GET", "v_*", "STORE", "dst"}), Int(6));
  EXPECT_EQ(c()({"LRANGE", "dst", "0", "-1"}), Array(Bulks({"1", "one", "2", "", "3", ""})));
  // An empty result deletes the destination.
  EXPECT_EQ(c()({"SORT", "missing", "STORE", "dst"}), Int(0));
  EXPECT_EQ(c()({"EXISTS", "dst"}), Int(0));
  // The last STORE wins.
  EXPECT_EQ(c()({"SORT", "l", "STORE", "a", "STORE", "b"}), Int(3));
  EXPECT_EQ(c()({"EXISTS", "a", "b"}), Int(1));
  EXPECT_EQ(c()({"TYPE", "b"}), Status("list"));
}

TEST_F(SortTest, Errors) {
  ASSERT_EQ(c()({"SET", "str", "x"}), Status("OK"));
  ASSERT_FALSE(c()({"RPUSH", "l", "1", "x", "2"}).is_error());
  EXPECT_EQ(c()({"SORT", "str"}),
            Error("WRONGTYPE Operation against a key holding the wrong kind of value"));
  EXPECT_EQ(c()({"SORT", "l"}), Error("ERR One or more scores can't be converted into double"));
  EXPECT_EQ(c()({"SORT", "l", "STORE", "dst"}),
            Error("ERR One or more scores can't be converted into double"));
  EXPECT_EQ(c()({"EXISTS", "dst"}), Int(0));
  EXPECT_EQ(c()({"SORT", "l", "ALPHA"}), Array(Bulks({"1", "2", "x"})));
  ASSERT_FALSE(c()({"RPUSH", "n", "1", "nan", "2"}).is_error());
  EXPECT_EQ(c()({"SORT", "n"}), Error("ERR One or more scores can't be converted into double"));
  ASSERT_FALSE(c()({"RPUSH", "big", "1e400"}).is_error());
  EXPECT_EQ(c()({"SORT", "big"}), Error("ERR One or more scores can't be converted into double"));
  EXPECT_EQ(c()({"SORT", "l", "LIMIT", "x", "1"}),
            Error("ERR value is not an integer or out of range"));
  EXPECT_EQ(c()({"SORT", "l", "LIMIT", "1"}), Error("ERR syntax error"));
  EXPECT_EQ(c()({"SORT", "l", "BY"}), Error("ERR syntax error"));
  EXPECT_EQ(c()({"SORT", "l", "nonsense"}), Error("ERR syntax error"));
  EXPECT_EQ(c()({"SORT_RO", "l", "ALPHA", "STORE", "dst"}), Error("ERR syntax error"));
  // Options are checked before the key.
  EXPECT_EQ(c()({"SORT", "str", "nonsense"}), Error("ERR syntax error"));
  EXPECT_EQ(c()({"SORT"}), Error("ERR wrong number of arguments for 'sort' command"));
}

TEST_F(SortTest, GetKeysFindsTheStoreKey) {
  EXPECT_EQ(
      c()({"COMMAND", "GETKEYS", "SORT", "k", "LIMIT", "0", "1", "GET", "store", "STORE", "d"}),
      Array({Bulk("k"), Bulk("d")}));
  EXPECT_EQ(c()({"COMMAND", "GETKEYS", "SORT", "k", "ALPHA"}), Array({Bulk("k")}));
  EXPECT_EQ(c()({"COMMAND", "GETKEYS", "SORT_RO", "k", "STORE", "d"}), Array({Bulk("k")}));
}

}  // namespace
}  // namespace redlab::conformance
