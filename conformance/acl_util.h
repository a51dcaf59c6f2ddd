// Helpers for the ACL suites: a fresh server per test (ACL rules are server-wide state, and
// some tests change the default user), and readers for ACL GETUSER and ACL LOG entries.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "conformance/harness/fixture.h"

namespace redlab::conformance {

class AclTest : public ::testing::Test {
 protected:
  void SetUp() override {
    server_ = StartServer(Options());
    // A real redis-server may have loaded a dump.rdb from its working directory.
    ASSERT_EQ(Connect()({"FLUSHALL"}), Status("OK"));
  }
  virtual ServerOptions Options() { return {}; }
  int port() const { return server_->port(); }
  Client Connect() { return Client(port()); }
  // A connection authenticated as `user` (password `password`).
  Client ConnectAs(std::string_view user, std::string_view password = "pw") {
    Client c(port());
    Reply r = c({"AUTH", user, password});
    EXPECT_EQ(r, Status("OK")) << "AUTH " << user;
    return c;
  }

  std::unique_ptr<Server> server_;
};

// The value of `key` in a map reply (a flat array in RESP2); a nil reply when absent.
inline Reply Field(const Reply& map, std::string_view key) {
  for (size_t i = 0; i + 1 < map.elements.size(); i += 2) {
    if (map.elements[i].str == key) return map.elements[i + 1];
  }
  return Nil();
}

inline Reply Strings(std::vector<std::string> values) {
  std::vector<Reply> elements;
  for (std::string& v : values) elements.push_back(Bulk(std::move(v)));
  return Array(std::move(elements));
}

// The words of a rule string, sorted: for descriptions whose single-command rules come in the
// order of Redis's command table, a hash table whose order is random.
inline std::vector<std::string> SortedWords(const std::string& rules) {
  std::istringstream in(rules);
  std::vector<std::string> words;
  for (std::string w; in >> w;) words.push_back(w);
  std::sort(words.begin(), words.end());
  return words;
}

// The fields of an ACL LOG entry that do not depend on time or on the connection.
inline std::string LogSummary(const Reply& entry) {
  return Field(entry, "reason").str + " " + Field(entry, "context").str + " " +
         Field(entry, "object").str + " " + Field(entry, "username").str + " x" +
         std::to_string(Field(entry, "count").integer);
}

}  // namespace redlab::conformance
