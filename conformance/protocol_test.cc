// The RESP protocol over the wire: inline and multibulk requests, pipelining, and Redis's
// protocol errors (reply, then close).
#include "conformance/harness/fixture.h"

namespace redlab::conformance {
namespace {

class ProtocolTest : public ConformanceTest {};

TEST_F(ProtocolTest, InlineCommands) {
  c().Send("SET k \"a b\"\r\nGET k\r\n");
  EXPECT_EQ(c().ReadRaw(), "+OK\r\n");
  EXPECT_EQ(c().ReadRaw(), "$3\r\na b\r\n");
  c().Send("PING\n");  // a bare \n ends an inline request too
  EXPECT_EQ(c().ReadRaw(), "+PONG\r\n");
}

TEST_F(ProtocolTest, EmptyQueriesAreIgnored) {
  c().Send("\r\n");
  c().Send("*0\r\n");
  c().Send("*-10\r\n");
  EXPECT_EQ(c().Raw({"PING"}), "+PONG\r\n");
}

TEST_F(ProtocolTest, Pipelining) {
  std::string batch;
  for (int i = 0; i < 100; ++i) batch += Client::Encode({"SET", "k" + std::to_string(i), "v"});
  for (int i = 0; i < 100; ++i) batch += Client::Encode({"GET", "k" + std::to_string(i)});
  c().Send(batch);
  for (int i = 0; i < 100; ++i) ASSERT_EQ(c().ReadRaw(), "+OK\r\n");
  for (int i = 0; i < 100; ++i) ASSERT_EQ(c().ReadRaw(), "$1\r\nv\r\n");
}

TEST_F(ProtocolTest, RequestSentByteByByte) {
  std::string req = Client::Encode({"SET", "slow", "value"});
  for (char ch : req) c().Send(std::string(1, ch));
  EXPECT_EQ(c().ReadRaw(), "+OK\r\n");
  EXPECT_EQ(c()({"GET", "slow"}), Bulk("value"));
}

TEST_F(ProtocolTest, LargeValue) {
  std::string big(3 * 1024 * 1024, 'x');
  big[12345] = '\0';
  EXPECT_EQ(c()({"SET", "big", big}), Status("OK"));
  EXPECT_EQ(c()({"GET", "big"}), Bulk(big));
}

TEST_F(ProtocolTest, InvalidMultibulkLength) {
  c().Send("*20000000000\r\n");
  EXPECT_EQ(c().ReadUntilClosed(), "-ERR Protocol error: invalid multibulk length\r\n");
}

TEST_F(ProtocolTest, ExpectedDollar) {
  c().Send("*3\r\n$3\r\nSET\r\n$1\r\nx\r\nfooz\r\n");
  EXPECT_EQ(c().ReadUntilClosed(), "-ERR Protocol error: expected '$', got 'f'\r\n");
}

TEST_F(ProtocolTest, InvalidBulkLength) {
  c().Send("*3\r\n$3\r\nSET\r\n$1\r\nx\r\n$-10\r\n");
  EXPECT_EQ(c().ReadUntilClosed(), "-ERR Protocol error: invalid bulk length\r\n");
}

TEST_F(ProtocolTest, BulkLongerThanProtoMaxBulkLen) {
  c().Send("*1\r\n$2147483648\r\n");
  EXPECT_EQ(c().ReadUntilClosed(), "-ERR Protocol error: invalid bulk length\r\n");
}

TEST_F(ProtocolTest, UnbalancedQuotes) {
  c().Send("SET \"unterminated\r\n");
  EXPECT_EQ(c().ReadUntilClosed(), "-ERR Protocol error: unbalanced quotes in request\r\n");
}

TEST_F(ProtocolTest, TooBigInlineRequest) {
  c().Send(std::string(70000, 'a'));
  EXPECT_EQ(c().ReadUntilClosed(), "-ERR Protocol error: too big inline request\r\n");
}

// A NUL byte ends Redis's search for the newline: the request never completes, and what
// follows it only fills the line up to the size limit.
TEST_F(ProtocolTest, NulByteInAnInlineRequestHidesItsEnd) {
  using namespace std::string_literals;
  c().Send("PING\0x\r\n"s + std::string(70000, 'a'));
  EXPECT_EQ(c().ReadUntilClosed(), "-ERR Protocol error: too big inline request\r\n");
}

TEST_F(ProtocolTest, TooBigMultibulkCount) {
  c().Send("*" + std::string(70000, '1'));
  EXPECT_EQ(c().ReadUntilClosed(), "-ERR Protocol error: too big mbulk count string\r\n");
}

TEST_F(ProtocolTest, TooBigBulkCount) {
  c().Send("*1\r\n$" + std::string(70000, '1'));
  EXPECT_EQ(c().ReadUntilClosed(), "-ERR Protocol error: too big bulk count string\r\n");
}

TEST_F(ProtocolTest, RepliesBeforeTheErrorAreDelivered) {
  c().Send("PING\r\n*1\r\nfoo\r\n");
  EXPECT_EQ(c().ReadUntilClosed(), "+PONG\r\n-ERR Protocol error: expected '$', got 'f'\r\n");
}

class UnauthenticatedProtocolTest : public ::testing::Test {
 protected:
  void SetUp() override { server_ = StartServer({.requirepass = "pw"}); }
  std::unique_ptr<Server> server_;
};

TEST_F(UnauthenticatedProtocolTest, LimitsBeforeAuth) {
  Client a(server_->port());
  a.Send("*20\r\n");
  EXPECT_EQ(a.ReadUntilClosed(), "-ERR Protocol error: unauthenticated multibulk length\r\n");
  Client b(server_->port());
  b.Send("*1\r\n$100000\r\n");
  EXPECT_EQ(b.ReadUntilClosed(), "-ERR Protocol error: unauthenticated bulk length\r\n");
  Client ok(server_->port());
  EXPECT_EQ(ok({"AUTH", "pw"}), Status("OK"));
  EXPECT_EQ(ok({"ECHO", std::string(100000, 'z')}), Bulk(std::string(100000, 'z')));
}

}  // namespace
}  // namespace redlab::conformance
