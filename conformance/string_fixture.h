// The fixture of the string suites (string_test.cc, string_ops_test.cc): helpers to read TTLs,
// the server's clock and encodings, and to skip a test on a redlab build that does not have a
// command from another family yet (PTTL, HSET, OBJECT...). Real Redis has them all, so there
// every test runs.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>

#include "conformance/harness/fixture.h"

namespace redlab::conformance {

class StringTest : public ConformanceTest {
 protected:
  // The server's unix time in ms (TIME), for EXAT/PXAT arguments.
  int64_t ServerNowMs() {
    Reply t = c()({"TIME"});
    return std::stoll(t.elements.at(0).str) * 1000 + std::stoll(t.elements.at(1).str) / 1000;
  }

  int64_t Pttl(std::string_view key) { return c()({"PTTL", key}).integer; }

  // A non-string key, for WRONGTYPE paths.
  void MakeHash(std::string_view key) { ASSERT_EQ(c()({"HSET", key, "f", "v"}), Int(1)); }
};

}  // namespace redlab::conformance
