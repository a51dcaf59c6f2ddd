// EVAL driven through the engine directly (no sockets): the effects a script propagates, the busy
// state seen by a second client served from inside the script's hook, SCRIPT KILL, SHUTDOWN
// NOSAVE, and the single instant a script sees.
#include "server/engine/core/script_runner.h"

#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "server/engine/core/engine.h"
#include "server/replication/replication.h"

namespace redlab::server::engine {
namespace {

class NullIo : public ClientIo {
 public:
  std::string_view PeerAddress() const override { return "127.0.0.1:1"; }
  std::string_view LocalAddress() const override { return "127.0.0.1:2"; }
  int Fd() const override { return -1; }
  void RequestFlush() override {}
  void CloseAsap() override {}
  void ResumeInput() override {}
  size_t QueryBufferLength() const override { return 0; }
  size_t QueryBufferFree() const override { return 0; }
  size_t PendingOutputBytes() const override { return 0; }
};

// Runs `on_blocked` when the engine serves other clients during a busy script, as the net layer
// would with their pending requests.
class TestHost : public EngineHost {
 public:
  void RequestShutdown() override { shutdown_requested = true; }
  int TcpPort() const override { return 0; }
  void ScheduleTimer(int64_t delay_ms) override {}
  void ProcessEventsWhileBlocked() override {
    ++blocked_calls;
    if (on_blocked) on_blocked();
  }
  void Log(int level, std::string_view message) override { logs.emplace_back(message); }

  std::function<void()> on_blocked;
  int blocked_calls = 0;
  bool shutdown_requested = false;
  std::vector<std::string> logs;
};

class RecordingSink : public EffectSink {
 public:
  void OnEffects(std::span<const Effect> effects) override {
    batches.emplace_back(effects.begin(), effects.end());
  }
  std::vector<std::vector<Effect>> batches;
};

ServerConfig BusyConfig() {
  ServerConfig config;
  config.busy_reply_threshold = 1;  // ms: a few hook calls in, the script is busy
  return config;
}

class ScriptRunnerTest : public ::testing::Test {
 protected:
  ScriptRunnerTest() : engine_(BusyConfig(), &host_, replication::MakeReplication) {
    caller_ = engine_.CreateClient(&io_);
    other_ = engine_.CreateClient(&io_);
    engine_.propagation().set_sink(&sink_);
  }

  std::string Run(Client* client, std::vector<std::string> args) {
    client->reply_buffer().clear();
    engine_.Execute(*client, args);
    return client->reply_buffer();
  }

