// Stream commands without consumer groups: XADD (IDs, NOMKSTREAM, MAXLEN/MINID with = and ~,
// LIMIT), XRANGE, XREVRANGE, XLEN, XDEL, XTRIM, XSETID; TYPE and OBJECT ENCODING of a stream.
// Approximate trims remove whole nodes, as Redis's radix tree of listpacks holds them.
#include <string>
#include <vector>

#include "conformance/harness/fixture.h"

namespace redlab::conformance {
namespace {

const char* const kWrongType = "WRONGTYPE Operation against a key holding the wrong kind of value";
const char* const kBadId = "ERR Invalid stream ID specified as stream command argument";
const char* const kStreamDumpHex =
    "1302100000000000000001000000000000000140424200000019000201010102018161028162020001020100010001"
    "010181780205010301000101010201817902050100010101dfff020101816302f2e09304040601ff100000000000"
    "0000050000000000000000c335405e115e000000130002010001020181610281620240090000200104dff902ad7a"
    "e02300012e05203504040103010140490404010601ff040a000101010209000a00124c9d1e235e22ac";

class StreamTest : public ConformanceTest {
 protected:
  void TearDown() override {
    // Put back the node limits tests change.
    c()({"CONFIG", "SET", "stream-node-max-entries", "100"});
    c()({"CONFIG", "SET", "stream-node-max-bytes", "4096"});
  }
  // XADD key <ms>-1 f v, for ms in [from, to].
  void Fill(const std::string& key, int from, int to) {
    for (int i = from; i <= to; ++i) {
      ASSERT_EQ(c()({"XADD", key, std::to_string(i) + "-1", "f", std::to_string(i)}),
                Bulk(std::to_string(i) + "-1"));
    }
  }
  static Reply Entry(const std::string& id, std::vector<std::string> fields) {
    std::vector<Reply> fv;
    for (std::string& f : fields) fv.push_back(Bulk(std::move(f)));
    return Array({Bulk(id), Array(std::move(fv))});
  }
};

TEST_F(StreamTest, XAddExplicitIdsAndRange) {
  EXPECT_EQ(c()({"XADD", "s", "1-1", "a", "1", "b", "2"}), Bulk("1-1"));
  EXPECT_EQ(c()({"XADD", "s", "1-2", "a", "3"}), Bulk("1-2"));
  EXPECT_EQ(c()({"XADD", "s", "5", "c", "4"}), Bulk("5-0"));
  EXPECT_EQ(c()({"XLEN", "s"}), Int(3));
  EXPECT_EQ(c()({"XRANGE", "s", "-", "+"}),
            Array({Entry("1-1", {"a", "1", "b", "2"}), Entry("1-2", {"a", "3"}),
                   Entry("5-0", {"c", "4"})}));
  EXPECT_EQ(c()({"XREVRANGE", "s", "+", "-", "COUNT", "2"}),
            Array({Entry("5-0", {"c", "4"}), Entry("1-2", {"a", "3"})}));
  EXPECT_EQ(c()({"TYPE", "s"}), Status("stream"));
  EXPECT_EQ(c()({"OBJECT", "ENCODING", "s"}), Bulk("stream"));
}

TEST_F(StreamTest, XAddIdErrors) {
  EXPECT_EQ(c()({"XADD", "s", "0-0", "a", "1"}),
            Error("ERR The ID specified in XADD must be greater than 0-0"));
  EXPECT_EQ(c()({"EXISTS", "s"}), Int(0));
  EXPECT_EQ(c()({"XADD", "s", "5-5", "a", "1"}), Bulk("5-5"));
  const Reply smaller =
      Error("ERR The ID specified in XADD is equal or smaller than the target stream top item");
  EXPECT_EQ(c()({"XADD", "s", "5-5", "a", "1"}), smaller);
  EXPECT_EQ(c()({"XADD", "s", "4-9", "a", "1"}), smaller);
  EXPECT_EQ(c()({"XADD", "s", "4-*", "a", "1"}), smaller);
  EXPECT_EQ(c()({"XADD", "s", "-", "a", "1"}), Error(kBadId));
  EXPECT_EQ(c()({"XADD", "s", "+", "a", "1"}), Error(kBadId));
  EXPECT_EQ(c()({"XADD", "s", "1-x", "a", "1"}), Error(kBadId));
  EXPECT_EQ(c()({"XADD", "s", "abc", "a", "1"}), Error(kBadId));
  EXPECT_EQ(c()({"XADD", "s", "*", "a"}), Error("ERR wrong number of arguments for 'xadd' command"));
  EXPECT_EQ(c()({"XADD", "s", "*", "a", "1", "b"}),
            Error("ERR wrong number of arguments for 'xadd' command"));
  EXPECT_EQ(c()({"SET", "str", "x"}), Status("OK"));
  EXPECT_EQ(c()({"XADD", "str", "*", "a", "1"}), Error(kWrongType));
  EXPECT_EQ(c()({"XLEN", "str"}), Error(kWrongType));
  EXPECT_EQ(c()({"XRANGE", "str", "-", "+"}), Error(kWrongType));
}

TEST_F(StreamTest, XAddPartialAndAutoIds) {
  EXPECT_EQ(c()({"XADD", "s", "7-*", "a", "1"}), Bulk("7-0"));
  EXPECT_EQ(c()({"XADD", "s", "7-*", "a", "1"}), Bulk("7-1"));
  EXPECT_EQ(c()({"XADD", "s", "9-*", "a", "1"}), Bulk("9-0"));
  EXPECT_EQ(c()({"XADD", "s", "0-*", "a", "1"}),
            Error("ERR The ID specified in XADD is equal or smaller than the target stream top item"));
  EXPECT_EQ(c()({"XADD", "z", "0-*", "a", "1"}), Bulk("0-1"));
  // "*" takes the clock's milliseconds, or the last ID's successor when that is ahead.
  EXPECT_EQ(c()({"XADD", "future", "99999999999999-5", "a", "1"}), Bulk("99999999999999-5"));
  EXPECT_EQ(c()({"XADD", "future", "*", "a", "1"}), Bulk("99999999999999-6"));
  Reply now = c()({"XADD", "now", "*", "a", "1"});
  ASSERT_EQ(now.type, Reply::Type::kBulk);
  EXPECT_EQ(now.str.substr(now.str.size() - 2), "-0");
  EXPECT_EQ(c()({"XADD", "max", "18446744073709551615-18446744073709551615", "a", "1"}),
            Bulk("18446744073709551615-18446744073709551615"));
  EXPECT_EQ(c()({"XADD", "max", "*", "a", "1"}),
            Error("ERR The stream has exhausted the last possible ID, unable to add more items"));
}

TEST_F(StreamTest, XAddNoMkStream) {
  EXPECT_EQ(c()({"XADD", "s", "NOMKSTREAM", "*", "a", "1"}), Nil());
  EXPECT_EQ(c()({"EXISTS", "s"}), Int(0));
  EXPECT_EQ(c()({"XADD", "s", "1-1", "a", "1"}), Bulk("1-1"));
  EXPECT_EQ(c()({"XADD", "s", "NOMKSTREAM", "2-1", "a", "1"}), Bulk("2-1"));
  EXPECT_EQ(c()({"XLEN", "s"}), Int(2));
}

TEST_F(StreamTest, XAddTrimsExactly) {
  Fill("s", 1, 10);
  EXPECT_EQ(c()({"XADD", "s", "MAXLEN", "5", "11-1", "f", "11"}), Bulk("11-1"));
  EXPECT_EQ(c()({"XLEN", "s"}), Int(5));
  EXPECT_EQ(c()({"XRANGE", "s", "-", "+", "COUNT", "1"}), Array({Entry("7-1", {"f", "7"})}));
  EXPECT_EQ(c()({"XADD", "s", "MINID", "=", "9", "12-1", "f", "12"}), Bulk("12-1"));
  EXPECT_EQ(c()({"XLEN", "s"}), Int(4));
  EXPECT_EQ(c()({"XTRIM", "s", "MAXLEN", "=", "2"}), Int(2));
  EXPECT_EQ(c()({"XRANGE", "s", "-", "+"}),
            Array({Entry("11-1", {"f", "11"}), Entry("12-1", {"f", "12"})}));
  EXPECT_EQ(c()({"XTRIM", "s", "MINID", "12"}), Int(1));
  EXPECT_EQ(c()({"XTRIM", "s", "MAXLEN", "0"}), Int(1));
  EXPECT_EQ(c()({"XLEN", "s"}), Int(0));
  EXPECT_EQ(c()({"EXISTS", "s"}), Int(1));  // an emptied stream stays
  EXPECT_EQ(c()({"XTRIM", "missing", "MAXLEN", "0"}), Int(0));
}

TEST_F(StreamTest, ApproximateTrimRemovesWholeNodes) {
  // 100 entries a node by default: 250 entries are nodes of 100, 100 and 50.
  Fill("s", 1, 250);
  EXPECT_EQ(c()({"XTRIM", "s", "MAXLEN", "~", "120"}), Int(100));
  EXPECT_EQ(c()({"XLEN", "s"}), Int(150));
  EXPECT_EQ(c()({"XTRIM", "s", "MAXLEN", "~", "120"}), Int(0));
  EXPECT_EQ(c()({"XTRIM", "s", "MINID", "~", "250"}), Int(100));
  EXPECT_EQ(c()({"XLEN", "s"}), Int(50));
  // LIMIT bounds the entries removed, whole nodes only.
  EXPECT_EQ(c()({"CONFIG", "SET", "stream-node-max-entries", "10"}), Status("OK"));
  Fill("t", 1, 100);
  EXPECT_EQ(c()({"XTRIM", "t", "MAXLEN", "~", "0", "LIMIT", "25"}), Int(20));
  EXPECT_EQ(c()({"XLEN", "t"}), Int(80));
  EXPECT_EQ(c()({"XADD", "t", "MAXLEN", "~", "55", "101-1", "f", "101"}), Bulk("101-1"));
  EXPECT_EQ(c()({"XLEN", "t"}), Int(61));
  // Deleted entries still count towards a node's entries.
  Fill("u", 1, 10);
  EXPECT_EQ(c()({"XDEL", "u", "3-1", "4-1"}), Int(2));
  Fill("u", 11, 12);
  EXPECT_EQ(c()({"XTRIM", "u", "MAXLEN", "~", "2"}), Int(8));
  EXPECT_EQ(c()({"XLEN", "u"}), Int(2));
}

TEST_F(StreamTest, NodesAlsoEndAtTheirByteLimit) {
  EXPECT_EQ(c()({"CONFIG", "SET", "stream-node-max-bytes", "100"}), Status("OK"));
  std::string big(30, 'x');
  for (int i = 1; i <= 10; ++i) {
    ASSERT_EQ(c()({"XADD", "s", std::to_string(i) + "-1", "f", big}).type, Reply::Type::kBulk);
  }
  // Each node holds what fits in 100 bytes of listpack: whole nodes go.
  Reply trimmed = c()({"XTRIM", "s", "MAXLEN", "~", "5"});
  EXPECT_EQ(trimmed, Int(4));
  EXPECT_EQ(c()({"XLEN", "s"}), Int(6));
}

TEST_F(StreamTest, TrimArgumentErrors) {
  Fill("s", 1, 3);
  EXPECT_EQ(c()({"XTRIM", "s", "MAXLEN", "-1"}), Error("ERR The MAXLEN argument must be >= 0."));
  EXPECT_EQ(c()({"XTRIM", "s", "MAXLEN", "x"}),
            Error("ERR value is not an integer or out of range"));
  EXPECT_EQ(c()({"XTRIM", "s", "MAXLEN", "1", "LIMIT", "10"}),
            Error("ERR syntax error, LIMIT cannot be used without the special ~ option"));
  EXPECT_EQ(c()({"XTRIM", "s", "MAXLEN", "~", "1", "LIMIT", "-1"}),
            Error("ERR The LIMIT argument must be >= 0."));
  EXPECT_EQ(c()({"XTRIM", "s", "MAXLEN", "1", "MINID", "1"}),
            Error("ERR syntax error, MAXLEN and MINID options at the same time are not compatible"));
  EXPECT_EQ(c()({"XTRIM", "s", "LIMIT", "10", "x"}), Error("ERR syntax error"));
  EXPECT_EQ(c()({"XTRIM", "s", "FOO", "1"}), Error("ERR syntax error"));
  EXPECT_EQ(c()({"XTRIM", "s", "MINID", "-"}), Error(kBadId));
  EXPECT_EQ(c()({"XADD", "s", "LIMIT", "10", "*", "a", "1"}),
            Error("ERR syntax error, LIMIT cannot be used without specifying a trimming strategy"));
  EXPECT_EQ(c()({"XLEN", "s"}), Int(3));
}

TEST_F(StreamTest, XRangeIntervalsAndCount) {
  Fill("s", 1, 5);
  EXPECT_EQ(c()({"XRANGE", "s", "(2-1", "(4-1"}), Array({Entry("3-1", {"f", "3"})}));
  EXPECT_EQ(c()({"XRANGE", "s", "2", "3"}),
            Array({Entry("2-1", {"f", "2"}), Entry("3-1", {"f", "3"})}));
  EXPECT_EQ(c()({"XREVRANGE", "s", "(5-1", "(3-1"}), Array({Entry("4-1", {"f", "4"})}));
  EXPECT_EQ(c()({"XRANGE", "s", "-", "+", "COUNT", "2"}),
            Array({Entry("1-1", {"f", "1"}), Entry("2-1", {"f", "2"})}));
  EXPECT_EQ(c().Raw({"XRANGE", "s", "-", "+", "COUNT", "0"}), "*-1\r\n");
  EXPECT_EQ(c().Raw({"XRANGE", "s", "-", "+", "COUNT", "-3"}), "*-1\r\n");
  EXPECT_EQ(c()({"XRANGE", "s", "4", "2"}), Array({}));
  EXPECT_EQ(c()({"XRANGE", "missing", "-", "+"}), Array({}));
  EXPECT_EQ(c()({"XRANGE", "s", "(-", "+"}), Error(kBadId));
  EXPECT_EQ(c()({"XRANGE", "s", "(18446744073709551615-18446744073709551615", "+"}),
            Error("ERR invalid start ID for the interval"));
  EXPECT_EQ(c()({"XRANGE", "s", "-", "(0-0"}), Error("ERR invalid end ID for the interval"));
  EXPECT_EQ(c()({"XRANGE", "s", "-", "+", "COUNT"}), Error("ERR syntax error"));
  EXPECT_EQ(c()({"XRANGE", "s", "x", "+"}), Error(kBadId));
}

TEST_F(StreamTest, XDelMarksEntriesDeleted) {
  Fill("s", 1, 4);
  EXPECT_EQ(c()({"XDEL", "s", "2-1", "3-1", "9-9"}), Int(2));
  EXPECT_EQ(c()({"XDEL", "s", "2-1"}), Int(0));
  EXPECT_EQ(c()({"XRANGE", "s", "-", "+"}),
            Array({Entry("1-1", {"f", "1"}), Entry("4-1", {"f", "4"})}));
  EXPECT_EQ(c()({"XDEL", "s", "1-1", "bad"}), Error(kBadId));
  EXPECT_EQ(c()({"XLEN", "s"}), Int(2));  // nothing deleted when an ID is invalid
  EXPECT_EQ(c()({"XDEL", "missing", "1-1"}), Int(0));
  EXPECT_EQ(c()({"XDEL", "s", "1-1", "4-1"}), Int(2));
  EXPECT_EQ(c()({"EXISTS", "s"}), Int(1));
  // The last ID stays: a smaller one cannot be added back.
  EXPECT_EQ(c()({"XADD", "s", "4-1", "f", "x"}),
            Error("ERR The ID specified in XADD is equal or smaller than the target stream top item"));
}

TEST_F(StreamTest, XSetId) {
  EXPECT_EQ(c()({"XSETID", "s", "1-1"}), Error("ERR no such key"));
  Fill("s", 1, 3);
  EXPECT_EQ(c()({"XSETID", "s", "2-1"}),
            Error("ERR The ID specified in XSETID is smaller than the target stream top item"));
  EXPECT_EQ(c()({"XSETID", "s", "3-1"}), Status("OK"));
  EXPECT_EQ(c()({"XSETID", "s", "9-9", "ENTRIESADDED", "2"}),
            Error("ERR The entries_added specified in XSETID is smaller than the target stream "
                  "length"));
  EXPECT_EQ(c()({"XSETID", "s", "9-9", "ENTRIESADDED", "-1"}),
            Error("ERR entries_added must be positive"));
  EXPECT_EQ(c()({"XSETID", "s", "9-9", "MAXDELETEDID", "10-0"}),
            Error("ERR The ID specified in XSETID is smaller than the provided "
                  "max_deleted_entry_id"));
  EXPECT_EQ(c()({"XSETID", "s", "9-9", "ENTRIESADDED"}), Error("ERR syntax error"));
  EXPECT_EQ(c()({"XSETID", "s", "+"}), Error(kBadId));
  EXPECT_EQ(c()({"XSETID", "s", "9-9", "ENTRIESADDED", "7", "MAXDELETEDID", "5-0"}),
            Status("OK"));
  EXPECT_EQ(c()({"XADD", "s", "9-9", "f", "x"}),
            Error("ERR The ID specified in XADD is equal or smaller than the target stream top item"));
  EXPECT_EQ(c()({"XADD", "s", "*", "f", "x"}).type, Reply::Type::kBulk);
}

}  // namespace
}  // namespace redlab::conformance

