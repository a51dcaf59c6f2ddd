// List commands: LPUSH, RPUSH, LPUSHX, RPUSHX, LPOP, RPOP, LLEN, LINDEX, LRANGE, LREM, LSET,
// LTRIM, LINSERT, LPOS, LMOVE, RPOPLPUSH.
#include <string>
#include <vector>

#include "conformance/harness/fixture.h"

namespace redlab::conformance {
namespace {

class ListTest : public ConformanceTest {
 protected:
  // The whole list, via LRANGE.
  Reply All(std::string_view key) { return c()({"LRANGE", key, "0", "-1"}); }

  // Whether running `command` on another connection breaks a WATCH on `key` taken before it.
  bool Touches(std::string_view key, const std::vector<std::string>& command) {
    EXPECT_EQ(c()({"WATCH", key}), Status("OK"));
    Client other = Connect();
    other.Call(command);
    c()({"MULTI"});
    c()({"PING"});
    Reply exec = c()({"EXEC"});
    return exec.type == Reply::Type::kNil;
  }
};

Reply Bulks(std::vector<std::string> items) {
  std::vector<Reply> out;
  for (auto& s : items) out.push_back(Bulk(std::move(s)));
  return Array(std::move(out));
}

constexpr const char* kWrongType =
    "WRONGTYPE Operation against a key holding the wrong kind of value";

TEST_F(ListTest, PushAddsAtEitherEndAndRepliesTheLength) {
  EXPECT_EQ(c()({"RPUSH", "l", "b", "c"}), Int(2));
  EXPECT_EQ(c()({"LPUSH", "l", "a", "z"}), Int(4));  // each pushed in turn: z ends up first
  EXPECT_EQ(All("l"), Bulks({"z", "a", "b", "c"}));
  EXPECT_EQ(c()({"LLEN", "l"}), Int(4));
  EXPECT_EQ(c()({"LLEN", "missing"}), Int(0));
}

TEST_F(ListTest, PushxOnlyPushesToAnExistingList) {
  EXPECT_EQ(c()({"LPUSHX", "l", "a"}), Int(0));
  EXPECT_EQ(c()({"RPUSHX", "l", "a", "b"}), Int(0));
  EXPECT_EQ(c()({"DBSIZE"}), Int(0));
  c()({"RPUSH", "l", "m"});
  EXPECT_EQ(c()({"LPUSHX", "l", "b", "a"}), Int(3));
  EXPECT_EQ(c()({"RPUSHX", "l", "y", "z"}), Int(5));
  EXPECT_EQ(All("l"), Bulks({"a", "b", "m", "y", "z"}));
}

TEST_F(ListTest, ElementsAreBinarySafeAndKeptVerbatim) {
  std::string binary("a\0b\r\nc", 6);
  EXPECT_EQ(c().Call({"RPUSH", "l", binary, "", "01", "+1", "-0", "1", "9223372036854775808"}),
            Int(7));
  EXPECT_EQ(All("l"), Bulks({binary, "", "01", "+1", "-0", "1", "9223372036854775808"}));
  // Comparisons are on the bytes: "01" is not "1".
  EXPECT_EQ(c()({"LPOS", "l", "1"}), Int(5));
  EXPECT_EQ(c()({"LREM", "l", "0", "01"}), Int(1));
  EXPECT_EQ(c()({"LLEN", "l"}), Int(6));
}

TEST_F(ListTest, WrongTypeIsRefusedByEveryCommand) {
  c()({"SET", "s", "x"});
  c()({"RPUSH", "l", "a"});
  const std::vector<std::vector<std::string>> commands = {
      {"LPUSH", "s", "a"},
      {"RPUSH", "s", "a"},
      {"LPUSHX", "s", "a"},
      {"RPUSHX", "s", "a"},
      {"LPOP", "s"},
      {"RPOP", "s", "2"},
      {"LLEN", "s"},
      {"LINDEX", "s", "0"},
      {"LRANGE", "s", "0", "-1"},
      {"LREM", "s", "0", "a"},
      {"LSET", "s", "0", "a"},
      {"LTRIM", "s", "0", "1"},
      {"LINSERT", "s", "BEFORE", "a", "b"},
      {"LPOS", "s", "a"},
      {"LMOVE", "s", "l", "LEFT", "LEFT"},
      {"LMOVE", "l", "s", "LEFT", "LEFT"},
      {"RPOPLPUSH", "s", "l"},
      {"RPOPLPUSH", "l", "s"},
  };
  for (const auto& cmd : commands) {
    EXPECT_EQ(c().Call(cmd), Error(kWrongType)) << cmd[0] << " " << cmd[1];
  }
  // Nothing moved out of the list on the way.
  EXPECT_EQ(All("l"), Bulks({"a"}));
  EXPECT_EQ(c()({"GET", "s"}), Bulk("x"));
}

TEST_F(ListTest, ArityErrors) {
  const std::vector<std::vector<std::string>> commands = {
      {"LPUSH", "l"},
      {"RPUSH", "l"},
      {"LPUSHX", "l"},
      {"RPUSHX", "l"},
      {"LPOP"},
      {"RPOP"},
      {"LLEN"},
      {"LLEN", "l", "x"},
      {"LINDEX", "l"},
      {"LRANGE", "l", "0"},
      {"LREM", "l", "0"},
      {"LSET", "l", "0"},
      {"LTRIM", "l", "0"},
      {"LINSERT", "l", "BEFORE", "a"},
      {"LPOS", "l"},
      {"LMOVE", "a", "b", "LEFT"},
      {"RPOPLPUSH", "a"},
      {"RPOPLPUSH", "a", "b", "c"},
  };
  for (const auto& cmd : commands) {
    std::string name = cmd[0];
    for (char& ch : name) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    EXPECT_EQ(c().Call(cmd), Error("ERR wrong number of arguments for '" + name + "' command"))
        << cmd[0];
  }
  // LPOP and RPOP take at most a count: the command itself refuses more.
  EXPECT_EQ(c()({"LPOP", "l", "1", "2"}),
            Error("ERR wrong number of arguments for 'lpop' command"));
  EXPECT_EQ(c()({"RPOP", "l", "1", "2"}),
            Error("ERR wrong number of arguments for 'rpop' command"));
}

TEST_F(ListTest, PopOneElement) {
  c()({"RPUSH", "l", "a", "b", "c"});
  EXPECT_EQ(c()({"LPOP", "l"}), Bulk("a"));
  EXPECT_EQ(c()({"RPOP", "l"}), Bulk("c"));
  EXPECT_EQ(c()({"LPOP", "l"}), Bulk("b"));
  EXPECT_EQ(c()({"DBSIZE"}), Int(0));  // emptied: the key is gone
  EXPECT_EQ(c().Raw({"LPOP", "l"}), "$-1\r\n");
  EXPECT_EQ(c().Raw({"RPOP", "l"}), "$-1\r\n");
}

TEST_F(ListTest, PopWithCount) {
  c()({"RPUSH", "l", "a", "b", "c", "d", "e"});
  EXPECT_EQ(c()({"LPOP", "l", "2"}), Bulks({"a", "b"}));
  EXPECT_EQ(c()({"RPOP", "l", "2"}), Bulks({"e", "d"}));  // from the tail inwards
  EXPECT_EQ(c().Raw({"LPOP", "l", "0"}), "*0\r\n");
  EXPECT_EQ(c()({"RPOP", "l", "9223372036854775807"}), Bulks({"c"}));
  EXPECT_EQ(c()({"DBSIZE"}), Int(0));
  // A missing key with a count is a null array, with or without a zero count.
  EXPECT_EQ(c().Raw({"LPOP", "l", "1"}), "*-1\r\n");
  EXPECT_EQ(c().Raw({"RPOP", "l", "0"}), "*-1\r\n");
}

TEST_F(ListTest, PopCountErrorsComeBeforeTheLookup) {
  c()({"SET", "s", "x"});
  for (const char* bad : {"-1", "x", "1.5", "9223372036854775808"}) {
    EXPECT_EQ(c()({"LPOP", "missing", bad}), Error("ERR value is out of range, must be positive"))
        << bad;
    EXPECT_EQ(c()({"RPOP", "s", bad}), Error("ERR value is out of range, must be positive")) << bad;
  }
  EXPECT_EQ(c()({"LPOP", "s", "0"}), Error(kWrongType));
}

TEST_F(ListTest, Resp3Shapes) {
  c()({"HELLO", "3"});
  c()({"RPUSH", "l", "a", "b"});
  EXPECT_EQ(c().Raw({"LPOP", "missing"}), "_\r\n");
  EXPECT_EQ(c().Raw({"LPOP", "missing", "2"}), "_\r\n");
  EXPECT_EQ(c().Raw({"RPOP", "missing", "0"}), "_\r\n");
  EXPECT_EQ(c().Raw({"LPOP", "l", "0"}), "*0\r\n");
  EXPECT_EQ(c().Raw({"LPOP", "l", "1"}), "*1\r\n$1\r\na\r\n");
  EXPECT_EQ(c().Raw({"LINDEX", "l", "5"}), "_\r\n");
  EXPECT_EQ(c().Raw({"LINDEX", "missing", "0"}), "_\r\n");
  EXPECT_EQ(c().Raw({"LRANGE", "l", "0", "-1"}), "*1\r\n$1\r\nb\r\n");
  EXPECT_EQ(c().Raw({"LRANGE", "missing", "0", "-1"}), "*0\r\n");
  EXPECT_EQ(c().Raw({"LPOS", "l", "z"}), "_\r\n");
  EXPECT_EQ(c().Raw({"LPOS", "missing", "z"}), "_\r\n");
  EXPECT_EQ(c().Raw({"LPOS", "missing", "z", "COUNT", "0"}), "*0\r\n");
  EXPECT_EQ(c().Raw({"LMOVE", "missing", "l", "LEFT", "LEFT"}), "_\r\n");
  EXPECT_EQ(c().Raw({"RPOPLPUSH", "missing", "l"}), "_\r\n");
}

TEST_F(ListTest, Lindex) {
  c()({"RPUSH", "l", "a", "b", "c"});
  EXPECT_EQ(c()({"LINDEX", "l", "0"}), Bulk("a"));
  EXPECT_EQ(c()({"LINDEX", "l", "2"}), Bulk("c"));
  EXPECT_EQ(c()({"LINDEX", "l", "-1"}), Bulk("c"));
  EXPECT_EQ(c()({"LINDEX", "l", "-3"}), Bulk("a"));
  EXPECT_EQ(c().Raw({"LINDEX", "l", "3"}), "$-1\r\n");
  EXPECT_EQ(c().Raw({"LINDEX", "l", "-4"}), "$-1\r\n");
  EXPECT_EQ(c().Raw({"LINDEX", "l", "-9223372036854775808"}), "$-1\r\n");
  EXPECT_EQ(c()({"LINDEX", "l", "x"}), Error("ERR value is not an integer or out of range"));
  // The key is looked up first: a missing key answers nil even to a bad index.
  EXPECT_EQ(c().Raw({"LINDEX", "missing", "x"}), "$-1\r\n");
}

TEST_F(ListTest, Lrange) {
  c()({"RPUSH", "l", "0", "1", "2", "3", "4"});
  EXPECT_EQ(c()({"LRANGE", "l", "1", "3"}), Bulks({"1", "2", "3"}));
  EXPECT_EQ(c()({"LRANGE", "l", "-2", "-1"}), Bulks({"3", "4"}));
  EXPECT_EQ(c()({"LRANGE", "l", "-100", "100"}), Bulks({"0", "1", "2", "3", "4"}));
  EXPECT_EQ(c()({"LRANGE", "l", "-9223372036854775808", "9223372036854775807"}),
            Bulks({"0", "1", "2", "3", "4"}));
  EXPECT_EQ(c()({"LRANGE", "l", "4", "4"}), Bulks({"4"}));
  EXPECT_EQ(c().Raw({"LRANGE", "l", "3", "2"}), "*0\r\n");
  EXPECT_EQ(c().Raw({"LRANGE", "l", "5", "10"}), "*0\r\n");
  EXPECT_EQ(c().Raw({"LRANGE", "l", "0", "-6"}), "*0\r\n");
  EXPECT_EQ(c().Raw({"LRANGE", "missing", "0", "-1"}), "*0\r\n");
  // Indexes are parsed before the key is looked up.
  c()({"SET", "s", "x"});
  EXPECT_EQ(c()({"LRANGE", "s", "0", "x"}), Error("ERR value is not an integer or out of range"));
  EXPECT_EQ(c()({"LRANGE", "missing", "x", "0"}),
            Error("ERR value is not an integer or out of range"));
}

TEST_F(ListTest, Lset) {
  c()({"RPUSH", "l", "a", "b", "c"});
  EXPECT_EQ(c()({"LSET", "l", "0", "A"}), Status("OK"));
  EXPECT_EQ(c()({"LSET", "l", "-1", "C"}), Status("OK"));
  EXPECT_EQ(All("l"), Bulks({"A", "b", "C"}));
  EXPECT_EQ(c()({"LSET", "l", "3", "x"}), Error("ERR index out of range"));
  EXPECT_EQ(c()({"LSET", "l", "-4", "x"}), Error("ERR index out of range"));
  EXPECT_EQ(c()({"LSET", "l", "x", "x"}), Error("ERR value is not an integer or out of range"));
  // The key is looked up before the index is parsed.
  EXPECT_EQ(c()({"LSET", "missing", "0", "x"}), Error("ERR no such key"));
  EXPECT_EQ(c()({"LSET", "missing", "x", "x"}), Error("ERR no such key"));
  EXPECT_EQ(c()({"DBSIZE"}), Int(1));
}

TEST_F(ListTest, Ltrim) {
  c()({"RPUSH", "l", "0", "1", "2", "3", "4"});
  EXPECT_EQ(c()({"LTRIM", "l", "1", "-2"}), Status("OK"));
  EXPECT_EQ(All("l"), Bulks({"1", "2", "3"}));
  EXPECT_EQ(c()({"LTRIM", "l", "-100", "100"}), Status("OK"));
  EXPECT_EQ(All("l"), Bulks({"1", "2", "3"}));
  EXPECT_EQ(c()({"LTRIM", "l", "2", "2"}), Status("OK"));
  EXPECT_EQ(All("l"), Bulks({"3"}));
  // An empty range empties the list, which deletes the key.
  EXPECT_EQ(c()({"LTRIM", "l", "1", "0"}), Status("OK"));
  EXPECT_EQ(c()({"DBSIZE"}), Int(0));
  EXPECT_EQ(c()({"LTRIM", "missing", "0", "1"}), Status("OK"));
  EXPECT_EQ(c()({"LTRIM", "missing", "x", "1"}),
            Error("ERR value is not an integer or out of range"));
  EXPECT_EQ(c()({"LTRIM", "missing", "0", "9223372036854775808"}),
            Error("ERR value is not an integer or out of range"));
}

TEST_F(ListTest, Lrem) {
  c()({"RPUSH", "l", "a", "b", "a", "c", "a", "b"});
  EXPECT_EQ(c()({"LREM", "l", "1", "a"}), Int(1));  // first from the head
  EXPECT_EQ(All("l"), Bulks({"b", "a", "c", "a", "b"}));
  EXPECT_EQ(c()({"LREM", "l", "-1", "b"}), Int(1));  // first from the tail
  EXPECT_EQ(All("l"), Bulks({"b", "a", "c", "a"}));
  EXPECT_EQ(c()({"LREM", "l", "0", "a"}), Int(2));  // all
  EXPECT_EQ(All("l"), Bulks({"b", "c"}));
  EXPECT_EQ(c()({"LREM", "l", "5", "zz"}), Int(0));
  EXPECT_EQ(c()({"LREM", "l", "-9223372036854775808", "b"}), Int(1));
  EXPECT_EQ(c()({"LREM", "l", "100", "c"}), Int(1));
  EXPECT_EQ(c()({"DBSIZE"}), Int(0));
  EXPECT_EQ(c()({"LREM", "missing", "0", "a"}), Int(0));
  EXPECT_EQ(c()({"LREM", "missing", "x", "a"}),
            Error("ERR value is not an integer or out of range"));
}

TEST_F(ListTest, Linsert) {
  c()({"RPUSH", "l", "a", "c", "a"});
  EXPECT_EQ(c()({"LINSERT", "l", "BEFORE", "c", "b"}), Int(4));
  EXPECT_EQ(c()({"LINSERT", "l", "after", "a", "x"}), Int(5));  // the first pivot from the head
  EXPECT_EQ(c()({"LINSERT", "l", "After", "a", "z"}), Int(6));
  EXPECT_EQ(All("l"), Bulks({"a", "z", "x", "b", "c", "a"}));
  EXPECT_EQ(c()({"LINSERT", "l", "BEFORE", "nope", "y"}), Int(-1));
  EXPECT_EQ(c()({"LINSERT", "missing", "BEFORE", "a", "y"}), Int(0));
  EXPECT_EQ(c()({"DBSIZE"}), Int(1));
  // The position word is checked first, even for a missing key.
  EXPECT_EQ(c()({"LINSERT", "l", "MIDDLE", "a", "y"}), Error("ERR syntax error"));
  EXPECT_EQ(c()({"LINSERT", "missing", "MIDDLE", "a", "y"}), Error("ERR syntax error"));
}

TEST_F(ListTest, LposFindsMatches) {
  c()({"RPUSH", "l", "a", "b", "c", "a", "b", "c", "a"});
  EXPECT_EQ(c()({"LPOS", "l", "a"}), Int(0));
  EXPECT_EQ(c()({"LPOS", "l", "c"}), Int(2));
  EXPECT_EQ(c()({"LPOS", "l", "a", "RANK", "2"}), Int(3));
  EXPECT_EQ(c()({"LPOS", "l", "a", "RANK", "-1"}), Int(6));
  EXPECT_EQ(c()({"LPOS", "l", "a", "rank", "-3"}), Int(0));
  EXPECT_EQ(c().Raw({"LPOS", "l", "a", "RANK", "4"}), "$-1\r\n");
  EXPECT_EQ(c().Raw({"LPOS", "l", "zz"}), "$-1\r\n");
  EXPECT_EQ(c()({"LPOS", "l", "a", "COUNT", "0"}), Array({Int(0), Int(3), Int(6)}));
  EXPECT_EQ(c()({"LPOS", "l", "a", "COUNT", "2"}), Array({Int(0), Int(3)}));
  EXPECT_EQ(c()({"LPOS", "l", "a", "COUNT", "2", "RANK", "-2"}), Array({Int(3), Int(0)}));
  EXPECT_EQ(c()({"LPOS", "l", "a", "COUNT", "1", "RANK", "3"}), Array({Int(6)}));
  EXPECT_EQ(c().Raw({"LPOS", "l", "zz", "COUNT", "0"}), "*0\r\n");
  // MAXLEN bounds how many elements are looked at.
  EXPECT_EQ(c()({"LPOS", "l", "a", "COUNT", "0", "MAXLEN", "4"}), Array({Int(0), Int(3)}));
  EXPECT_EQ(c().Raw({"LPOS", "l", "c", "MAXLEN", "2"}), "$-1\r\n");
  EXPECT_EQ(c()({"LPOS", "l", "a", "RANK", "-1", "MAXLEN", "1", "COUNT", "0"}), Array({Int(6)}));
  // A repeated option: the last one counts.
  EXPECT_EQ(c()({"LPOS", "l", "a", "RANK", "1", "RANK", "2"}), Int(3));
  // Missing key: nil, or an empty array when COUNT is given.
  EXPECT_EQ(c().Raw({"LPOS", "missing", "a"}), "$-1\r\n");
  EXPECT_EQ(c().Raw({"LPOS", "missing", "a", "COUNT", "1"}), "*0\r\n");
}

TEST_F(ListTest, LposExtremeRanks) {
  c()({"RPUSH", "l", "a", "b", "a", "b", "a"});
  EXPECT_EQ(c().Raw({"LPOS", "l", "a", "RANK", "9223372036854775807"}), "$-1\r\n");
  // Redis negates the rank in a C long: LONG_MIN stays negative, so it searches from the tail,
  // every match qualifies, and COUNT no longer stops the search.
  EXPECT_EQ(c()({"LPOS", "l", "a", "RANK", "-9223372036854775808"}), Int(4));
  EXPECT_EQ(c()({"LPOS", "l", "a", "RANK", "-9223372036854775808", "COUNT", "1"}),
            Array({Int(4), Int(2), Int(0)}));
  EXPECT_EQ(c()({"LPOS", "l", "a", "RANK", "-9223372036854775808", "COUNT", "1", "MAXLEN", "3"}),
            Array({Int(4), Int(2)}));
}

TEST_F(ListTest, LposErrors) {
  c()({"RPUSH", "l", "a"});
  EXPECT_EQ(c()({"LPOS", "l", "a", "RANK", "0"}),
            Error("ERR RANK can't be zero: use 1 to start from the first match, 2 from the "
                  "second ... or use negative to start from the end of the list"));
  EXPECT_EQ(c()({"LPOS", "l", "a", "RANK", "x"}),
            Error("ERR value is not an integer or out of range"));
  EXPECT_EQ(c()({"LPOS", "l", "a", "COUNT", "-1"}), Error("ERR COUNT can't be negative"));
  EXPECT_EQ(c()({"LPOS", "l", "a", "COUNT", "x"}), Error("ERR COUNT can't be negative"));
  EXPECT_EQ(c()({"LPOS", "l", "a", "MAXLEN", "-1"}), Error("ERR MAXLEN can't be negative"));
  EXPECT_EQ(c()({"LPOS", "l", "a", "MAXLEN", "x"}), Error("ERR MAXLEN can't be negative"));
  EXPECT_EQ(c()({"LPOS", "l", "a", "COUNT"}), Error("ERR syntax error"));
  EXPECT_EQ(c()({"LPOS", "l", "a", "FOO", "1"}), Error("ERR syntax error"));
  // Options are checked before the key.
  c()({"SET", "s", "x"});
  EXPECT_EQ(c()({"LPOS", "s", "a", "RANK", "0"}),
            Error("ERR RANK can't be zero: use 1 to start from the first match, 2 from the "
                  "second ... or use negative to start from the end of the list"));
  EXPECT_EQ(c()({"LPOS", "missing", "a", "BAD"}), Error("ERR syntax error"));
}

TEST_F(ListTest, LmoveAllDirections) {
  c()({"RPUSH", "src", "1", "2", "3", "4"});
  c()({"RPUSH", "dst", "x"});
  EXPECT_EQ(c()({"LMOVE", "src", "dst", "LEFT", "LEFT"}), Bulk("1"));
  EXPECT_EQ(c()({"LMOVE", "src", "dst", "left", "right"}), Bulk("2"));
  EXPECT_EQ(c()({"LMOVE", "src", "dst", "RIGHT", "LEFT"}), Bulk("4"));
  EXPECT_EQ(c()({"LMOVE", "src", "dst", "Right", "Right"}), Bulk("3"));
  EXPECT_EQ(All("dst"), Bulks({"4", "1", "x", "2", "3"}));
  EXPECT_EQ(c()({"DBSIZE"}), Int(1));  // the emptied source is gone
  // A missing destination is created.
  EXPECT_EQ(c()({"LMOVE", "dst", "new", "LEFT", "RIGHT"}), Bulk("4"));
  EXPECT_EQ(All("new"), Bulks({"4"}));
  EXPECT_EQ(c().Raw({"LMOVE", "missing", "dst", "LEFT", "LEFT"}), "$-1\r\n");
}

TEST_F(ListTest, LmoveOnOneListRotates) {
  c()({"RPUSH", "l", "a", "b", "c"});
  EXPECT_EQ(c()({"LMOVE", "l", "l", "LEFT", "RIGHT"}), Bulk("a"));
  EXPECT_EQ(All("l"), Bulks({"b", "c", "a"}));
  EXPECT_EQ(c()({"RPOPLPUSH", "l", "l"}), Bulk("a"));
  EXPECT_EQ(All("l"), Bulks({"a", "b", "c"}));
  // A one-element list survives being moved onto itself.
  c()({"RPUSH", "one", "x"});
  EXPECT_EQ(c()({"LMOVE", "one", "one", "RIGHT", "LEFT"}), Bulk("x"));
  EXPECT_EQ(All("one"), Bulks({"x"}));
}

TEST_F(ListTest, LmoveErrors) {
  c()({"RPUSH", "l", "a"});
  c()({"SET", "s", "x"});
  EXPECT_EQ(c()({"LMOVE", "l", "d", "UP", "LEFT"}), Error("ERR syntax error"));
  EXPECT_EQ(c()({"LMOVE", "l", "d", "LEFT", "DOWN"}), Error("ERR syntax error"));
  // Directions are checked before the keys.
  EXPECT_EQ(c()({"LMOVE", "s", "d", "UP", "LEFT"}), Error("ERR syntax error"));
  // A wrong-typed destination leaves the source untouched.
  EXPECT_EQ(c()({"LMOVE", "l", "s", "LEFT", "LEFT"}), Error(kWrongType));
  EXPECT_EQ(c()({"RPOPLPUSH", "l", "s"}), Error(kWrongType));
  EXPECT_EQ(All("l"), Bulks({"a"}));
  // A missing source answers nil before the destination's type is looked at.
  EXPECT_EQ(c().Raw({"RPOPLPUSH", "missing", "s"}), "$-1\r\n");
}

TEST_F(ListTest, Rpoplpush) {
  c()({"RPUSH", "src", "a", "b"});
  EXPECT_EQ(c()({"RPOPLPUSH", "src", "dst"}), Bulk("b"));
  EXPECT_EQ(c()({"RPOPLPUSH", "src", "dst"}), Bulk("a"));
  EXPECT_EQ(All("dst"), Bulks({"a", "b"}));
  EXPECT_EQ(c()({"DBSIZE"}), Int(1));
}

TEST_F(ListTest, EmptiedListsLoseTheirKey) {
  // After each emptying, the name is free for a string: the list is really gone.
  auto gone = [&](const std::string& key) {
    EXPECT_EQ(c().Call({"SET", key, "v"}), Status("OK"));
    EXPECT_EQ(c().Call({"GET", key}), Bulk("v"));
  };
  c()({"RPUSH", "a", "1"});
  c()({"RPOP", "a"});
  EXPECT_EQ(c()({"DBSIZE"}), Int(0));
  gone("a");
  c()({"RPUSH", "b", "1", "2"});
  c()({"LPOP", "b", "5"});
  gone("b");
  c()({"RPUSH", "c", "1", "1"});
  c()({"LREM", "c", "0", "1"});
  gone("c");
  c()({"RPUSH", "d", "1"});
  c()({"LTRIM", "d", "5", "6"});
  gone("d");
  c()({"RPUSH", "e", "1"});
  c()({"LMOVE", "e", "f", "LEFT", "LEFT"});
  gone("e");
}

TEST_F(ListTest, WritesSignalWatchers) {
  c()({"RPUSH", "l", "a", "b"});
  EXPECT_TRUE(Touches("l", {"RPUSH", "l", "c"}));
  EXPECT_TRUE(Touches("l", {"LSET", "l", "0", "a"}));    // even to the same value
  EXPECT_TRUE(Touches("l", {"LTRIM", "l", "0", "-1"}));  // even when nothing is trimmed
  EXPECT_TRUE(Touches("l", {"LINSERT", "l", "AFTER", "a", "x"}));
  EXPECT_TRUE(Touches("l", {"LREM", "l", "1", "x"}));
  EXPECT_TRUE(Touches("l", {"LPOP", "l"}));
  EXPECT_TRUE(Touches("m", {"LMOVE", "l", "m", "LEFT", "LEFT"}));
  c()({"RPUSH", "l", "a", "b"});
  EXPECT_FALSE(Touches("l", {"LREM", "l", "0", "zz"}));
  EXPECT_FALSE(Touches("l", {"LPOP", "l", "0"}));
  EXPECT_FALSE(Touches("l", {"LINSERT", "l", "BEFORE", "zz", "x"}));
  EXPECT_FALSE(Touches("l", {"LSET", "l", "9", "x"}));
  EXPECT_FALSE(Touches("nolist", {"LPUSHX", "nolist", "x"}));
}

TEST_F(ListTest, KeyPositions) {
  EXPECT_EQ(c()({"COMMAND", "GETKEYS", "LMOVE", "a", "b", "LEFT", "RIGHT"}), Bulks({"a", "b"}));
  EXPECT_EQ(c()({"COMMAND", "GETKEYSANDFLAGS", "RPOPLPUSH", "a", "b"}),
            Array({Array({Bulk("a"), Array({Status("RW"), Status("access"), Status("delete")})}),
                   Array({Bulk("b"), Array({Status("RW"), Status("insert")})})}));
  EXPECT_EQ(c()({"COMMAND", "GETKEYS", "LPUSH", "l", "a", "b"}), Bulks({"l"}));
}

}  // namespace
}  // namespace redlab::conformance
