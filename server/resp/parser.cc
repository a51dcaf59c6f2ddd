#include "server/resp/parser.h"

#include <algorithm>
#include <climits>
#include <cstring>

#include "server/base/numbers.h"

namespace redlab::server::resp {
namespace {

// Redis refuses unauthenticated requests bigger than these before it has read them.
constexpr int64_t kUnauthMultibulkMax = 10;
constexpr int64_t kUnauthBulkMax = 16384;

// Where `c` is in a header or inline line, as Redis's strchr finds it: not past a NUL byte, which
// ends the search (the line then never completes, until the size limits refuse it). Only the
// line before `c` is searched for a NUL, not the rest of the input: a pipeline of many requests
// would otherwise be scanned to its end for every header line.
size_t FindInLine(std::string_view input, char c) {
  if (input.empty()) return std::string_view::npos;
  const void* found = std::memchr(input.data(), c, input.size());
  if (found == nullptr) return std::string_view::npos;
  size_t at = static_cast<size_t>(static_cast<const char*>(found) - input.data());
  return std::memchr(input.data(), '\0', at) != nullptr ? std::string_view::npos : at;
}

// The number of a "<type><digits>\r" header line ("*3\r", "$16\r") in one pass, as ParseInt64
// would read the digits (no sign, no leading zero; up to 18 digits, so no overflow). False for
// any other line: the general path (FindInLine, ParseInt64) then decides, so the outcome is the
// same either way; this only spares the common line two scans and a call.
bool ParseHeaderFast(std::string_view line, int64_t* value, size_t* cr) {
  if (line.size() < 3 || line[1] < '0' || line[1] > '9') return false;
  int64_t v = line[1] - '0';
  size_t end = std::min<size_t>(line.size(), 19);  // digits at [1, 18]: at most 18 of them
  for (size_t i = 2; i < end; ++i) {
    char c = line[i];
    if (c == '\r') {
      *value = v;
      *cr = i;
      return true;
    }
    if (c < '0' || c > '9' || v == 0) return false;  // a digit after a leading zero
    v = v * 10 + (c - '0');
  }
  return false;
}

bool IsSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}
bool IsHexDigit(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return c - 'A' + 10;
}

}  // namespace

bool SplitInlineArgs(std::string_view line, ArgList* args) {
  // Redis splits a C string: a NUL byte ends the line.
  if (size_t nul = line.find('\0'); nul != std::string_view::npos) line = line.substr(0, nul);
  const char* p = line.data();
  const char* end = p + line.size();
  auto at = [&](const char* q) { return q < end ? *q : '\0'; };
  args->Clear();
  while (true) {
    while (p < end && IsSpace(*p)) ++p;
    if (p >= end) return true;
    std::string& current = args->AppendEmpty();
    bool in_double = false, in_single = false, done = false;
    while (!done) {
      char c = at(p);
      if (in_double) {
        if (c == '\\' && at(p + 1) == 'x' && IsHexDigit(at(p + 2)) && IsHexDigit(at(p + 3))) {
          current.push_back(static_cast<char>(HexValue(at(p + 2)) * 16 + HexValue(at(p + 3))));
          p += 3;
        } else if (c == '\\' && at(p + 1) != '\0') {
          ++p;
          switch (*p) {
            case 'n':
              current.push_back('\n');
              break;
            case 'r':
              current.push_back('\r');
              break;
            case 't':
              current.push_back('\t');
              break;
            case 'b':
              current.push_back('\b');
              break;
            case 'a':
              current.push_back('\a');
              break;
            default:
              current.push_back(*p);
              break;
          }
        } else if (c == '"') {
          // A closing quote must be followed by a space or the end of the line.
          if (at(p + 1) != '\0' && !IsSpace(at(p + 1))) return false;
          done = true;
        } else if (c == '\0') {
          return false;  // unterminated quotes
        } else {
          current.push_back(c);
        }
      } else if (in_single) {
        if (c == '\\' && at(p + 1) == '\'') {
          ++p;
          current.push_back('\'');
        } else if (c == '\'') {
          if (at(p + 1) != '\0' && !IsSpace(at(p + 1))) return false;
          done = true;
        } else if (c == '\0') {
          return false;
        } else {
          current.push_back(c);
        }
      } else {
        switch (c) {
          case ' ':
          case '\n':
          case '\r':
          case '\t':
          case '\0':
            done = true;
            break;
          case '"':
            in_double = true;
            break;
          case '\'':
            in_single = true;
            break;
          default:
            current.push_back(c);
            break;
        }
      }
      if (p < end) ++p;
    }
  }
}

