// Bitmap commands: SETBIT, GETBIT, BITCOUNT, BITPOS, BITOP, BITFIELD and BITFIELD_RO, with their
// errors, the encodings they leave and the limits on offsets.
#include <string>
#include <vector>

#include "conformance/harness/fixture.h"

namespace redlab::conformance {
namespace {

constexpr char kWrongType[] = "WRONGTYPE Operation against a key holding the wrong kind of value";
constexpr char kNotInteger[] = "ERR value is not an integer or out of range";
constexpr char kBadOffset[] = "ERR bit offset is not an integer or out of range";
constexpr char kBadBit[] = "ERR bit is not an integer or out of range";
constexpr char kSyntax[] = "ERR syntax error";
constexpr char kBadType[] =
    "ERR Invalid bitfield type. Use something like i16 u8. Note that u64 is not supported but "
    "i64 is.";

class BitmapTest : public ConformanceTest {
 protected:
  void Set(std::string_view key, std::string_view value) {
    ASSERT_EQ(c()({"SET", key, value}), Status("OK"));
  }
  void MakeList(std::string_view key) { ASSERT_EQ(c()({"RPUSH", key, "a"}), Int(1)); }
};

TEST_F(BitmapTest, SetBitReturnsTheOldBitAndGrowsTheString) {
  EXPECT_EQ(c()({"SETBIT", "k", "1", "1"}), Int(0));
  EXPECT_EQ(c()({"GET", "k"}), Bulk("@"));
  EXPECT_EQ(c()({"SETBIT", "k", "1", "1"}), Int(1));
  EXPECT_EQ(c()({"SETBIT", "k", "1", "0"}), Int(1));
  EXPECT_EQ(c()({"SETBIT", "k", "23", "1"}), Int(0));
  EXPECT_EQ(c()({"GET", "k"}), Bulk(std::string("\0\0\x01", 3)));
  EXPECT_EQ(c()({"STRLEN", "k"}), Int(3));
  EXPECT_EQ(c()({"OBJECT", "ENCODING", "k"}), Bulk("raw"));
  // An int-encoded value is edited as its digits and stays raw.
  Set("n", "1");
  EXPECT_EQ(c()({"OBJECT", "ENCODING", "n"}), Bulk("int"));
  EXPECT_EQ(c()({"SETBIT", "n", "6", "1"}), Int(0));
  EXPECT_EQ(c()({"GET", "n"}), Bulk("3"));
  EXPECT_EQ(c()({"OBJECT", "ENCODING", "n"}), Bulk("raw"));
  // Clearing an already clear bit within the string changes nothing, even the encoding.
  Set("m", "1");
  EXPECT_EQ(c()({"SETBIT", "m", "0", "0"}), Int(0));
  EXPECT_EQ(c()({"OBJECT", "ENCODING", "m"}), Bulk("raw"));
}

TEST_F(BitmapTest, SetBitKeepsTheTtl) {
  ASSERT_EQ(c()({"SET", "k", "a", "EX", "100"}), Status("OK"));
  EXPECT_EQ(c()({"SETBIT", "k", "100", "1"}), Int(0));
  EXPECT_EQ(c()({"TTL", "k"}), Int(100));
}

TEST_F(BitmapTest, SetBitErrors) {
  for (std::string offset : {"-1", "abc", "1.5", "", " 1", "4294967296", "99999999999999999999"}) {
    EXPECT_EQ(c()({"SETBIT", "k", offset, "1"}), Error(kBadOffset)) << offset;
  }
  for (std::string bit : {"2", "-1", "10", "x", "", "1.0"}) {
    EXPECT_EQ(c()({"SETBIT", "k", "0", bit}), Error(kBadBit)) << bit;
  }
  EXPECT_EQ(c()({"EXISTS", "k"}), Int(0));
  MakeList("l");
  EXPECT_EQ(c()({"SETBIT", "l", "0", "1"}), Error(kWrongType));
  EXPECT_EQ(c()({"SETBIT", "l", "x", "1"}), Error(kBadOffset));  // arguments first
  EXPECT_EQ(c()({"SETBIT", "k"}), Error("ERR wrong number of arguments for 'setbit' command"));
}

TEST_F(BitmapTest, OffsetsStopAtProtoMaxBulkLen) {
  SmallBulkLimit limit(port());
  // 1mb of bytes is 8388608 bits: the last addressable bit is one less.
  EXPECT_EQ(c()({"SETBIT", "k", "8388608", "1"}), Error(kBadOffset));
  EXPECT_EQ(c()({"GETBIT", "k", "8388608"}), Error(kBadOffset));
  EXPECT_EQ(c()({"SETBIT", "k", "8388607", "1"}), Int(0));
  EXPECT_EQ(c()({"STRLEN", "k"}), Int(1048576));
  EXPECT_EQ(c()({"BITFIELD", "k", "GET", "u8", "8388608"}), Error(kBadOffset));
  EXPECT_EQ(c()({"BITFIELD", "k", "SET", "u8", "#1048576", "1"}), Error(kBadOffset));
  EXPECT_EQ(c()({"BITFIELD", "k", "GET", "u1", "8388607"}), Array({Int(1)}));
}

TEST_F(BitmapTest, GetBit) {
  EXPECT_EQ(c()({"GETBIT", "missing", "0"}), Int(0));
  Set("k", "`");  // 0110 0000
  EXPECT_EQ(c()({"GETBIT", "k", "0"}), Int(0));
  EXPECT_EQ(c()({"GETBIT", "k", "1"}), Int(1));
  EXPECT_EQ(c()({"GETBIT", "k", "2"}), Int(1));
  EXPECT_EQ(c()({"GETBIT", "k", "3"}), Int(0));
  EXPECT_EQ(c()({"GETBIT", "k", "100000"}), Int(0));
  Set("n", "12");  // '1' = 0011 0001, '2' = 0011 0010
  EXPECT_EQ(c()({"GETBIT", "n", "7"}), Int(1));
  EXPECT_EQ(c()({"GETBIT", "n", "14"}), Int(1));
  EXPECT_EQ(c()({"GETBIT", "k", "-1"}), Error(kBadOffset));
  MakeList("l");
  EXPECT_EQ(c()({"GETBIT", "l", "0"}), Error(kWrongType));
  EXPECT_EQ(c()({"GETBIT", "missing", "x"}), Error(kBadOffset));
}

TEST_F(BitmapTest, BitCount) {
  EXPECT_EQ(c()({"BITCOUNT", "missing"}), Int(0));
  // A missing key answers 0 before its range is even looked at.
  EXPECT_EQ(c()({"BITCOUNT", "missing", "0"}), Int(0));
  EXPECT_EQ(c()({"BITCOUNT", "missing", "a", "b", "c"}), Int(0));
  Set("k", "foobar");
  EXPECT_EQ(c()({"BITCOUNT", "k"}), Int(26));
  EXPECT_EQ(c()({"BITCOUNT", "k", "0", "0"}), Int(4));
  EXPECT_EQ(c()({"BITCOUNT", "k", "1", "1"}), Int(6));
  EXPECT_EQ(c()({"BITCOUNT", "k", "1", "1", "BYTE"}), Int(6));
  EXPECT_EQ(c()({"BITCOUNT", "k", "5", "30", "BIT"}), Int(17));
  EXPECT_EQ(c()({"BITCOUNT", "k", "-2", "-1"}), Int(7));
  EXPECT_EQ(c()({"BITCOUNT", "k", "-1", "-2"}), Int(0));
  EXPECT_EQ(c()({"BITCOUNT", "k", "0", "-1", "bit"}), Int(26));
  EXPECT_EQ(c()({"BITCOUNT", "k", "2", "2", "BIT"}), Int(1));
  EXPECT_EQ(c()({"BITCOUNT", "k", "3", "3", "BIT"}), Int(0));
  EXPECT_EQ(c()({"BITCOUNT", "k", "100", "200"}), Int(0));
  EXPECT_EQ(c()({"BITCOUNT", "k", "0", "4294967296"}), Int(26));
  EXPECT_EQ(c()({"BITCOUNT", "k", "-100", "100"}), Int(26));
  EXPECT_EQ(c()({"BITCOUNT", "k", "0"}), Error(kSyntax));
  EXPECT_EQ(c()({"BITCOUNT", "k", "0", "1", "2", "3"}), Error(kSyntax));
  EXPECT_EQ(c()({"BITCOUNT", "k", "0", "1", "bits"}), Error(kSyntax));
  // Reversed negative indexes answer 0 before the unit is checked.
  EXPECT_EQ(c()({"BITCOUNT", "k", "-1", "-2", "bits"}), Int(0));
  EXPECT_EQ(c()({"BITCOUNT", "k", "a", "1"}), Error(kNotInteger));
  Set("n", "1234");
  EXPECT_EQ(c()({"BITCOUNT", "n"}), Int(13));
  MakeList("l");
  EXPECT_EQ(c()({"BITCOUNT", "l"}), Error(kWrongType));
  EXPECT_EQ(c()({"BITCOUNT", "l", "x", "y"}), Error(kWrongType));
}

TEST_F(BitmapTest, BitPos) {
  EXPECT_EQ(c()({"BITPOS", "missing", "0"}), Int(0));
  EXPECT_EQ(c()({"BITPOS", "missing", "1"}), Int(-1));
  EXPECT_EQ(c()({"BITPOS", "missing", "1", "x"}), Int(-1));
  Set("k", std::string("\xff\xf0\x00", 3));
  EXPECT_EQ(c()({"BITPOS", "k", "0"}), Int(12));
  EXPECT_EQ(c()({"BITPOS", "k", "1"}), Int(0));
  EXPECT_EQ(c()({"BITPOS", "k", "1", "2"}), Int(-1));
  EXPECT_EQ(c()({"BITPOS", "k", "0", "2"}), Int(16));
  EXPECT_EQ(c()({"BITPOS", "k", "1", "1", "-1"}), Int(8));
  EXPECT_EQ(c()({"BITPOS", "k", "1", "7", "15", "BIT"}), Int(7));
  EXPECT_EQ(c()({"BITPOS", "k", "0", "7", "15", "BIT"}), Int(12));
  EXPECT_EQ(c()({"BITPOS", "k", "1", "13", "20", "bit"}), Int(-1));
  EXPECT_EQ(c()({"BITPOS", "k", "0", "0", "-1", "bit"}), Int(12));
  EXPECT_EQ(c()({"BITPOS", "k", "1", "5", "5", "BIT"}), Int(5));
  EXPECT_EQ(c()({"BITPOS", "k", "1", "3", "1"}), Int(-1));  // an empty range
  // All ones: without an end the string reads as followed by zeros; with one it does not.
  Set("ones", std::string("\xff\xff\xff", 3));
  EXPECT_EQ(c()({"BITPOS", "ones", "0"}), Int(24));
  EXPECT_EQ(c()({"BITPOS", "ones", "0", "1"}), Int(24));
  EXPECT_EQ(c()({"BITPOS", "ones", "0", "0", "-1"}), Int(-1));
  EXPECT_EQ(c()({"BITPOS", "ones", "0", "0", "-1", "BIT"}), Int(-1));
  EXPECT_EQ(c()({"BITPOS", "ones", "0", "0", "5", "BIT"}), Int(-1));
  Set("zeros", std::string(20, '\0'));
  EXPECT_EQ(c()({"BITPOS", "zeros", "1"}), Int(-1));
  EXPECT_EQ(c()({"BITPOS", "zeros", "0", "3"}), Int(24));
  // Errors: the bit comes first, then the key, then the range.
  EXPECT_EQ(c()({"BITPOS", "k", "2"}), Error("ERR The bit argument must be 1 or 0."));
  EXPECT_EQ(c()({"BITPOS", "k", "x"}), Error(kNotInteger));
  EXPECT_EQ(c()({"BITPOS", "k", "1", "x"}), Error(kNotInteger));
  EXPECT_EQ(c()({"BITPOS", "k", "1", "0", "x"}), Error(kNotInteger));
  EXPECT_EQ(c()({"BITPOS", "k", "1", "0", "x", "BIT"}), Error(kNotInteger));
  EXPECT_EQ(c()({"BITPOS", "k", "1", "0", "x", "BITS"}), Error(kSyntax));
  EXPECT_EQ(c()({"BITPOS", "k", "1", "0", "1", "BIT", "x"}), Error(kSyntax));
  MakeList("l");
  EXPECT_EQ(c()({"BITPOS", "l", "1"}), Error(kWrongType));
  EXPECT_EQ(c()({"BITPOS", "l", "3"}), Error("ERR The bit argument must be 1 or 0."));
}

TEST_F(BitmapTest, BitOp) {
  Set("a", "abc");
  Set("b", std::string("\x0f\xf0", 2));
  EXPECT_EQ(c()({"BITOP", "AND", "d", "a", "b"}), Int(3));
  EXPECT_EQ(c()({"GET", "d"}), Bulk(std::string("\x01\x60\x00", 3)));
  EXPECT_EQ(c()({"BITOP", "or", "d", "a", "b"}), Int(3));
  EXPECT_EQ(c()({"GET", "d"}), Bulk(std::string("\x6f\xf2\x63", 3)));
  EXPECT_EQ(c()({"BITOP", "XOR", "d", "a", "b", "missing"}), Int(3));
  EXPECT_EQ(c()({"GET", "d"}), Bulk(std::string("\x6e\x92\x63", 3)));
  EXPECT_EQ(c()({"BITOP", "NOT", "d", "b"}), Int(2));
  EXPECT_EQ(c()({"GET", "d"}), Bulk(std::string("\xf0\x0f", 2)));
  EXPECT_EQ(c()({"OBJECT", "ENCODING", "d"}), Bulk("raw"));
  // A single source is copied; the destination may be a source.
  EXPECT_EQ(c()({"BITOP", "AND", "a", "a"}), Int(3));
  EXPECT_EQ(c()({"GET", "a"}), Bulk("abc"));
  EXPECT_EQ(c()({"BITOP", "NOT", "a", "a"}), Int(3));
  EXPECT_EQ(c()({"BITOP", "NOT", "a", "a"}), Int(3));
  EXPECT_EQ(c()({"GET", "a"}), Bulk("abc"));
  // The result replaces any value and TTL; integers are read as their digits.
  ASSERT_EQ(c()({"SET", "n", "12", "EX", "100"}), Status("OK"));
  MakeList("l");
  EXPECT_EQ(c()({"BITOP", "OR", "l", "n"}), Int(2));
  EXPECT_EQ(c()({"GET", "l"}), Bulk("12"));
  EXPECT_EQ(c()({"BITOP", "OR", "n", "n"}), Int(2));
  EXPECT_EQ(c()({"TTL", "n"}), Int(-1));
  // An empty result deletes the destination.
  Set("empty", "");
  EXPECT_EQ(c()({"BITOP", "OR", "d", "missing", "empty"}), Int(0));
  EXPECT_EQ(c()({"EXISTS", "d"}), Int(0));
  EXPECT_EQ(c()({"BITOP", "AND", "d", "a", "empty"}), Int(3));
  EXPECT_EQ(c()({"GET", "d"}), Bulk(std::string(3, '\0')));
}

TEST_F(BitmapTest, BitOpErrors) {
  Set("a", "x");
  MakeList("l");
  EXPECT_EQ(c()({"BITOP", "NOT", "d", "a", "a"}),
            Error("ERR BITOP NOT must be called with a single source key."));
  EXPECT_EQ(c()({"BITOP", "NAND", "d", "a"}), Error(kSyntax));
  EXPECT_EQ(c()({"BITOP", "AND", "d", "a", "l"}), Error(kWrongType));
  EXPECT_EQ(c()({"EXISTS", "d"}), Int(0));
  EXPECT_EQ(c()({"BITOP", "AND", "d"}), Error("ERR wrong number of arguments for 'bitop' command"));
}

TEST_F(BitmapTest, BitFieldGetSetIncrBy) {
  EXPECT_EQ(c()({"BITFIELD", "k", "SET", "i8", "0", "100", "GET", "u4", "0", "INCRBY", "u2", "100",
                 "1", "GET", "i8", "#0"}),
            Array({Int(0), Int(6), Int(1), Int(100)}));
  EXPECT_EQ(c()({"GET", "k"}), Bulk("d" + std::string(11, '\0') + "\x04"));
  EXPECT_EQ(c()({"OBJECT", "ENCODING", "k"}), Bulk("raw"));
  EXPECT_EQ(c()({"BITFIELD", "k", "GET", "i64", "0", "GET", "u63", "1", "GET", "i1", "1"}),
            Array({Int(7205759403792793600), Int(7205759403792793600), Int(-1)}));
  // #n addresses the n-th field of the type's width.
  EXPECT_EQ(c()({"BITFIELD", "k", "SET", "u8", "#1", "255", "GET", "u8", "8", "GET", "i8", "#1"}),
            Array({Int(0), Int(255), Int(-1)}));
  EXPECT_EQ(c()({"BITFIELD", "missing", "GET", "u8", "0", "GET", "i5", "100"}),
            Array({Int(0), Int(0)}));
  EXPECT_EQ(c()({"EXISTS", "missing"}), Int(0));
  EXPECT_EQ(c()({"BITFIELD", "k"}), Array({}));
  EXPECT_EQ(c()({"BITFIELD_RO", "k", "GET", "u8", "#1", "get", "i4", "8"}),
            Array({Int(255), Int(-1)}));
  EXPECT_EQ(c()({"BITFIELD_RO", "k"}), Array({}));
}

TEST_F(BitmapTest, BitFieldOverflow) {
  // WRAP (the default), SAT and FAIL, for unsigned and signed fields.
  EXPECT_EQ(c()({"BITFIELD", "k",   "SET",    "u8", "0", "250", "INCRBY",   "u8",   "0",      "10",
                 "OVERFLOW", "SAT", "INCRBY", "u8", "0", "300", "OVERFLOW", "FAIL", "INCRBY", "u8",
                 "0",        "1",   "GET",    "u8", "0"}),
            Array({Int(0), Int(4), Int(255), Nil(), Int(255)}));
  EXPECT_EQ(c()({"BITFIELD", "k", "OVERFLOW", "WRAP", "INCRBY", "u8", "0", "-256", "INCRBY", "u8",
                 "0", "-300", "OVERFLOW", "SAT", "INCRBY", "u8", "0", "-300"}),
            Array({Int(255), Int(211), Int(0)}));
  EXPECT_EQ(c()({"BITFIELD", "s",    "SET",    "i8", "0", "127",   "INCRBY", "i8", "0", "1",
                 "OVERFLOW", "SAT",  "INCRBY", "i8", "0", "-1000", "INCRBY", "i8", "0", "1000",
                 "OVERFLOW", "FAIL", "INCRBY", "i8", "0", "1",     "SET",    "i8", "0", "200"}),
            Array({Int(0), Int(-128), Int(-128), Int(127), Nil(), Nil()}));
  // SET values out of the type's range wrap, saturate or fail the same way.
  EXPECT_EQ(c()({"BITFIELD", "t",
                 "SET",      "u8",
                 "0",        "-1",
                 "GET",      "u8",
                 "0",        "OVERFLOW",
                 "SAT",      "SET",
                 "u8",       "0",
                 "-1",       "GET",
                 "u8",       "0",
                 "SET",      "i8",
                 "8",        "-9223372036854775808",
                 "GET",      "i8",
                 "8"}),
            Array({Int(0), Int(255), Int(255), Int(255), Int(0), Int(127)}));
  // 64-bit signed arithmetic.
  EXPECT_EQ(c()({"BITFIELD", "w",
                 "SET",      "i64",
                 "0",        "9223372036854775807",
                 "INCRBY",   "i64",
                 "0",        "1",
                 "OVERFLOW", "SAT",
                 "INCRBY",   "i64",
                 "0",        "-1",
                 "INCRBY",   "i64",
                 "0",        "-9223372036854775808"}),
            Array({Int(0), Int(INT64_MIN), Int(INT64_MIN), Int(INT64_MIN)}));
  // A refused write still creates the key (zero-filled), as in Redis.
  EXPECT_EQ(c()({"BITFIELD", "f", "OVERFLOW", "FAIL", "SET", "u2", "8", "7"}), Array({Nil()}));
  EXPECT_EQ(c()({"GET", "f"}), Bulk(std::string(2, '\0')));
}

TEST_F(BitmapTest, BitFieldErrors) {
  MakeList("l");
  for (std::string type : {"u64", "i65", "u0", "i0", "x8", "", "8", "u", "i-1", "I8", "u 8"}) {
    EXPECT_EQ(c()({"BITFIELD", "k", "GET", type, "0"}), Error(kBadType)) << type;
  }
  EXPECT_EQ(c()({"BITFIELD", "k", "GET", "u8", "-1"}), Error(kBadOffset));
  EXPECT_EQ(c()({"BITFIELD", "k", "GET", "u8", "#-1"}), Error(kBadOffset));
  EXPECT_EQ(c()({"BITFIELD", "k", "GET", "u8", "#x"}), Error(kBadOffset));
  EXPECT_EQ(c()({"BITFIELD", "k", "SET", "u8", "0", "x"}), Error(kNotInteger));
  EXPECT_EQ(c()({"BITFIELD", "k", "INCRBY", "u8", "0", "1.5"}), Error(kNotInteger));
  EXPECT_EQ(c()({"BITFIELD", "k", "GET", "u8"}), Error(kSyntax));
  EXPECT_EQ(c()({"BITFIELD", "k", "SET", "u8", "0"}), Error(kSyntax));
  EXPECT_EQ(c()({"BITFIELD", "k", "FOO", "u8", "0"}), Error(kSyntax));
  EXPECT_EQ(c()({"BITFIELD", "k", "OVERFLOW"}), Error(kSyntax));
  EXPECT_EQ(c()({"BITFIELD", "k", "OVERFLOW", "NONE"}),
            Error("ERR Invalid OVERFLOW type specified"));
  // Every operation is checked before anything runs.
  EXPECT_EQ(c()({"BITFIELD", "k", "SET", "u8", "0", "1", "GET", "u64", "0"}), Error(kBadType));
  EXPECT_EQ(c()({"EXISTS", "k"}), Int(0));
  EXPECT_EQ(c()({"BITFIELD", "l", "GET", "u8", "0"}), Error(kWrongType));
  EXPECT_EQ(c()({"BITFIELD", "l", "SET", "u8", "0", "1"}), Error(kWrongType));
  EXPECT_EQ(c()({"BITFIELD_RO", "k", "SET", "u8", "0", "1"}),
            Error("ERR BITFIELD_RO only supports the GET subcommand"));
  EXPECT_EQ(c()({"BITFIELD_RO", "l", "INCRBY", "u8", "0", "1"}),
            Error("ERR BITFIELD_RO only supports the GET subcommand"));
  EXPECT_EQ(c()({"BITFIELD_RO", "l", "GET", "u8", "0"}), Error(kWrongType));
  EXPECT_EQ(c()({"BITFIELD_RO", "k", "OVERFLOW", "SAT"}), Array({}));
}

// SETBIT and BITFIELD count a change (rdb_changes_since_last_save, and so propagation) only when
// a bit changes or the string is created or lengthened.
TEST_F(BitmapTest, ChangesAreCountedOnlyWhenBitsChange) {
  auto dirty = [&] {
    Reply info = c()({"INFO", "persistence"});
    size_t at = info.str.find("rdb_changes_since_last_save:");
    return std::stoll(info.str.substr(at + 28));
  };
  int64_t d0 = dirty();
  c()({"SETBIT", "a", "0", "0"});
  c()({"BITFIELD", "b", "SET", "i5", "0", "0"});
  EXPECT_EQ(dirty(), d0 + 2);
  c()({"SETBIT", "a", "0", "0"});
  c()({"BITFIELD", "b", "SET", "i5", "0", "0", "GET", "u8", "0"});
  EXPECT_EQ(dirty(), d0 + 2);
  c()({"SETBIT", "a", "0", "1"});
  c()({"BITFIELD", "b", "SET", "i5", "0", "1", "SET", "i5", "5", "1"});
  EXPECT_EQ(dirty(), d0 + 5);
  c()({"BITFIELD", "c", "INCRBY", "u2", "0", "4", "INCRBY", "u2", "0", "0"});
  EXPECT_EQ(dirty(), d0 + 7);  // a new string: every write counts, changed or not
  c()({"BITFIELD", "b", "OVERFLOW", "FAIL", "INCRBY", "u2", "0", "4"});
  EXPECT_EQ(dirty(), d0 + 7);
}

}  // namespace
}  // namespace redlab::conformance
