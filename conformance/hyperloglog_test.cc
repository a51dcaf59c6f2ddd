// HyperLogLog (Redis's hyperloglog.c): PFADD, PFCOUNT, PFMERGE, PFDEBUG, with the bytes GET shows
// (sparse opcodes, the cached cardinality, promotion to dense) and Redis's error texts.
#include <string>

#include "conformance/harness/fixture.h"

namespace redlab::conformance {
namespace {

constexpr char kNotHll[] = "WRONGTYPE Key is not a valid HyperLogLog string value.";
constexpr char kWrongType[] = "WRONGTYPE Operation against a key holding the wrong kind of value";
constexpr char kInvalid[] = "INVALIDOBJ Corrupted HLL object detected";

std::string Header(char encoding, std::string card) {
  return std::string("HYLL") + encoding + std::string(3, '\0') + card;
}
const std::string kStale = std::string(7, '\0') + "\x80";

class HyperLogLogTest : public ConformanceTest {
 protected:
  void TearDown() override { c()({"CONFIG", "SET", "hll-sparse-max-bytes", "3000"}); }
};

TEST_F(HyperLogLogTest, PfAddWritesRedisSparseBytes) {
  // A new key is created even without elements: one XZERO opcode over 16384 registers.
  EXPECT_EQ(c()({"PFADD", "e"}), Int(1));
  EXPECT_EQ(c()({"GET", "e"}), Bulk(Header('\x01', kStale) + "\x7f\xff"));
  EXPECT_EQ(c()({"PFADD", "e"}), Int(0));

  EXPECT_EQ(c()({"PFADD", "h", "a", "b", "c", "d", "e", "f", "g"}), Int(1));
  const std::string opcodes = "Fm\x80V\x0c\x80" "D<\x84" "8\x80P\xb1\x84I\x8c\x80" "Bm\x80" "BZ";
  EXPECT_EQ(c()({"GET", "h"}), Bulk(Header('\x01', kStale) + opcodes));
  EXPECT_EQ(c()({"PFDEBUG", "DECODE", "h"}),
            Bulk("Z:1646 v:1,1 Z:5645 v:1,1 Z:1085 v:2,1 z:57 v:1,1 Z:4274 v:2,1 Z:2445 v:1,1 "
                 "Z:622 v:1,1 Z:603"));
  EXPECT_EQ(c()({"PFADD", "h", "a", "b"}), Int(0));
  // PFCOUNT stores the cardinality in the header (little endian, the stale bit cleared).
  EXPECT_EQ(c()({"PFCOUNT", "h"}), Int(7));
  EXPECT_EQ(c()({"GET", "h"}), Bulk(Header('\x01', "\x07" + std::string(7, '\0')) + opcodes));
  EXPECT_EQ(c()({"PFDEBUG", "ENCODING", "h"}), Status("sparse"));
}

TEST_F(HyperLogLogTest, MergeAndCountOfManyKeys) {
  EXPECT_EQ(c()({"PFADD", "h", "a", "b", "c", "d", "e", "f", "g"}), Int(1));
  EXPECT_EQ(c()({"PFADD", "h2", "c", "d", "x", "y"}), Int(1));
  EXPECT_EQ(c()({"PFCOUNT", "h", "h2", "missing"}), Int(9));
  EXPECT_EQ(c()({"PFMERGE", "m", "h", "h2"}), Status("OK"));
  EXPECT_EQ(c()({"PFCOUNT", "m"}), Int(9));
  EXPECT_EQ(c()({"PFDEBUG", "DECODE", "m"}),
            Bulk("Z:1646 v:1,1 Z:5645 v:1,1 Z:1085 v:2,1 z:57 v:1,1 Z:4274 v:2,1 Z:2220 v:3,1 "
                 "Z:224 v:1,1 Z:622 v:1,1 Z:593 v:2,1 z:9"));
  EXPECT_EQ(c()({"PFMERGE", "empty"}), Status("OK"));
  EXPECT_EQ(c()({"PFCOUNT", "empty"}), Int(0));
  EXPECT_EQ(c()({"PFCOUNT", "nothing"}), Int(0));
}

TEST_F(HyperLogLogTest, SparseBecomesDensePastTheConfiguredSize) {
  EXPECT_EQ(c()({"CONFIG", "SET", "hll-sparse-max-bytes", "40"}), Status("OK"));
  EXPECT_EQ(c()({"PFADD", "h", "a", "b", "c", "d", "e", "f", "g"}), Int(1));
  EXPECT_EQ(c()({"PFDEBUG", "ENCODING", "h"}), Status("sparse"));
  EXPECT_EQ(c()({"STRLEN", "h"}), Int(38));
  EXPECT_EQ(c()({"PFADD", "h", "x", "y", "z", "w"}), Int(1));
  EXPECT_EQ(c()({"PFDEBUG", "ENCODING", "h"}), Status("dense"));
  EXPECT_EQ(c()({"STRLEN", "h"}), Int(12304));
  EXPECT_EQ(c()({"PFCOUNT", "h"}), Int(11));
  // TODENSE converts once; DECODE refuses a dense value.
  EXPECT_EQ(c()({"PFADD", "s", "a"}), Int(1));
  EXPECT_EQ(c()({"PFDEBUG", "TODENSE", "s"}), Int(1));
  EXPECT_EQ(c()({"PFDEBUG", "TODENSE", "s"}), Int(0));
  EXPECT_EQ(c()({"PFDEBUG", "DECODE", "s"}), Error("ERR HLL encoding is not sparse"));
  EXPECT_EQ(c()({"PFCOUNT", "s", "h"}), Int(11));
  Reply regs = c()({"PFDEBUG", "GETREG", "s"});
  ASSERT_EQ(regs.elements.size(), 16384u);
  int set = 0;
  for (const Reply& r : regs.elements) set += r.integer != 0 ? 1 : 0;
  EXPECT_EQ(set, 1);
}

TEST_F(HyperLogLogTest, ErrorsAsRedis) {
  EXPECT_EQ(c()({"SET", "foo", "bar"}), Status("OK"));
  EXPECT_EQ(c()({"PFADD", "foo", "x"}), Error(kNotHll));
  EXPECT_EQ(c()({"PFCOUNT", "foo"}), Error(kNotHll));
  EXPECT_EQ(c()({"LPUSH", "l", "a"}), Int(1));
  EXPECT_EQ(c()({"PFCOUNT", "l"}), Error(kWrongType));
  EXPECT_EQ(c()({"PFMERGE", "d", "l"}), Error(kWrongType));
  EXPECT_EQ(c()({"PFDEBUG", "NOPE", "foo"}), Error(kNotHll));
  EXPECT_EQ(c()({"PFADD", "h", "a"}), Int(1));
  EXPECT_EQ(c()({"PFDEBUG", "NOPE", "h"}), Error("ERR Unknown PFDEBUG subcommand 'NOPE'"));
  EXPECT_EQ(c()({"PFDEBUG", "GETREG", "nokey"}), Error("ERR The specified key does not exist"));
  EXPECT_EQ(c()({"PFDEBUG", "GETREG"}),
            Error("ERR wrong number of arguments for 'pfdebug' command"));
  // A sparse value whose opcodes cover 16383 registers is corrupt.
  EXPECT_EQ(c()({"PFADD", "bad"}), Int(1));
  EXPECT_EQ(c()({"SETRANGE", "bad", "17", "\xfe"}), Int(18));
  EXPECT_EQ(c()({"PFCOUNT", "bad"}), Error(kInvalid));
  EXPECT_EQ(c()({"PFCOUNT", "bad", "h"}), Error(kInvalid));
  EXPECT_EQ(c()({"PFMERGE", "x", "bad"}), Error(kInvalid));
  EXPECT_EQ(c()({"PFDEBUG", "GETREG", "bad"}), Error(kInvalid));
  // A dense value of the wrong length is not a HyperLogLog.
  EXPECT_EQ(c()({"SET", "short", Header('\0', std::string(8, '\0')) + "xyz"}), Status("OK"));
  EXPECT_EQ(c()({"PFCOUNT", "short"}), Error(kNotHll));
}

// Redis's self test: register access and the estimate's error up to 10 million elements, dense
// and sparse side by side.
TEST_F(HyperLogLogTest, SelfTestPasses) { EXPECT_EQ(c()({"PFSELFTEST"}), Status("OK")); }

TEST_F(HyperLogLogTest, ValuesTravelAsStrings) {
  // A HyperLogLog written with SET (as a client copying one from another server would) counts
  // and grows as Redis's.
  const std::string value = Header('\x01', kStale) + "Fm\x80V\x0c\x80" "D<\x84" "8\x80P\xb1\x84" "I\x8c\x80" "Bm\x80" "BZ";
  EXPECT_EQ(c()({"SET", "copy", value}), Status("OK"));
  EXPECT_EQ(c()({"PFCOUNT", "copy"}), Int(7));
  EXPECT_EQ(c()({"PFADD", "copy", "x", "y"}), Int(1));
  EXPECT_EQ(c()({"PFCOUNT", "copy"}), Int(9));
  EXPECT_EQ(c()({"TYPE", "copy"}), Status("string"));
}

}  // namespace
}  // namespace redlab::conformance
