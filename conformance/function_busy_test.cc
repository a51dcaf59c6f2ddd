// Functions running past busy-reply-threshold: the node answers BUSY naming FUNCTION KILL,
// FUNCTION STATS shows the running function, FUNCTION KILL stops it (SCRIPT KILL does not), and
// a busy EVAL script is not FUNCTION KILL's to stop. Each test has a server of its own, so a
// function left running cannot disturb others.
#include <memory>

#include "conformance/busy_fixture.h"
#include "conformance/function_util.h"

namespace redlab::conformance {
namespace {

const Reply kBusyFunction = Error(
    "BUSY Redis is busy running a script. You can only call FUNCTION KILL or SHUTDOWN NOSAVE.");
const Reply kBusyEval =
    Error("BUSY Redis is busy running a script. You can only call SCRIPT KILL or SHUTDOWN NOSAVE.");

class FunctionBusyTest : public BusyServerTest {
 protected:
  void SetUp() override {
    BusyServerTest::SetUp();
    Client c = Connect();
    ASSERT_EQ(c({"FUNCTION", "FLUSH"}), Status("OK"));
    ASSERT_EQ(c.Call({"FUNCTION", "LOAD",
                      Library("busy",
                              "redis.register_function('loop', function(keys, args)\n"
                              "  local a = 1 while true do a = a + 1 end\n"
                              "end)\n"
                              "redis.register_function('write_loop', function()\n"
                              "  redis.call('set', 'x', '1') while true do end\n"
                              "end)")}),
              Bulk("busy"));
  }
};

TEST_F(FunctionBusyTest, FunctionKillStopsAFunction) {
  Client caller = Connect();
  Client other = Connect();
  StartBusy(caller, other, {"FCALL", "loop", "1", "k", "arg"}, kBusyFunction);
  EXPECT_EQ(other({"GET", "k"}), kBusyFunction);
  Reply stats = other({"FUNCTION", "STATS"});
  ASSERT_EQ(stats.type, Reply::Type::kArray);
  ASSERT_EQ(stats.elements.size(), 4u);
  EXPECT_EQ(stats.elements[0], Bulk("running_script"));
  const Reply& running = stats.elements[1];
  ASSERT_EQ(running.elements.size(), 6u) << running;
  EXPECT_EQ(running.elements[0], Bulk("name"));
  EXPECT_EQ(running.elements[1], Bulk("loop"));
  EXPECT_EQ(running.elements[2], Bulk("command"));
  EXPECT_EQ(running.elements[3],
            Array({Bulk("FCALL"), Bulk("loop"), Bulk("1"), Bulk("k"), Bulk("arg")}));
  EXPECT_EQ(running.elements[4], Bulk("duration_ms"));
  EXPECT_EQ(running.elements[5].type, Reply::Type::kInteger);
  EXPECT_GE(running.elements[5].integer, 10);
  EXPECT_EQ(stats.elements[2], Bulk("engines"));
  // SCRIPT KILL is not the way to stop a function.
  EXPECT_EQ(other({"SCRIPT", "KILL"}), kBusyFunction);
  EXPECT_EQ(other({"FUNCTION", "KILL"}), Status("OK"));
  EXPECT_EQ(caller.Read(), Error("ERR Script killed by user with SCRIPT KILL... script: loop, on "
                                 "@user_function:3."));
  EXPECT_EQ(other({"FUNCTION", "KILL"}), Error("NOTBUSY No scripts in execution right now."));
  EXPECT_EQ(other({"PING"}), Status("PONG"));
}

TEST_F(FunctionBusyTest, FunctionKillDoesNotStopAScript) {
  Client caller = Connect();
  Client other = Connect();
  StartBusy(caller, other, {"EVAL", "local a = 1 while true do a = a + 1 end", "0"}, kBusyEval);
  EXPECT_EQ(other({"FUNCTION", "KILL"}), kBusyEval);
  EXPECT_EQ(other({"FUNCTION", "STATS"}), kBusyEval);
  EXPECT_EQ(other({"SCRIPT", "KILL"}), Status("OK"));
  EXPECT_EQ(caller.Read().type, Reply::Type::kError);
  EXPECT_EQ(other({"PING"}), Status("PONG"));
}

TEST_F(FunctionBusyTest, AFunctionThatWroteCannotBeKilled) {
  Client caller = Connect();
  Client other = Connect();
  StartBusy(caller, other, {"FCALL", "write_loop", "0"}, kBusyFunction);
  EXPECT_EQ(other({"FUNCTION", "KILL"}),
            Error("UNKILLABLE Sorry the script already executed write commands against the "
                  "dataset. You can either wait the script termination or kill the server in a "
                  "hard way using the SHUTDOWN NOSAVE command."));
  EXPECT_EQ(other({"SHUTDOWN"}), kBusyFunction);
  other.SendCommand({"SHUTDOWN", "NOSAVE"});
  EXPECT_TRUE(caller.WaitClosed());
  EXPECT_TRUE(other.WaitClosed());
  EXPECT_TRUE(server_->WaitExited(std::chrono::seconds(5)));
}

}  // namespace
}  // namespace redlab::conformance
