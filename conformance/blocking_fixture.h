// What the suites of blocking commands share (blocking_test.cc, list_blocking_test.cc,
// zset_blocking_test.cc): waiting until clients are blocked, and reading INFO clients.
#pragma once

#include <cctype>
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

  // MULTI, `commands` (queued, their replies unread), EXEC on the suite's client; EXEC's reply.
  Reply InTransaction(const std::vector<std::vector<std::string>>& commands) {
    c()({"MULTI"});
    for (const std::vector<std::string>& command : commands) c().Call(command);
    return c()({"EXEC"});
  }

  // The id of a connection (CLIENT ID).
  static int64_t IdOf(Client& client) { return client({"CLIENT", "ID"}).integer; }

  static Reply Bulks(const std::vector<std::string>& items) {
    std::vector<Reply> out;
    for (const std::string& s : items) out.push_back(Bulk(s));
    return Array(std::move(out));
  }

  // The argument errors LMPOP and ZMPOP share with their blocking forms, checked on both forms
  // (`name` and "B" + `name`, whose timeout `timeout` comes first): arity, numkeys (`bad_numkeys`
  // each refused), COUNT; and `syntax_errors` (the arguments after the name, and after the
  // timeout) each answered "ERR syntax error". `key` and `where` (LEFT, MIN) make a valid call.
  void ExpectMpopArgumentErrors(const std::string& name, const std::string& timeout,
                                const std::string& key, const std::string& where,
                                const std::vector<std::string>& bad_numkeys,
                                const std::vector<std::vector<std::string>>& syntax_errors) {
    for (const std::string& form : {name, "B" + name}) {
      std::string lower;
      for (char ch : form) lower.push_back(static_cast<char>(std::tolower(ch)));
      auto call = [&](const std::vector<std::string>& rest) {
        std::vector<std::string> args = {form};
        if (form != name) args.push_back(timeout);
        args.insert(args.end(), rest.begin(), rest.end());
        return c().Call(args);
      };
      SCOPED_TRACE(form);
      EXPECT_EQ(call({"1"}), Error("ERR wrong number of arguments for '" + lower + "' command"));
      EXPECT_EQ(call({"1", key}),
                Error("ERR wrong number of arguments for '" + lower + "' command"));
      for (const std::string& numkeys : bad_numkeys) {
        EXPECT_EQ(call({numkeys, key, where}), Error("ERR numkeys should be greater than 0"));
      }
      for (const std::vector<std::string>& rest : syntax_errors) {
        EXPECT_EQ(call(rest), Error("ERR syntax error")) << ::testing::PrintToString(rest);
      }
      for (std::string count : {"0", "-1", "a"}) {
        EXPECT_EQ(call({"1", key, where, "COUNT", count}),
                  Error("ERR count should be greater than 0"));
      }
    }
  }

  static constexpr const char* kWrongType =
      "WRONGTYPE Operation against a key holding the wrong kind of value";
};

}  // namespace redlab::conformance
