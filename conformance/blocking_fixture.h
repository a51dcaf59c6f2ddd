// What the suites of blocking commands share (blocking_test.cc, list_blocking_test.cc,
// zset_blocking_test.cc): waiting until clients are blocked, and reading INFO clients.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "conformance/harness/fixture.h"

namespace redlab::conformance {

class BlockingFixture : public ConformanceTest {
 protected:
  // A field of INFO clients as a number (-1 when absent).
  int64_t ClientsInfo(std::string_view field) {
    std::string info = Connect()({"INFO", "clients"}).str;
    std::string needle = "\n" + std::string(field) + ":";
    size_t at = info.find(needle);
    if (at == std::string::npos) return -1;
    return std::stoll(info.substr(at + needle.size()));
  }

  // Waits until exactly `n` clients are blocked (Redis's tests' wait_for_blocked_clients_count):
  // a command sent on another connection has no reply to wait on while it blocks.
  void WaitBlocked(int64_t n) {
    ASSERT_TRUE(Eventually([&] { return ClientsInfo("blocked_clients") == n; }))
        << "blocked_clients never became " << n << " (it is " << ClientsInfo("blocked_clients")
        << ")";
  }

  // A client blocked in `command` (on its own connection), once the server has blocked it.
  Client Blocked(const std::vector<std::string>& command) {
    int64_t before = ClientsInfo("blocked_clients");
    Client blocked = Connect();
    blocked.SendCommand(command);
    WaitBlocked(before + 1);
    return blocked;
  }

  // The id of a connection (CLIENT ID).
  static int64_t IdOf(Client& client) { return client({"CLIENT", "ID"}).integer; }

  static Reply Bulks(const std::vector<std::string>& items) {
    std::vector<Reply> out;
    for (const std::string& s : items) out.push_back(Bulk(s));
    return Array(std::move(out));
  }

  static constexpr const char* kWrongType =
      "WRONGTYPE Operation against a key holding the wrong kind of value";
};

}  // namespace redlab::conformance
