// What the key and expiry commands propagate to replicas (the engine's effects), checked on an
// engine driven directly, with a manual clock so absolute times are known. Redis 7.0 rewrites
// relative expiries as PEXPIREAT, an expiry in the past as DEL, and propagates a lazily expired
// key as DEL.
#include <gtest/gtest.h>

#include <span>
#include <string>
#include <utility>
#include <vector>

#include "server/engine/engine.h"

namespace redlab::server::engine {
namespace {

using Args = std::vector<std::string>;

class RecordingSink : public EffectSink {
 public:
  void OnEffects(std::span<const Effect> effects) override {
    for (const Effect& e : effects) this->effects.push_back(e.args);
  }
  std::vector<Args> effects;
};

class KeyEffectsTest : public ::testing::Test {
 protected:
  KeyEffectsTest() : engine_(ServerConfig{}, nullptr) {
    engine_.clock().SetManual();
    engine_.set_effect_sink(&sink_);
    client_ = engine_.CreateClient(nullptr);
  }

  // Runs a command and returns its reply bytes.
  std::string Run(Args args) {
    client_->reply_buffer().clear();
    engine_.Execute(*client_, std::span<std::string>(args));
    return client_->reply_buffer();
  }
  // The effects recorded since the last call.
  std::vector<Args> Effects() { return std::exchange(sink_.effects, {}); }
  int64_t now() { return engine_.clock().NowMs(); }

  Engine engine_;
  RecordingSink sink_;
  Client* client_;
};

TEST_F(KeyEffectsTest, RelativeExpiryPropagatesAsPexpireat) {
  Run({"SET", "k", "v"});
  Effects();
  ASSERT_EQ(Run({"EXPIRE", "k", "100", "GT"}), ":0\r\n");
  EXPECT_TRUE(Effects().empty());  // nothing changed, nothing propagated
  ASSERT_EQ(Run({"EXPIRE", "k", "100"}), ":1\r\n");
  EXPECT_EQ(Effects(), (std::vector<Args>{{"PEXPIREAT", "k", std::to_string(now() + 100000)}}));
  ASSERT_EQ(Run({"pexpire", "k", "5000", "lt"}), ":1\r\n");
  EXPECT_EQ(Effects(), (std::vector<Args>{{"PEXPIREAT", "k", std::to_string(now() + 5000), "lt"}}));
  ASSERT_EQ(Run({"EXPIREAT", "k", "4102444800", "XX"}), ":1\r\n");
  EXPECT_EQ(Effects(), (std::vector<Args>{{"PEXPIREAT", "k", "4102444800000", "XX"}}));
  // PEXPIREAT is propagated as called.
  ASSERT_EQ(Run({"pexpireat", "k", "4102444800001", "gt"}), ":1\r\n");
  EXPECT_EQ(Effects(), (std::vector<Args>{{"pexpireat", "k", "4102444800001", "gt"}}));
}

TEST_F(KeyEffectsTest, PastExpiryPropagatesAsDel) {
  Run({"SET", "k", "v"});
  Effects();
  ASSERT_EQ(Run({"EXPIRE", "k", "-1"}), ":1\r\n");
  EXPECT_EQ(Effects(), (std::vector<Args>{{"DEL", "k"}}));
  ASSERT_EQ(Run({"EXPIRE", "k", "-1"}), ":0\r\n");
  EXPECT_TRUE(Effects().empty());
}

TEST_F(KeyEffectsTest, LazyExpiryPropagatesDelBeforeTheCommand) {
  Run({"SET", "a", "1"});
  Run({"SET", "b", "2"});
  Run({"PEXPIRE", "a", "10"});
  Effects();
  engine_.clock().Advance(10);
  ASSERT_EQ(Run({"DEL", "a", "b"}), ":1\r\n");
  EXPECT_EQ(Effects(), (std::vector<Args>{{"DEL", "a"}, {"DEL", "a", "b"}}));
  EXPECT_EQ(engine_.keyspace().stats().expired_keys, 1u);
}

TEST_F(KeyEffectsTest, PersistRenameAndNoops) {
  Run({"SET", "k", "v"});
  Effects();
  ASSERT_EQ(Run({"PERSIST", "k"}), ":0\r\n");
  ASSERT_EQ(Run({"RENAME", "k", "k"}), "+OK\r\n");
  ASSERT_EQ(Run({"DEL", "nope"}), ":0\r\n");
  ASSERT_EQ(Run({"RENAMENX", "k", "k"}), ":0\r\n");
  EXPECT_TRUE(Effects().empty());
  Run({"EXPIRE", "k", "100"});
  Effects();
  ASSERT_EQ(Run({"persist", "k"}), ":1\r\n");
  ASSERT_EQ(Run({"rename", "k", "k2"}), "+OK\r\n");
  ASSERT_EQ(Run({"UNLINK", "k2", "x"}), ":1\r\n");
  EXPECT_EQ(Effects(),
            (std::vector<Args>{{"persist", "k"}, {"rename", "k", "k2"}, {"UNLINK", "k2", "x"}}));
}

TEST_F(KeyEffectsTest, DebugIsProtected) {
  ASSERT_EQ(Run({"DEBUG", "SET-ACTIVE-EXPIRE", "0"}).substr(0, 34),
            "-ERR DEBUG command not allowed. If");
  EXPECT_TRUE(engine_.keyspace().active_expire_enabled());
  engine_.config().enable_debug_command = "local";
  // A client without a connection (in-process) counts as local.
  ASSERT_EQ(Run({"DEBUG", "SET-ACTIVE-EXPIRE", "0"}), "+OK\r\n");
  EXPECT_FALSE(engine_.keyspace().active_expire_enabled());
  engine_.config().enable_debug_command = "yes";
  ASSERT_EQ(Run({"DEBUG", "SET-ACTIVE-EXPIRE", "1"}), "+OK\r\n");
  EXPECT_TRUE(engine_.keyspace().active_expire_enabled());
}

}  // namespace
}  // namespace redlab::server::engine