void RequestParser::Reset() {
  multibulk_left_ = 0;
  bulk_len_ = -1;
  error_.clear();
}

ParseStatus RequestParser::Fail(std::string message) {
  error_ = std::move(message);
  multibulk_left_ = 0;
  bulk_len_ = -1;
  return ParseStatus::kError;
}

ParseStatus RequestParser::Parse(std::string_view input, const ParseLimits& limits,
                                 size_t* consumed, ArgList* args) {
  *consumed = 0;
  if (multibulk_left_ > 0) return ParseMultibulk(input, limits, consumed, args);
  if (input.empty()) return ParseStatus::kNeedMore;
  if (input[0] == '*') return ParseMultibulk(input, limits, consumed, args);
  return ParseInline(input, consumed, args);
}

ParseStatus RequestParser::ParseInline(std::string_view input, size_t* consumed, ArgList* args) {
  size_t newline = FindInLine(input, '\n');
  if (newline == std::string_view::npos) {
    if (input.size() > kInlineMaxSize) return Fail("Protocol error: too big inline request");
    return ParseStatus::kNeedMore;
  }
  size_t line_end = newline;
  if (line_end > 0 && input[line_end - 1] == '\r') --line_end;
  if (!SplitInlineArgs(input.substr(0, line_end), args)) {
    return Fail("Protocol error: unbalanced quotes in request");
  }
  *consumed = newline + 1;
  return ParseStatus::kCommand;
}

ParseStatus RequestParser::ParseMultibulk(std::string_view input, const ParseLimits& limits,
                                          size_t* consumed, ArgList* args) {
  size_t pos = 0;
  if (multibulk_left_ == 0) {
    args->Clear();
    int64_t count = 0;
    size_t cr = 0;
    if (!ParseHeaderFast(input, &count, &cr)) {
      cr = FindInLine(input, '\r');
      if (cr == std::string_view::npos) {
        if (input.size() > kInlineMaxSize) {
          return Fail("Protocol error: too big mbulk count string");
        }
        return ParseStatus::kNeedMore;
      }
      if (cr + 1 >= input.size()) return ParseStatus::kNeedMore;  // the '\n' has not arrived
      if (!ParseInt64(input.substr(1, cr - 1), &count)) {
        return Fail("Protocol error: invalid multibulk length");
      }
    }
    if (cr + 1 >= input.size()) return ParseStatus::kNeedMore;
    if (count > INT_MAX) return Fail("Protocol error: invalid multibulk length");
    if (count > kUnauthMultibulkMax && limits.auth_required) {
      return Fail("Protocol error: unauthenticated multibulk length");
    }
    pos = cr + 2;
    if (count <= 0) {  // "*0" and negative counts are skipped, as Redis does
      *consumed = pos;
      return ParseStatus::kCommand;
    }
    multibulk_left_ = count;
    bulk_len_ = -1;
  }

  while (multibulk_left_ > 0) {
    if (bulk_len_ == -1) {
      std::string_view rest = input.substr(pos);
      int64_t len = 0;
      size_t cr = 0;
      if (rest.empty() || rest[0] != '$' || !ParseHeaderFast(rest, &len, &cr)) {
        cr = FindInLine(rest, '\r');
        if (cr == std::string_view::npos) {
          if (rest.size() > kInlineMaxSize) {
            return Fail("Protocol error: too big bulk count string");
          }
          break;
        }
        if (cr + 1 >= rest.size()) break;
        if (rest[0] != '$') {
          return Fail(std::string("Protocol error: expected '$', got '") + rest[0] + "'");
        }
        if (!ParseInt64(rest.substr(1, cr - 1), &len) || len < 0) {
          return Fail("Protocol error: invalid bulk length");
        }
      }
      if (cr + 1 >= rest.size()) break;
      if (len > limits.proto_max_bulk_len) return Fail("Protocol error: invalid bulk length");
      if (len > kUnauthBulkMax && limits.auth_required) {
        return Fail("Protocol error: unauthenticated bulk length");
      }
      pos += cr + 2;
      bulk_len_ = len;
    }
    // Redis consumes the two bytes after the payload without checking they are "\r\n".
    if (input.size() - pos < static_cast<size_t>(bulk_len_) + 2) break;
    args->Append(input.substr(pos, static_cast<size_t>(bulk_len_)));
    pos += static_cast<size_t>(bulk_len_) + 2;
    bulk_len_ = -1;
    --multibulk_left_;
  }
  *consumed = pos;
  return multibulk_left_ == 0 ? ParseStatus::kCommand : ParseStatus::kNeedMore;
}

}  // namespace redlab::server::resp
