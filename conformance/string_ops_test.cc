// String commands that compute on a value: INCR, INCRBY, DECR, DECRBY, INCRBYFLOAT, APPEND,
// STRLEN, GETRANGE, SUBSTR, SETRANGE, LCS, and the encodings (OBJECT ENCODING) they leave.
#include "conformance/string_fixture.h"

namespace redlab::conformance {
namespace {

constexpr char kWrongType[] = "WRONGTYPE Operation against a key holding the wrong kind of value";
constexpr char kNotInteger[] = "ERR value is not an integer or out of range";
constexpr char kNotFloat[] = "ERR value is not a valid float";
constexpr char kTooLong[] = "ERR string exceeds maximum allowed size (proto-max-bulk-len)";

TEST_F(StringTest, IncrDecr) {
  EXPECT_EQ(c().Raw({"INCR", "n"}), ":1\r\n");
  EXPECT_EQ(c()({"INCRBY", "n", "10"}), Int(11));
  EXPECT_EQ(c()({"DECR", "n"}), Int(10));
  EXPECT_EQ(c()({"DECRBY", "n", "15"}), Int(-5));
  EXPECT_EQ(c()({"INCRBY", "n", "-5"}), Int(-10));
  EXPECT_EQ(c()({"DECRBY", "n", "-20"}), Int(10));
  EXPECT_EQ(c()({"GET", "n"}), Bulk("10"));
  EXPECT_EQ(c()({"DECR", "m"}), Int(-1));
  EXPECT_EQ(c()({"DECRBY", "o", "9223372036854775807"}), Int(-9223372036854775807));
  EXPECT_EQ(c()({"INCRBY", "p", "-9223372036854775808"}), Int(INT64_MIN));
}

TEST_F(StringTest, IncrRefusesNonIntegers) {
  for (std::string v : std::vector<std::string>{"", " 1", "1 ", "012", "+1", "-0", "1.5", "1e3",
                                                "abc", "9223372036854775808",
                                                "-9223372036854775809", std::string("1\0", 2)}) {
    ASSERT_EQ(c()({"SET", "n", v}), Status("OK"));
    EXPECT_EQ(c()({"INCR", "n"}), Error(kNotInteger)) << v;
    EXPECT_EQ(c()({"GET", "n"}), Bulk(v));
  }
  EXPECT_EQ(c()({"INCRBY", "n", "abc"}), Error(kNotInteger));
  EXPECT_EQ(c()({"INCRBY", "n", "1.5"}), Error(kNotInteger));
  EXPECT_EQ(c()({"DECRBY", "n", " 1"}), Error(kNotInteger));
  EXPECT_EQ(c()({"INCRBY", "n", "9223372036854775808"}), Error(kNotInteger));
  ASSERT_EQ(c()({"SET", "n", "-9223372036854775808"}), Status("OK"));
  EXPECT_EQ(c()({"INCR", "n"}), Int(-9223372036854775807));
}

TEST_F(StringTest, IncrOverflow) {
  const Reply overflow = Error("ERR increment or decrement would overflow");
  ASSERT_EQ(c()({"SET", "n", "9223372036854775807"}), Status("OK"));
  EXPECT_EQ(c()({"INCR", "n"}), overflow);
  EXPECT_EQ(c()({"DECRBY", "n", "-1"}), overflow);
  EXPECT_EQ(c()({"GET", "n"}), Bulk("9223372036854775807"));
  ASSERT_EQ(c()({"SET", "n", "-9223372036854775808"}), Status("OK"));
  EXPECT_EQ(c()({"DECR", "n"}), overflow);
  EXPECT_EQ(c()({"INCRBY", "n", "-1"}), overflow);
  ASSERT_EQ(c()({"SET", "n", "10"}), Status("OK"));
  EXPECT_EQ(c()({"INCRBY", "n", "9223372036854775800"}), overflow);
  // -LLONG_MIN does not exist: DECRBY refuses it with its own text.
  EXPECT_EQ(c()({"DECRBY", "n", "-9223372036854775808"}), Error("ERR decrement would overflow"));
  EXPECT_EQ(c()({"INCRBY", "n", "-9223372036854775808"}), Int(-9223372036854775798));
}

TEST_F(StringTest, CountersOnAnotherType) {
  MakeHash("h");
  EXPECT_EQ(c()({"INCR", "h"}), Error(kWrongType));
  EXPECT_EQ(c()({"DECR", "h"}), Error(kWrongType));
  EXPECT_EQ(c()({"INCRBY", "h", "1"}), Error(kWrongType));
  EXPECT_EQ(c()({"INCRBY", "h", "x"}), Error(kNotInteger));  // the argument comes first
  EXPECT_EQ(c()({"DECRBY", "h", "1"}), Error(kWrongType));
  EXPECT_EQ(c()({"INCRBYFLOAT", "h", "1"}), Error(kWrongType));
  EXPECT_EQ(c()({"INCRBYFLOAT", "h", "x"}), Error(kWrongType));  // here the type comes first
}

TEST_F(StringTest, CountersKeepTheTtl) {
  ASSERT_EQ(c()({"SET", "n", "1", "EX", "100"}), Status("OK"));
  EXPECT_EQ(c()({"INCR", "n"}), Int(2));
  EXPECT_EQ(c()({"DECRBY", "n", "3"}), Int(-1));
  EXPECT_EQ(c()({"INCRBYFLOAT", "n", "0.5"}), Bulk("-0.5"));
  EXPECT_GT(Pttl("n"), 98000);
}

TEST_F(StringTest, IncrByFloat) {
  EXPECT_EQ(c().Raw({"INCRBYFLOAT", "f", "1.5"}), "$3\r\n1.5\r\n");
  ASSERT_EQ(c()({"SET", "f", "10.50"}), Status("OK"));
  EXPECT_EQ(c()({"INCRBYFLOAT", "f", "0.1"}), Bulk("10.6"));
  EXPECT_EQ(c()({"INCRBYFLOAT", "f", "-5.0e3"}), Bulk("-4989.39999999999999991"));
  EXPECT_EQ(c()({"INCRBYFLOAT", "f", "5.0e3"}), Bulk("10.60000000000000009"));
  EXPECT_EQ(c()({"GET", "f"}), Bulk("10.60000000000000009"));
  ASSERT_EQ(c()({"SET", "f", "3"}), Status("OK"));
  EXPECT_EQ(c()({"INCRBYFLOAT", "f", "-3"}), Bulk("0"));
  EXPECT_EQ(c()({"INCRBYFLOAT", "f", "-0.0"}), Bulk("0"));
  ASSERT_EQ(c()({"SET", "f", "0.1"}), Status("OK"));
  EXPECT_EQ(c()({"INCRBYFLOAT", "f", "0.2"}), Bulk("0.3"));
  EXPECT_EQ(c()({"INCRBYFLOAT", "hex", "0x10"}), Bulk("16"));
  EXPECT_EQ(c()({"INCRBYFLOAT", "hex", "1e-5"}), Bulk("16.00001"));
  EXPECT_EQ(c()({"INCRBYFLOAT", "big", "1e30"}), Bulk("1000000000000000000024696061952"));
  // Beyond a double's range but within a long double's.
  ASSERT_EQ(c()({"SET", "huge", "1.7976931348623157e308"}), Status("OK"));
  Reply doubled = c()({"INCRBYFLOAT", "huge", "1.7976931348623157e308"});
  ASSERT_EQ(doubled.type, Reply::Type::kBulk);
  EXPECT_EQ(doubled.str.size(), 309u);
  EXPECT_EQ(doubled.str.substr(0, 20), "35953862697246313999");
}

TEST_F(StringTest, IncrByFloatErrors) {
  const Reply not_float = Error(kNotFloat);
  EXPECT_EQ(c()({"INCRBYFLOAT", "f", "abc"}), not_float);
  EXPECT_EQ(c()({"INCRBYFLOAT", "f", "nan"}), not_float);
  EXPECT_EQ(c()({"INCRBYFLOAT", "f", " 1"}), not_float);
  EXPECT_EQ(c()({"INCRBYFLOAT", "f", "1 "}), not_float);
  EXPECT_EQ(c()({"INCRBYFLOAT", "f", ""}), not_float);
  EXPECT_EQ(c()({"INCRBYFLOAT", "f", "1e5000"}), not_float);
  EXPECT_EQ(c()({"DBSIZE"}), Int(0));
  const Reply nan_inf = Error("ERR increment would produce NaN or Infinity");
  EXPECT_EQ(c()({"INCRBYFLOAT", "f", "inf"}), nan_inf);
  EXPECT_EQ(c()({"INCRBYFLOAT", "f", "-inf"}), nan_inf);
  ASSERT_EQ(c()({"SET", "f", "abc"}), Status("OK"));
  EXPECT_EQ(c()({"INCRBYFLOAT", "f", "1"}), not_float);
  ASSERT_EQ(c()({"SET", "f", ""}), Status("OK"));
  EXPECT_EQ(c()({"INCRBYFLOAT", "f", "1"}), not_float);
  ASSERT_EQ(c()({"SET", "f", "inf"}), Status("OK"));
  EXPECT_EQ(c()({"INCRBYFLOAT", "f", "1"}), nan_inf);
  EXPECT_EQ(c()({"GET", "f"}), Bulk("inf"));
}

TEST_F(StringTest, Append) {
  EXPECT_EQ(c()({"APPEND", "k", "Hello"}), Int(5));
  EXPECT_EQ(c()({"APPEND", "k", " World"}), Int(11));
  EXPECT_EQ(c()({"GET", "k"}), Bulk("Hello World"));
  EXPECT_EQ(c()({"APPEND", "k", ""}), Int(11));
  std::string binary("\0\r\n\xff", 4);
  EXPECT_EQ(c()({"APPEND", "k", binary}), Int(15));
  EXPECT_EQ(c()({"GET", "k"}), Bulk("Hello World" + binary));
  // Appending nothing to a missing key still creates it, empty.
  EXPECT_EQ(c()({"APPEND", "e", ""}), Int(0));
  EXPECT_EQ(c()({"DBSIZE"}), Int(2));
  ASSERT_EQ(c()({"SET", "n", "12"}), Status("OK"));
  EXPECT_EQ(c()({"APPEND", "n", "34"}), Int(4));
  EXPECT_EQ(c()({"INCR", "n"}), Int(1235));
}

TEST_F(StringTest, AppendTypeAndTtl) {
  MakeHash("h");
  EXPECT_EQ(c()({"APPEND", "h", "x"}), Error(kWrongType));
  ASSERT_EQ(c()({"SET", "k", "v", "EX", "100"}), Status("OK"));
  EXPECT_EQ(c()({"APPEND", "k", "w"}), Int(2));
  EXPECT_GT(Pttl("k"), 98000);
}

TEST_F(StringTest, StrLen) {
  EXPECT_EQ(c()({"STRLEN", "missing"}), Int(0));
  ASSERT_EQ(c()({"MSET", "s", "Hello", "n", "-12345", "e", "", "b", std::string("a\0b", 3)}),
            Status("OK"));
  EXPECT_EQ(c()({"STRLEN", "s"}), Int(5));
  EXPECT_EQ(c()({"STRLEN", "n"}), Int(6));
  EXPECT_EQ(c()({"STRLEN", "e"}), Int(0));
  EXPECT_EQ(c()({"STRLEN", "b"}), Int(3));
  EXPECT_EQ(c()({"STRLEN", "s", "n"}), Error("ERR wrong number of arguments for 'strlen' command"));
}

TEST_F(StringTest, GetRange) {
  ASSERT_EQ(c()({"SET", "s", "Hello World"}), Status("OK"));
  auto range = [&](std::string start, std::string end) {
    return c()({"GETRANGE", "s", start, end});
  };
  EXPECT_EQ(range("0", "4"), Bulk("Hello"));
  EXPECT_EQ(range("-5", "-1"), Bulk("World"));
  EXPECT_EQ(range("0", "-1"), Bulk("Hello World"));
  EXPECT_EQ(range("0", "0"), Bulk("H"));
  EXPECT_EQ(range("-1", "-1"), Bulk("d"));
  EXPECT_EQ(range("-100", "100"), Bulk("Hello World"));
  EXPECT_EQ(range("5", "3"), Bulk(""));
  EXPECT_EQ(range("-1", "-5"), Bulk(""));
  EXPECT_EQ(range("100", "200"), Bulk(""));
  EXPECT_EQ(range("10", "-100"), Bulk(""));
  EXPECT_EQ(range("-3", "-100"), Bulk(""));
  EXPECT_EQ(range("9223372036854775807", "-9223372036854775808"), Bulk(""));
  EXPECT_EQ(range("-9223372036854775808", "9223372036854775807"), Bulk("Hello World"));
  EXPECT_EQ(c().Raw({"GETRANGE", "missing", "0", "-1"}), "$0\r\n\r\n");
  ASSERT_EQ(c()({"SET", "e", ""}), Status("OK"));
  EXPECT_EQ(c()({"GETRANGE", "e", "0", "-1"}), Bulk(""));
  EXPECT_EQ(c()({"GETRANGE", "e", "-1", "0"}), Bulk(""));
  ASSERT_EQ(c()({"SET", "i", "12345"}), Status("OK"));
  EXPECT_EQ(c()({"GETRANGE", "i", "1", "2"}), Bulk("23"));
  ASSERT_EQ(c()({"SET", "b", std::string("a\0b\0c", 5)}), Status("OK"));
  EXPECT_EQ(c()({"GETRANGE", "b", "1", "3"}), Bulk(std::string("\0b\0", 3)));
  // SUBSTR is the old name of the same command.
  EXPECT_EQ(c()({"SUBSTR", "s", "-5", "-1"}), Bulk("World"));
  EXPECT_EQ(c()({"SUBSTR", "s", "0"}), Error("ERR wrong number of arguments for 'substr' command"));
}

TEST_F(StringTest, GetRangeErrors) {
  EXPECT_EQ(c()({"GETRANGE", "missing", "a", "1"}), Error(kNotInteger));
  EXPECT_EQ(c()({"GETRANGE", "missing", "1", "b"}), Error(kNotInteger));
  EXPECT_EQ(c()({"GETRANGE", "missing", "0", "9223372036854775808"}), Error(kNotInteger));
  EXPECT_EQ(c()({"SUBSTR", "missing", "x", "1"}), Error(kNotInteger));
  EXPECT_EQ(c()({"GETRANGE", "k", "0"}),
            Error("ERR wrong number of arguments for 'getrange' command"));
}

TEST_F(StringTest, GetRangeWrongType) {
  MakeHash("h");
  EXPECT_EQ(c()({"GETRANGE", "h", "0", "-1"}), Error(kWrongType));
  EXPECT_EQ(c()({"GETRANGE", "h", "a", "0"}), Error(kNotInteger));  // indexes come first
  EXPECT_EQ(c()({"STRLEN", "h"}), Error(kWrongType));
}

TEST_F(StringTest, SetRange) {
  ASSERT_EQ(c()({"SET", "k", "Hello World"}), Status("OK"));
  EXPECT_EQ(c()({"SETRANGE", "k", "6", "Redis"}), Int(11));
  EXPECT_EQ(c()({"GET", "k"}), Bulk("Hello Redis"));
  EXPECT_EQ(c()({"SETRANGE", "k", "11", "!!"}), Int(13));
  EXPECT_EQ(c()({"GET", "k"}), Bulk("Hello Redis!!"));
  // Past the end the gap is filled with zero bytes; a missing key starts empty.
  EXPECT_EQ(c()({"SETRANGE", "z", "3", "abc"}), Int(6));
  EXPECT_EQ(c()({"GET", "z"}), Bulk(std::string("\0\0\0abc", 6)));
  EXPECT_EQ(c()({"SETRANGE", "z", "1", std::string("\xff\0", 2)}), Int(6));
  EXPECT_EQ(c()({"GET", "z"}), Bulk(std::string("\0\xff\0abc", 6)));
  ASSERT_EQ(c()({"SET", "n", "123"}), Status("OK"));
  EXPECT_EQ(c()({"SETRANGE", "n", "0", "4"}), Int(3));
  EXPECT_EQ(c()({"INCR", "n"}), Int(424));
}

TEST_F(StringTest, SetRangeWithNothingToWrite) {
  // A missing key is not created, whatever the offset; an existing one is left as it is.
  EXPECT_EQ(c()({"SETRANGE", "missing", "0", ""}), Int(0));
  EXPECT_EQ(c()({"SETRANGE", "missing", "536870912", ""}), Int(0));
  EXPECT_EQ(c()({"DBSIZE"}), Int(0));
  ASSERT_EQ(c()({"SET", "k", "abc"}), Status("OK"));
  EXPECT_EQ(c()({"SETRANGE", "k", "536870912", ""}), Int(3));
  EXPECT_EQ(c()({"GET", "k"}), Bulk("abc"));
}

TEST_F(StringTest, SetRangeErrors) {
  EXPECT_EQ(c()({"SETRANGE", "k", "-1", "x"}), Error("ERR offset is out of range"));
  EXPECT_EQ(c()({"SETRANGE", "k", "abc", "x"}), Error(kNotInteger));
  EXPECT_EQ(c()({"SETRANGE", "k", "9223372036854775808", "x"}), Error(kNotInteger));
  EXPECT_EQ(c()({"SETRANGE", "k", "536870912", "x"}), Error(kTooLong));
  EXPECT_EQ(c()({"SETRANGE", "k", "536870911", "xx"}), Error(kTooLong));
  EXPECT_EQ(c()({"SETRANGE", "k", "9223372036854775807", "x"}), Error(kTooLong));
  EXPECT_EQ(c()({"DBSIZE"}), Int(0));
  ASSERT_EQ(c()({"SET", "k", "v"}), Status("OK"));
  EXPECT_EQ(c()({"SETRANGE", "k", "536870912", "x"}), Error(kTooLong));
  EXPECT_EQ(c()({"SETRANGE", "k", "9223372036854775807", "x"}), Error(kTooLong));
  EXPECT_EQ(c()({"GET", "k"}), Bulk("v"));
}

TEST_F(StringTest, SetRangeTypeAndTtl) {
  MakeHash("h");
  EXPECT_EQ(c()({"SETRANGE", "h", "0", "x"}), Error(kWrongType));
  EXPECT_EQ(c()({"SETRANGE", "h", "0", ""}), Error(kWrongType));
  EXPECT_EQ(c()({"SETRANGE", "h", "9999999999999", "x"}), Error(kWrongType));
  EXPECT_EQ(c()({"SETRANGE", "h", "-1", ""}), Error("ERR offset is out of range"));
  ASSERT_EQ(c()({"SET", "k", "v", "EX", "100"}), Status("OK"));
  EXPECT_EQ(c()({"SETRANGE", "k", "1", "w"}), Int(2));
  EXPECT_GT(Pttl("k"), 98000);
}

TEST_F(StringTest, ProtoMaxBulkLenBoundsAppendAndSetRange) {
  SmallBulkLimit limit(port());
  std::string half(600 * 1024, 'x');
  EXPECT_EQ(c()({"APPEND", "k", half}), Int(600 * 1024));
  EXPECT_EQ(c()({"APPEND", "k", half}), Error(kTooLong));
  EXPECT_EQ(c()({"SETRANGE", "k", "1048576", "x"}), Error(kTooLong));
  EXPECT_EQ(c()({"SETRANGE", "k", "1048575", "x"}), Int(1048576));
  EXPECT_EQ(c()({"STRLEN", "k"}), Int(1048576));
}

TEST_F(StringTest, Lcs) {
  ASSERT_EQ(c()({"MSET", "a", "ohmytext", "b", "mynewtext"}), Status("OK"));
  EXPECT_EQ(c()({"LCS", "a", "b"}), Bulk("mytext"));
  EXPECT_EQ(c()({"LCS", "a", "b", "LEN"}), Int(6));
  EXPECT_EQ(c()({"LCS", "a", "b", "len", "withmatchlen"}), Int(6));
  EXPECT_EQ(c()({"LCS", "a", "b", "WITHMATCHLEN"}), Bulk("mytext"));
  EXPECT_EQ(c().Raw({"LCS", "a", "b", "IDX"}),
            "*4\r\n$7\r\nmatches\r\n*2\r\n*2\r\n*2\r\n:4\r\n:7\r\n*2\r\n:5\r\n:8\r\n"
            "*2\r\n*2\r\n:2\r\n:3\r\n*2\r\n:0\r\n:1\r\n$3\r\nlen\r\n:6\r\n");
  EXPECT_EQ(c().Raw({"LCS", "a", "b", "IDX", "MINMATCHLEN", "4", "WITHMATCHLEN"}),
            "*4\r\n$7\r\nmatches\r\n*1\r\n*3\r\n*2\r\n:4\r\n:7\r\n*2\r\n:5\r\n:8\r\n:4\r\n"
            "$3\r\nlen\r\n:6\r\n");
  EXPECT_EQ(c().Raw({"LCS", "a", "b", "idx", "withmatchlen"}),
            "*4\r\n$7\r\nmatches\r\n*2\r\n*3\r\n*2\r\n:4\r\n:7\r\n*2\r\n:5\r\n:8\r\n:4\r\n"
            "*3\r\n*2\r\n:2\r\n:3\r\n*2\r\n:0\r\n:1\r\n:2\r\n$3\r\nlen\r\n:6\r\n");
  // A negative MINMATCHLEN counts as 0.
  EXPECT_EQ(c()({"LCS", "a", "b", "MINMATCHLEN", "-5", "IDX"}), c()({"LCS", "a", "b", "IDX"}));
  EXPECT_EQ(c()({"LCS", "a", "missing"}), Bulk(""));
  EXPECT_EQ(c()({"LCS", "missing", "other", "IDX"}),
            Array({Bulk("matches"), Array({}), Bulk("len"), Int(0)}));
  ASSERT_EQ(c()({"MSET", "x", "abcXdefYghi", "y", "abcdefghi"}), Status("OK"));
  EXPECT_EQ(c()({"LCS", "x", "y"}), Bulk("abcdefghi"));
  EXPECT_EQ(c()({"LCS", "x", "y", "IDX", "MINMATCHLEN", "3"}).elements.at(1).elements.size(), 3u);
  ASSERT_EQ(c()({"HELLO", "3"}).type, Reply::Type::kMap);
  EXPECT_EQ(c().Raw({"LCS", "a", "b", "IDX", "MINMATCHLEN", "4"}),
            "%2\r\n$7\r\nmatches\r\n*1\r\n*2\r\n*2\r\n:4\r\n:7\r\n*2\r\n:5\r\n:8\r\n"
            "$3\r\nlen\r\n:6\r\n");
}

TEST_F(StringTest, LcsErrors) {
  ASSERT_EQ(c()({"MSET", "a", "ohmytext", "b", "mynewtext"}), Status("OK"));
  const Reply both = Error("ERR If you want both the length and indexes, please just use IDX.");
  EXPECT_EQ(c()({"LCS", "a", "b", "LEN", "IDX"}), both);
  EXPECT_EQ(c()({"LCS", "a", "b", "IDX", "LEN"}), both);
  EXPECT_EQ(c()({"LCS", "a", "b", "IDX", "LEN", "foo"}), Error("ERR syntax error"));
  EXPECT_EQ(c()({"LCS", "a", "b", "MINMATCHLEN"}), Error("ERR syntax error"));
  EXPECT_EQ(c()({"LCS", "a", "b", "MINMATCHLEN", "x"}), Error(kNotInteger));
  EXPECT_EQ(c()({"LCS", "a", "b", "foo"}), Error("ERR syntax error"));
  EXPECT_EQ(c()({"LCS", "a"}), Error("ERR wrong number of arguments for 'lcs' command"));
  // The transient table may not exceed proto-max-bulk-len: 601 x 601 x 4 bytes > 1mb.
  SmallBulkLimit limit(port());
  ASSERT_EQ(c()({"MSET", "la", std::string(600, 'a'), "lb", std::string(600, 'a')}), Status("OK"));
  EXPECT_EQ(c()({"LCS", "la", "lb", "LEN"}),
            Error("ERR Insufficient memory, transient memory for LCS exceeds proto-max-bulk-len"));
  ASSERT_EQ(c()({"SET", "lb", std::string(400, 'a')}), Status("OK"));
  EXPECT_EQ(c()({"LCS", "la", "lb", "LEN"}), Int(400));
}

TEST_F(StringTest, LcsOnAnotherType) {
  MakeHash("h");
  ASSERT_EQ(c()({"SET", "a", "x"}), Status("OK"));
  const Reply err = Error("ERR The specified keys must contain string values");
  EXPECT_EQ(c()({"LCS", "a", "h"}), err);
  EXPECT_EQ(c()({"LCS", "h", "a"}), err);
  EXPECT_EQ(c()({"LCS", "h", "a", "foo"}), err);  // checked before the options
}

TEST_F(StringTest, Encodings) {
  auto encoding = [&](std::string key) { return c()({"OBJECT", "ENCODING", key}); };
  ASSERT_EQ(c()({"MSET", "int", "-9223372036854775808", "big", "9223372036854775808", "short",
                 std::string(44, 'x'), "long", std::string(45, 'x'), "empty", ""}),
            Status("OK"));
  EXPECT_EQ(encoding("int"), Bulk("int"));
  EXPECT_EQ(encoding("big"), Bulk("embstr"));
  EXPECT_EQ(encoding("short"), Bulk("embstr"));
  EXPECT_EQ(encoding("long"), Bulk("raw"));
  EXPECT_EQ(encoding("empty"), Bulk("embstr"));
  // APPEND and SETRANGE leave raw strings, even when they change nothing (APPEND "").
  ASSERT_EQ(c()({"SET", "a", "5"}), Status("OK"));
  ASSERT_EQ(c()({"APPEND", "a", ""}), Int(1));
  EXPECT_EQ(encoding("a"), Bulk("raw"));
  ASSERT_EQ(c()({"SET", "s", "123"}), Status("OK"));
  ASSERT_EQ(c()({"SETRANGE", "s", "0", ""}), Int(3));
  EXPECT_EQ(encoding("s"), Bulk("int"));
  ASSERT_EQ(c()({"SETRANGE", "s", "0", "4"}), Int(3));
  EXPECT_EQ(encoding("s"), Bulk("raw"));
  // A new key made by APPEND is encoded as SET would.
  ASSERT_EQ(c()({"APPEND", "new", "123"}), Int(3));
  EXPECT_EQ(encoding("new"), Bulk("int"));
  ASSERT_EQ(c()({"APPEND", "new2", "abc"}), Int(3));
  EXPECT_EQ(encoding("new2"), Bulk("embstr"));
  // Counters give int; INCRBYFLOAT gives embstr even for "3", raw past 44 bytes.
  ASSERT_EQ(c()({"INCR", "a"}), Int(6));
  EXPECT_EQ(encoding("a"), Bulk("int"));
  ASSERT_EQ(c()({"INCRBYFLOAT", "f", "3.0"}), Bulk("3"));
  EXPECT_EQ(encoding("f"), Bulk("embstr"));
  ASSERT_EQ(c()({"INCRBYFLOAT", "f", "123456789012345678901234567890123456789012345"}),
            Bulk("123456789012345678896802277657040928322355200"));
  EXPECT_EQ(encoding("f"), Bulk("raw"));
  ASSERT_EQ(c()({"GETSET", "f", "7"}).type, Reply::Type::kBulk);
  EXPECT_EQ(encoding("f"), Bulk("int"));
  ASSERT_EQ(c()({"SETEX", "x", "100", "5"}), Status("OK"));
  EXPECT_EQ(encoding("x"), Bulk("int"));
}

}  // namespace
}  // namespace redlab::conformance
