// What the sorted-set commands propagate to replicas (the engine's effects), checked on an
// engine driven directly. Redis 7.0 propagates every zset write as called (checked with
// `redis-cli --replica`: ZINCRBY, ZADD INCR, ZPOPMIN/ZPOPMAX and ZRANGESTORE are not
// rewritten), and nothing for a write that changed nothing.
#include <gtest/gtest.h>

#include <span>
#include <string>
#include <utility>
#include <vector>

#include "server/engine/core/engine.h"
#include "server/replication/replication.h"

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

class ZsetEffectsTest : public ::testing::Test {
 protected:
  ZsetEffectsTest() : engine_(ServerConfig{}, nullptr, replication::MakeReplication) {
    engine_.clock().SetManual();
    engine_.propagation().set_sink(&sink_);
    client_ = engine_.CreateClient(nullptr);
  }

  std::string Run(Args args) {
    client_->reply_buffer().clear();
    engine_.Execute(*client_, std::span<std::string>(args));
    return client_->reply_buffer();
  }
  std::vector<Args> Effects() { return std::exchange(sink_.effects, {}); }
  // Runs a command and returns what it propagated.
  std::vector<Args> Propagated(const Args& args) {
    Effects();
    Run(args);
    return Effects();
  }
  void ExpectAsCalled(const Args& args) { EXPECT_EQ(Propagated(args), std::vector<Args>{args}); }
  void ExpectNothing(const Args& args) { EXPECT_TRUE(Propagated(args).empty()) << args[0]; }

  Engine engine_;
  RecordingSink sink_;
  Client* client_;
};

TEST_F(ZsetEffectsTest, WritesPropagateAsCalled) {
  ExpectAsCalled({"ZADD", "z", "1", "a", "2", "b", "3", "c", "4", "d"});
  ExpectAsCalled({"ZINCRBY", "z", "1.5", "a"});
  ExpectAsCalled({"ZADD", "z", "INCR", "1", "b"});
  ExpectAsCalled({"ZADD", "z", "XX", "CH", "GT", "10", "c"});
  ExpectAsCalled({"ZREM", "z", "c", "nope"});
  ExpectAsCalled({"ZPOPMIN", "z"});
  ExpectAsCalled({"ZPOPMAX", "z", "1"});
  ExpectAsCalled({"ZRANGESTORE", "dst", "z", "0", "-1"});
  ExpectAsCalled({"ZRANGESTORE", "dst", "none", "0", "-1"});  // deletes dst
  ExpectAsCalled({"ZUNIONSTORE", "dst", "1", "z"});
  ExpectAsCalled({"ZREMRANGEBYRANK", "dst", "0", "0"});
  ExpectAsCalled({"ZREMRANGEBYSCORE", "z", "-inf", "+inf"});
}

TEST_F(ZsetEffectsTest, NoOpWritesAndReadsPropagateNothing) {
  Run({"ZADD", "z", "1", "a", "2", "b"});
  ExpectNothing({"ZADD", "z", "NX", "5", "a"});
  ExpectNothing({"ZADD", "z", "1", "a"});
  ExpectNothing({"ZADD", "none", "XX", "1", "a"});
  ExpectNothing({"ZINCRBY", "z", "0", "a"});
  ExpectNothing({"ZADD", "z", "nan", "a"});
  ExpectNothing({"ZREM", "z", "x"});
  ExpectNothing({"ZREMRANGEBYSCORE", "z", "10", "20"});
  ExpectNothing({"ZREMRANGEBYLEX", "z", "[x", "+"});
  ExpectNothing({"ZREMRANGEBYRANK", "z", "5", "6"});
  ExpectNothing({"ZPOPMIN", "z", "0"});
  ExpectNothing({"ZPOPMIN", "none"});
  ExpectNothing({"ZRANGESTORE", "dst", "none", "0", "-1"});
  ExpectNothing({"ZINTERSTORE", "dst", "2", "z", "none"});
  for (const Args& read :
       {Args{"ZRANGE", "z", "0", "-1"}, Args{"ZSCORE", "z", "a"}, Args{"ZRANDMEMBER", "z", "2"},
        Args{"ZSCAN", "z", "0"}, Args{"ZUNION", "1", "z"}, Args{"ZCOUNT", "z", "0", "1"}}) {
    ExpectNothing(read);
  }
}

}  // namespace
}  // namespace redlab::server::engine
