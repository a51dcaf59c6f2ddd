// A parsed RESP2/RESP3 reply, as the conformance suite compares them, plus a reader that turns
// bytes into replies. Independent of the server's own parser on purpose: the suite must not
// share code with what it checks.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace redlab::conformance {

struct Reply {
  enum class Type {
    kStatus,     // +OK
    kError,      // -ERR ...
    kInteger,    // :1
    kBulk,       // $3 foo
    kNil,        // $-1, *-1 or _
    kArray,      // *N
    kMap,        // %N (elements hold keys and values alternately)
    kSet,        // ~N
    kPush,       // >N
    kDouble,     // ,1.5
    kBool,       // #t
    kBigNumber,  // (123
    kVerbatim,   // =N txt:...
    kAttribute,  // |N: N key/value pairs of metadata, then the reply they describe (the last
                 // element)
  };
  Type type = Type::kNil;
  std::string str;      // status, error, bulk, double, big number, verbatim text
  int64_t integer = 0;  // integer; bool as 0/1
  std::vector<Reply> elements;

  bool is_error() const { return type == Type::kError; }
  // A compact rendering for test failure messages, e.g. [1, "a", (nil), ERR x].
  std::string Describe() const;
};

bool operator==(const Reply& a, const Reply& b);
std::ostream& operator<<(std::ostream& os, const Reply& r);

// Reads complete replies from a growing byte buffer.
class ReplyReader {
 public:
  // Parses one reply from the front of `buf`. Returns the number of bytes it used, or nullopt if
  // `buf` does not yet hold a complete reply. Throws std::runtime_error on malformed input.
  static std::optional<size_t> Parse(std::string_view buf, Reply* out);
};

}  // namespace redlab::conformance
