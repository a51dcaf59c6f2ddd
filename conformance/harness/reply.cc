#include "conformance/harness/reply.h"

#include <algorithm>
#include <ostream>
#include <stdexcept>
#include <vector>

namespace redlab::conformance {
namespace {

std::optional<size_t> Line(std::string_view buf, size_t pos, std::string_view* line) {
  size_t end = buf.find("\r\n", pos);
  if (end == std::string_view::npos) return std::nullopt;
  *line = buf.substr(pos, end - pos);
  return end + 2;
}

// Parses one reply header (and a bulk's payload) at `pos`. For aggregates it sets *children to
// the number of elements that follow. Returns the position after what it read.
std::optional<size_t> ParseHeader(std::string_view buf, size_t pos, Reply* out, int64_t* children) {
  *children = 0;
  if (pos >= buf.size()) return std::nullopt;
  char prefix = buf[pos];
  std::string_view line;
  auto next = Line(buf, pos + 1, &line);
  if (!next) return std::nullopt;
  auto aggregate = [&](Reply::Type type, int64_t count) -> std::optional<size_t> {
    out->type = type;
    *children = count;
    return next;
  };
  // A reply whose value is the line itself.
  auto text = [&](Reply::Type type) -> std::optional<size_t> {
    out->type = type;
    out->str = line;
    return next;
  };
  switch (prefix) {
    case '+':
      return text(Reply::Type::kStatus);
    case '-':
      return text(Reply::Type::kError);
    case ':':
      out->type = Reply::Type::kInteger;
      out->integer = std::stoll(std::string(line));
      return next;
    case ',':
      return text(Reply::Type::kDouble);
    case '(':
      return text(Reply::Type::kBigNumber);
    case '#':
      out->type = Reply::Type::kBool;
      out->integer = line == "t";
      return next;
    case '_':
      out->type = Reply::Type::kNil;
      return next;
    case '$':
    case '=': {
      int64_t len = std::stoll(std::string(line));
      if (len < 0) {
        out->type = Reply::Type::kNil;
        return next;
      }
      if (buf.size() < *next + static_cast<size_t>(len) + 2) return std::nullopt;
      out->type = prefix == '$' ? Reply::Type::kBulk : Reply::Type::kVerbatim;
      out->str = buf.substr(*next, static_cast<size_t>(len));
      return *next + static_cast<size_t>(len) + 2;
    }
    case '*': {
      int64_t n = std::stoll(std::string(line));
      if (n < 0) {
        out->type = Reply::Type::kNil;
        return next;
      }
      return aggregate(Reply::Type::kArray, n);
    }
    case '%':
      return aggregate(Reply::Type::kMap, 2 * std::stoll(std::string(line)));
    case '~':
      return aggregate(Reply::Type::kSet, std::stoll(std::string(line)));
    case '>':
      return aggregate(Reply::Type::kPush, std::stoll(std::string(line)));
    case '|':
      return aggregate(Reply::Type::kAttribute, 2 * std::stoll(std::string(line)) + 1);
    default:
      throw std::runtime_error(std::string("malformed reply, prefix '") + prefix + "'");
  }
}

// Iterative, so deeply nested replies (scripts can build them) do not exhaust the stack.
std::optional<size_t> ParseAt(std::string_view buf, size_t pos, Reply* root) {
  struct Frame {
    Reply* reply;
    int64_t left;
  };
  std::vector<Frame> stack;
  int64_t children = 0;
  auto at = ParseHeader(buf, pos, root, &children);
  if (!at) return std::nullopt;
  if (children > 0) {
    root->elements.reserve(static_cast<size_t>(std::min<int64_t>(children, 1 << 16)));
    stack.push_back({root, children});
  }
  while (!stack.empty()) {
    Frame& top = stack.back();
    if (top.left == 0) {
      stack.pop_back();
      continue;
    }
    --top.left;
    top.reply->elements.emplace_back();
    Reply* child = &top.reply->elements.back();
    at = ParseHeader(buf, *at, child, &children);
    if (!at) return std::nullopt;
    if (children > 0) stack.push_back({child, children});
  }
  return at;
}

}  // namespace

std::optional<size_t> ReplyReader::Parse(std::string_view buf, Reply* out) {
  return ParseAt(buf, 0, out);
}

bool operator==(const Reply& a, const Reply& b) {
  return a.type == b.type && a.str == b.str && a.integer == b.integer && a.elements == b.elements;
}

std::string Reply::Describe() const {
  auto list = [&](std::string open, std::string close) {
    std::string s = open;
    for (size_t i = 0; i < elements.size(); ++i) {
      if (i) s += ", ";
      s += elements[i].Describe();
    }
    return s + close;
  };
  switch (type) {
    case Type::kStatus:
      return str;
    case Type::kError:
      return "(error) " + str;
    case Type::kInteger:
      return "(integer) " + std::to_string(integer);
    case Type::kBulk:
      return "\"" + str + "\"";
    case Type::kNil:
      return "(nil)";
    case Type::kArray:
      return list("[", "]");
    case Type::kMap:
      return list("%{", "}");
    case Type::kSet:
      return list("~{", "}");
    case Type::kPush:
      return list(">[", "]");
    case Type::kAttribute:
      return list("|[", "]");
    case Type::kDouble:
      return "(double) " + str;
    case Type::kBool:
      return integer ? "(true)" : "(false)";
    case Type::kBigNumber:
      return "(big) " + str;
    case Type::kVerbatim:
      return "(verbatim) " + str;
  }
  return "?";
}

std::ostream& operator<<(std::ostream& os, const Reply& r) { return os << r.Describe(); }

}  // namespace redlab::conformance
