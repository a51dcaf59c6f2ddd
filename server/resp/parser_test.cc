#include "server/resp/parser.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace redlab::server::resp {
namespace {

struct Result {
  ParseStatus status;
  std::vector<std::string> args;
  size_t consumed;
};

Result ParseOnce(std::string_view input, ParseLimits limits = {}) {
  RequestParser parser;
  ArgList args;
  size_t consumed = 0;
  ParseStatus status = parser.Parse(input, limits, &consumed, &args);
  Result r{status, {}, consumed};
  for (const auto& a : args.span()) r.args.push_back(a);
  return r;
}

// `input` parses as a request of no arguments (one Redis skips), `consumed` bytes long.
void ExpectNoArguments(std::string_view input, size_t consumed) {
  SCOPED_TRACE(input);
  Result r = ParseOnce(input);
  EXPECT_EQ(r.status, ParseStatus::kCommand);
  EXPECT_TRUE(r.args.empty());
  EXPECT_EQ(r.consumed, consumed);
}

TEST(ParserTest, MultibulkRequest) {
  Result r = ParseOnce("*2\r\n$3\r\nGET\r\n$1\r\nk\r\n");
  EXPECT_EQ(r.status, ParseStatus::kCommand);
  EXPECT_EQ(r.args, (std::vector<std::string>{"GET", "k"}));
  EXPECT_EQ(r.consumed, 20u);
}

TEST(ParserTest, BinarySafeBulk) {
  std::string input("*1\r\n$3\r\na\0b\r\n", 13);
  Result r = ParseOnce(input);
  ASSERT_EQ(r.status, ParseStatus::kCommand);
  EXPECT_EQ(r.args[0], std::string("a\0b", 3));
}

TEST(ParserTest, PipelinedRequestsOneAtATime) {
  std::string input = "*1\r\n$4\r\nPING\r\n*1\r\n$4\r\nPING\r\n";
  RequestParser parser;
  ArgList args;
  size_t consumed = 0;
  ASSERT_EQ(parser.Parse(input, {}, &consumed, &args), ParseStatus::kCommand);
  EXPECT_EQ(consumed, 14u);
  ASSERT_EQ(parser.Parse(std::string_view(input).substr(consumed), {}, &consumed, &args),
            ParseStatus::kCommand);
  EXPECT_EQ(consumed, 14u);
}

TEST(ParserTest, RequestSplitAtEveryByteBoundary) {
  std::string input = "*3\r\n$3\r\nSET\r\n$3\r\nkey\r\n$5\r\nvalue\r\n";
  for (size_t split = 1; split < input.size(); ++split) {
    RequestParser parser;
    ArgList args;
    std::string buffer = input.substr(0, split);
    size_t consumed = 0;
    ParseStatus s = parser.Parse(buffer, {}, &consumed, &args);
    ASSERT_EQ(s, ParseStatus::kNeedMore) << "split at " << split;
    buffer.erase(0, consumed);
    buffer += input.substr(split);
    s = parser.Parse(buffer, {}, &consumed, &args);
    ASSERT_EQ(s, ParseStatus::kCommand) << "split at " << split;
    EXPECT_EQ(consumed, buffer.size());
    ASSERT_EQ(args.size(), 3u);
    EXPECT_EQ(args[2], "value");
  }
}

TEST(ParserTest, InlineRequestWithQuotes) {
  Result r = ParseOnce("set \"a b\" 'c\\'d' \"\\x41\\n\"\r\n");
  ASSERT_EQ(r.status, ParseStatus::kCommand);
  EXPECT_EQ(r.args, (std::vector<std::string>{"set", "a b", "c'd", "A\n"}));
}

TEST(ParserTest, InlineEmptyLineYieldsNoArguments) { ExpectNoArguments("\r\n", 2); }

TEST(ParserTest, InlineUnbalancedQuotes) {
  Result r = ParseOnce("set \"a\r\n");
  EXPECT_EQ(r.status, ParseStatus::kError);
}

TEST(ParserTest, InlineClosingQuoteMustBeFollowedBySpace) {
  EXPECT_EQ(ParseOnce("get \"a\"b\r\n").status, ParseStatus::kError);
}

TEST(ParserTest, NegativeAndZeroMultibulkAreSkipped) { ExpectNoArguments("*-10\r\n", 6); }

TEST(ParserTest, ProtocolErrorsUseRedisTexts) {
  RequestParser parser;
  ArgList args;
  size_t consumed = 0;
  EXPECT_EQ(parser.Parse("*20000000000\r\n", {}, &consumed, &args), ParseStatus::kError);
  EXPECT_EQ(parser.error(), "Protocol error: invalid multibulk length");
  EXPECT_EQ(parser.Parse("*3\r\n$3\r\nSET\r\n$1\r\nx\r\nfooz\r\n", {}, &consumed, &args),
            ParseStatus::kError);
  EXPECT_EQ(parser.error(), "Protocol error: expected '$', got 'f'");
  parser.Reset();
  EXPECT_EQ(parser.Parse("*1\r\n$-5\r\n", {}, &consumed, &args), ParseStatus::kError);
  EXPECT_EQ(parser.error(), "Protocol error: invalid bulk length");
  parser.Reset();
  ParseLimits small;
  small.proto_max_bulk_len = 10;
  EXPECT_EQ(parser.Parse("*1\r\n$11\r\n", small, &consumed, &args), ParseStatus::kError);
  EXPECT_EQ(parser.error(), "Protocol error: invalid bulk length");
}

// Header numbers are read as Redis's string2ll reads them, whatever their length: no leading
// zero, no sign, no overflow.
TEST(ParserTest, HeaderNumbersAsString2ll) {
  auto error_of = [](std::string_view input) {
    RequestParser parser;
    ArgList args;
    size_t consumed = 0;
    EXPECT_EQ(parser.Parse(input, {}, &consumed, &args), ParseStatus::kError) << input;
    return parser.error();
  };
  EXPECT_EQ(error_of("*03\r\n"), "Protocol error: invalid multibulk length");
  EXPECT_EQ(error_of("*+3\r\n"), "Protocol error: invalid multibulk length");
  EXPECT_EQ(error_of("*1000000000000000000\r\n"), "Protocol error: invalid multibulk length");
  EXPECT_EQ(error_of("*1\r\n$03\r\nabc\r\n"), "Protocol error: invalid bulk length");
  EXPECT_EQ(error_of("*1\r\n$999999999999999999\r\n"), "Protocol error: invalid bulk length");
  EXPECT_EQ(error_of("*1\r\n$99999999999999999999\r\n"), "Protocol error: invalid bulk length");
  // 19 and 20 digits: past what the fast header path reads, left to the general one.
  EXPECT_EQ(error_of("*9999999999999999999\r\n"), "Protocol error: invalid multibulk length");
  EXPECT_EQ(error_of("*1\r\n$9223372036854775808\r\n"), "Protocol error: invalid bulk length");
  EXPECT_EQ(error_of("*1\r\n$1x\r\na\r\n"), "Protocol error: invalid bulk length");
  Result empty = ParseOnce("*1\r\n$0\r\n\r\n");
  EXPECT_EQ(empty.status, ParseStatus::kCommand);
  EXPECT_EQ(empty.args, (std::vector<std::string>{""}));
  EXPECT_EQ(empty.consumed, 10u);
  // A header whose '\n' has not arrived waits for it.
  EXPECT_EQ(ParseOnce("*1\r").status, ParseStatus::kNeedMore);
  EXPECT_EQ(ParseOnce("*1\r\n$3\r").status, ParseStatus::kNeedMore);
}

TEST(ParserTest, UnauthenticatedLimits) {
  ParseLimits unauth;
  unauth.auth_required = true;
  RequestParser parser;
  ArgList args;
  size_t consumed = 0;
  EXPECT_EQ(parser.Parse("*11\r\n", unauth, &consumed, &args), ParseStatus::kError);
  EXPECT_EQ(parser.error(), "Protocol error: unauthenticated multibulk length");
  parser.Reset();
  EXPECT_EQ(parser.Parse("*1\r\n$16385\r\n", unauth, &consumed, &args), ParseStatus::kError);
  EXPECT_EQ(parser.error(), "Protocol error: unauthenticated bulk length");
}

TEST(ParserTest, TooBigInlineAndCountLines) {
  std::string big(kInlineMaxSize + 1, 'a');
  Result r = ParseOnce(big);
  EXPECT_EQ(r.status, ParseStatus::kError);
  RequestParser parser;
  ArgList args;
  size_t consumed = 0;
  EXPECT_EQ(parser.Parse("*" + big, {}, &consumed, &args), ParseStatus::kError);
  EXPECT_EQ(parser.error(), "Protocol error: too big mbulk count string");
}

// Redis finds the end of an inline or header line with strchr: a NUL byte hides the newline,
// so the request waits for more input, until the line passes the size limit.
TEST(ParserTest, NulByteHidesTheEndOfALine) {
  using namespace std::string_literals;
  EXPECT_EQ(ParseOnce("PING\0x\r\n"s).status, ParseStatus::kNeedMore);
  EXPECT_EQ(ParseOnce("*1\0\r\n$4\r\nPING\r\n"s).status, ParseStatus::kNeedMore);
  EXPECT_EQ(ParseOnce("*1\r\n$4\0\r\nPING\r\n"s).status, ParseStatus::kNeedMore);
  EXPECT_EQ(ParseOnce("PING\0"s + std::string(kInlineMaxSize, 'a') + "\r\n").status,
            ParseStatus::kError);
  // Inside a bulk string a NUL is data like any byte.
  Result r = ParseOnce("*2\r\n$4\r\nECHO\r\n$3\r\na\0b\r\n"s);
  EXPECT_EQ(r.status, ParseStatus::kCommand);
  EXPECT_EQ(r.args, (std::vector<std::string>{"ECHO", "a\0b"s}));
  // Only a NUL inside the line counts: one further on (in a later request's bulk) does not.
  Result first = ParseOnce("*1\r\n$4\r\nPING\r\n*2\r\n$4\r\nECHO\r\n$1\r\n\0\r\n"s);
  EXPECT_EQ(first.status, ParseStatus::kCommand);
  EXPECT_EQ(first.args, (std::vector<std::string>{"PING"}));
  EXPECT_EQ(first.consumed, 14u);
}

}  // namespace
}  // namespace redlab::server::resp
