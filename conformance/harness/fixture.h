// The base fixture of the conformance suites: one server of the current target per test suite,
// emptied before each test, and a fresh client connection per test.
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

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

// The base of suites of redlab's fault injection (FAULT, TOPOLOGY): every test skips on real
// Redis with the reason, and each ends with FAULT RESET so that no fault outlives its test.
class FaultInjectionTest : public ConformanceTest {
 protected:
  void SetUp() override;
  void TearDown() override;
};

// Lowers proto-max-bulk-len to its minimum (1mb) for one test and restores the default after it,
// even when the test fails half way (the server is shared by the suite).
class SmallBulkLimit {
 public:
  explicit SmallBulkLimit(int port);
  ~SmallBulkLimit();

 private:
  Client client_;
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
// A field of `c`'s INFO `section`; "" when it is absent.
std::string InfoField(Client& c, std::string_view section, std::string_view field);
// A numeric field of `c`'s INFO `section`; -1 when it is absent.
int64_t InfoNumber(Client& c, std::string_view section, std::string_view field);
// A field of `c`'s INFO replication ("role", "master_link_status", ...); "" when it is absent.
std::string InfoField(Client& c, std::string_view field);

// A client for a process just started on `port`, once it answers PING (within 10 s); nullopt
// when it never did.
std::optional<Client> ConnectWhenUp(int port);

// The next reply on `c` within `timeout`, read in slices of `c`'s own (short) read timeout so
// that "no reply yet" can be checked first; nullopt when none came.
std::optional<Reply> ReadWithin(Client& c, std::chrono::milliseconds timeout);

// The bytes written as hex digits in `hex` ("0a1b" is "\x0a\x1b").
std::string FromHex(std::string_view hex);

// Skips the current test on real Redis with the reason (for redlab-only behaviour, e.g. faults).
#define REDLAB_ONLY(reason)                                           \
  do {                                                                \
    if (::redlab::conformance::IsRealRedis()) GTEST_SKIP() << reason; \
  } while (0)

}  // namespace redlab::conformance