  TestHost host_;
  NullIo io_;
  Engine engine_;
  Client* caller_;
  Client* other_;
  RecordingSink sink_;
};

std::string Prefix(const std::string& s, std::string_view prefix) {
  return s.substr(0, prefix.size());
}

std::vector<std::vector<std::string>> Args(const std::vector<Effect>& batch) {
  std::vector<std::vector<std::string>> out;
  for (const Effect& e : batch) out.push_back(e.args);
  return out;
}

TEST_F(ScriptRunnerTest, WritesPropagateAsOneBatchOfEffects) {
  EXPECT_EQ(Run(caller_, {"EVAL",
                          "redis.call('set', 'a', '1') redis.call('get', 'a')"
                          " redis.call('set', 'b', '2') return 1",
                          "0"}),
            ":1\r\n");
  ASSERT_EQ(sink_.batches.size(), 1u);
  EXPECT_EQ(Args(sink_.batches[0]),
            (std::vector<std::vector<std::string>>{{"set", "a", "1"}, {"set", "b", "2"}}));
  // A script that writes nothing propagates nothing, EVAL included.
  Run(caller_, {"EVAL", "return redis.call('get', 'a')", "0"});
  EXPECT_EQ(sink_.batches.size(), 1u);
  // Writes in another database carry it.
  Run(caller_, {"EVAL", "redis.call('select', 2) redis.call('set', 'c', '3')", "0"});
  ASSERT_EQ(sink_.batches.size(), 2u);
  ASSERT_EQ(sink_.batches[1].size(), 1u);
  EXPECT_EQ(sink_.batches[1][0].db, 2);
}

TEST_F(ScriptRunnerTest, SetReplControlsPropagation) {
  Run(caller_, {"EVAL",
                "redis.call('set', 'a', '1') redis.set_repl(redis.REPL_NONE)"
                " redis.call('set', 'b', '2') redis.set_repl(redis.REPL_AOF)"
                " redis.call('set', 'c', '3') redis.set_repl(redis.REPL_ALL)"
                " redis.call('set', 'd', '4')",
                "0"});
  ASSERT_EQ(sink_.batches.size(), 1u);
  EXPECT_EQ(Args(sink_.batches[0]),
            (std::vector<std::vector<std::string>>{{"set", "a", "1"}, {"set", "d", "4"}}));
  EXPECT_EQ(Run(caller_, {"GET", "c"}), "$1\r\n3\r\n");
}

TEST_F(ScriptRunnerTest, OtherClientsGetBusyFromInsideTheHook) {
  std::vector<std::string> seen;
  host_.on_blocked = [&] {
    if (!seen.empty()) return;
    seen.push_back(Run(other_, {"PING"}));
    seen.push_back(Run(other_, {"GET", "k"}));
    seen.push_back(Run(other_, {"SCRIPT", "KILL"}));
  };
  EXPECT_EQ(Prefix(Run(caller_, {"EVAL", "while true do end", "0"}),
                   "-ERR Script killed by user with SCRIPT KILL... script: "),
            "-ERR Script killed by user with SCRIPT KILL... script: ");
  ASSERT_EQ(seen.size(), 3u);
  std::string busy =
      "-BUSY Redis is busy running a script. You can only call SCRIPT KILL or SHUTDOWN NOSAVE.\r\n";
  EXPECT_EQ(seen[0], busy);
  EXPECT_EQ(seen[1], busy);
  EXPECT_EQ(seen[2], "+OK\r\n");
  ASSERT_FALSE(host_.logs.empty());
  EXPECT_EQ(Prefix(host_.logs[0], "Slow script detected: still in execution after "),
            "Slow script detected: still in execution after ");
  // Idle again.
  EXPECT_FALSE(engine_.script_busy());
  EXPECT_EQ(Run(other_, {"PING"}), "+PONG\r\n");
  EXPECT_EQ(Run(other_, {"SCRIPT", "KILL"}), "-NOTBUSY No scripts in execution right now.\r\n");
}

TEST_F(ScriptRunnerTest, ScriptThatWroteCannotBeKilled) {
  int polls = 0;
  std::string kill_reply;
  host_.on_blocked = [&] {
    if (++polls == 1) kill_reply = Run(other_, {"SCRIPT", "KILL"});
  };
  // The script ends by itself after a number of busy polls.
  EXPECT_EQ(
      Run(caller_, {"EVAL",
                    "redis.call('set', 'k', 'v') local i = 0 while i < 2000000 do i = i + 1 end"
                    " return 'done'",
                    "0"}),
      "$4\r\ndone\r\n");
  EXPECT_EQ(Prefix(kill_reply, "-UNKILLABLE Sorry the script already executed write commands "),
            "-UNKILLABLE Sorry the script already executed write commands ");
}

TEST_F(ScriptRunnerTest, ShutdownNosaveStopsTheScriptWithoutReply) {
  std::string shutdown_reply;
  host_.on_blocked = [&] {
    if (!shutdown_reply.empty() || host_.shutdown_requested) return;
    shutdown_reply = Run(other_, {"SHUTDOWN"});
    Run(other_, {"SHUTDOWN", "NOSAVE"});
  };
  EXPECT_EQ(Run(caller_, {"EVAL", "redis.call('set', 'k', 'v') while true do end", "0"}), "");
  EXPECT_EQ(shutdown_reply,
            "-BUSY Redis is busy running a script. You can only call SCRIPT KILL or SHUTDOWN "
            "NOSAVE.\r\n");
  EXPECT_TRUE(host_.shutdown_requested);
  EXPECT_TRUE(caller_->close_after_reply());
}

TEST_F(ScriptRunnerTest, ScriptSeesOneInstant) {
  // A key that expires while the script runs stays visible to the script, and to commands served
  // meanwhile, until the script ends.
  engine_.clock().SetManual();
  Run(caller_, {"SET", "k", "v"});
  engine_.keyspace().SnapshotTime();
  Db& db = engine_.keyspace().db(0);
  db.SetExpire(db.LookupQuiet("k"), engine_.clock().NowMs() + 50);
  std::string served;
  host_.on_blocked = [&] {
    if (!served.empty()) return;
    engine_.clock().Advance(100);
    served = Run(other_, {"WATCH", "k"});  // allowed while busy; must not move the instant
  };
  EXPECT_EQ(Run(caller_, {"EVAL",
                          "local a = redis.call('get', 'k') local i = 0"
                          " while i < 3000000 do i = i + 1 end"
                          " return {a, redis.call('get', 'k')}",
                          "0"}),
            "*2\r\n$1\r\nv\r\n$1\r\nv\r\n");
  EXPECT_EQ(served, "+OK\r\n");
  EXPECT_EQ(Run(caller_, {"GET", "k"}), "$-1\r\n");
}

TEST_F(ScriptRunnerTest, ReadOnlyRunsRefuseWrites) {
  EXPECT_EQ(Run(caller_, {"EVAL_RO", "return redis.pcall('set', 'k', 'v')", "0"}),
            "-ERR Write commands are not allowed from read-only scripts.\r\n");
  EXPECT_TRUE(sink_.batches.empty());
  EXPECT_EQ(Run(caller_, {"GET", "k"}), "$-1\r\n");
}

}  // namespace
}  // namespace redlab::server::engine
