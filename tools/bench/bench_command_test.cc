// `redlab bench` end to end: the redlab binary run as a user would, on the project's lock
// script against both targets, with and without a replica and WAIT; its JSON and HDR files;
// and its usage errors.
#include "tools/bench/bench_command.h"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <hiredis/hiredis.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>

#include "conformance/harness/child_process.h"
#include "tools/bench/targets.h"

namespace redlab::tools::bench {
namespace {

std::string Slurp(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

class BenchCommandTest : public testing::Test {
 protected:
  void SetUp() override {
    dir_ =
        std::filesystem::temp_directory_path() / ("redlab-bench-test-" + std::to_string(getpid()));
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  // Runs `redlab bench ARGS`; returns the exit status, stdout in `out`.
  int Bench(const std::vector<std::string>& args, std::string* out) {
    std::vector<std::string> argv = {"bench"};
    argv.insert(argv.end(), args.begin(), args.end());
    conformance::ChildProcess p(REDLAB_TOOL_PATH, argv);
    out->clear();
    for (std::string line; !(line = p.ReadLine(std::chrono::seconds(120))).empty();) {
      *out += line + "\n";
    }
    int status = p.Wait(std::chrono::seconds(120));
    err_ = p.Stderr();
    return status;
  }

  std::vector<std::string> LockScript() {
    return {"--script",        std::string(REDLAB_LUA_DIR) + "/lock_acquire.lua",
            "--keys",          "lock:{rand:1..1000}",
            "--args",          "30000",
            "owner-{client}:1"};
  }

  std::filesystem::path dir_;
  std::string err_;
};

TEST_F(BenchCommandTest, LockScriptAgainstBothTargets) {
  std::string json = (dir_ / "out.json").string(), hdr = (dir_ / "out.hdr").string();
  std::vector<std::string> args = LockScript();
  args.insert(args.end(), {"--target", "both", "--requests", "600", "--clients", "4", "--pipeline",
                           "4", "--json", json, "--hdr", hdr});
  std::string out;
  ASSERT_EQ(Bench(args, &out), 0) << out << err_;
  EXPECT_NE(out.find("redlab/redis"), std::string::npos) << out;
  EXPECT_NE(out.find("p99.99 (us)"), std::string::npos) << out;

  nlohmann::json j = nlohmann::json::parse(Slurp(json));
  EXPECT_EQ(j["call"].get<std::string>().rfind("EVALSHA ", 0), 0u) << j["call"];
  for (const char* t : {"redlab", "redis"}) {
    SCOPED_TRACE(t);
    EXPECT_EQ(j["targets"][t]["calls"], 600);
    EXPECT_EQ(j["targets"][t]["errors_total"], 0);
    EXPECT_EQ(j["targets"][t]["noscript"], 0);  // SCRIPT LOAD ran before the calls
    EXPECT_EQ(j["targets"][t]["rounds"], 3);
    EXPECT_GT(j["targets"][t]["latency_us"]["p50"].get<double>(), 0);
  }
  EXPECT_TRUE(j["ratio"].contains("calls/s"));
  EXPECT_EQ(j["config"]["loop"], "closed");
  // Pinned by default when this machine lets the process run on two CPUs or more.
  if (std::optional<PinnedCpus> cpus = CpusToPin()) {
    EXPECT_EQ(j["config"]["pinned"],
              nlohmann::json({{"server_cpu", cpus->server}, {"load_cpu", cpus->load}}));
    EXPECT_NE(out.find(fmt::format("pinned: servers on CPU {}, load generator on CPU {}\n",
                                   cpus->server, cpus->load)),
              std::string::npos)
        << out;
  } else {
    EXPECT_TRUE(j["config"]["pinned"].is_null());
  }

  std::string log = Slurp(hdr);
  EXPECT_EQ(log.rfind("#[Histogram log format version 1.3]\n", 0), 0u) << log;
  EXPECT_NE(log.find("\nTag=redlab,"), std::string::npos) << log;
  EXPECT_NE(log.find("\nTag=redis,"), std::string::npos) << log;
}

TEST_F(BenchCommandTest, LockScriptWithAReplicaAndWait) {
  std::string json = (dir_ / "wait.json").string();
  std::vector<std::string> args = LockScript();
  args.insert(args.end(), {"--target", "both", "--replicas", "1", "--wait", "1/5000", "--requests",
                           "300", "--clients", "2", "--json", json, "--no-pin"});
  std::string out;
  ASSERT_EQ(Bench(args, &out), 0) << out << err_;
  EXPECT_EQ(out.find("pinned:"), std::string::npos) << out;
  EXPECT_NE(out.find("WAIT short"), std::string::npos) << out;
  nlohmann::json j = nlohmann::json::parse(Slurp(json));
  EXPECT_TRUE(j["config"]["pinned"].is_null());
  for (const char* t : {"redlab", "redis"}) {
    SCOPED_TRACE(t);
    EXPECT_EQ(j["targets"][t]["calls"], 300);
    EXPECT_EQ(j["targets"][t]["errors_total"], 0);
    EXPECT_EQ(j["targets"][t]["wait_short"], 0);
  }
}

TEST_F(BenchCommandTest, ReplicationPauseMakesEveryWaitShortOnBoth) {
  // REPL PAUSE on redlab, the proxy's hold on redis: no write reaches the replica.
  std::string json = (dir_ / "pause.json").string();
  std::vector<std::string> args = LockScript();
  args.insert(args.end(), {"--target", "both", "--replicas", "1", "--wait", "1/5", "--fault",
                           "REPL PAUSE", "--requests", "20", "--clients", "2", "--json", json});
  std::string out;
  ASSERT_EQ(Bench(args, &out), 0) << out << err_;
  nlohmann::json j = nlohmann::json::parse(Slurp(json));
  for (const char* t : {"redlab", "redis"}) {
    SCOPED_TRACE(t);
    EXPECT_EQ(j["targets"][t]["calls"], 20);
    EXPECT_EQ(j["targets"][t]["wait_short"], 20);
  }
}

TEST_F(BenchCommandTest, OpenLoopCommandOnRedlab) {
  std::string json = (dir_ / "open.json").string();
  std::string out;
  ASSERT_EQ(Bench({"--rate", "2000", "--requests", "200", "--json", json, "--", "SET",
                   "k:{seq:1..50}", "{randstr:8}"},
                  &out),
            0)
      << out << err_;
  nlohmann::json j = nlohmann::json::parse(Slurp(json));
  EXPECT_EQ(j["config"]["loop"], "open");
  // --json -: the JSON alone on stdout, the table on stderr.
  ASSERT_EQ(Bench({"--requests", "10", "--json", "-", "--", "PING"}, &out), 0) << err_;
  EXPECT_EQ(nlohmann::json::parse(out)["targets"]["redlab"]["calls"], 10);
  EXPECT_NE(err_.find("calls/s"), std::string::npos) << err_;
  EXPECT_EQ(j["targets"]["redlab"]["calls"], 200);
  EXPECT_EQ(j["targets"]["redlab"]["errors_total"], 0);
  EXPECT_EQ(j["call"], "SET k:{seq:1..50} {randstr:8}");
}

TEST_F(BenchCommandTest, ARunningServerByUrlGetsTheFaultsAsFaultCommands) {
  std::unique_ptr<Target> node = StartRedlab({});
  std::string json = (dir_ / "server.json").string();
  std::string out;
  ASSERT_EQ(Bench({"--server", "redis://127.0.0.1:" + std::to_string(node->port()), "--fault",
                   "REPLY DELAY 1", "--requests", "40", "--clients", "2", "--json", json, "--",
                   "INCR", "{client}"},
                  &out),
            0)
      << out << err_;
  nlohmann::json j = nlohmann::json::parse(Slurp(json));
  EXPECT_EQ(j["targets"]["server"]["calls"], 40);
  EXPECT_EQ(j["targets"]["server"]["errors_total"], 0);
  redisContext* c = redisConnect("127.0.0.1", node->port());
  ASSERT_TRUE(c != nullptr && c->err == 0);
  auto* r = static_cast<redisReply*>(redisCommand(c, "FAULT LIST"));
  ASSERT_NE(r, nullptr);
  ASSERT_EQ(r->type, REDIS_REPLY_ARRAY);
  ASSERT_EQ(r->elements, 1u);
  EXPECT_EQ(std::string(r->element[0]->str, r->element[0]->len), "REPLY DELAY 1");
  freeReplyObject(r);
  r = static_cast<redisReply*>(redisCommand(c, "MGET 0 1"));
  ASSERT_NE(r, nullptr);
  ASSERT_EQ(r->elements, 2u);
  // Two connections, 40 calls: every call was made once, whichever connection made it.
  EXPECT_EQ(std::stoll(r->element[0]->str) + std::stoll(r->element[1]->str), 40);
  freeReplyObject(r);
  redisFree(c);
}

TEST_F(BenchCommandTest, FunctionFromALibraryOnBothTargets) {
  std::string lib = (dir_ / "lib.lua").string(), json = (dir_ / "fn.json").string();
  {
    std::ofstream out(lib);
    out << "#!lua name=benchlib\n"
           "redis.register_function('bump', function(keys, args)\n"
           "  return redis.call('incrby', keys[1], args[1])\n"
           "end)\n";
  }
  std::string out;
  ASSERT_EQ(Bench({"--target", "both", "--function", "benchlib.bump", "--library", lib, "--keys",
                   "c:{client}", "--args", "{rand:1..9}", "--requests", "90", "--clients", "3",
                   "--json", json},
                  &out),
            0)
      << out << err_;
  nlohmann::json j = nlohmann::json::parse(Slurp(json));
  EXPECT_EQ(j["call"], "FCALL bump 1 c:{client} {rand:1..9}");
  for (const char* t : {"redlab", "redis"}) {
    SCOPED_TRACE(t);
    EXPECT_EQ(j["targets"][t]["calls"], 90);
    EXPECT_EQ(j["targets"][t]["errors_total"], 0);
  }
}

TEST_F(BenchCommandTest, UsageErrors) {
  std::string out;
  EXPECT_EQ(Bench({"--requests", "10"}, &out), kExitBenchUsage);  // nothing to call
  EXPECT_NE(err_.find("give one of --script"), std::string::npos) << err_;
  EXPECT_EQ(Bench({"--script", "/nonexistent.lua"}, &out), kExitBenchUsage);
  EXPECT_NE(err_.find("cannot read /nonexistent.lua"), std::string::npos) << err_;
  EXPECT_EQ(Bench({"--keys", "{rand:9..1}", "--script",
                   std::string(REDLAB_LUA_DIR) + "/lock_acquire.lua"},
                  &out),
            kExitBenchUsage);
  EXPECT_NE(err_.find("bad pattern placeholder {rand:9..1}"), std::string::npos) << err_;
  EXPECT_EQ(Bench({"--server", "redis://127.0.0.1:1", "--", "PING"}, &out), kExitBenchUnavailable);
  EXPECT_EQ(Bench({"--wait", "x", "--", "PING"}, &out), kExitBenchUsage);
}

TEST(ParseDurationTest, Units) {
  EXPECT_DOUBLE_EQ(ParseDuration("10"), 10);
  EXPECT_DOUBLE_EQ(ParseDuration("10s"), 10);
  EXPECT_DOUBLE_EQ(ParseDuration("500ms"), 0.5);
  EXPECT_DOUBLE_EQ(ParseDuration("2m"), 120);
  EXPECT_THROW(ParseDuration("5h"), std::invalid_argument);
  EXPECT_THROW(ParseDuration("x"), std::invalid_argument);
}

}  // namespace
}  // namespace redlab::tools::bench
