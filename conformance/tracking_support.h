// Shared by the client-side caching suites (tracking_*_test.cc): a server with DEBUG enabled,
// settings restored after each test, and the exact bytes of invalidation messages.
#pragma once

#include <string>
#include <vector>

#include "conformance/harness/fixture.h"

namespace redlab::conformance {

class TrackingTest : public ConformanceTest {
 protected:
  // DEBUG (SET-ACTIVE-EXPIRE, PAUSE-CRON) is protected in Redis 7.0.
  static void SetUpTestSuite() {
    if (!server_) server_ = StartServer({.config = {{"enable-debug-command", "yes"}}});
  }
  // The suite shares one server: put back what a test may have changed.
  void TearDown() override;

  // A connection in RESP3.
  Client Resp3();
  // A connection subscribed to __redis__:invalidate (RESP2), for redirected messages; *id is
  // its client id.
  Client Subscriber(std::string* id);
  static std::string IdOf(Client& client);
  // The server's time in ms (TIME), to wait for an absolute expiry time without reading a key.
  static int64_t ServerMs(Client& client);
  int64_t InfoNumber(const std::string& field);
};

// The RESP array of keys a message carries.
std::string KeyArray(const std::vector<std::string>& keys);
// An invalidation pushed to a RESP3 connection, about `keys` ...
std::string Invalidate(const std::vector<std::string>& keys);
// ... or about every key (a flush), the null in the tracking client's protocol.
std::string InvalidateAll(int tracking_protocol);
// An invalidation delivered to a RESP2 subscriber of __redis__:invalidate: `payload` is the
// array of keys, or a null.
std::string InvalidateMessage(const std::string& payload);

}  // namespace redlab::conformance
