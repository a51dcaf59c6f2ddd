// client-output-buffer-limit's classes and soft-limit seconds, on the node's manual clock
// (networking.c's checkClientOutputBufferLimits).
#include <gtest/gtest.h>

#include "server/engine/core/engine_test_support.h"

namespace redlab::server::engine {
namespace {

using OutputLimitsTest = testing::EngineTest;

TEST_F(OutputLimitsTest, SoftLimitCountsAfterItsSecondsContinuously) {
  engine_.clock().SetManual();
  ASSERT_EQ(Run({"CONFIG", "SET", "client-output-buffer-limit", "normal 0 1000 2"}), "+OK\r\n");
  EXPECT_FALSE(engine_.memory().OutputBufferLimitReached(*client_, 999));
  EXPECT_FALSE(
      engine_.memory().OutputBufferLimitReached(*client_, 1000));  // first seen: the clock starts
  engine_.clock().Advance(2000);
  EXPECT_FALSE(
      engine_.memory().OutputBufferLimitReached(*client_, 5000));  // 2 s are not more than 2
  // Below the soft limit, the count starts again.
  EXPECT_FALSE(engine_.memory().OutputBufferLimitReached(*client_, 10));
  engine_.clock().Advance(1000);
  EXPECT_FALSE(engine_.memory().OutputBufferLimitReached(*client_, 1000));
  engine_.clock().Advance(3000);
  EXPECT_TRUE(engine_.memory().OutputBufferLimitReached(*client_, 1000));
}

TEST_F(OutputLimitsTest, HardLimitAtOnceAndClassesApart) {
  ASSERT_EQ(Run({"CONFIG", "SET", "client-output-buffer-limit", "normal 100 0 0 pubsub 1000 0 0"}),
            "+OK\r\n");
  EXPECT_FALSE(engine_.memory().OutputBufferLimitReached(*client_, 99));
  EXPECT_TRUE(engine_.memory().OutputBufferLimitReached(*client_, 100));
  Client* subscriber = engine_.CreateClient(nullptr);
  RunAs(subscriber, {"SUBSCRIBE", "ch"});
  EXPECT_FALSE(engine_.memory().OutputBufferLimitReached(*subscriber, 999));
  EXPECT_TRUE(engine_.memory().OutputBufferLimitReached(*subscriber, 1000));
}

TEST_F(OutputLimitsTest, ReplicaHardLimitIsNeverBelowTheBacklog) {
  ASSERT_EQ(Run({"CONFIG", "SET", "client-output-buffer-limit", "replica 100 0 0"}), "+OK\r\n");
  ASSERT_EQ(Run({"CONFIG", "SET", "repl-backlog-size", "1mb"}), "+OK\r\n");
  Client* replica = engine_.CreateClient(nullptr);
  replica->set_repl_role(Client::ReplRole::kReplica);
  EXPECT_FALSE(engine_.memory().OutputBufferLimitReached(*replica, 100));
  EXPECT_FALSE(engine_.memory().OutputBufferLimitReached(*replica, 1024 * 1024 - 1));
  EXPECT_TRUE(engine_.memory().OutputBufferLimitReached(*replica, 1024 * 1024));
  // The normal class has no limit.
  EXPECT_FALSE(engine_.memory().OutputBufferLimitReached(*client_, 1 << 30));
}

}  // namespace
}  // namespace redlab::server::engine
