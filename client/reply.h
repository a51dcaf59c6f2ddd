// A server reply as a plain value the client owns (hiredis frees its own reply objects right
// after the callback), so replies can cross from the loop thread to the caller's thread.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

struct redisReply;

namespace redlab {

struct Reply {
  enum class Type { kNil, kStatus, kError, kInteger, kString, kArray };

  Type type = Type::kNil;
  std::string str;  // kStatus, kError, kString
  int64_t integer = 0;
  std::vector<Reply> elements;  // kArray

  static Reply FromHiredis(const redisReply& r);
  static Reply Nil() { return Reply{}; }
  static Reply Integer(int64_t v);
  static Reply String(std::string s);
  static Reply Error(std::string s);

  bool is_nil() const { return type == Type::kNil; }
  bool is_error() const { return type == Type::kError; }
  bool operator==(const Reply&) const = default;
  /// Redis-cli-like rendering, for messages and test output.
  std::string ToString() const;
};

/// The value of `field` in an INFO reply ("connected_slaves" -> "1"), if present.
std::optional<std::string> InfoField(std::string_view info, std::string_view field);

}  // namespace redlab
