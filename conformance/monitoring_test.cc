// What watches the server run commands: SLOWLOG (with slowlog-log-slower-than and
// slowlog-max-len), LATENCY (with latency-monitor-threshold and latency-tracking), MONITOR, and
// LASTSAVE and LOLWUT. Durations are never asserted: thresholds of 0 (log everything) or far
// above anything a test runs make what is logged deterministic.
#include <algorithm>
#include <regex>
#include <string>
#include <vector>

#include "conformance/harness/fixture.h"
#include "conformance/help_reply.h"

namespace redlab::conformance {
namespace {

// LOLWUT VERSION 5 5 2 2, as redis-server 7.0.15 draws it (Braille characters, UTF-8).
constexpr char kSchotter5x2x2[] =
    "\u2800\u2864\u28e4\u28a4\u2800\n\u2800\u28df\u28ff\u28fb\u2800\n\u2800\u2800\u2800\u2800\u2800"
    "\n\n"
    "Georg Nees - schotter, plotter on paper, 1968. Redis ver. 7.0.15\n";

class MonitoringTest : public ConformanceTest {
 protected:
  static void SetUpTestSuite() {
    // DEBUG SLEEP makes a command slow on purpose; Redis 7 protects DEBUG.
    if (!server_) server_ = StartServer({.config = {{"enable-debug-command", "yes"}}});
  }
  void TearDown() override {
    c()({"CONFIG", "SET", "slowlog-log-slower-than", "10000", "slowlog-max-len", "128",
         "latency-monitor-threshold", "0", "latency-tracking", "yes"});
    c()({"SLOWLOG", "RESET"});
    c()({"LATENCY", "RESET"});
  }

