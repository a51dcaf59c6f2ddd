// Clients blocked on keys, driven through the engine: what a served client gets, what its
// serving hands to replication (its own batch, after the write that served it) and how much it
// counts as a change, as Redis's serveClientBlockedOn*Key do.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "server/engine/core/engine_test_support.h"

namespace redlab::server::engine {
namespace {

using testing::Args;

class BlockingEngineTest : public testing::EngineTest {
 protected:
  BlockingEngineTest() : waiter_(engine_.CreateClient(nullptr)) {}

  // Runs a blocking command as the waiter; it must block (no reply yet).
  void Block(Args args) {
    EXPECT_EQ(RunAs(waiter_, std::move(args)), "");
    EXPECT_TRUE(waiter_->blocked());
  }
  // Runs a write as the test's client; returns what it added to server.dirty.
  uint64_t Write(Args args) {
    uint64_t before = engine_.stats().dirty();
    Run(std::move(args));
    return engine_.stats().dirty() - before;
  }
  std::vector<std::vector<Args>> Batches() {
    std::vector<std::vector<Args>> out;
    for (const auto& batch : sink_.batches) {
      out.emplace_back();
      for (const Effect& e : batch) out.back().push_back(e.args);
    }
    sink_.batches.clear();
    sink_.args.clear();
    return out;
  }

  Client* waiter_;
};

TEST_F(BlockingEngineTest, ServedPopIsReplicatedAfterThePushAndCountsNoChange) {
  Block({"BLPOP", "l", "0"});
  EXPECT_EQ(Write({"RPUSH", "l", "a", "b"}), 2u);  // the pop served counts nothing
  EXPECT_EQ(waiter_->reply_buffer(), "*2\r\n$1\r\nl\r\n$1\r\na\r\n");
  EXPECT_FALSE(waiter_->blocked());
  EXPECT_EQ(Batches(),
            (std::vector<std::vector<Args>>{{{"RPUSH", "l", "a", "b"}}, {{"LPOP", "l"}}}));
  EXPECT_EQ(engine_.blocking().blocked_clients(), 0u);
}

TEST_F(BlockingEngineTest, ServedMultiPopsCountTheirElements) {
  Block({"BLMPOP", "0", "1", "l", "RIGHT", "COUNT", "2"});
  EXPECT_EQ(Write({"RPUSH", "l", "a", "b", "c"}), 3u + 2u);
  EXPECT_EQ(Batches(), (std::vector<std::vector<Args>>{{{"RPUSH", "l", "a", "b", "c"}},
                                                       {{"RPOP", "l", "2"}}}));
  Block({"BZMPOP", "0", "1", "z", "MAX", "COUNT", "5"});
  EXPECT_EQ(Write({"ZADD", "z", "1", "a", "2", "b"}), 2u + 2u);
  EXPECT_EQ(Batches(), (std::vector<std::vector<Args>>{{{"ZADD", "z", "1", "a", "2", "b"}},
                                                       {{"ZPOPMAX", "z", "2"}}}));
  Block({"BZPOPMIN", "z", "0"});
  EXPECT_EQ(Write({"ZADD", "z", "1", "a"}), 1u + 1u);
  EXPECT_EQ(Batches(),
            (std::vector<std::vector<Args>>{{{"ZADD", "z", "1", "a"}}, {{"ZPOPMIN", "z"}}}));
}

TEST_F(BlockingEngineTest, ServedMoveReplicatesAsLmoveAndServesTheDestination) {
  Client* popper = engine_.CreateClient(nullptr);
  EXPECT_EQ(RunAs(popper, {"BRPOP", "dst", "0"}), "");
  Block({"BLMOVE", "src", "dst", "RIGHT", "LEFT", "0"});
  EXPECT_EQ(Write({"RPUSH", "src", "x"}), 1u);
  EXPECT_EQ(waiter_->reply_buffer(), "$1\r\nx\r\n");
  EXPECT_EQ(popper->reply_buffer(), "*2\r\n$3\r\ndst\r\n$1\r\nx\r\n");
  EXPECT_EQ(Batches(), (std::vector<std::vector<Args>>{{{"RPUSH", "src", "x"}},
                                                       {{"LMOVE", "src", "dst", "right", "left"}},
                                                       {{"RPOP", "dst"}}}));
}

TEST_F(BlockingEngineTest, TransactionServesOnceItIsDone) {
  Block({"BLPOP", "l", "0"});
  Run({"MULTI"});
  Run({"RPUSH", "l", "a"});
  Run({"RPUSH", "l", "b"});
  EXPECT_EQ(waiter_->reply_buffer(), "");
  Run({"EXEC"});
  EXPECT_EQ(waiter_->reply_buffer(), "*2\r\n$1\r\nl\r\n$1\r\na\r\n");
}

TEST_F(BlockingEngineTest, TimeoutFollowsTheNodesClock) {
  engine_.clock().SetManual();
  Block({"BZPOPMAX", "z", "1.5"});
  EXPECT_EQ(engine_.blocking().clients_in_timeout_table(), 1u);
  engine_.clock().Advance(1499);
  engine_.OnTimer();
  EXPECT_TRUE(waiter_->blocked());
  engine_.clock().Advance(1);
  engine_.OnTimer();
  EXPECT_FALSE(waiter_->blocked());
  EXPECT_EQ(waiter_->reply_buffer(), "*-1\r\n");
  EXPECT_EQ(engine_.blocking().clients_in_timeout_table(), 0u);
  EXPECT_TRUE(Batches().empty());
}

TEST_F(BlockingEngineTest, DestroyedClientLeavesNoTrace) {
  Block({"BLPOP", "l", "k", "0"});
  engine_.DestroyClient(waiter_);
  EXPECT_EQ(engine_.blocking().blocked_clients(), 0u);
  Run({"RPUSH", "l", "a"});
  EXPECT_EQ(Run({"LLEN", "l"}), ":1\r\n");
}

}  // namespace
}  // namespace redlab::server::engine
