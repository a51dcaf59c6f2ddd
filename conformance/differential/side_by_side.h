// The differential suites' base: a redlab (embedded) and a real redis-server side by side, one
// of each per suite, each emptied and given a fresh connection per test; Both sends a command to
// the two and expects the same bytes back.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "conformance/harness/client.h"
#include "conformance/harness/target.h"

namespace redlab::conformance {

class SideBySideTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite();
  static void TearDownTestSuite();
  void SetUp() override;

  // Sends `cmd` to both servers and expects the same reply, byte for byte; returns it.
  std::string Both(const std::vector<std::string>& cmd);

  static Server* redlab_;
  static Server* redis_;
  std::unique_ptr<Client> mine_, theirs_;
};

}  // namespace redlab::conformance
