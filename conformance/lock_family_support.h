// Support for the lock family's script suites (lock_family_*_test.cc): a fixture that runs a
// script of lua/ by EVAL exactly as a client sends it, Redisson's key-name rules, and a listener
// that collects what the scripts publish.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "conformance/harness/fixture.h"
#include "conformance/harness/key_state.h"

namespace redlab::conformance {

// Redisson's prefixName: "prefix:{name}", or "prefix:name" when name already has braces.
std::string Prefixed(const std::string& prefix, const std::string& name);
// Redisson's suffixName: "{name}:suffix", or "name:suffix" when name already has braces.
std::string Suffixed(const std::string& name, const std::string& suffix);

// A connection subscribed to some channels, plus a marker channel of its own: Received()
// publishes on the marker and returns everything that arrived before it, so a test sees both
// what was published and that nothing else was.
class Listener {
 public:
  using Message = std::pair<std::string, std::string>;  // channel, payload
  Listener(int port, std::vector<std::string> channels);
  // Messages since the last call, in order. `c` is a connection to the same server.
  std::vector<Message> Received(Client& c);

 private:
  Client sub_;
};

class LockFamilyTest : public ConformanceTest {
 protected:
  // EVAL of lua/<script>.lua with `keys` and `args`.
  Reply Run(std::string_view script, const std::vector<std::string>& keys,
            const std::vector<std::string>& args);
  Listener Listen(std::vector<std::string> channels) { return Listener(port(), channels); }
  // The score of `member` in zset `key` (a test failure when it has none).
  int64_t Score(const std::string& key, const std::string& member);
};

}  // namespace redlab::conformance
