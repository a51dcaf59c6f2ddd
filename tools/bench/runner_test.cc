// The load generator against real servers, redlab and redis-server alike: every call made and
// counted once, errors by first word, the NOSCRIPT fallback, WAIT after each call, open loop.
// No assertion on time: only on what the servers saw and answered.
#include "tools/bench/runner.h"

#include <gtest/gtest.h>

#include "conformance/harness/client.h"
#include "tools/bench/targets.h"

namespace redlab::tools::bench {
namespace {

// `argv` on a new connection to `port`: the reply's text (an integer's digits).
std::string Call(int port, const std::vector<std::string>& argv) {
  conformance::Reply r = conformance::Client(port).Call(argv);
  return r.type == conformance::Reply::Type::kInteger ? std::to_string(r.integer) : r.str;
}

// Runs `w` with `o`, expecting every requested call made and none failed.
RunStats RunAllClean(const RunnerOptions& o, Workload& w) {
  RunStats s = bench::Run(o, w);
  EXPECT_EQ(s.calls, o.requests);
  EXPECT_EQ(s.errors_total(), 0);
  return s;
}

class RunnerTest : public testing::TestWithParam<std::string> {
 protected:
  std::unique_ptr<Target> Start(const TargetSpec& spec = {}) {
    return GetParam() == "redlab" ? StartRedlab(spec) : StartRedis(spec);
  }
  // 4 connections of 8 calls in flight to `t`; `requests` measured calls (0: for a duration).
  static RunnerOptions Options(const Target& t, int64_t requests = 0) {
    RunnerOptions o;
    o.port = t.port();
    o.clients = 4;
    o.pipeline = 8;
    o.requests = requests;
    return o;
  }
};

TEST_P(RunnerTest, ClosedLoopMakesEveryRequestedCallOnce) {
  auto t = Start();
  Workload w({.kind = CallKind::kCommand, .command = {"INCR", "n:{seq:1..500}"}});
  RunnerOptions o = Options(*t, 1000);
  RunStats s = bench::Run(o, w);
  EXPECT_EQ(s.calls, 1000);
  EXPECT_EQ(s.latency.total_count(), 1000);
  EXPECT_EQ(s.errors_total(), 0);
  EXPECT_EQ(s.rounds, 1);
  EXPECT_EQ(Call(t->port(), {"DBSIZE"}), "500");
  EXPECT_EQ(Call(t->port(), {"GET", "n:1"}), "2");
  EXPECT_EQ(Call(t->port(), {"GET", "n:500"}), "2");
  int64_t in_intervals = 0;
  for (const Interval& i : s.intervals) in_intervals += i.latency.total_count();
  EXPECT_EQ(in_intervals, 1000);
}

TEST_P(RunnerTest, ErrorsAreCountedByTheirFirstWord) {
  auto t = Start();
  Call(t->port(), {"SET", "s", "text"});
  Workload w({.kind = CallKind::kCommand, .command = {"LPUSH", "s", "x"}});
  RunnerOptions o = Options(*t, 50);
  RunStats s = bench::Run(o, w);
  EXPECT_EQ(s.calls, 50);
  EXPECT_EQ(s.errors, (std::map<std::string, int64_t>{{"WRONGTYPE", 50}}));

  Workload incr({.kind = CallKind::kCommand, .command = {"INCR", "s"}});
  s = bench::Run(o, incr);
  EXPECT_EQ(s.errors, (std::map<std::string, int64_t>{{"ERR", 50}}));
}

TEST_P(RunnerTest, EvalshaFallsBackToEvalOnNoscript) {
  auto t = Start();
  const std::string source = "return redis.call('incr', KEYS[1])";
  Workload w({.kind = CallKind::kScript, .script_source = source, .keys = {"counter"}});
  std::string sha = LoadScript(*t, source);
  Call(t->port(), {"SCRIPT", "FLUSH"});  // the server forgot it: the first call gets NOSCRIPT
  w.set_sha(sha);
  RunnerOptions o = Options(*t, 20);
  o.clients = 1;
  o.pipeline = 1;
  RunStats s = RunAllClean(o, w);
  EXPECT_EQ(s.noscript, 1);  // EVAL cached it for the calls after
  EXPECT_EQ(Call(t->port(), {"GET", "counter"}), "20");
}

TEST_P(RunnerTest, FcallAndScriptErrorsByFirstWord) {
  auto t = Start();
  LoadFunctionLibrary(*t,
                      "#!lua name=lib\nredis.register_function('bump', function(keys, args) "
                      "return redis.call('incrby', keys[1], args[1]) end)");
  Workload w({.kind = CallKind::kFunction, .function = "bump", .keys = {"f"}, .args = {"2"}});
  RunnerOptions o = Options(*t, 30);
  RunStats s = RunAllClean(o, w);
  EXPECT_EQ(Call(t->port(), {"GET", "f"}), "60");

  Workload bad({.kind = CallKind::kFunction, .function = "nosuch", .keys = {"f"}});
  s = bench::Run(o, bad);
  EXPECT_EQ(s.errors, (std::map<std::string, int64_t>{{"ERR", 30}}));
}

TEST_P(RunnerTest, WaitAfterEachCallCountsShortAnswers) {
  auto t = Start({.replicas = 1});
  Workload w({.kind = CallKind::kCommand, .command = {"SET", "k:{rand:1..100}", "v"}});
  RunnerOptions o = Options(*t, 200);
  o.wait_replicas = 1;
  o.wait_timeout_ms = 5000;
  RunStats s = RunAllClean(o, w);
  EXPECT_EQ(s.wait_short, 0);  // every write reached the replica

  // More replicas than there are: every WAIT times out short (after 1 ms).
  o.wait_replicas = 2;
  o.wait_timeout_ms = 1;
  o.requests = 20;
  s = bench::Run(o, w);
  EXPECT_EQ(s.calls, 20);
  EXPECT_EQ(s.wait_short, 20);
}

TEST_P(RunnerTest, OpenLoopIssuesExactlyTheRequestedCalls) {
  auto t = Start();
  Workload w({.kind = CallKind::kCommand, .command = {"INCR", "open"}});
  RunnerOptions o = Options(*t, 300);
  o.rate = 5000;
  o.warmup_s = 0.01;
  RunAllClean(o, w);
  int64_t total = std::stoll(Call(t->port(), {"GET", "open"}));
  EXPECT_GE(total, 300);  // the warm-up's calls come on top
}

TEST_P(RunnerTest, ForADuration) {
  auto t = Start();
  Workload w({.kind = CallKind::kCommand, .command = {"PING"}});
  RunnerOptions o = Options(*t);
  o.duration_s = 0.2;
  RunStats s = bench::Run(o, w);
  EXPECT_GT(s.calls, 0);
  EXPECT_EQ(s.latency.total_count(), s.calls);
  EXPECT_EQ(s.errors_total(), 0);
}

TEST_P(RunnerTest, LostConnectionsEndTheRunWithIoErrors) {
  auto t = Start();
  // The first call closes every connection, its own after the reply (SKIPME no): the calls in
  // flight end as IO errors and the run ends instead of waiting for replies that never come.
  Workload w({.kind = CallKind::kCommand,
              .command = {"CLIENT", "KILL", "TYPE", "normal", "SKIPME", "no"}});
  RunnerOptions o = Options(*t, 1000);
  RunStats s = bench::Run(o, w);
  EXPECT_LT(s.calls, 1000);
  EXPECT_GE(s.errors["IO"], 1);  // at least the caller's own pipelined calls after the kill
  EXPECT_EQ(s.errors.size(), 1u);
  EXPECT_EQ(s.latency.total_count(), s.calls);

  // Open loop: the run ends too (whether calls were waiting for a connection depends on timing).
  o.rate = 1000;
  RunStats open = bench::Run(o, w);
  EXPECT_LT(open.calls, 1000);
  EXPECT_GE(open.calls, 1);
  for (const auto& [word, n] : open.errors) EXPECT_EQ(word, "IO");
}

INSTANTIATE_TEST_SUITE_P(Targets, RunnerTest, testing::Values("redlab", "redis"),
                         [](const auto& info) { return info.param; });

TEST(RunnerConnectTest, NobodyListeningThrows) {
  Workload w({.kind = CallKind::kCommand, .command = {"PING"}});
  RunnerOptions o;
  o.port = 1;  // privileged, never listened on here
  o.clients = 2;
  o.requests = 10;
  EXPECT_THROW(bench::Run(o, w), std::runtime_error);
}

}  // namespace
}  // namespace redlab::tools::bench
