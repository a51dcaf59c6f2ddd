// The engine driven directly (no sockets): dispatch checks, and the effects it hands to the
// replication layer.
#include "server/engine/engine.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace redlab::server::engine {
namespace {

class NullIo : public ClientIo {
 public:
  std::string_view PeerAddress() const override { return "127.0.0.1:1"; }
  std::string_view LocalAddress() const override { return "127.0.0.1:2"; }
  int Fd() const override { return -1; }
  void RequestFlush() override {}
  void CloseAsap() override {}
  size_t QueryBufferLength() const override { return 0; }
  size_t QueryBufferFree() const override { return 0; }
  size_t PendingOutputBytes() const override { return 0; }
};

class NullHost : public EngineHost {
 public:
  void RequestShutdown() override {}
  int TcpPort() const override { return 0; }
  void ProcessEventsWhileBlocked() override {}
};

class RecordingSink : public EffectSink {
 public:
  void OnEffects(std::span<const Effect> effects) override {
    batches.emplace_back(effects.begin(), effects.end());
  }
  std::vector<std::vector<Effect>> batches;
};

class EngineTest : public ::testing::Test {
 protected:
  EngineTest() : engine_(ServerConfig{}, &host_) {
    client_ = engine_.CreateClient(&io_);
    engine_.set_effect_sink(&sink_);
  }

  std::string Run(std::vector<std::string> args) {
    client_->reply_buffer().clear();
    engine_.Execute(*client_, args);
    return client_->reply_buffer();
  }

  NullHost host_;
  NullIo io_;
  Engine engine_;
  Client* client_;
  RecordingSink sink_;
};

std::vector<std::string> Args(const Effect& e) { return e.args; }

TEST_F(EngineTest, WritesArePropagatedAsCalled) {
  EXPECT_EQ(Run({"SET", "k", "v"}), "+OK\r\n");
  ASSERT_EQ(sink_.batches.size(), 1u);
  ASSERT_EQ(sink_.batches[0].size(), 1u);
  EXPECT_EQ(sink_.batches[0][0].db, 0);
  EXPECT_EQ(Args(sink_.batches[0][0]), (std::vector<std::string>{"SET", "k", "v"}));
}

TEST_F(EngineTest, ReadsAndNoOpWritesAreNotPropagated) {
  Run({"GET", "k"});
  Run({"DEL", "missing"});
  EXPECT_TRUE(sink_.batches.empty());
}

TEST_F(EngineTest, EffectsCarryTheClientsDatabase) {
  Run({"SELECT", "3"});
  Run({"SET", "k", "v"});
  ASSERT_EQ(sink_.batches.size(), 1u);
  EXPECT_EQ(sink_.batches[0][0].db, 3);
}

TEST_F(EngineTest, LazilyExpiredKeyIsPropagatedAsDel) {
  engine_.clock().SetManual();
  Run({"SET", "k", "v"});
  Db& db = engine_.keyspace().db(0);
  db.SetExpire(db.LookupWrite("k"), engine_.clock().NowMs() + 100);
  sink_.batches.clear();
  engine_.clock().Advance(200);
  EXPECT_EQ(Run({"GET", "k"}), "$-1\r\n");
  ASSERT_EQ(sink_.batches.size(), 1u);
  EXPECT_EQ(Args(sink_.batches[0][0]), (std::vector<std::string>{"DEL", "k"}));
}

TEST_F(EngineTest, TransactionEffectsLeaveTogether) {
  Run({"MULTI"});
  Run({"SET", "a", "1"});
  Run({"SET", "b", "2"});
  EXPECT_TRUE(sink_.batches.empty());
  EXPECT_EQ(Run({"EXEC"}), "*2\r\n+OK\r\n+OK\r\n");
  ASSERT_EQ(sink_.batches.size(), 1u);
  ASSERT_EQ(sink_.batches[0].size(), 2u);
  EXPECT_EQ(Args(sink_.batches[0][0]), (std::vector<std::string>{"SET", "a", "1"}));
  EXPECT_EQ(Args(sink_.batches[0][1]), (std::vector<std::string>{"SET", "b", "2"}));
}

TEST_F(EngineTest, RejectedCommandsDoNotRun) {
  EXPECT_EQ(Run({"SET", "k"}), "-ERR wrong number of arguments for 'set' command\r\n");
  EXPECT_EQ(engine_.keyspace().db(0).size(), 0u);
  EXPECT_TRUE(sink_.batches.empty());
}

}  // namespace
}  // namespace redlab::server::engine
