// The base of the busy-script suites (scripting_busy_test.cc, function_busy_test.cc): a server
// of its own per test with busy-reply-threshold at 10 ms, so that a script or function left
// running cannot disturb other tests, shut down at the end even while one still runs.
#pragma once

#include <chrono>
#include <exception>
#include <memory>
#include <string>
#include <vector>

#include "conformance/harness/fixture.h"

namespace redlab::conformance {

class BusyServerTest : public ::testing::Test {
 protected:
  void SetUp() override { server_ = StartServer({.config = {{"busy-reply-threshold", "10"}}}); }
  void TearDown() override {
    // A script a failed test left running would keep the server from stopping.
    try {
      Client(server_->port(), std::chrono::seconds(1)).Send(Client::Encode({"SHUTDOWN", "NOSAVE"}));
    } catch (const std::exception&) {
    }
    server_->Stop();
  }

  Client Connect() { return Client(server_->port()); }

  // Sends `command` on `caller` without waiting, and waits until `other` is answered `busy`.
  void StartBusy(Client& caller, Client& other, const std::vector<std::string>& command,
                 const Reply& busy) {
    caller.SendCommand(command);
    ASSERT_TRUE(Eventually([&] { return other({"PING"}) == busy; })) << "never got busy";
  }

  std::unique_ptr<Server> server_;
};

}  // namespace redlab::conformance
