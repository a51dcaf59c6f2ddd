// The engine driven directly (no sockets): dispatch checks, and the effects it hands to the
// replication layer.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "server/engine/core/engine_test_support.h"

namespace redlab::server::engine {
namespace {

using testing::Args;
using DispatchTest = testing::EngineTest;

TEST_F(DispatchTest, WritesArePropagatedAsCalled) {
  EXPECT_EQ(Run({"SET", "k", "v"}), "+OK\r\n");
  ASSERT_EQ(sink_.batches.size(), 1u);
  ASSERT_EQ(sink_.batches[0].size(), 1u);
  EXPECT_EQ(sink_.batches[0][0].db, 0);
  EXPECT_EQ(sink_.batches[0][0].args, (std::vector<std::string>{"SET", "k", "v"}));
}

TEST_F(DispatchTest, ReadsAndNoOpWritesAreNotPropagated) {
  Run({"GET", "k"});
  Run({"DEL", "missing"});
  EXPECT_TRUE(sink_.batches.empty());
}

TEST_F(DispatchTest, EffectsCarryTheClientsDatabase) {
  Run({"SELECT", "3"});
  Run({"SET", "k", "v"});
  ASSERT_EQ(sink_.batches.size(), 1u);
  EXPECT_EQ(sink_.batches[0][0].db, 3);
}

TEST_F(DispatchTest, LazilyExpiredKeyIsPropagatedAsDel) {
  engine_.clock().SetManual();
  Run({"SET", "k", "v"});
  Db& db = engine_.keyspace().db(0);
  db.SetExpire(db.LookupWrite("k"), engine_.clock().NowMs() + 100);
  sink_.batches.clear();
  engine_.clock().Advance(200);
  EXPECT_EQ(Run({"GET", "k"}), "$-1\r\n");
  ASSERT_EQ(sink_.batches.size(), 1u);
  EXPECT_EQ(sink_.batches[0][0].args, (std::vector<std::string>{"DEL", "k"}));
}

TEST_F(DispatchTest, TransactionEffectsLeaveTogether) {
  Run({"MULTI"});
  Run({"SET", "a", "1"});
  Run({"SET", "b", "2"});
  EXPECT_TRUE(sink_.batches.empty());
  EXPECT_EQ(Run({"EXEC"}), "*2\r\n+OK\r\n+OK\r\n");
  ASSERT_EQ(sink_.batches.size(), 1u);
  ASSERT_EQ(sink_.batches[0].size(), 2u);
  EXPECT_EQ(sink_.batches[0][0].args, (std::vector<std::string>{"SET", "a", "1"}));
  EXPECT_EQ(sink_.batches[0][1].args, (std::vector<std::string>{"SET", "b", "2"}));
}

TEST_F(DispatchTest, RejectedCommandsDoNotRun) {
  EXPECT_EQ(Run({"SET", "k"}), "-ERR wrong number of arguments for 'set' command\r\n");
  EXPECT_EQ(engine_.keyspace().db(0).size(), 0u);
  EXPECT_TRUE(sink_.batches.empty());
}

}  // namespace
}  // namespace redlab::server::engine
