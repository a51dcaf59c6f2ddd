// A key's whole state as a conformance test compares it: type, contents in a fixed order and
// TTL, read over the wire with plain commands. For tests that must show a script (or command)
// left exactly the same keys on redlab as on real Redis, not just the same reply.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "conformance/harness/client.h"

namespace redlab::conformance {

struct KeyState {
  std::string type;  // TYPE's answer: none, string, hash, list, set, zset
  // string: {value}; hash: field, value, ... by field; list: elements in order; set: members
  // sorted; zset: member, score, ... by rank (scores as ZRANGE WITHSCORES writes them).
  std::vector<std::string> items;
  int64_t pttl = -2;  // PTTL's answer: -2 no key, -1 no expiry, else milliseconds left
};

bool operator==(const KeyState& a, const KeyState& b);
std::ostream& operator<<(std::ostream& os, const KeyState& s);

// Reads `key` through `c` (several commands, so only meaningful while nothing else writes it).
KeyState ReadKeyState(Client& c, const std::string& key);

// Whether `key` is in state `expected`: type and items exactly; PTTL exactly when `expected`'s
// is -1 or -2, else within (expected.pttl - tolerance_ms, expected.pttl] (a TTL set from that
// many milliseconds, read a little later).
::testing::AssertionResult KeyIs(Client& c, const std::string& key, const KeyState& expected,
                                 int64_t tolerance_ms = 1000);

// Shorthands for expected states.
inline KeyState NoKey() { return {"none", {}, -2}; }
inline KeyState StringKey(std::string value, int64_t pttl = -1) {
  return {"string", {std::move(value)}, pttl};
}
// `field_values` as field, value, ... in any order (sorted by field here).
KeyState HashKey(std::vector<std::string> field_values, int64_t pttl = -1);
inline KeyState ListKey(std::vector<std::string> elements, int64_t pttl = -1) {
  return {"list", std::move(elements), pttl};
}

// Every key of the selected database, sorted (KEYS *).
std::vector<std::string> AllKeys(Client& c);

}  // namespace redlab::conformance
