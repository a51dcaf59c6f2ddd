#include "server/resp/writer.h"

#include <gtest/gtest.h>

namespace redlab::server::resp {
namespace {

TEST(WriterTest, Resp2Downgrades) {
  std::string out;
  ReplyWriter w(&out, 2);
  w.Null();
  w.NullArray();
  w.MapHeader(2);
  w.Double(1.5);
  w.Bool(true);
  EXPECT_EQ(out, "$-1\r\n*-1\r\n*4\r\n$3\r\n1.5\r\n:1\r\n");
}

TEST(WriterTest, Resp3Types) {
  std::string out;
  ReplyWriter w(&out, 3);
  w.Null();
  w.MapHeader(2);
  w.SetHeader(1);
  w.Double(3.0);
  w.Bool(false);
  w.Verbatim("hi");
  EXPECT_EQ(out, "_\r\n%2\r\n~1\r\n,3\r\n#f\r\n=6\r\ntxt:hi\r\n");
}

TEST(WriterTest, ErrorsGetErrUnlessTheyCarryACode) {
  std::string out;
  ReplyWriter w(&out, 2);
  w.Error("syntax error");
  w.Error("-WRONGTYPE Operation against a key holding the wrong kind of value");
  w.Error("bad\r\nline");
  EXPECT_EQ(out,
            "-ERR syntax error\r\n-WRONGTYPE Operation against a key holding the wrong kind of "
            "value\r\n-ERR bad  line\r\n");
}

TEST(WriterTest, DeferredArrayHeader) {
  std::string out = "+x\r\n";
  ReplyWriter w(&out, 2);
  size_t pos = w.BeginDeferred();
  w.Bulk("a");
  w.Bulk("b");
  w.EndDeferredArray(pos, 2);
  EXPECT_EQ(out, "+x\r\n*2\r\n$1\r\na\r\n$1\r\nb\r\n");
}

TEST(WriterTest, DoublesUse17SignificantDigits) {
  EXPECT_EQ(FormatDouble(0.1), "0.10000000000000001");
  EXPECT_EQ(FormatDouble(-1.0 / 0.0), "-inf");
  EXPECT_EQ(FormatDouble(10), "10");
}

}  // namespace
}  // namespace redlab::server::resp