namespace redlab::conformance {
namespace {

std::string Hex(const std::string& s) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  for (unsigned char ch : s) {
    out.push_back(kDigits[ch >> 4]);
    out.push_back(kDigits[ch & 15]);
  }
  return out;
}

// DUMP writes RDB_TYPE_STREAM_LISTPACKS_2 as Redis 7.0 does, byte for byte: two nodes (the
// node limit set to 3 entries), an entry of other fields, a deleted one, XSETID's fields.
TEST_F(StreamTest, DumpWritesRedisBytesAndRestoreReadsThem) {
  EXPECT_EQ(c()({"CONFIG", "SET", "stream-node-max-entries", "3"}), Status("OK"));
  c()({"XADD", "s", "1-1", "a", "1", "b", "x"});
  c()({"XADD", "s", "1-2", "a", "2", "b", "y"});
  c()({"XADD", "s", "2-0", "c", "300000"});
  c()({"XADD", "s", "5-0", "a", "-7", "b", "zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz"});
  c()({"XADD", "s", "9-3", "a", "4"});
  EXPECT_EQ(c()({"XDEL", "s", "1-2"}), Int(1));
  EXPECT_EQ(c()({"XSETID", "s", "10-0", "ENTRIESADDED", "9"}), Status("OK"));
  Reply dump = c()({"DUMP", "s"});
  ASSERT_EQ(dump.type, Reply::Type::kBulk);
  EXPECT_EQ(Hex(dump.str), kStreamDumpHex);
  EXPECT_EQ(c()({"RESTORE", "t", "0", dump.str}), Status("OK"));
  EXPECT_EQ(c()({"XRANGE", "t", "-", "+"}), c()({"XRANGE", "s", "-", "+"}));
  EXPECT_EQ(c()({"DUMP", "t"}), dump);
  EXPECT_EQ(c()({"XADD", "t", "10-0", "f", "v"}),
            Error("ERR The ID specified in XADD is equal or smaller than the target stream top item"));
  // The restored nodes are the originals: the second takes one more entry, then a third starts.
  EXPECT_EQ(c()({"XADD", "t", "11-0", "f", "v"}), Bulk("11-0"));
  EXPECT_EQ(c()({"XADD", "t", "12-0", "f", "v"}), Bulk("12-0"));
  EXPECT_EQ(c()({"XTRIM", "t", "MAXLEN", "~", "1"}), Int(5));
  EXPECT_EQ(c()({"XLEN", "t"}), Int(1));
}

// Nodes change in place as Redis's listpacks do: an exact trim flags 30 entries deleted and the
// node's live count falls below 128 (a byte shorter), XDEL flags one more, an entry of other
// fields follows. The DUMP's length, RDB version and CRC64 (its last 10 bytes) pin its bytes.
TEST_F(StreamTest, TrimAndDeleteRewriteNodesAsRedis) {
  EXPECT_EQ(c()({"CONFIG", "SET", "stream-node-max-entries", "1000"}), Status("OK"));
  EXPECT_EQ(c()({"CONFIG", "SET", "stream-node-max-bytes", "0"}), Status("OK"));
  for (int i = 1; i <= 130; ++i) {
    std::string id = std::to_string(i) + "-1";
    ASSERT_EQ(c()({"XADD", "s", id, "f", std::to_string(i * 7), "g", "v"}), Bulk(id));
  }
  EXPECT_EQ(c()({"XTRIM", "s", "MAXLEN", "100"}), Int(30));
  EXPECT_EQ(c()({"XDEL", "s", "50-1"}), Int(1));
  EXPECT_EQ(c()({"XADD", "s", "200-1", "h", "1"}), Bulk("200-1"));
  EXPECT_EQ(c()({"XLEN", "s"}), Int(100));
  EXPECT_EQ(c()({"XREVRANGE", "s", "+", "-", "COUNT", "2"}),
            Array({Entry("200-1", {"h", "1"}), Entry("130-1", {"f", "910", "g", "v"})}));
  EXPECT_EQ(c()({"XRANGE", "s", "49-1", "51-1"}),
            Array({Entry("49-1", {"f", "343", "g", "v"}), Entry("51-1", {"f", "357", "g", "v"})}));
  Reply dump = c()({"DUMP", "s"});
  ASSERT_EQ(dump.type, Reply::Type::kBulk);
  EXPECT_EQ(dump.str.size(), 1142u);
  EXPECT_EQ(Hex(dump.str.substr(dump.str.size() - 10)), "0a004bd252763baba083");
}

}  // namespace
}  // namespace redlab::conformance
