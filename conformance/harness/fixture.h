// The base fixture of the conformance suites: one server of the current target per test suite,
// emptied before each test, and a fresh client connection per test.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "conformance/harness/client.h"
#include "conformance/harness/target.h"

namespace redlab::conformance {

class ConformanceTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite();
  static void TearDownTestSuite();
  void SetUp() override;

  static int port() { return server_->port(); }
  // Another connection to the suite's server.
  Client Connect() { return Client(port()); }

  static std::unique_ptr<Server> server_;
  std::unique_ptr<Client> client_;
  Client& c() { return *client_; }
};

// Helpers to build expected replies.
Reply Status(std::string s);
Reply Error(std::string s);
Reply Int(int64_t v);
Reply Bulk(std::string s);
Reply Nil();
Reply Array(std::vector<Reply> elements);

// A field of `c`'s INFO `section`, or nullopt when the section has no such field.
std::optional<std::string> FindInfoField(Client& c, std::string_view section,
                                         std::string_view field);
// A field of `c`'s INFO replication ("role", "master_link_status", ...); "" when it is absent.
std::string InfoField(Client& c, std::string_view field);

// A client for a process just started on `port`, once it answers PING (within 10 s); nullopt
// when it never did.
std::optional<Client> ConnectWhenUp(int port);

// Skips the current test on real Redis with the reason (for redlab-only behaviour, e.g. faults).
#define REDLAB_ONLY(reason)                                           \
  do {                                                                \
    if (::redlab::conformance::IsRealRedis()) GTEST_SKIP() << reason; \
  } while (0)

}  // namespace redlab::conformance
