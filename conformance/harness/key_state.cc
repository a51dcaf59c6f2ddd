#include "conformance/harness/key_state.h"

#include <algorithm>
#include <stdexcept>
#include <utility>

namespace redlab::conformance {
namespace {

std::vector<std::string> Strings(const Reply& r, const std::string& what) {
  if (r.type != Reply::Type::kArray) throw std::runtime_error(what + " answered " + r.Describe());
  std::vector<std::string> out;
  out.reserve(r.elements.size());
  for (const Reply& e : r.elements) out.push_back(e.str);
  return out;
}

// Sorts a flat field, value, ... list by field.
std::vector<std::string> SortPairs(const std::vector<std::string>& flat) {
  std::vector<std::pair<std::string, std::string>> pairs;
  for (size_t i = 0; i + 1 < flat.size(); i += 2) pairs.emplace_back(flat[i], flat[i + 1]);
  std::sort(pairs.begin(), pairs.end());
  std::vector<std::string> out;
  for (auto& [f, v] : pairs) {
    out.push_back(std::move(f));
    out.push_back(std::move(v));
  }
  return out;
}

}  // namespace

bool operator==(const KeyState& a, const KeyState& b) {
  return a.type == b.type && a.items == b.items && a.pttl == b.pttl;
}

std::ostream& operator<<(std::ostream& os, const KeyState& s) {
  os << s.type << " [";
  for (size_t i = 0; i < s.items.size(); ++i) os << (i ? ", " : "") << '"' << s.items[i] << '"';
  return os << "] pttl " << s.pttl;
}

KeyState ReadKeyState(Client& c, const std::string& key) {
  KeyState s;
  s.type = c({"TYPE", key}).str;
  if (s.type == "string") {
    s.items = {c({"GET", key}).str};
  } else if (s.type == "hash") {
    s.items = SortPairs(Strings(c({"HGETALL", key}), "HGETALL"));
  } else if (s.type == "list") {
    s.items = Strings(c({"LRANGE", key, "0", "-1"}), "LRANGE");
  } else if (s.type == "set") {
    s.items = Strings(c({"SMEMBERS", key}), "SMEMBERS");
    std::sort(s.items.begin(), s.items.end());
  } else if (s.type == "zset") {
    s.items = Strings(c({"ZRANGE", key, "0", "-1", "WITHSCORES"}), "ZRANGE");
  }
  s.pttl = c({"PTTL", key}).integer;
  return s;
}

::testing::AssertionResult KeyIs(Client& c, const std::string& key, const KeyState& expected,
                                 int64_t tolerance_ms) {
  KeyState actual = ReadKeyState(c, key);
  bool ttl_ok = expected.pttl < 0
                    ? actual.pttl == expected.pttl
                    : actual.pttl > expected.pttl - tolerance_ms && actual.pttl <= expected.pttl;
  if (actual.type == expected.type && actual.items == expected.items && ttl_ok) {
    return ::testing::AssertionSuccess();
  }
  ::testing::AssertionResult failure = ::testing::AssertionFailure();
  failure << key << " is " << actual << ", expected " << expected;
  if (expected.pttl >= 0) failure << " (pttl down to " << tolerance_ms << " ms less)";
  return failure;
}

KeyState HashKey(std::vector<std::string> field_values, int64_t pttl) {
  return {"hash", SortPairs(field_values), pttl};
}

std::vector<std::string> AllKeys(Client& c) {
  std::vector<std::string> keys = Strings(c({"KEYS", "*"}), "KEYS");
  std::sort(keys.begin(), keys.end());
  return keys;
}

}  // namespace redlab::conformance
