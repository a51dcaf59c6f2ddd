// Scripting: a script running past busy-reply-threshold. The node keeps serving other clients,
// answering BUSY to all but a few commands; SCRIPT KILL stops a script that has not written,
// and SHUTDOWN NOSAVE is the way out of one that has. Each test has a server of its own, so a
// script left running cannot disturb others.
#include <memory>

#include "conformance/busy_fixture.h"
#include "conformance/scripting_util.h"

namespace redlab::conformance {
namespace {

const Reply kBusy =
    Error("BUSY Redis is busy running a script. You can only call SCRIPT KILL or SHUTDOWN NOSAVE.");
constexpr std::string_view kUnkillable =
    "UNKILLABLE Sorry the script already executed write commands against the dataset. You can "
    "either wait the script termination or kill the server in a hard way using the SHUTDOWN "
    "NOSAVE command.";

class ScriptingBusyTest : public BusyServerTest {
 protected:
  // Starts `body` on `caller` without waiting, and waits until `other` sees the node busy.
  void StartBusyScript(Client& caller, Client& other, std::string_view body) {
    StartBusy(caller, other, {"EVAL", std::string(body), "0"}, kBusy);
  }
};

TEST_F(ScriptingBusyTest, ScriptKillStopsAReadOnlyScript) {
  Client caller = Connect();
  Client other = Connect();
  std::string body = "local i = 0 while true do i = i + 1 end";
  StartBusyScript(caller, other, body);
  EXPECT_EQ(other({"GET", "k"}), kBusy);
  EXPECT_EQ(other({"EVAL", "return 1", "0"}), kBusy);
  EXPECT_EQ(other({"CLIENT", "ID"}), kBusy);
  // Argument errors still come first.
  EXPECT_EQ(other({"GET"}), Error("ERR wrong number of arguments for 'get' command"));
  EXPECT_EQ(other({"SCRIPT", "KILL"}), Status("OK"));
  EXPECT_EQ(caller.Read(), ScriptError("ERR Script killed by user with SCRIPT KILL...", body));
  EXPECT_EQ(other({"SCRIPT", "KILL"}), Error("NOTBUSY No scripts in execution right now."));
  EXPECT_EQ(other({"PING"}), Status("PONG"));
  EXPECT_EQ(caller({"PING"}), Status("PONG"));
}

TEST_F(ScriptingBusyTest, PcallCannotSwallowTheKill) {
  Client caller = Connect();
  Client other = Connect();
  std::string body =
      "local f = function() while true do redis.call('ping') end end\n"
      "while true do pcall(f) end";
  StartBusyScript(caller, other, body);
  EXPECT_EQ(other({"SCRIPT", "KILL"}), Status("OK"));
  EXPECT_EQ(caller.Read(), ScriptError("ERR Script killed by user with SCRIPT KILL...", body, 2));
}

TEST_F(ScriptingBusyTest, TransactionsWhileBusy) {
  Client caller = Connect();
  Client other = Connect();
  StartBusyScript(caller, other, "while true do end");
  // MULTI, WATCH, UNWATCH and DISCARD are allowed; a refused command fails the transaction.
  EXPECT_EQ(other({"WATCH", "k"}), Status("OK"));
  EXPECT_EQ(other({"UNWATCH"}), Status("OK"));
  EXPECT_EQ(other({"MULTI"}), Status("OK"));
  EXPECT_EQ(other({"GET", "k"}), kBusy);
  EXPECT_EQ(
      other({"EXEC"}),
      Error("EXECABORT Transaction discarded because of: BUSY Redis is busy running a script. "
            "You can only call SCRIPT KILL or SHUTDOWN NOSAVE."));
  EXPECT_EQ(other({"MULTI"}), Status("OK"));
  EXPECT_EQ(other({"DISCARD"}), Status("OK"));
  EXPECT_EQ(other({"SCRIPT", "KILL"}), Status("OK"));
  caller.Read();
  // The transaction is gone.
  EXPECT_EQ(other({"EXEC"}), Error("ERR EXEC without MULTI"));
}

TEST_F(ScriptingBusyTest, ScriptThatWroteIsUnkillable) {
  Client caller = Connect();
  Client other = Connect();
  StartBusyScript(caller, other, "redis.call('set', 'k', 'v') while true do end");
  EXPECT_EQ(other({"SCRIPT", "KILL"}), Error(std::string(kUnkillable)));
  // Only SHUTDOWN NOSAVE ends it; the caller gets no reply.
  EXPECT_EQ(other({"SHUTDOWN"}), kBusy);
  EXPECT_EQ(other({"SHUTDOWN", "SAVE"}), kBusy);
  other.SendCommand({"SHUTDOWN", "NOSAVE"});
  EXPECT_TRUE(caller.WaitClosed());
  EXPECT_TRUE(other.WaitClosed());
  EXPECT_TRUE(server_->WaitExited(std::chrono::seconds(5)));
}

TEST_F(ScriptingBusyTest, ShutdownNosaveStopsAReadOnlyScriptToo) {
  Client caller = Connect();
  Client other = Connect();
  StartBusyScript(caller, other, "while true do end");
  other.SendCommand({"SHUTDOWN", "NOSAVE"});
  EXPECT_TRUE(caller.WaitClosed());
  EXPECT_TRUE(server_->WaitExited(std::chrono::seconds(5)));
}

TEST_F(ScriptingBusyTest, PipelinedCommandsRunAfterTheKilledScript) {
  Client caller = Connect();
  Client other = Connect();
  std::string body = "while 1 do redis.call('ping') end";
  caller.Send(Client::Encode({"EVAL", body, "0"}) + Client::Encode({"PING"}));
  ASSERT_TRUE(Eventually([&] { return other({"PING"}) == kBusy; }));
  EXPECT_EQ(other({"SCRIPT", "KILL"}), Status("OK"));
  EXPECT_EQ(caller.Read(), ScriptError("ERR Script killed by user with SCRIPT KILL...", body));
  EXPECT_EQ(caller.Read(), Status("PONG"));
}

TEST_F(ScriptingBusyTest, SlowScriptThatFinishesAnswersNormally) {
  Client caller = Connect();
  EXPECT_EQ(caller({"EVAL", "for i = 1, 100000 do redis.call('ping') end return 'ok'", "0"}),
            Bulk("ok"));
  EXPECT_EQ(caller({"PING"}), Status("PONG"));
  EXPECT_EQ(caller({"SCRIPT", "KILL"}), Error("NOTBUSY No scripts in execution right now."));
}

TEST_F(ScriptingBusyTest, NewConnectionsAreServedWhileBusy) {
  Client caller = Connect();
  Client other = Connect();
  StartBusyScript(caller, other, "while true do end");
  Client late = Connect();
  EXPECT_EQ(late({"PING"}), kBusy);
  EXPECT_EQ(late({"SCRIPT", "KILL"}), Status("OK"));
  EXPECT_EQ(caller.Read().type, Reply::Type::kError);
}

}  // namespace
}  // namespace redlab::conformance