  // "ip:port" of a connection, as the server sees it.
  static std::string AddrOf(Client& client) {
    std::string info = client({"CLIENT", "INFO"}).str;
    size_t at = info.find("addr=") + 5;
    return info.substr(at, info.find(' ', at) - at);
  }
  // The arguments of each slow log entry, newest first.
  std::vector<Reply> LoggedArgs(std::string count = "-1") {
    std::vector<Reply> out;
    for (const Reply& e : c()({"SLOWLOG", "GET", count}).elements) out.push_back(e.elements.at(3));
    return out;
  }
  static Reply Bulks(std::vector<std::string> items) {
    std::vector<Reply> r;
    for (auto& s : items) r.push_back(Bulk(s));
    return Array(r);
  }
  // Reads one MONITOR line and checks its shape; returns what follows "[db addr] ".
  static std::string MonitorLine(Client& monitor, const std::string& db_and_addr) {
    Reply r = monitor.Read();
    EXPECT_EQ(r.type, Reply::Type::kStatus) << r;
    static const std::regex kShape(R"m(^(\d+)\.(\d{6}) \[([^\]]*)\] (.*)$)m");
    std::smatch m;
    if (!std::regex_match(r.str, m, kShape)) {
      ADD_FAILURE() << "not a MONITOR line: " << r.str;
      return {};
    }
    EXPECT_EQ(m[3].str(), db_and_addr) << r.str;
    return m[4].str();
  }
};

TEST_F(MonitoringTest, SlowlogLogsCommandsNewestFirst) {
  ASSERT_EQ(c()({"CLIENT", "SETNAME", "logger"}), Status("OK"));
  std::string addr = AddrOf(c());
  ASSERT_EQ(c()({"CONFIG", "SET", "slowlog-log-slower-than", "0"}), Status("OK"));
  ASSERT_EQ(c()({"SLOWLOG", "RESET"}), Status("OK"));
  ASSERT_EQ(c()({"SET", "k", "v"}), Status("OK"));
  Reply log = c()({"SLOWLOG", "GET"});
  ASSERT_EQ(log.elements.size(), 2u) << log;
  const Reply& set = log.elements[0];
  const Reply& reset = log.elements[1];
  ASSERT_EQ(set.elements.size(), 6u);
  EXPECT_EQ(set.elements[0].integer, reset.elements[0].integer + 1);
  EXPECT_EQ(set.elements[1].type, Reply::Type::kInteger);
  EXPECT_EQ(set.elements[2].type, Reply::Type::kInteger);
  EXPECT_GE(set.elements[2].integer, 0);
  EXPECT_EQ(set.elements[3], Bulks({"SET", "k", "v"}));
  EXPECT_EQ(set.elements[4], Bulk(addr));
  EXPECT_EQ(set.elements[5], Bulk("logger"));
  EXPECT_EQ(reset.elements[3], Bulks({"SLOWLOG", "RESET"}));
  // SLOWLOG GET and LEN log themselves, after they answered.
  EXPECT_EQ(c()({"SLOWLOG", "LEN"}), Int(3));
  EXPECT_EQ(LoggedArgs("2"),
            (std::vector<Reply>{Bulks({"SLOWLOG", "LEN"}), Bulks({"SLOWLOG", "GET"})}));
  EXPECT_EQ(c()({"SLOWLOG", "GET", "0"}), Array({}));
}

TEST_F(MonitoringTest, SlowlogThresholdAndLength) {
  ASSERT_EQ(c()({"CONFIG", "SET", "slowlog-log-slower-than", "100000000"}), Status("OK"));
  ASSERT_EQ(c()({"SLOWLOG", "RESET"}), Status("OK"));
  c()({"PING"});
  EXPECT_EQ(c()({"SLOWLOG", "LEN"}), Int(0));
  ASSERT_EQ(c()({"CONFIG", "SET", "slowlog-log-slower-than", "0", "slowlog-max-len", "3"}),
            Status("OK"));
  for (int i = 0; i < 5; ++i) c()({"PING"});
  EXPECT_EQ(c()({"SLOWLOG", "LEN"}), Int(3));
  // A shorter maximum applies from the next command considered.
  ASSERT_EQ(c()({"CONFIG", "SET", "slowlog-max-len", "1"}), Status("OK"));
  EXPECT_EQ(LoggedArgs(), std::vector<Reply>{Bulks({"CONFIG", "SET", "slowlog-max-len", "1"})});
  // -1 disables the log, which then keeps what it has.
  ASSERT_EQ(c()({"CONFIG", "SET", "slowlog-max-len", "10", "slowlog-log-slower-than", "-1"}),
            Status("OK"));
  c()({"PING"});
  EXPECT_EQ(c()({"SLOWLOG", "LEN"}), Int(1));
  EXPECT_EQ(c()({"CONFIG", "SET", "slowlog-log-slower-than", "-2"}),
            Error("ERR CONFIG SET failed (possibly related to argument 'slowlog-log-slower-than') "
                  "- argument must be between -1 and 9223372036854775807 inclusive"));
  EXPECT_EQ(c()({"CONFIG", "GET", "slowlog-log-slower-than"}),
            Array({Bulk("slowlog-log-slower-than"), Bulk("-1")}));
  EXPECT_EQ(c()({"CONFIG", "GET", "slowlog-max-len"}),
            Array({Bulk("slowlog-max-len"), Bulk("10")}));
}

TEST_F(MonitoringTest, SlowlogShortensLongCommands) {
  ASSERT_EQ(c()({"CONFIG", "SET", "slowlog-log-slower-than", "0"}), Status("OK"));
  std::vector<std::string> sadd = {"SADD", "set"};
  for (int i = 3; i <= 33; ++i) sadd.push_back(std::to_string(i));
  ASSERT_EQ(c().Call(sadd), Int(31));
  std::vector<std::string> kept(sadd.begin(), sadd.begin() + 31);
  kept.push_back("... (2 more arguments)");
  EXPECT_EQ(LoggedArgs("1"), std::vector<Reply>{Bulks(kept)});
  ASSERT_EQ(c()({"SADD", "set", "foo", std::string(129, 'A')}), Int(2));
  EXPECT_EQ(LoggedArgs("1"),
            std::vector<Reply>{
                Bulks({"SADD", "set", "foo", std::string(128, 'A') + "... (1 more bytes)"})});
}

TEST_F(MonitoringTest, SlowlogRedactsSecretsAndSkipsExec) {
  ASSERT_EQ(c()({"CONFIG", "SET", "slowlog-log-slower-than", "0"}), Status("OK"));
  ASSERT_EQ(c()({"SLOWLOG", "RESET"}), Status("OK"));
  c()({"AUTH", "not-a-password"});
  c()({"AUTH", "someone", "not-a-password"});
  c()({"CONFIG", "SET", "masterauth", "", "MASTERUSER", "", "hz", "10"});
  c()({"HELLO", "2", "AUTH", "default", "secret", "SETNAME", "n"});
  ASSERT_EQ(c()({"MULTI"}), Status("OK"));
  ASSERT_EQ(c()({"SET", "k", "v"}), Status("QUEUED"));
  ASSERT_EQ(c()({"EXEC"}), Array({Status("OK")}));
  EXPECT_EQ(LoggedArgs(),
            (std::vector<Reply>{
                Bulks({"SET", "k", "v"}),
                Bulks({"MULTI"}),
                Bulks({"HELLO", "2", "AUTH", "(redacted)", "(redacted)", "SETNAME", "n"}),
                Bulks({"CONFIG", "SET", "masterauth", "(redacted)", "MASTERUSER", "(redacted)",
                       "hz", "10"}),
                Bulks({"AUTH", "(redacted)", "(redacted)"}),
                Bulks({"AUTH", "(redacted)"}),
                Bulks({"SLOWLOG", "RESET"}),
            }));
}

// A blocked command is logged when it is served, as its client sent it (updateStatsOnUnblock):
// after the transaction whose LPUSH served it, and as BLPOP, not the LPOP it propagates.
TEST_F(MonitoringTest, SlowlogLogsAServedBlockedCommandAsSent) {
  Client waiter = Connect();
  waiter.SendCommand({"BLPOP", "l", "0"});
  ASSERT_TRUE(Eventually([&] {
    return c()({"INFO", "clients"}).str.find("\r\nblocked_clients:1\r\n") != std::string::npos;
  }));
  ASSERT_EQ(c()({"CONFIG", "SET", "slowlog-log-slower-than", "0"}), Status("OK"));
  ASSERT_EQ(c()({"MULTI"}), Status("OK"));
  ASSERT_EQ(c()({"LPUSH", "l", "foo"}), Status("QUEUED"));
  ASSERT_EQ(c()({"SLOWLOG", "RESET"}), Status("QUEUED"));
  ASSERT_EQ(c()({"EXEC"}), Array({Int(1), Status("OK")}));
  EXPECT_EQ(waiter.Read(), Array({Bulk("l"), Bulk("foo")}));
  EXPECT_EQ(LoggedArgs(), (std::vector<Reply>{Bulks({"BLPOP", "l", "0"}),
                                              Bulks({"SLOWLOG", "RESET"})}));
}

TEST_F(MonitoringTest, SlowlogShowsScriptCommandsWithoutAPeer) {
  ASSERT_EQ(c()({"CONFIG", "SET", "slowlog-log-slower-than", "0"}), Status("OK"));
  ASSERT_EQ(c()({"EVAL", "return redis.call('set', KEYS[1], 'v')", "1", "k"}), Status("OK"));
  Reply log = c()({"SLOWLOG", "GET", "2"});
  ASSERT_EQ(log.elements.size(), 2u);
  EXPECT_EQ(log.elements[0].elements[3],
            Bulks({"EVAL", "return redis.call('set', KEYS[1], 'v')", "1", "k"}));
  EXPECT_EQ(log.elements[1].elements[3], Bulks({"set", "k", "v"}));
  EXPECT_EQ(log.elements[1].elements[4], Bulk("?:0"));
  EXPECT_EQ(log.elements[1].elements[5], Bulk(""));
}

TEST_F(MonitoringTest, SlowlogErrorsAndHelp) {
  const Reply count_error = Error("ERR count should be greater than or equal to -1");
  EXPECT_EQ(c()({"SLOWLOG", "GET", "-2"}), count_error);
  EXPECT_EQ(c()({"SLOWLOG", "GET", "x"}), count_error);
  EXPECT_EQ(c()({"SLOWLOG", "GET", "1", "2"}),
            Error("ERR unknown subcommand or wrong number of arguments for 'GET'. Try SLOWLOG "
                  "HELP."));
  EXPECT_EQ(c()({"SLOWLOG", "LEN", "1"}),
            Error("ERR wrong number of arguments for 'slowlog|len' command"));
  EXPECT_EQ(c()({"SLOWLOG", "FOO"}), Error("ERR unknown subcommand 'FOO'. Try SLOWLOG HELP."));
  ExpectHelp(c()({"SLOWLOG", "HELP"}), 12,
             {{0, HelpHeader("SLOWLOG")}, {1, "GET [<count>]"}, {11, "    Prints this help."}});
}

TEST_F(MonitoringTest, LatencyMonitorRecordsSlowCommands) {
  EXPECT_EQ(c()({"LATENCY", "LATEST"}), Array({}));
  EXPECT_EQ(c()({"LATENCY", "DOCTOR"}),
            Bulk("I'm sorry, Dave, I can't do that. Latency monitoring is disabled in this Redis "
                 "instance. You may use \"CONFIG SET latency-monitor-threshold <milliseconds>.\" "
                 "in order to enable it. If we weren't in a deep space mission I'd suggest to take "
                 "a look at https://redis.io/topics/latency-monitor.\n"));
  ASSERT_EQ(c()({"CONFIG", "SET", "latency-monitor-threshold", "1"}), Status("OK"));
  EXPECT_EQ(c()({"LATENCY", "DOCTOR"}),
            Bulk("Dave, no latency spike was observed during the lifetime of this Redis instance, "
                 "not in the slightest bit. I honestly think you ought to sit down calmly, take a "
                 "stress pill, and think things over.\n"));
  ASSERT_EQ(c()({"DEBUG", "SLEEP", "0.02"}), Status("OK"));
  Reply latest = c()({"LATENCY", "LATEST"});
  ASSERT_EQ(latest.elements.size(), 1u) << latest;
  const Reply& event = latest.elements[0];
  ASSERT_EQ(event.elements.size(), 4u);
  EXPECT_EQ(event.elements[0], Bulk("command"));
  EXPECT_GE(event.elements[2].integer, 1);
  EXPECT_EQ(event.elements[3], event.elements[2]);  // the worst so far
  EXPECT_EQ(c()({"LATENCY", "HISTORY", "command"}),
            Array({Array({event.elements[1], event.elements[2]})}));
  EXPECT_EQ(c()({"LATENCY", "HISTORY", "COMMAND"}), Array({}));  // names are exact here
  Reply graph = c()({"LATENCY", "GRAPH", "command"});
  EXPECT_EQ(graph.str.rfind(
                "command - high " + std::to_string(event.elements[2].integer) + " ms, low ", 0),
            0u)
      << graph.str;
  std::string doctor = c()({"LATENCY", "DOCTOR"}).str;
  EXPECT_EQ(doctor.rfind("Dave, I have observed latency spikes in this Redis instance. You don't "
                         "mind talking about it, do you Dave?\n\n1. command: 1 latency spikes "
                         "(average ",
                         0),
            0u)
      << doctor;
  EXPECT_NE(doctor.find("- Check your Slow Log to understand what are the commands you are "
                        "running which are too slow to execute."),
            std::string::npos);
  // RESET ignores case; unknown events reset nothing.
  EXPECT_EQ(c()({"LATENCY", "RESET", "nosuchevent"}), Int(0));
  EXPECT_EQ(c()({"LATENCY", "RESET", "COMMAND"}), Int(1));
  EXPECT_EQ(c()({"LATENCY", "LATEST"}), Array({}));
  EXPECT_EQ(c()({"LATENCY", "GRAPH", "command"}),
            Error("ERR No samples available for event 'command'"));
  EXPECT_EQ(c()({"LATENCY", "RESET"}), Int(0));
}

TEST_F(MonitoringTest, LatencyHistogramPerCommand) {
  ASSERT_EQ(c()({"CONFIG", "RESETSTAT"}), Status("OK"));
  // Only CONFIG RESETSTAT itself has run since.
  Reply all = c()({"LATENCY", "HISTOGRAM"});
  ASSERT_EQ(all.elements.size(), 2u) << all;
  EXPECT_EQ(all.elements[0], Bulk("config|resetstat"));
  ASSERT_EQ(c()({"SET", "a", "b"}), Status("OK"));
  ASSERT_EQ(c()({"SET", "c", "d"}), Status("OK"));
  ASSERT_EQ(c()({"CLIENT", "ID"}).type, Reply::Type::kInteger);
  Reply h = c()({"LATENCY", "HISTOGRAM", "set", "nosuchcommand", "client", "get"});
  ASSERT_EQ(h.elements.size(), 4u) << h;
  EXPECT_EQ(h.elements[0], Bulk("set"));
  const Reply& set = h.elements[1];
  ASSERT_EQ(set.elements.size(), 4u) << set;
  EXPECT_EQ(set.elements[0], Bulk("calls"));
  EXPECT_EQ(set.elements[1], Int(2));
  EXPECT_EQ(set.elements[2], Bulk("histogram_usec"));
  // Buckets: upper bounds in µs from Redis's series 1, 2, 4, 8, 16, 33, 66..., with cumulative
  // counts that grow and end at the number of calls.
  const std::vector<Reply>& buckets = set.elements[3].elements;
  ASSERT_FALSE(buckets.empty());
  ASSERT_EQ(buckets.size() % 2, 0u);
  std::vector<int64_t> bounds = {1, 2, 4, 8, 16, 33, 66, 132, 264, 528, 1056, 2113, 4227, 8454};
  int64_t previous_count = 0;
  for (size_t i = 0; i < buckets.size(); i += 2) {
    EXPECT_NE(std::find(bounds.begin(), bounds.end(), buckets[i].integer), bounds.end())
        << buckets[i];
    EXPECT_GT(buckets[i + 1].integer, previous_count);
    previous_count = buckets[i + 1].integer;
  }
  EXPECT_EQ(previous_count, 2);
  EXPECT_EQ(h.elements[2], Bulk("client|id"));
  EXPECT_EQ(h.elements[3].elements[1], Int(1));
  EXPECT_EQ(c()({"LATENCY", "HISTOGRAM", "client|id"}).elements.at(0), Bulk("client|id"));
  EXPECT_EQ(c()({"LATENCY", "HISTOGRAM", "blabla", "client|x", "get|x"}), Array({}));
  // latency-tracking off: nothing is recorded.
  ASSERT_EQ(c()({"CONFIG", "SET", "latency-tracking", "no"}), Status("OK"));
  ASSERT_EQ(c()({"CONFIG", "RESETSTAT"}), Status("OK"));
  ASSERT_EQ(c()({"SET", "a", "b"}), Status("OK"));
  EXPECT_EQ(c()({"LATENCY", "HISTOGRAM"}), Array({}));
}

TEST_F(MonitoringTest, LatencyErrorsAndHelp) {
  EXPECT_EQ(c()({"LATENCY", "HISTORY"}),
            Error("ERR wrong number of arguments for 'latency|history' command"));
  EXPECT_EQ(c()({"LATENCY", "HELP", "xxx"}),
            Error("ERR wrong number of arguments for 'latency|help' command"));
  EXPECT_EQ(c()({"LATENCY", "GRAPH", "nothing"}),
            Error("ERR No samples available for event 'nothing'"));
  ExpectHelp(c()({"LATENCY", "HELP"}), 17,
             {{13,
               "    Return a cumulative distribution of latencies in the format of a histogram "
               "for the specified command names."}});
}

TEST_F(MonitoringTest, MonitorShowsCommandsOfOtherClients) {
  std::string me = "0 " + AddrOf(c());
  Client monitor = Connect();
  ASSERT_EQ(monitor({"MONITOR"}), Status("OK"));
  ASSERT_EQ(c()({"SET", "foo", "bar"}), Status("OK"));
  ASSERT_EQ(c()({"GET", "foo"}), Bulk("bar"));
  EXPECT_EQ(MonitorLine(monitor, me), R"m("SET" "foo" "bar")m");
  EXPECT_EQ(MonitorLine(monitor, me), R"m("GET" "foo")m");
  // Arguments are quoted as sdscatrepr quotes them.
  ASSERT_EQ(c()({"SET", std::string("a\"b\\\n\r\t\x01\xff", 9), ""}), Status("OK"));
  EXPECT_EQ(MonitorLine(monitor, me), R"m("SET" "a\"b\\\n\r\t\x01\xff" "")m");
  // The database is the one after the command ran; administrative commands are not shown.
  std::string in_5 = "5" + me.substr(1);
  ASSERT_EQ(c()({"SELECT", "5"}), Status("OK"));
  ASSERT_EQ(c()({"CONFIG", "GET", "hz"}).type, Reply::Type::kArray);
  ASSERT_EQ(c()({"PING"}), Status("PONG"));
  EXPECT_EQ(MonitorLine(monitor, in_5), R"m("SELECT" "5")m");
  EXPECT_EQ(MonitorLine(monitor, in_5), R"m("PING")m");
  // Passwords are redacted.
  c()({"AUTH", "not-real"});
  c()({"HELLO", "2", "AUTH", "not-real", "not-a-password"});
  EXPECT_EQ(MonitorLine(monitor, in_5), R"m("AUTH" "(redacted)")m");
  EXPECT_EQ(MonitorLine(monitor, in_5), R"m("HELLO" "2" "AUTH" "(redacted)" "(redacted)")m");
}

TEST_F(MonitoringTest, MonitorShowsScriptsAndTransactions) {
  std::string me = "0 " + AddrOf(c());
  Client monitor = Connect();
  ASSERT_EQ(monitor({"MONITOR"}), Status("OK"));
  ASSERT_EQ(c()({"EVAL", "return redis.call('set', KEYS[1], ARGV[1])", "1", "foo", "bar"}),
            Status("OK"));
  EXPECT_EQ(MonitorLine(monitor, me),
            R"m("EVAL" "return redis.call('set', KEYS[1], ARGV[1])" "1" "foo" "bar")m");
  EXPECT_EQ(MonitorLine(monitor, "0 lua"), R"m("set" "foo" "bar")m");
  // A function's call shows before its commands too.
  ASSERT_EQ(c()({"FUNCTION", "LOAD", "REPLACE",
                 "#!lua name=monitored\nredis.register_function('setfoo', function() return "
                 "redis.call('set', 'foo', 'bar') end)"})
                .type,
            Reply::Type::kBulk);
  EXPECT_EQ(MonitorLine(monitor, me).substr(0, 16), R"m("FUNCTION" "LOAD)m");
  ASSERT_EQ(c()({"FCALL", "setfoo", "0"}), Status("OK"));
  EXPECT_EQ(MonitorLine(monitor, me), R"m("FCALL" "setfoo" "0")m");
  EXPECT_EQ(MonitorLine(monitor, "0 lua"), R"m("set" "foo" "bar")m");
  ASSERT_EQ(c()({"FUNCTION", "DELETE", "monitored"}), Status("OK"));
  EXPECT_EQ(MonitorLine(monitor, me), R"m("FUNCTION" "DELETE" "monitored")m");
  ASSERT_EQ(c()({"MULTI"}), Status("OK"));
  ASSERT_EQ(c()({"SET", "foo", "baz"}), Status("QUEUED"));
  ASSERT_EQ(c()({"EXEC"}), Array({Status("OK")}));
  EXPECT_EQ(MonitorLine(monitor, me), R"m("MULTI")m");
  EXPECT_EQ(MonitorLine(monitor, me), R"m("SET" "foo" "baz")m");
  EXPECT_EQ(MonitorLine(monitor, me), R"m("EXEC")m");
  // A failed transaction still shows its EXEC, so that it visibly ends.
  ASSERT_EQ(c()({"MULTI"}), Status("OK"));
  ASSERT_EQ(c()({"NOSUCHCOMMAND"}).type, Reply::Type::kError);
  ASSERT_EQ(c()({"EXEC"}).type, Reply::Type::kError);
  EXPECT_EQ(MonitorLine(monitor, me), R"m("MULTI")m");
  EXPECT_EQ(MonitorLine(monitor, me), R"m("EXEC")m");
}

TEST_F(MonitoringTest, MonitorClientState) {
  Client monitor = Connect();
  std::string addr = AddrOf(monitor);
  ASSERT_EQ(monitor({"MONITOR"}), Status("OK"));
  Reply list = c()({"CLIENT", "LIST"});
  EXPECT_NE(list.str.find("addr=" + addr + " laddr="), std::string::npos);
  EXPECT_NE(list.str.find(" flags=O db=0 "), std::string::npos) << list.str;
  // A second MONITOR answers nothing; the monitor sees its own commands too.
  monitor.SendCommand({"MONITOR"});
  EXPECT_EQ(monitor({"PING"}), Status("PONG"));
  EXPECT_EQ(MonitorLine(monitor, "0 " + addr), R"m("PING")m");
  EXPECT_EQ(monitor({"GET", "k"}), Error("ERR Replica can't interact with the keyspace"));
  // RESET ends monitoring.
  EXPECT_EQ(monitor({"RESET"}), Status("RESET"));
  ASSERT_EQ(c()({"SET", "k", "v"}), Status("OK"));
  EXPECT_EQ(monitor({"GET", "k"}), Bulk("v"));
  // Inside a transaction it is refused.
  ASSERT_EQ(monitor({"MULTI"}), Status("OK"));
  ASSERT_EQ(monitor({"MONITOR"}), Status("QUEUED"));
  EXPECT_EQ(monitor({"EXEC"}),
            Array({Error("ERR MONITOR isn't allowed for DENY BLOCKING client")}));
}

TEST_F(MonitoringTest, LastSave) {
  Reply last = c()({"LASTSAVE"});
  ASSERT_EQ(last.type, Reply::Type::kInteger);
  int64_t now = std::stoll(c()({"TIME"}).elements.at(0).str);
  EXPECT_GT(last.integer, 0);
  EXPECT_LE(last.integer, now);
  EXPECT_EQ(c()({"LASTSAVE"}), last);  // nothing is ever saved
  EXPECT_EQ(c()({"LASTSAVE", "x"}), Error("ERR wrong number of arguments for 'lastsave' command"));
}

TEST_F(MonitoringTest, Lolwut) {
  const std::string version_line = "Redis ver. 7.0.15\n";
  EXPECT_EQ(c()({"LOLWUT"}), Bulk(version_line));
  EXPECT_EQ(c()({"LOLWUT", "VERSION", "7"}), Bulk(version_line));
  EXPECT_EQ(c()({"LOLWUT", "VERSION", "4"}), Bulk(version_line));
  EXPECT_EQ(c()({"LOLWUT", "10", "20"}), Bulk(version_line));
  EXPECT_EQ(c()({"LOLWUT", "VERSION"}), Bulk(version_line));
  EXPECT_EQ(c()({"LOLWUT", "VERSION", "x"}), Error("ERR value is not an integer or out of range"));
  EXPECT_EQ(c()({"LOLWUT", "VERSION", "5", "x"}),
            Error("ERR value is not an integer or out of range"));
  // Schotter's first two rows of squares are not random.
  EXPECT_EQ(c()({"LOLWUT", "VERSION", "5", "5", "2", "2"}), Bulk(kSchotter5x2x2));
  std::string skyline = c()({"LOLWUT", "VERSION", "6", "3", "2"}).str;
  const std::string caption =
      "\nDedicated to the 8 bit game developers of past and present.\nOriginal 8 bit image from "
      "Plaguemon by hikikomori. Redis ver. 7.0.15\n";
  ASSERT_GT(skyline.size(), caption.size());
  EXPECT_EQ(skyline.substr(skyline.size() - caption.size()), caption);
  EXPECT_EQ(std::count(skyline.begin(), skyline.end(), '\033'), 12);  // two per character
}

}  // namespace
}  // namespace redlab::conformance
