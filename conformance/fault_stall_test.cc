// FAULT STALL is a wait, not a sleep: FAULT RESET from any connection (an open one or a new
// one), SHUTDOWN, Node::Stop() and SIGTERM end it at once. Each test stalls the node for ten
// minutes, so a stall that could not be broken fails the test's waits. Real Redis has no FAULT.
#include <signal.h>

#include <future>
#include <memory>

#include "conformance/harness/child_process.h"
#include "conformance/harness/fixture.h"
#include "server/node.h"

namespace redlab::conformance {
namespace {

constexpr char kRedlabOnly[] = "FAULT STALL is redlab's fault injection; Redis has no FAULT";
constexpr char kTenMinutes[] = "600000";

using FaultStallTest = FaultInjectionTest;

TEST_F(FaultStallTest, ResetFromAnotherOpenConnectionEndsTheStall) {
  Client other = Connect();
  Client waiting(port(), std::chrono::seconds(30));
  ASSERT_EQ(c()({"FAULT", "STALL", kTenMinutes}), Status("OK"));
  waiting.SendCommand({"INCR", "n"});  // held by the stall
  EXPECT_FALSE(waiting.Readable(std::chrono::milliseconds(100)));
  EXPECT_EQ(other({"FAULT", "RESET"}), Status("OK"));
  EXPECT_EQ(waiting.Read(), Int(1));  // served once the loop runs again, in order
  EXPECT_EQ(c()({"FAULT", "LIST"}), Array({}));
}

TEST_F(FaultStallTest, ResetFromANewConnectionEndsTheStall) {
  ASSERT_EQ(c()({"FAULT", "STALL", kTenMinutes}), Status("OK"));
  Client fresh(port(), std::chrono::seconds(30));  // accepted by the kernel during the stall
  EXPECT_EQ(fresh({"FAULT", "RESET"}), Status("OK"));
  EXPECT_EQ(c()({"PING"}), Status("PONG"));
  // Inline, as a terminal user types it.
  ASSERT_EQ(c()({"FAULT", "STALL", kTenMinutes}), Status("OK"));
  Client typed(port(), std::chrono::seconds(30));
  typed.Send("fault reset\r\n");
  EXPECT_EQ(typed.Read(), Status("OK"));
}

TEST_F(FaultStallTest, OnlyTheFirstPendingRequestCanBreakIt) {
  ASSERT_EQ(c()({"FAULT", "STALL", "300"}), Status("OK"));
  Client other(port(), std::chrono::seconds(30));
  // A RESET behind another request waits its turn, as any pipelined request does: the stall
  // runs its 300 ms, then both are answered.
  other.Send(Client::Encode({"PING"}) + Client::Encode({"FAULT", "RESET"}));
  EXPECT_EQ(other.Read(), Status("PONG"));
  EXPECT_EQ(other.Read(), Status("OK"));
}

TEST_F(FaultStallTest, ResetInTheSamePipelineCancelsAStallNotBegun) {
  Client d(port(), std::chrono::seconds(30));
  d.Send(Client::Encode({"FAULT", "STALL", kTenMinutes}) + Client::Encode({"FAULT", "RESET"}) +
         Client::Encode({"PING"}));
  EXPECT_EQ(d.Read(), Status("OK"));
  EXPECT_EQ(d.Read(), Status("OK"));
  EXPECT_EQ(d.Read(), Status("PONG"));
}

TEST(FaultStallNodeTest, NodeStopEndsTheStall) {
  REDLAB_ONLY(kRedlabOnly);
  std::unique_ptr<server::Node> node = server::Node::Start({.port = 0, .loglevel = "warning"});
  Client c(node->port());
  ASSERT_EQ(c({"FAULT", "STALL", kTenMinutes}), Status("OK"));
  auto stopped = std::async(std::launch::async, [&] { node->Stop(); });
  EXPECT_EQ(stopped.wait_for(std::chrono::seconds(20)), std::future_status::ready);
  EXPECT_TRUE(node->stopped());
}

// A redlab-server process on a free port, stalled for ten minutes once it answers.
class FaultStallProcessTest : public ::testing::Test {
 protected:
  void SetUp() override {
    REDLAB_ONLY(kRedlabOnly);
    port_ = FreePort();
    server_ = std::make_unique<ChildProcess>(
        REDLAB_SERVER_PATH,
        std::vector<std::string>{"--port", std::to_string(port_), "--loglevel", "warning"});
    ASSERT_TRUE(Eventually([&] {
      try {
        Client c(port_);
        return c({"FAULT", "STALL", kTenMinutes}) == Status("OK");
      } catch (const std::runtime_error&) {
        return false;
      }
    })) << server_->Stderr();
  }
  int port_ = 0;
  std::unique_ptr<ChildProcess> server_;
};

TEST_F(FaultStallProcessTest, SigtermEndsAStalledServer) {
  ASSERT_EQ(kill(server_->pid(), SIGTERM), 0);
  EXPECT_EQ(server_->Wait(std::chrono::seconds(20)), 0) << server_->Stderr();
}

TEST_F(FaultStallProcessTest, ShutdownFromAnotherConnectionEndsAStalledServer) {
  Client c(port_, std::chrono::seconds(30));
  c.SendCommand({"SHUTDOWN", "NOSAVE"});
  EXPECT_TRUE(c.WaitClosed(std::chrono::seconds(20)));
  EXPECT_EQ(server_->Wait(std::chrono::seconds(20)), 0) << server_->Stderr();
}

}  // namespace
}  // namespace redlab::conformance
