// What the key and expiry commands propagate to replicas (the engine's effects), checked on an
// engine driven directly, with a manual clock so absolute times are known. Redis 7.0 rewrites
// relative expiries as PEXPIREAT, an expiry in the past as DEL, and propagates a lazily expired
// key as DEL.
#include <gtest/gtest.h>

#include <span>
#include <string>
#include <utility>
#include <vector>

#include "server/engine/core/engine_test_support.h"

namespace redlab::server::engine {
namespace {

using testing::Args;

class KeyEffectsTest : public testing::EngineTest {
 protected:
  KeyEffectsTest() { engine_.clock().SetManual(); }
};

TEST_F(KeyEffectsTest, RelativeExpiryPropagatesAsPexpireat) {
  Run({"SET", "k", "v"});
  TakeEffects();
  ASSERT_EQ(Run({"EXPIRE", "k", "100", "GT"}), ":0\r\n");
  EXPECT_TRUE(TakeEffects().empty());  // nothing changed, nothing propagated
  ASSERT_EQ(Run({"EXPIRE", "k", "100"}), ":1\r\n");
  EXPECT_EQ(TakeEffects(), (std::vector<Args>{{"PEXPIREAT", "k", std::to_string(Now() + 100000)}}));
  ASSERT_EQ(Run({"pexpire", "k", "5000", "lt"}), ":1\r\n");
  EXPECT_EQ(TakeEffects(),
            (std::vector<Args>{{"PEXPIREAT", "k", std::to_string(Now() + 5000), "lt"}}));
  ASSERT_EQ(Run({"EXPIREAT", "k", "4102444800", "XX"}), ":1\r\n");
  EXPECT_EQ(TakeEffects(), (std::vector<Args>{{"PEXPIREAT", "k", "4102444800000", "XX"}}));
  // PEXPIREAT is propagated as called.
  ASSERT_EQ(Run({"pexpireat", "k", "4102444800001", "gt"}), ":1\r\n");
  EXPECT_EQ(TakeEffects(), (std::vector<Args>{{"pexpireat", "k", "4102444800001", "gt"}}));
}

TEST_F(KeyEffectsTest, PastExpiryPropagatesAsDel) {
  Run({"SET", "k", "v"});
  TakeEffects();
  ASSERT_EQ(Run({"EXPIRE", "k", "-1"}), ":1\r\n");
  EXPECT_EQ(TakeEffects(), (std::vector<Args>{{"DEL", "k"}}));
  ASSERT_EQ(Run({"EXPIRE", "k", "-1"}), ":0\r\n");
  EXPECT_TRUE(TakeEffects().empty());
}

TEST_F(KeyEffectsTest, LazyExpiryPropagatesDelBeforeTheCommand) {
  Run({"SET", "a", "1"});
  Run({"SET", "b", "2"});
  Run({"PEXPIRE", "a", "10"});
  TakeEffects();
  engine_.clock().Advance(10);
  ASSERT_EQ(Run({"DEL", "a", "b"}), ":1\r\n");
  EXPECT_EQ(TakeEffects(), (std::vector<Args>{{"DEL", "a"}, {"DEL", "a", "b"}}));
  EXPECT_EQ(engine_.keyspace().stats().expired_keys, 1u);
}

TEST_F(KeyEffectsTest, PersistRenameAndNoops) {
  Run({"SET", "k", "v"});
  TakeEffects();
  ASSERT_EQ(Run({"PERSIST", "k"}), ":0\r\n");
  ASSERT_EQ(Run({"RENAME", "k", "k"}), "+OK\r\n");
  ASSERT_EQ(Run({"DEL", "nope"}), ":0\r\n");
  ASSERT_EQ(Run({"RENAMENX", "k", "k"}), ":0\r\n");
  EXPECT_TRUE(TakeEffects().empty());
  Run({"EXPIRE", "k", "100"});
  TakeEffects();
  ASSERT_EQ(Run({"persist", "k"}), ":1\r\n");
  ASSERT_EQ(Run({"rename", "k", "k2"}), "+OK\r\n");
  ASSERT_EQ(Run({"UNLINK", "k2", "x"}), ":1\r\n");
  EXPECT_EQ(TakeEffects(),
            (std::vector<Args>{{"persist", "k"}, {"rename", "k", "k2"}, {"UNLINK", "k2", "x"}}));
}

TEST_F(KeyEffectsTest, DebugIsProtected) {
  ASSERT_EQ(Run({"DEBUG", "SET-ACTIVE-EXPIRE", "0"}).substr(0, 34),
            "-ERR DEBUG command not allowed. If");
  EXPECT_TRUE(engine_.keyspace().active_expire_enabled());
  ASSERT_EQ(engine_.config_registry().Set({{"enable-debug-command", "local"}}, /*startup=*/true,
                                          /*allow_protected=*/true),
            std::nullopt);
  // A client without a connection (in-process) counts as local.
  ASSERT_EQ(Run({"DEBUG", "SET-ACTIVE-EXPIRE", "0"}), "+OK\r\n");
  EXPECT_FALSE(engine_.keyspace().active_expire_enabled());
  ASSERT_EQ(engine_.config_registry().Set({{"enable-debug-command", "yes"}}, /*startup=*/true,
                                          /*allow_protected=*/true),
            std::nullopt);
  ASSERT_EQ(Run({"DEBUG", "SET-ACTIVE-EXPIRE", "1"}), "+OK\r\n");
  EXPECT_TRUE(engine_.keyspace().active_expire_enabled());
}

}  // namespace
}  // namespace redlab::server::engine
