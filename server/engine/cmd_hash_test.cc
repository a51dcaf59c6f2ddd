// What the hash commands propagate to replicas (the one thing the conformance suite cannot see
// before replication exists): HINCRBYFLOAT as HSET of its result, the others as called, and
// nothing for a command that changed nothing.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "server/engine/engine.h"

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

class RecordingSink : public EffectSink {
 public:
  void OnEffects(std::span<const Effect> effects) override {
    for (const Effect& e : effects) args.push_back(e.args);
  }
  std::vector<std::vector<std::string>> args;
};

class HashPropagationTest : public ::testing::Test {
 protected:
  HashPropagationTest() : engine_(ServerConfig{}, nullptr) {
    engine_.set_effect_sink(&sink_);
    client_ = engine_.CreateClient(&io_);
  }

  std::string Run(std::vector<std::string> args) {
    client_->reply_buffer().clear();
    engine_.Execute(*client_, args);
    return client_->reply_buffer();
  }

  NullIo io_;
  RecordingSink sink_;
  Engine engine_;
  Client* client_;
};

using Args = std::vector<std::vector<std::string>>;

TEST_F(HashPropagationTest, HIncrByFloatPropagatesAsHSetOfTheResult) {
  EXPECT_EQ(Run({"HINCRBYFLOAT", "h", "f", "1.50"}), "$3\r\n1.5\r\n");
  EXPECT_EQ(Run({"hincrbyfloat", "h", "f", "5.0e3"}), "$6\r\n5001.5\r\n");
  EXPECT_EQ(sink_.args, (Args{{"HSET", "h", "f", "1.5"}, {"HSET", "h", "f", "5001.5"}}));
}

TEST_F(HashPropagationTest, WritesPropagateAsCalledAndNoOpsNotAtAll) {
  Run({"hset", "h", "a", "1", "a", "2"});
  Run({"hsetnx", "h", "a", "3"});          // no change
  Run({"hdel", "h", "x"});                 // no change
  Run({"hincrby", "h", "a", "x"});         // error
  Run({"hincrbyfloat", "h", "a", "inf"});  // error
  Run({"hincrby", "h", "n", "1"});
  Run({"hmset", "h", "x", "1"});
  Run({"hdel", "h", "a", "n", "x"});
  EXPECT_EQ(sink_.args, (Args{{"hset", "h", "a", "1", "a", "2"},
                              {"hincrby", "h", "n", "1"},
                              {"hmset", "h", "x", "1"},
                              {"hdel", "h", "a", "n", "x"}}));
  EXPECT_EQ(Run({"hlen", "h"}), ":0\r\n");
}

TEST_F(HashPropagationTest, DirtyCountsAsRedis) {
  uint64_t start = engine_.stats().dirty;
  Run({"hset", "h", "a", "1", "b", "2", "a", "3"});  // one per pair, even repeated
  EXPECT_EQ(engine_.stats().dirty - start, 3u);
  Run({"hdel", "h", "a", "zz", "b"});  // one per field deleted
  EXPECT_EQ(engine_.stats().dirty - start, 5u);
}

}  // namespace
}  // namespace redlab::server::engine
