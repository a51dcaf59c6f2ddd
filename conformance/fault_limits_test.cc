// redlab's FAULT over the wire: every argument bounded (Redis's out-of-range wording), the
// clock's rate obeyed by blocked commands' and WAIT's timeouts, a rate set on a frozen clock.
// Real Redis has no FAULT: every test skips there with the reason.
#include "conformance/harness/fixture.h"
#include "conformance/harness/topology.h"

namespace redlab::conformance {
namespace {

class FaultLimitsTest : public FaultInjectionTest {
 protected:
  int64_t NodeSeconds() { return std::stoll(c()({"TIME"}).elements.at(0).str); }
};

TEST_F(FaultLimitsTest, DelaysAndStallsAreBoundedToADay) {
  const Reply day = Error("ERR value is out of range, value must between 0 and 86400000");
  for (std::vector<std::string> args : std::vector<std::vector<std::string>>{
           {"FAULT", "REPL", "DELAY", "86400001"},
           {"FAULT", "REPL", "DELAY", "-1"},
           {"FAULT", "REPL", "DELAY", "9223372036854775807"},
           {"FAULT", "REPL", "DELAY", "10", "JITTER", "86400001"},
           {"FAULT", "REPLY", "DELAY", "9223372036854775807"},
           {"FAULT", "REPLY", "DELAY", "-9223372036854775808"},
           {"FAULT", "STALL", "86400001"},
           {"FAULT", "STALL", "-5"},
       }) {
    EXPECT_EQ(c().Call(args), day) << args[1] << " " << args[2] << " " << args.back();
  }
  EXPECT_EQ(c()({"FAULT", "REPLY", "DELAY", "9223372036854775808"}),
            Error("ERR REPLY DELAY takes a number of milliseconds"));  // not an int64 at all
  EXPECT_EQ(c()({"FAULT", "LIST"}), Array({}));                        // nothing was set
  EXPECT_EQ(c()({"FAULT", "REPL", "DELAY", "86400000"}), Status("OK"));
  // Aimed at another client: this one's replies (FAULT's included) would be a day late.
  EXPECT_EQ(c()({"FAULT", "REPLY", "DELAY", "86400000", "NAME", "someone"}), Status("OK"));
  EXPECT_EQ(c()({"FAULT", "LIST"}),
            Array({Bulk("REPL DELAY 86400000"), Bulk("REPLY DELAY 86400000 NAME someone")}));
}

TEST_F(FaultLimitsTest, ClockMovesAreBoundedAndNeverOverflow) {
  const Reply century =
      Error("ERR value is out of range, value must between -3155760000000 and 3155760000000");
  EXPECT_EQ(c()({"FAULT", "CLOCK", "JUMP", "9223372036854775807"}), century);
  EXPECT_EQ(c()({"FAULT", "CLOCK", "JUMP", "-9223372036854775808"}), century);
  EXPECT_EQ(c()({"FAULT", "CLOCK", "JUMP", "+3155760000001"}), century);
  // Within a century but before 1970: the clock would leave its years.
  const Reply years = Error(
      "ERR the node's clock would leave 1970-01-01 .. 9999-12-31 (FAULT CLOCK REAL brings it "
      "back)");
  EXPECT_EQ(c()({"FAULT", "CLOCK", "JUMP", "-3155760000000"}), years);
  ASSERT_EQ(c()({"FAULT", "CLOCK", "MANUAL"}), Status("OK"));
  EXPECT_EQ(c()({"FAULT", "CLOCK", "ADVANCE", "-1"}),
            Error("ERR value is out of range, value must between 0 and 3155760000000"));
  // Advancing century by century reaches the year 9999 and stops there, with an error.
  Reply r = Status("OK");
  int steps = 0;
  for (; r == Status("OK") && steps < 100; ++steps) {
    r = c()({"FAULT", "CLOCK", "ADVANCE", "3155760000000"});
  }
  EXPECT_EQ(r, years);
  EXPECT_EQ(steps, 80);                    // 2026 + 79 centuries < 9999 < 2026 + 80 centuries
  EXPECT_GT(NodeSeconds(), 250000000000);  // past the year 9890
  EXPECT_EQ(c()({"FAULT", "CLOCK", "RATE", "1000001"}),
            Error("ERR value is out of range, value must between 0 and 1000000"));
  EXPECT_EQ(c()({"FAULT", "CLOCK", "RATE", "-1"}),
            Error("ERR value is out of range, value must between 0 and 1000000"));
  EXPECT_EQ(c()({"FAULT", "CLOCK", "RATE", "inf"}), Error("ERR CLOCK RATE takes a factor >= 0"));
  EXPECT_EQ(c()({"FAULT", "CLOCK", "RATE", "nan"}), Error("ERR CLOCK RATE takes a factor >= 0"));
}

TEST_F(FaultLimitsTest, TopologyRestartTakesOnlyAPort) {
  const Reply range = Error("ERR value is out of range, value must between 1 and 65535");
  // 4294974296 is 2^32 + 7000: once cast to int it named port 7000.
  EXPECT_EQ(c()({"TOPOLOGY", "RESTART", "4294974296"}), range);
  EXPECT_EQ(c()({"TOPOLOGY", "RESTART", "0"}), range);
  EXPECT_EQ(c()({"TOPOLOGY", "RESTART", "-7000"}), range);
  EXPECT_EQ(c()({"TOPOLOGY", "RESTART", "65536", "KEEP"}), range);
}

TEST_F(FaultLimitsTest, AFastClocksBlockedCommandTimesOutAtItsNodeTime) {
  // 100 s of node time at 1000 times real time: a tenth of a second. Armed in real time, as
  // before, the timeout would come after 100 real seconds, long past this test's wait.
  ASSERT_EQ(c()({"FAULT", "CLOCK", "RATE", "1000"}), Status("OK"));
  Client waiter(port(), std::chrono::seconds(20));
  int64_t start = NodeSeconds();
  waiter.SendCommand({"BLPOP", "nothing", "100"});
  EXPECT_EQ(waiter.Read(), Nil());
  EXPECT_GE(NodeSeconds() - start, 100);  // never early in node time
  ASSERT_EQ(waiter({"SET", "k", "v"}), Status("OK"));
  start = NodeSeconds();
  waiter.SendCommand({"WAIT", "1", "100000"});  // no replicas: only the timeout ends it
  EXPECT_EQ(waiter.Read(), Int(0));
  EXPECT_GE(NodeSeconds() - start, 100);
}

TEST_F(FaultLimitsTest, ARateChangeReArmsATimeoutAlreadyWaiting) {
  Client waiter(port(), std::chrono::seconds(20));
  waiter.SendCommand({"BLPOP", "nothing", "200"});  // 200 s at the real rate
  ASSERT_TRUE(Eventually([&] {
    return c()({"CLIENT", "LIST"}).str.find("cmd=blpop") != std::string::npos;
  }));
  int64_t start = NodeSeconds();
  ASSERT_EQ(c()({"FAULT", "CLOCK", "RATE", "2000"}), Status("OK"));  // now a tenth of a second
  EXPECT_EQ(waiter.Read(), Nil());
  EXPECT_GE(NodeSeconds() - start, 199);
}

TEST_F(FaultLimitsTest, ARateSetOnAFrozenClockIsListedAndAppliesOnResume) {
  ASSERT_EQ(c()({"FAULT", "CLOCK", "MANUAL"}), Status("OK"));
  ASSERT_EQ(c()({"FAULT", "CLOCK", "RATE", "1000"}), Status("OK"));
  EXPECT_EQ(c()({"FAULT", "LIST"}),
            Array({Bulk("CLOCK MANUAL"), Bulk("CLOCK RATE 1000"), Bulk("CLOCK OFFSET 0")}));
  Reply frozen = c()({"TIME"});
  EXPECT_EQ(c()({"TIME"}), frozen);  // the rate does not move a frozen clock
  Client waiter(port(), std::chrono::seconds(20));
  waiter.SendCommand({"BLPOP", "nothing", "50"});  // 50 s of node time
  ASSERT_TRUE(Eventually([&] {
    return c()({"CLIENT", "LIST"}).str.find("cmd=blpop") != std::string::npos;
  }));
  EXPECT_FALSE(waiter.Readable(std::chrono::milliseconds(100)));  // frozen: never due
  ASSERT_EQ(c()({"FAULT", "CLOCK", "RESUME"}), Status("OK"));
  EXPECT_EQ(waiter.Read(), Nil());  // 50 ms of real time at 1000x
  EXPECT_GE(NodeSeconds() - std::stoll(frozen.elements.at(0).str), 50);
  EXPECT_EQ(c()({"FAULT", "LIST"}).elements.at(0), Bulk("CLOCK RATE 1000"));
  EXPECT_EQ(c()({"FAULT", "CLOCK", "RESUME"}),
            Error("ERR CLOCK RESUME needs a frozen clock: FAULT CLOCK MANUAL first"));
}

}  // namespace
}  // namespace redlab::conformance
