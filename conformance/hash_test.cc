// Hash commands: HSET, HMSET, HSETNX, HGET, HMGET, HDEL, HEXISTS, HINCRBY, HINCRBYFLOAT, HLEN,
// HSTRLEN, HKEYS, HVALS, HGETALL, HSCAN, HRANDFIELD. Small hashes answer in insertion order
// (Redis's listpack); past the listpack limits the order is the hash table's, so those tests
// compare contents, not order.
#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "conformance/harness/fixture.h"
#include "conformance/harness/script.h"

namespace redlab::conformance {
namespace {

class HashTest : public ConformanceTest {
 protected:
  // HSET key f1 v1 f2 v2 ... from a list of pairs.
  void HSet(const std::string& key, const std::vector<std::pair<std::string, std::string>>& pairs) {
    std::vector<std::string> args = {"HSET", key};
    for (const auto& [f, v] : pairs) {
      args.push_back(f);
      args.push_back(v);
    }
    ASSERT_EQ(c().Call(args).type, Reply::Type::kInteger);
  }
  // The string elements of an array reply.
  static std::vector<std::string> Strings(const Reply& r) {
    std::vector<std::string> out;
    for (const Reply& e : r.elements) out.push_back(e.str);
    return out;
  }
  static std::vector<std::string> Sorted(std::vector<std::string> v) {
    std::sort(v.begin(), v.end());
    return v;
  }
  // The hash as a map, read with HGETALL.
  std::map<std::string, std::string> ReadAll(const std::string& key) {
    std::vector<std::string> flat = Strings(c()({"HGETALL", key}));
    std::map<std::string, std::string> out;
    for (size_t i = 0; i + 1 < flat.size(); i += 2) out[flat[i]] = flat[i + 1];
    return out;
  }
};

Reply Map(std::vector<Reply> elements) {
  Reply r = Array(std::move(elements));
  r.type = Reply::Type::kMap;
  return r;
}

const char* const kWrongType = "WRONGTYPE Operation against a key holding the wrong kind of value";

TEST_F(HashTest, HSetCountsNewFields) {
  EXPECT_EQ(c()({"HSET", "h", "a", "1"}), Int(1));
  EXPECT_EQ(c()({"HSET", "h", "a", "2", "b", "3"}), Int(1));
  EXPECT_EQ(c()({"HSET", "h", "a", "2"}), Int(0));
  // A field twice in one call is created once and holds the last value.
  EXPECT_EQ(c()({"HSET", "h", "c", "x", "c", "y"}), Int(1));
  EXPECT_EQ(c()({"HGET", "h", "a"}), Bulk("2"));
  EXPECT_EQ(c()({"HGET", "h", "c"}), Bulk("y"));
  EXPECT_EQ(c()({"HLEN", "h"}), Int(3));
}

TEST_F(HashTest, HSetArityErrors) {
  const Reply arity = Error("ERR wrong number of arguments for 'hset' command");
  EXPECT_EQ(c()({"HSET", "h"}), arity);
  EXPECT_EQ(c()({"HSET", "h", "a"}), arity);
  EXPECT_EQ(c()({"HSET", "h", "a", "1", "b"}), arity);
  EXPECT_EQ(c()({"hset", "h", "a", "1", "b", "2", "c"}), arity);
  EXPECT_EQ(c()({"HLEN", "h"}), Int(0));  // nothing was created
  // The pair check comes before the type check.
  EXPECT_EQ(c()({"SET", "s", "x"}), Status("OK"));
  EXPECT_EQ(c()({"HSET", "s", "a", "1", "b"}), arity);
  EXPECT_EQ(c()({"HSET", "s", "a", "1"}), Error(kWrongType));
}

TEST_F(HashTest, HMSet) {
  EXPECT_EQ(c()({"HMSET", "h", "a", "1", "b", "2"}), Status("OK"));
  EXPECT_EQ(c()({"HMSET", "h", "a", "3"}), Status("OK"));
  EXPECT_EQ(c()({"HMGET", "h", "a", "b"}), Array({Bulk("3"), Bulk("2")}));
  const Reply arity = Error("ERR wrong number of arguments for 'hmset' command");
  EXPECT_EQ(c()({"HMSET", "h", "a"}), arity);
  EXPECT_EQ(c()({"HMSET", "h", "a", "1", "b"}), arity);
  EXPECT_EQ(c()({"HMSET", "h"}), arity);
}

TEST_F(HashTest, HSetNx) {
  EXPECT_EQ(c()({"HSETNX", "h", "a", "1"}), Int(1));
  EXPECT_EQ(c()({"HSETNX", "h", "a", "2"}), Int(0));
  EXPECT_EQ(c()({"HGET", "h", "a"}), Bulk("1"));
  EXPECT_EQ(c()({"HSETNX", "h", "b", "2"}), Int(1));
  EXPECT_EQ(c()({"HGETALL", "h"}), Array({Bulk("a"), Bulk("1"), Bulk("b"), Bulk("2")}));
  EXPECT_EQ(c()({"HSETNX", "h", "a"}), Error("ERR wrong number of arguments for 'hsetnx' command"));
}

TEST_F(HashTest, HGetAndHMGet) {
  EXPECT_EQ(c()({"HGET", "nokey", "a"}), Nil());
  EXPECT_EQ(c()({"HMGET", "nokey", "a", "b"}), Array({Nil(), Nil()}));
  HSet("h", {{"a", "1"}, {"b", ""}});
  EXPECT_EQ(c()({"HGET", "h", "a"}), Bulk("1"));
  EXPECT_EQ(c()({"HGET", "h", "b"}), Bulk(""));
  EXPECT_EQ(c()({"HGET", "h", "x"}), Nil());
  EXPECT_EQ(c()({"HMGET", "h", "x", "b", "a", "a"}),
            Array({Nil(), Bulk(""), Bulk("1"), Bulk("1")}));
  EXPECT_EQ(c().Raw({"HMGET", "h", "a", "x"}), "*2\r\n$1\r\n1\r\n$-1\r\n");
  EXPECT_EQ(c()({"HGET", "h"}), Error("ERR wrong number of arguments for 'hget' command"));
  EXPECT_EQ(c()({"HMGET", "h"}), Error("ERR wrong number of arguments for 'hmget' command"));
}

TEST_F(HashTest, HDelCountsAndDeletesEmptiedKey) {
  EXPECT_EQ(c()({"HDEL", "nokey", "a"}), Int(0));
  HSet("h", {{"a", "1"}, {"b", "2"}, {"c", "3"}});
  EXPECT_EQ(c()({"HDEL", "h", "a", "x", "a"}), Int(1));
  EXPECT_EQ(c()({"HGETALL", "h"}), Array({Bulk("b"), Bulk("2"), Bulk("c"), Bulk("3")}));
  EXPECT_EQ(c()({"HDEL", "h", "x"}), Int(0));
  EXPECT_EQ(c()({"HDEL", "h", "c", "b"}), Int(2));
  // The emptied hash is gone: the key holds nothing, not an empty hash.
  EXPECT_EQ(c()({"HLEN", "h"}), Int(0));
  EXPECT_EQ(c()({"GET", "h"}), Nil());
  EXPECT_EQ(c()({"SET", "h", "now a string"}), Status("OK"));
  EXPECT_EQ(c()({"GET", "h"}), Bulk("now a string"));
  EXPECT_EQ(c()({"HDEL", "h"}), Error("ERR wrong number of arguments for 'hdel' command"));
}

TEST_F(HashTest, HDelStopsWhenTheHashEmpties) {
  HSet("h", {{"a", "1"}});
  EXPECT_EQ(c()({"HDEL", "h", "a", "a", "b"}), Int(1));
  EXPECT_EQ(c()({"GET", "h"}), Nil());
}

TEST_F(HashTest, HExistsHLenHStrLen) {
  EXPECT_EQ(c()({"HEXISTS", "nokey", "a"}), Int(0));
  EXPECT_EQ(c()({"HLEN", "nokey"}), Int(0));
  EXPECT_EQ(c()({"HSTRLEN", "nokey", "a"}), Int(0));
  HSet("h", {{"a", "hello"}, {"e", ""}, {"n", "-0012"}});
  EXPECT_EQ(c()({"HEXISTS", "h", "a"}), Int(1));
  EXPECT_EQ(c()({"HEXISTS", "h", "e"}), Int(1));
  EXPECT_EQ(c()({"HEXISTS", "h", "x"}), Int(0));
  EXPECT_EQ(c()({"HLEN", "h"}), Int(3));
  EXPECT_EQ(c()({"HSTRLEN", "h", "a"}), Int(5));
  EXPECT_EQ(c()({"HSTRLEN", "h", "e"}), Int(0));
  EXPECT_EQ(c()({"HSTRLEN", "h", "n"}), Int(5));
  EXPECT_EQ(c()({"HSTRLEN", "h", "x"}), Int(0));
  EXPECT_EQ(c()({"HEXISTS", "h"}), Error("ERR wrong number of arguments for 'hexists' command"));
  EXPECT_EQ(c()({"HLEN", "h", "x"}), Error("ERR wrong number of arguments for 'hlen' command"));
  EXPECT_EQ(c()({"HSTRLEN", "h"}), Error("ERR wrong number of arguments for 'hstrlen' command"));
}

TEST_F(HashTest, EveryCommandRefusesOtherTypes) {
  EXPECT_EQ(c()({"SET", "s", "x"}), Status("OK"));
  const Reply wrong = Error(kWrongType);
  EXPECT_EQ(c()({"HSET", "s", "a", "1"}), wrong);
  EXPECT_EQ(c()({"HMSET", "s", "a", "1"}), wrong);
  EXPECT_EQ(c()({"HSETNX", "s", "a", "1"}), wrong);
  EXPECT_EQ(c()({"HGET", "s", "a"}), wrong);
  EXPECT_EQ(c()({"HMGET", "s", "a"}), wrong);
  EXPECT_EQ(c()({"HDEL", "s", "a"}), wrong);
  EXPECT_EQ(c()({"HEXISTS", "s", "a"}), wrong);
  EXPECT_EQ(c()({"HINCRBY", "s", "a", "1"}), wrong);
  EXPECT_EQ(c()({"HINCRBYFLOAT", "s", "a", "1"}), wrong);
  EXPECT_EQ(c()({"HLEN", "s"}), wrong);
  EXPECT_EQ(c()({"HSTRLEN", "s", "a"}), wrong);
  EXPECT_EQ(c()({"HKEYS", "s"}), wrong);
  EXPECT_EQ(c()({"HVALS", "s"}), wrong);
  EXPECT_EQ(c()({"HGETALL", "s"}), wrong);
  EXPECT_EQ(c()({"HSCAN", "s", "0"}), wrong);
  EXPECT_EQ(c()({"HRANDFIELD", "s"}), wrong);
  EXPECT_EQ(c()({"HRANDFIELD", "s", "0"}), wrong);
  EXPECT_EQ(c()({"HRANDFIELD", "s", "2", "WITHVALUES"}), wrong);
  EXPECT_EQ(c()({"GET", "s"}), Bulk("x"));  // untouched
}

TEST_F(HashTest, HIncrBy) {
  EXPECT_EQ(c()({"HINCRBY", "h", "n", "5"}), Int(5));
  EXPECT_EQ(c()({"HINCRBY", "h", "n", "-7"}), Int(-2));
  EXPECT_EQ(c()({"HINCRBY", "h", "n", "0"}), Int(-2));
  EXPECT_EQ(c()({"HGET", "h", "n"}), Bulk("-2"));
  HSet("h", {{"z", "0010"}});  // not canonical, so not an integer to Redis
  EXPECT_EQ(c()({"HINCRBY", "h", "z", "1"}), Error("ERR hash value is not an integer"));
  HSet("h", {{"big", "9223372036854775806"}, {"small", "-9223372036854775807"}});
  EXPECT_EQ(c()({"HINCRBY", "h", "big", "1"}), Int(INT64_MAX));
  EXPECT_EQ(c()({"HINCRBY", "h", "small", "-1"}), Int(INT64_MIN));
  EXPECT_EQ(c()({"HINCRBY", "h", "big", "-9223372036854775807"}), Int(0));
}

TEST_F(HashTest, HIncrByErrors) {
  HSet("h", {{"s", "abc"},
             {"sp", " 1"},
             {"f", "1.5"},
             {"max", "9223372036854775807"},
             {"min", "-9223372036854775808"}});
  const Reply not_integer = Error("ERR value is not an integer or out of range");
  EXPECT_EQ(c()({"HINCRBY", "h", "n", "x"}), not_integer);
  EXPECT_EQ(c()({"HINCRBY", "h", "n", "1.5"}), not_integer);
  EXPECT_EQ(c()({"HINCRBY", "h", "n", "9223372036854775808"}), not_integer);
  EXPECT_EQ(c()({"HINCRBY", "h", "n", ""}), not_integer);
  const Reply hash_not_integer = Error("ERR hash value is not an integer");
  EXPECT_EQ(c()({"HINCRBY", "h", "s", "1"}), hash_not_integer);
  EXPECT_EQ(c()({"HINCRBY", "h", "sp", "1"}), hash_not_integer);
  EXPECT_EQ(c()({"HINCRBY", "h", "f", "1"}), hash_not_integer);
  const Reply overflow = Error("ERR increment or decrement would overflow");
  EXPECT_EQ(c()({"HINCRBY", "h", "max", "1"}), overflow);
  EXPECT_EQ(c()({"HINCRBY", "h", "min", "-1"}), overflow);
  EXPECT_EQ(c()({"HINCRBY", "h", "max", "-1"}), Int(INT64_MAX - 1));
  EXPECT_EQ(c()({"HGET", "h", "min"}), Bulk("-9223372036854775808"));  // unchanged
  EXPECT_EQ(c()({"HINCRBY", "h", "n"}),
            Error("ERR wrong number of arguments for 'hincrby' command"));
  // A failed increment on a missing key creates nothing.
  EXPECT_EQ(c()({"HINCRBY", "other", "n", "x"}), not_integer);
  EXPECT_EQ(c()({"HLEN", "other"}), Int(0));
}

TEST_F(HashTest, HIncrByFloat) {
  EXPECT_EQ(c()({"HINCRBYFLOAT", "h", "f", "10.50"}), Bulk("10.5"));
  EXPECT_EQ(c()({"HINCRBYFLOAT", "h", "f", "0.1"}), Bulk("10.6"));
  EXPECT_EQ(c()({"HINCRBYFLOAT", "h", "f", "-10.6"}), Bulk("0"));
  EXPECT_EQ(c()({"HINCRBYFLOAT", "h", "f", "5.0e3"}), Bulk("5000"));
  EXPECT_EQ(c()({"HINCRBYFLOAT", "h", "f", "-0"}), Bulk("5000"));
  EXPECT_EQ(c()({"HINCRBYFLOAT", "h", "g", "1e20"}), Bulk("100000000000000000000"));
  EXPECT_EQ(c()({"HINCRBYFLOAT", "h", "z", "-0.0"}), Bulk("0"));
  HSet("h", {{"i", "7"}, {"e", "1e2"}, {"hex", "0x10"}});
  EXPECT_EQ(c()({"HINCRBYFLOAT", "h", "i", "0.25"}), Bulk("7.25"));
  EXPECT_EQ(c()({"HINCRBYFLOAT", "h", "e", "1"}), Bulk("101"));
  EXPECT_EQ(c()({"HINCRBYFLOAT", "h", "hex", "1"}), Bulk("17"));
  EXPECT_EQ(c()({"HGET", "h", "i"}), Bulk("7.25"));
  // The result is stored as text: HINCRBY sees it as an integer only when it is one.
  EXPECT_EQ(c()({"HINCRBY", "h", "e", "1"}), Int(102));
  EXPECT_EQ(c()({"HINCRBY", "h", "i", "1"}), Error("ERR hash value is not an integer"));
}

TEST_F(HashTest, HIncrByFloatErrors) {
  HSet("h", {{"s", "abc"}, {"sp", " 1"}, {"inf", "inf"}, {"big", "1e4932"}});
  const Reply not_float = Error("ERR value is not a valid float");
  EXPECT_EQ(c()({"HINCRBYFLOAT", "h", "n", "x"}), not_float);
  EXPECT_EQ(c()({"HINCRBYFLOAT", "h", "n", ""}), not_float);
  EXPECT_EQ(c()({"HINCRBYFLOAT", "h", "n", "nan"}), not_float);
  EXPECT_EQ(c()({"HINCRBYFLOAT", "h", "n", "1.5e4932"}), not_float);  // overflows long double
  const Reply nan_or_inf = Error("ERR value is NaN or Infinity");
  EXPECT_EQ(c()({"HINCRBYFLOAT", "h", "n", "inf"}), nan_or_inf);
  EXPECT_EQ(c()({"HINCRBYFLOAT", "h", "n", "-inf"}), nan_or_inf);
  const Reply hash_not_float = Error("ERR hash value is not a float");
  EXPECT_EQ(c()({"HINCRBYFLOAT", "h", "s", "1"}), hash_not_float);
  EXPECT_EQ(c()({"HINCRBYFLOAT", "h", "sp", "1"}), hash_not_float);
  const Reply produces = Error("ERR increment would produce NaN or Infinity");
  EXPECT_EQ(c()({"HINCRBYFLOAT", "h", "inf", "1"}), produces);
  EXPECT_EQ(c()({"HINCRBYFLOAT", "h", "big", "1e4932"}), produces);
  EXPECT_EQ(c()({"HGET", "h", "inf"}), Bulk("inf"));  // unchanged
  EXPECT_EQ(c()({"HEXISTS", "h", "n"}), Int(0));
  EXPECT_EQ(c()({"HINCRBYFLOAT", "nokey", "n", "inf"}), nan_or_inf);
  EXPECT_EQ(c()({"HLEN", "nokey"}), Int(0));
  EXPECT_EQ(c()({"HINCRBYFLOAT", "h", "n"}),
            Error("ERR wrong number of arguments for 'hincrbyfloat' command"));
}

TEST_F(HashTest, HIncrByFloatLongResults) {
  // ld2string prints the whole integer part: thousands of digits near LDBL_MAX.
  Reply r = c()({"HINCRBYFLOAT", "h", "f", "1e4931"});
  ASSERT_EQ(r.type, Reply::Type::kBulk);
  EXPECT_EQ(r.str.size(), 4932u);
  EXPECT_EQ(r.str.find_first_not_of("0123456789"), std::string::npos);
  EXPECT_EQ(c()({"HSTRLEN", "h", "f"}), Int(4932));
  EXPECT_EQ(c()({"HGET", "h", "f"}), r);
}

TEST_F(HashTest, HKeysHValsHGetAllInInsertionOrder) {
  EXPECT_EQ(c()({"HKEYS", "nokey"}), Array({}));
  EXPECT_EQ(c()({"HVALS", "nokey"}), Array({}));
  EXPECT_EQ(c()({"HGETALL", "nokey"}), Array({}));
  HSet("h", {{"zeta", "1"}, {"alpha", "2"}, {"mid", "3"}});
  HSet("h", {{"alpha", "20"}, {"new", "4"}});
  EXPECT_EQ(c()({"HKEYS", "h"}), Array({Bulk("zeta"), Bulk("alpha"), Bulk("mid"), Bulk("new")}));
  EXPECT_EQ(c()({"HVALS", "h"}), Array({Bulk("1"), Bulk("20"), Bulk("3"), Bulk("4")}));
  EXPECT_EQ(c().Raw({"HGETALL", "h"}),
            "*8\r\n$4\r\nzeta\r\n$1\r\n1\r\n$5\r\nalpha\r\n$2\r\n20\r\n$3\r\nmid\r\n$1\r\n3\r\n"
            "$3\r\nnew\r\n$1\r\n4\r\n");
  // A deleted field leaves the others in order; a re-added one goes last.
  EXPECT_EQ(c()({"HDEL", "h", "zeta"}), Int(1));
  HSet("h", {{"zeta", "5"}});
  EXPECT_EQ(c()({"HKEYS", "h"}), Array({Bulk("alpha"), Bulk("mid"), Bulk("new"), Bulk("zeta")}));
  EXPECT_EQ(c()({"HKEYS", "h", "x"}), Error("ERR wrong number of arguments for 'hkeys' command"));
  EXPECT_EQ(c()({"HGETALL"}), Error("ERR wrong number of arguments for 'hgetall' command"));
}

TEST_F(HashTest, Resp3Shapes) {
  ASSERT_EQ(c()({"HELLO", "3"}).type, Reply::Type::kMap);
  HSet("h", {{"a", "1"}, {"b", "2"}});
  EXPECT_EQ(c().Raw({"HGETALL", "h"}), "%2\r\n$1\r\na\r\n$1\r\n1\r\n$1\r\nb\r\n$1\r\n2\r\n");
  EXPECT_EQ(c()({"HGETALL", "h"}), Map({Bulk("a"), Bulk("1"), Bulk("b"), Bulk("2")}));
  EXPECT_EQ(c().Raw({"HGETALL", "nokey"}), "%0\r\n");
  EXPECT_EQ(c().Raw({"HKEYS", "h"}), "*2\r\n$1\r\na\r\n$1\r\nb\r\n");
  EXPECT_EQ(c().Raw({"HKEYS", "nokey"}), "*0\r\n");
  EXPECT_EQ(c().Raw({"HVALS", "nokey"}), "*0\r\n");
  EXPECT_EQ(c().Raw({"HGET", "h", "x"}), "_\r\n");
  EXPECT_EQ(c().Raw({"HMGET", "h", "x", "a"}), "*2\r\n_\r\n$1\r\n1\r\n");
  EXPECT_EQ(c().Raw({"HRANDFIELD", "nokey"}), "_\r\n");
  EXPECT_EQ(c().Raw({"HRANDFIELD", "nokey", "3"}), "*0\r\n");
  EXPECT_EQ(c().Raw({"HRANDFIELD", "nokey", "3", "WITHVALUES"}), "*0\r\n");
  // WITHVALUES: an array of [field, value] pairs (flat in RESP2).
  EXPECT_EQ(c().Raw({"HRANDFIELD", "h", "5", "WITHVALUES"}),
            "*2\r\n*2\r\n$1\r\na\r\n$1\r\n1\r\n*2\r\n$1\r\nb\r\n$1\r\n2\r\n");
  Reply repeats = c()({"HRANDFIELD", "h", "-5", "WITHVALUES"});
  ASSERT_EQ(repeats.elements.size(), 5u);
  for (const Reply& pair : repeats.elements) {
    ASSERT_EQ(pair.type, Reply::Type::kArray);
    ASSERT_EQ(pair.elements.size(), 2u);
    EXPECT_EQ(c()({"HGET", "h", pair.elements[0].str}), pair.elements[1]);
  }
  Reply one = c()({"HRANDFIELD", "h", "1", "WITHVALUES"});
  ASSERT_EQ(one.elements.size(), 1u);
  EXPECT_EQ(one.elements[0].elements.size(), 2u);
  // HSCAN stays a flat array of field, value.
  EXPECT_EQ(c().Raw({"HSCAN", "h", "0"}),
            "*2\r\n$1\r\n0\r\n*4\r\n$1\r\na\r\n$1\r\n1\r\n$1\r\nb\r\n$1\r\n2\r\n");
}

TEST_F(HashTest, BinaryFieldsAndValues) {
  std::string field("f\0\r\n\xff", 5);
  std::string value("v\0\0\n", 4);
  EXPECT_EQ(c().Call({"HSET", "h", field, value, "", ""}), Int(2));
  EXPECT_EQ(c().Call({"HGET", "h", field}), Bulk(value));
  EXPECT_EQ(c().Call({"HGET", "h", std::string("f", 1)}), Nil());
  EXPECT_EQ(c().Call({"HSTRLEN", "h", field}), Int(4));
  EXPECT_EQ(c().Call({"HEXISTS", "h", ""}), Int(1));
  static constexpr char kAll[] = "*4\r\n$5\r\nf\0\r\n\xff\r\n$4\r\nv\0\0\n\r\n$0\r\n\r\n$0\r\n\r\n";
  EXPECT_EQ(c().Raw({"HGETALL", "h"}), std::string(kAll, sizeof(kAll) - 1));
  EXPECT_EQ(c().Call({"HINCRBY", "h", field + "n", "3"}), Int(3));
  EXPECT_EQ(c().Call({"HDEL", "h", field, ""}), Int(2));
  EXPECT_EQ(c()({"HLEN", "h"}), Int(1));
}

// The listpack limits: up to hash-max-listpack-entries fields and values up to
// hash-max-listpack-value bytes stay in insertion order; past either the hash converts to a
// hash table, and every reply but the order stays the same.
TEST_F(HashTest, ConversionByEntriesKeepsReplies) {
  std::vector<std::pair<std::string, std::string>> pairs;
  std::vector<std::string> fields;
  for (int i = 0; i < 512; ++i) {
    pairs.emplace_back("f" + std::to_string((i * 7919) % 1000), std::to_string(i));
    fields.push_back(pairs.back().first);
  }
  HSet("h", pairs);
  EXPECT_EQ(Strings(c()({"HKEYS", "h"})), fields);  // still a listpack: insertion order
  Reply scan = c()({"HSCAN", "h", "0", "COUNT", "1"});
  EXPECT_EQ(scan.elements[0], Bulk("0"));  // a listpack is scanned whole
  EXPECT_EQ(scan.elements[1].elements.size(), 1024u);

  EXPECT_EQ(c()({"HSET", "h", "one-more", "x"}), Int(1));
  fields.push_back("one-more");
  std::map<std::string, std::string> expected(pairs.begin(), pairs.end());
  expected["one-more"] = "x";
  EXPECT_EQ(c()({"HLEN", "h"}), Int(513));
  EXPECT_EQ(Sorted(Strings(c()({"HKEYS", "h"}))), Sorted(fields));
  EXPECT_EQ(ReadAll("h"), expected);
  for (int i = 0; i < 513; i += 37) {
    EXPECT_EQ(c().Call({"HGET", "h", fields[i]}), Bulk(expected[fields[i]]));
  }
  // A hash table is scanned a few buckets at a time: the cursor is not 0 after COUNT 1.
  scan = c()({"HSCAN", "h", "0", "COUNT", "1"});
  EXPECT_NE(scan.elements[0], Bulk("0"));
  EXPECT_LT(scan.elements[1].elements.size(), 100u);
  // Deleting back below the limit does not convert back, and the values still answer.
  for (int i = 0; i < 500; ++i) c().Call({"HDEL", "h", fields[i]});
  EXPECT_EQ(c()({"HLEN", "h"}), Int(13));
  EXPECT_EQ(c()({"HINCRBY", "h", fields[505], "1"}), Int(std::stoll(expected[fields[505]]) + 1));
}

TEST_F(HashTest, ConversionByValueLengthKeepsReplies) {
  std::string at_limit(64, 'v');
  std::string over_limit(65, 'w');
  std::vector<std::pair<std::string, std::string>> pairs;
  for (int i = 0; i < 20; ++i) pairs.emplace_back("k" + std::to_string(19 - i), at_limit);
  HSet("h", pairs);
  std::vector<std::string> fields;
  for (const auto& p : pairs) fields.push_back(p.first);
  EXPECT_EQ(Strings(c()({"HKEYS", "h"})), fields);  // 64 bytes: still a listpack

  EXPECT_EQ(c().Call({"HSET", "h", "long", over_limit}), Int(1));
  std::map<std::string, std::string> expected(pairs.begin(), pairs.end());
  expected["long"] = over_limit;
  EXPECT_EQ(ReadAll("h"), expected);
  EXPECT_EQ(c()({"HSTRLEN", "h", "long"}), Int(65));
  EXPECT_EQ(c()({"HLEN", "h"}), Int(21));

  // A long field converts too, as does one written by HINCRBY or HSETNX.
  std::string long_field(70, 'f');
  EXPECT_EQ(c().Call({"HINCRBY", "g", long_field, "2"}), Int(2));
  EXPECT_EQ(c().Call({"HSETNX", "g", "x", over_limit}), Int(1));
  EXPECT_EQ(c().Call({"HSETNX", "g", "x", "y"}), Int(0));
  EXPECT_EQ(c().Call({"HINCRBY", "g", long_field, "2"}), Int(4));
  EXPECT_EQ(ReadAll("g"),
            (std::map<std::string, std::string>{{long_field, "4"}, {"x", over_limit}}));
}

TEST_F(HashTest, ConversionFollowsConfig) {
  Reply saved = c()({"CONFIG", "GET", "hash-max-listpack-entries"});
  ASSERT_EQ(saved.elements.size(), 2u);
  ASSERT_EQ(c()({"CONFIG", "SET", "hash-max-listpack-entries", "2"}), Status("OK"));
  HSet("small", {{"b", "1"}, {"a", "2"}});
  std::vector<std::string> big_fields;
  for (int i = 0; i < 40; ++i) big_fields.push_back("field-" + std::to_string(i));
  std::vector<std::pair<std::string, std::string>> big;
  for (const auto& f : big_fields) big.emplace_back(f, "v");
  HSet("big", big);
  Reply small_keys = c()({"HKEYS", "small"});
  Reply scan = c()({"HSCAN", "big", "0", "COUNT", "1"});
  Reply big_keys = c()({"HKEYS", "big"});
  ASSERT_EQ(c().Call({"CONFIG", "SET", "hash-max-listpack-entries", saved.elements[1].str}),
            Status("OK"));
  EXPECT_EQ(small_keys, Array({Bulk("b"), Bulk("a")}));
  EXPECT_NE(scan.elements[0], Bulk("0"));  // 40 fields > 2: a hash table
  EXPECT_EQ(Sorted(Strings(big_keys)), Sorted(big_fields));
}

TEST_F(HashTest, HScanSmallHash) {
  HSet("h", {{"a", "1"}, {"b", "a"}, {"ab", "3"}});
  EXPECT_EQ(c()({"HSCAN", "h", "0"}),
            Array({Bulk("0"),
                   Array({Bulk("a"), Bulk("1"), Bulk("b"), Bulk("a"), Bulk("ab"), Bulk("3")})}));
  // MATCH filters on fields only; COUNT does not split a listpack.
  EXPECT_EQ(c()({"HSCAN", "h", "0", "MATCH", "a*", "COUNT", "1"}),
            Array({Bulk("0"), Array({Bulk("a"), Bulk("1"), Bulk("ab"), Bulk("3")})}));
  EXPECT_EQ(c()({"HSCAN", "h", "0", "match", "a"}),
            Array({Bulk("0"), Array({Bulk("a"), Bulk("1")})}));
  EXPECT_EQ(c()({"HSCAN", "h", "0", "MATCH", "zz"}), Array({Bulk("0"), Array({})}));
  // Any cursor reads a listpack whole.
  EXPECT_EQ(c()({"HSCAN", "h", "12345", "MATCH", "b"}),
            Array({Bulk("0"), Array({Bulk("b"), Bulk("a")})}));
  EXPECT_EQ(c().Raw({"HSCAN", "nokey", "0"}), "*2\r\n$1\r\n0\r\n*0\r\n");
}

TEST_F(HashTest, HScanErrors) {
  HSet("h", {{"a", "1"}});
  EXPECT_EQ(c()({"HSCAN", "h", "x"}), Error("ERR invalid cursor"));
  EXPECT_EQ(c()({"HSCAN", "h", "-"}), Error("ERR invalid cursor"));
  EXPECT_EQ(c()({"HSCAN", "h", "18446744073709551616"}), Error("ERR invalid cursor"));
  EXPECT_EQ(c()({"HSCAN", "nokey", "x"}), Error("ERR invalid cursor"));
  const Reply syntax = Error("ERR syntax error");
  EXPECT_EQ(c()({"HSCAN", "h", "0", "COUNT", "0"}), syntax);
  EXPECT_EQ(c()({"HSCAN", "h", "0", "COUNT", "-1"}), syntax);
  EXPECT_EQ(c()({"HSCAN", "h", "0", "COUNT"}), syntax);
  EXPECT_EQ(c()({"HSCAN", "h", "0", "MATCH"}), syntax);
  EXPECT_EQ(c()({"HSCAN", "h", "0", "TYPE", "hash"}), syntax);
  EXPECT_EQ(c()({"HSCAN", "h", "0", "FOO", "bar"}), syntax);
  EXPECT_EQ(c()({"HSCAN", "h", "0", "COUNT", "x"}),
            Error("ERR value is not an integer or out of range"));
  // A missing key answers an empty scan before its options are read.
  EXPECT_EQ(c()({"HSCAN", "nokey", "0", "COUNT", "0"}), Array({Bulk("0"), Array({})}));
  // The type is checked before the options.
  EXPECT_EQ(c()({"SET", "s", "x"}), Status("OK"));
  EXPECT_EQ(c()({"HSCAN", "s", "0", "COUNT", "0"}), Error(kWrongType));
  EXPECT_EQ(c()({"HSCAN", "h"}), Error("ERR wrong number of arguments for 'hscan' command"));
}

TEST_F(HashTest, HScanLargeHashVisitsEveryField) {
  std::vector<std::pair<std::string, std::string>> pairs;
  for (int i = 0; i < 1000; ++i)
    pairs.emplace_back("field:" + std::to_string(i), std::to_string(i));
  HSet("h", pairs);
  ScanSteps steps = ScanAll(c(), {"HSCAN", "h"}, {"COUNT", "50"});
  const std::map<std::string, std::string> all(pairs.begin(), pairs.end());
  EXPECT_EQ(FieldValues(steps), all);
  EXPECT_GT(steps.calls, 1);
  // A COUNT as large as it gets reads the whole table in one call.
  Reply everything = c()({"HSCAN", "h", "0", "COUNT", "9223372036854775807"});
  EXPECT_EQ(everything.elements[0], Bulk("0"));
  EXPECT_EQ(everything.elements[1].elements.size(), 2000u);
  // MATCH keeps field:10 to field:19, each with its value.
  std::map<std::string, std::string> expected;
  for (int i = 10; i < 20; ++i) expected["field:" + std::to_string(i)] = std::to_string(i);
  EXPECT_EQ(FieldValues(ScanAll(c(), {"HSCAN", "h"}, {"MATCH", "field:1?", "COUNT", "100"})),
            expected);
}

TEST_F(HashTest, HRandFieldWithoutCount) {
  EXPECT_EQ(c()({"HRANDFIELD", "nokey"}), Nil());
  HSet("h", {{"a", "1"}, {"b", "2"}, {"c", "3"}});
  std::set<std::string> seen;
  for (int i = 0; i < 100; ++i) {
    Reply r = c()({"HRANDFIELD", "h"});
    ASSERT_EQ(r.type, Reply::Type::kBulk);
    seen.insert(r.str);
  }
  EXPECT_EQ(seen, (std::set<std::string>{"a", "b", "c"}));  // 100 draws miss one: p < 1e-17
}

TEST_F(HashTest, HRandFieldCounts) {
  EXPECT_EQ(c()({"HRANDFIELD", "nokey", "3"}), Array({}));
  EXPECT_EQ(c()({"HRANDFIELD", "nokey", "-3", "WITHVALUES"}), Array({}));
  HSet("h", {{"a", "1"}, {"b", "2"}, {"c", "3"}, {"d", "4"}, {"e", "5"}});
  const std::set<std::string> all = {"a", "b", "c", "d", "e"};
  EXPECT_EQ(c()({"HRANDFIELD", "h", "0"}), Array({}));
  EXPECT_EQ(c()({"HRANDFIELD", "h", "0", "WITHVALUES"}), Array({}));
  // Asking for the whole hash or more returns the whole hash, in order.
  const Reply whole = Array({Bulk("a"), Bulk("b"), Bulk("c"), Bulk("d"), Bulk("e")});
  EXPECT_EQ(c()({"HRANDFIELD", "h", "5"}), whole);
  EXPECT_EQ(c()({"HRANDFIELD", "h", "100"}), whole);
  EXPECT_EQ(c()({"HRANDFIELD", "h", "9223372036854775807"}), whole);
  EXPECT_EQ(c()({"HRANDFIELD", "h", "6", "withvalues"}),
            Array({Bulk("a"), Bulk("1"), Bulk("b"), Bulk("2"), Bulk("c"), Bulk("3"), Bulk("d"),
                   Bulk("4"), Bulk("e"), Bulk("5")}));
  // A positive count below the size: that many distinct fields.
  for (int count : {1, 2, 3, 4}) {
    for (int round = 0; round < 10; ++round) {
      std::vector<std::string> got = Strings(c().Call({"HRANDFIELD", "h", std::to_string(count)}));
      ASSERT_EQ(got.size(), static_cast<size_t>(count));
      std::set<std::string> distinct(got.begin(), got.end());
      EXPECT_EQ(distinct.size(), got.size());
      for (const auto& f : got) EXPECT_TRUE(all.count(f)) << f;
    }
  }
  // A negative count: exactly that many, repeats allowed (and certain past the size).
  std::vector<std::string> many = Strings(c()({"HRANDFIELD", "h", "-50"}));
  ASSERT_EQ(many.size(), 50u);
  for (const auto& f : many) EXPECT_TRUE(all.count(f)) << f;
  EXPECT_EQ(std::set<std::string>(many.begin(), many.end()), all);  // p(miss one) < 1e-4
  EXPECT_EQ(Strings(c()({"HRANDFIELD", "h", "-1"})).size(), 1u);
  // WITHVALUES in RESP2: field, value, field, value...
  std::vector<std::string> flat = Strings(c()({"HRANDFIELD", "h", "-20", "WITHVALUES"}));
  ASSERT_EQ(flat.size(), 40u);
  for (size_t i = 0; i < flat.size(); i += 2) {
    EXPECT_EQ(c().Call({"HGET", "h", flat[i]}), Bulk(flat[i + 1]));
  }
  flat = Strings(c()({"HRANDFIELD", "h", "3", "WITHVALUES"}));
  ASSERT_EQ(flat.size(), 6u);
  std::set<std::string> distinct;
  for (size_t i = 0; i < flat.size(); i += 2) {
    distinct.insert(flat[i]);
    EXPECT_EQ(c().Call({"HGET", "h", flat[i]}), Bulk(flat[i + 1]));
  }
  EXPECT_EQ(distinct.size(), 3u);
}

TEST_F(HashTest, HRandFieldOnLargeHash) {
  std::vector<std::pair<std::string, std::string>> pairs;
  for (int i = 0; i < 600; ++i)
    pairs.emplace_back("f" + std::to_string(i), "v" + std::to_string(i));
  HSet("h", pairs);
  std::map<std::string, std::string> expected(pairs.begin(), pairs.end());
  for (int count : {1, 10, 199, 200, 201, 450, 599}) {
    std::vector<std::string> flat =
        Strings(c().Call({"HRANDFIELD", "h", std::to_string(count), "WITHVALUES"}));
    ASSERT_EQ(flat.size(), 2u * count);
    std::set<std::string> distinct;
    for (size_t i = 0; i < flat.size(); i += 2) {
      distinct.insert(flat[i]);
      EXPECT_EQ(expected[flat[i]], flat[i + 1]);
    }
    EXPECT_EQ(distinct.size(), static_cast<size_t>(count));
  }
  std::vector<std::string> whole = Strings(c()({"HRANDFIELD", "h", "1000"}));
  EXPECT_EQ(whole.size(), 600u);
  EXPECT_EQ(std::set<std::string>(whole.begin(), whole.end()).size(), 600u);
  std::vector<std::string> repeats = Strings(c()({"HRANDFIELD", "h", "-1000"}));
  EXPECT_EQ(repeats.size(), 1000u);
  for (const auto& f : repeats) EXPECT_TRUE(expected.count(f)) << f;
  Reply single = c()({"HRANDFIELD", "h"});
  EXPECT_TRUE(expected.count(single.str)) << single;
}

TEST_F(HashTest, HRandFieldErrors) {
  HSet("h", {{"a", "1"}});
  const Reply syntax = Error("ERR syntax error");
  EXPECT_EQ(c()({"HRANDFIELD", "h", "1", "VALUES"}), syntax);
  EXPECT_EQ(c()({"HRANDFIELD", "h", "1", "WITHVALUES", "x"}), syntax);
  EXPECT_EQ(c()({"HRANDFIELD", "nokey", "1", "x"}), syntax);
  const Reply not_integer = Error("ERR value is not an integer or out of range");
  EXPECT_EQ(c()({"HRANDFIELD", "h", "x"}), not_integer);
  EXPECT_EQ(c()({"HRANDFIELD", "h", "1.5", "WITHVALUES"}), not_integer);
  EXPECT_EQ(c()({"HRANDFIELD", "nokey", "x"}), not_integer);
  // The count is checked before the syntax and the type.
  EXPECT_EQ(c()({"HRANDFIELD", "h", "x", "y"}), not_integer);
  EXPECT_EQ(c()({"HRANDFIELD", "h", "-9223372036854775808"}),
            Error("ERR value is out of range, value must between -9223372036854775807 and "
                  "9223372036854775807"));
  // With values, twice the count must fit.
  const Reply out_of_range = Error("ERR value is out of range");
  EXPECT_EQ(c()({"HRANDFIELD", "h", "4611686018427387904", "WITHVALUES"}), out_of_range);
  EXPECT_EQ(c()({"HRANDFIELD", "h", "-4611686018427387904", "WITHVALUES"}), out_of_range);
  EXPECT_EQ(c()({"HRANDFIELD", "h", "4611686018427387903", "WITHVALUES"}),
            Array({Bulk("a"), Bulk("1")}));
  EXPECT_EQ(c()({"HRANDFIELD"}), Error("ERR wrong number of arguments for 'hrandfield' command"));
}

// A Redisson lock as the lock scripts drive it: a one-field hash of <uuid>:<thread> -> count.
TEST_F(HashTest, RedissonLockShape) {
  const std::string owner = "d3b07384-d9a0-4c9f-a1b2-1234567890ab:1";
  EXPECT_EQ(c().Call({"HINCRBY", "lock", owner, "1"}), Int(1));
  EXPECT_EQ(c().Call({"HEXISTS", "lock", owner}), Int(1));
  EXPECT_EQ(c().Call({"HINCRBY", "lock", owner, "1"}), Int(2));
  EXPECT_EQ(c().Call({"HEXISTS", "lock", "other:1"}), Int(0));
  EXPECT_EQ(c().Call({"HINCRBY", "lock", owner, "-1"}), Int(1));
  EXPECT_EQ(c().Call({"HGETALL", "lock"}), Array({Bulk(owner), Bulk("1")}));
  EXPECT_EQ(c().Call({"HINCRBY", "lock", owner, "-1"}), Int(0));
  EXPECT_EQ(c().Call({"HDEL", "lock", owner}), Int(1));
  EXPECT_EQ(c()({"GET", "lock"}), Nil());
}

}  // namespace
}  // namespace redlab::conformance
