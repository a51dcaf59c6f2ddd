// Keyspace notifications as a subscriber sees them: a connection subscribed by pattern to every
// __keyspace@*__ and __keyevent@*__ channel, and to a marker channel. Events() publishes the
// marker and returns every message that arrived before it, so a test sees all that was sent,
// in order, without waiting for anything but the marker.
#pragma once

#include <stdlib.h>

#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "conformance/harness/fixture.h"

namespace redlab::conformance {

using Strings = std::vector<std::string>;

// How Events() shows a message: "<channel> <message>".
inline std::string Ev(std::string_view event, std::string_view key, int db = 0) {
  return "__keyevent@" + std::to_string(db) + "__:" + std::string(event) + " " + std::string(key);
}
inline std::string Ks(std::string_view key, std::string_view event, int db = 0) {
  return "__keyspace@" + std::to_string(db) + "__:" + std::string(key) + " " + std::string(event);
}

class KeyspaceEventsTest : public ConformanceTest {
 protected:
  static constexpr std::string_view kMarker = "keyspace-events-test-marker";

  // DEBUG (SET-ACTIVE-EXPIRE, POPULATE, RELOAD) is protected: this suite enables it, as Redis's
  // own test servers run. RELOAD writes a snapshot: each server gets a directory of its own.
  static void SetUpTestSuite() {
    if (server_) return;
    char dir[] = "/tmp/redlab-notify-XXXXXX";
    dir_ = mkdtemp(dir) != nullptr ? dir : "/tmp";
    server_ = StartServer({.config = {{"enable-debug-command", "yes"}, {"dir", dir_}}});
  }
  static void TearDownTestSuite() {
    ConformanceTest::TearDownTestSuite();
    std::error_code ignored;
    if (dir_ != "/tmp") std::filesystem::remove_all(dir_, ignored);
  }
  static inline std::string dir_;

  void SetUp() override {
    ConformanceTest::SetUp();
    listener_ = std::make_unique<Client>(port());
    listener_->SendCommand({"PSUBSCRIBE", "__key*__:*"});
    ASSERT_EQ(listener_->Read().elements.at(0).str, "psubscribe");
    listener_->SendCommand({"SUBSCRIBE", std::string(kMarker)});
    ASSERT_EQ(listener_->Read().elements.at(0).str, "subscribe");
  }

  void TearDown() override {
    // The suite shares one server: leave it as the next test expects it.
    EXPECT_EQ(c()({"CONFIG", "SET", "notify-keyspace-events", ""}), Status("OK"));
    EXPECT_EQ(c()({"CONFIG", "SET", "maxmemory", "0"}), Status("OK"));
    EXPECT_EQ(c()({"CONFIG", "SET", "maxmemory-policy", "noeviction"}), Status("OK"));
    EXPECT_EQ(c()({"DEBUG", "SET-ACTIVE-EXPIRE", "1"}), Status("OK"));
    EXPECT_EQ(c()({"SELECT", "0"}), Status("OK"));
  }

  void Notify(std::string_view classes) {
    ASSERT_EQ(c()({"CONFIG", "SET", "notify-keyspace-events", classes}), Status("OK"));
  }

  // The messages received since the last call, in order ("<channel> <message>").
  Strings Events() {
    EXPECT_EQ(Connect()({"PUBLISH", kMarker, "end"}), Int(1));
    Strings out;
    while (true) {
      Reply r = listener_->Read();
      if (r.type != Reply::Type::kArray || r.elements.empty()) {
        ADD_FAILURE() << "not a message: " << r;
        return out;
      }
      if (r.elements[0].str == "message" && r.elements.size() == 3 &&
          r.elements[1].str == kMarker) {
        return out;
      }
      if (r.elements[0].str != "pmessage" || r.elements.size() != 4) {
        ADD_FAILURE() << "not a pattern message: " << r;
        return out;
      }
      out.push_back(r.elements[2].str + " " + r.elements[3].str);
    }
  }

  // Waits until `n` clients are blocked (INFO blocked_clients): a command blocked on another
  // connection has no reply to wait on.
  void WaitBlocked(int64_t n) {
    ASSERT_TRUE(Eventually([&] {
      std::string info = Connect()({"INFO", "clients"}).str;
      size_t at = info.find("\nblocked_clients:");
      return at != std::string::npos && std::stoll(info.substr(at + 17)) == n;
    }));
  }

  // Runs `args` on the test's connection and checks its reply.
  void Run(std::initializer_list<std::string_view> args, const Reply& expected) {
    EXPECT_EQ(c()(args), expected) << ::testing::PrintToString(std::vector<std::string_view>(args));
  }

  std::unique_ptr<Client> listener_;
};

}  // namespace redlab::conformance
