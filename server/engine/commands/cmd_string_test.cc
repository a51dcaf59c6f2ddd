// What the string commands propagate to replicas and which writes break a WATCH: neither is
// visible to a client of the node, so they are checked here on an engine with an effect sink
// and a manual clock. The expected streams are what `redis-cli --replica` shows for Redis 7.0.15.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "server/engine/core/engine_test_support.h"

namespace redlab::server::engine {
namespace {

using testing::Args;

class StringPropagationTest : public testing::EngineTest {
 protected:
  StringPropagationTest() { engine_.clock().SetManual(); }
  static std::string At(int64_t ms) { return std::to_string(ms); }
};

TEST_F(StringPropagationTest, SetWithExpiryPropagatesAbsolutePxat) {
  int64_t now = Now();
  EXPECT_EQ(Effects({"set", "a", "1", "ex", "100"}),
            (std::vector<Args>{{"SET", "a", "1", "PXAT", At(now + 100000)}}));
  EXPECT_EQ(Effects({"set", "a", "1", "px", "1500", "nx"}), std::vector<Args>{});  // not set
  EXPECT_EQ(Effects({"set", "a", "1", "px", "1500", "xx"}),
            (std::vector<Args>{{"SET", "a", "1", "PXAT", At(now + 1500)}}));
  EXPECT_EQ(Effects({"set", "b", "1", "exat", "9999999999"}),
            (std::vector<Args>{{"SET", "b", "1", "PXAT", "9999999999000"}}));
  EXPECT_EQ(Effects({"set", "b", "1", "pxat", "9999999999999", "get"}),
            (std::vector<Args>{{"SET", "b", "1", "PXAT", "9999999999999"}}));
  EXPECT_EQ(Effects({"setex", "c", "10", "v"}),
            (std::vector<Args>{{"SET", "c", "v", "PXAT", At(now + 10000)}}));
  EXPECT_EQ(Effects({"psetex", "c", "10", "v"}),
            (std::vector<Args>{{"SET", "c", "v", "PXAT", At(now + 10)}}));
  // An absolute time already past is still set (the key then expires lazily).
  EXPECT_EQ(Effects({"set", "d", "1", "exat", "1"}),
            (std::vector<Args>{{"SET", "d", "1", "PXAT", "1000"}}));
  EXPECT_EQ(Effects({"get", "d"}), (std::vector<Args>{{"DEL", "d"}}));
}

TEST_F(StringPropagationTest, SetWithoutExpiryPropagatesAsCalledMinusGet) {
  EXPECT_EQ(Effects({"set", "e", "1", "keepttl"}),
            (std::vector<Args>{{"set", "e", "1", "keepttl"}}));
  EXPECT_EQ(Effects({"set", "f", "get", "GET", "gEt", "xx"}), std::vector<Args>{});
  EXPECT_EQ(Effects({"set", "f", "get", "GET", "nx", "gEt"}),
            (std::vector<Args>{{"set", "f", "get", "nx"}}));
  EXPECT_EQ(Effects({"setnx", "f", "1"}), std::vector<Args>{});
  EXPECT_EQ(Effects({"setnx", "g", "1"}), (std::vector<Args>{{"setnx", "g", "1"}}));
  EXPECT_EQ(Effects({"mset", "x", "1", "y", "2"}),
            (std::vector<Args>{{"mset", "x", "1", "y", "2"}}));
  EXPECT_EQ(Effects({"msetnx", "x", "1", "z", "2"}), std::vector<Args>{});
  EXPECT_EQ(Effects({"getset", "x", "new"}), (std::vector<Args>{{"SET", "x", "new"}}));
}

TEST_F(StringPropagationTest, GetDelAndGetEx) {
  Run({"set", "k", "v"});
  EXPECT_EQ(Effects({"getex", "k"}), std::vector<Args>{});
  EXPECT_EQ(Effects({"getex", "k", "persist"}), std::vector<Args>{});  // had no TTL
  int64_t now = Now();
  EXPECT_EQ(Effects({"getex", "k", "ex", "100"}),
            (std::vector<Args>{{"PEXPIREAT", "k", At(now + 100000)}}));
  EXPECT_EQ(Effects({"getex", "k", "pxat", "99999999999999"}),
            (std::vector<Args>{{"PEXPIREAT", "k", "99999999999999"}}));
  EXPECT_EQ(Effects({"getex", "k", "persist"}), (std::vector<Args>{{"PERSIST", "k"}}));
  EXPECT_EQ(Effects({"getex", "k", "exat", "1"}), (std::vector<Args>{{"DEL", "k"}}));
  EXPECT_EQ(Effects({"get", "k"}), std::vector<Args>{});  // already gone, not lazily expired
  EXPECT_EQ(Run({"dbsize"}), ":0\r\n");
  Run({"set", "k", "v"});
  EXPECT_EQ(Effects({"getdel", "k"}), (std::vector<Args>{{"DEL", "k"}}));
  EXPECT_EQ(Effects({"getdel", "k"}), std::vector<Args>{});
}

TEST_F(StringPropagationTest, CountersAndEdits) {
  EXPECT_EQ(Effects({"incr", "n"}), (std::vector<Args>{{"incr", "n"}}));
  EXPECT_EQ(Effects({"incrby", "n", "x"}), std::vector<Args>{});
  EXPECT_EQ(Effects({"incrbyfloat", "f", "1.5"}),
            (std::vector<Args>{{"SET", "f", "1.5", "KEEPTTL"}}));
  EXPECT_EQ(Effects({"incrbyfloat", "f", "0.10"}),
            (std::vector<Args>{{"SET", "f", "1.6", "KEEPTTL"}}));
  EXPECT_EQ(Effects({"append", "s", "x"}), (std::vector<Args>{{"append", "s", "x"}}));
  EXPECT_EQ(Effects({"append", "s", ""}), (std::vector<Args>{{"append", "s", ""}}));
  EXPECT_EQ(Effects({"setrange", "s", "0", ""}), std::vector<Args>{});
  EXPECT_EQ(Effects({"setrange", "s", "3", "ab"}),
            (std::vector<Args>{{"setrange", "s", "3", "ab"}}));
}

TEST_F(StringPropagationTest, ExpiredKeyIsDeletedBeforeTheWrite) {
  Run({"set", "k", "v", "px", "10"});
  engine_.clock().Advance(20);
  EXPECT_EQ(Effects({"mset", "k", "1"}), (std::vector<Args>{{"DEL", "k"}, {"mset", "k", "1"}}));
}

TEST_F(StringPropagationTest, WritesBreakWatches) {
  EXPECT_TRUE(Touches("k", {"set", "k", "v"}));
  EXPECT_FALSE(Touches("k", {"set", "k", "v", "nx"}));
  EXPECT_FALSE(Touches("k", {"get", "k"}));
  EXPECT_TRUE(Touches("k", {"getset", "k", "v"}));
  EXPECT_TRUE(Touches("k", {"mset", "a", "1", "k", "2"}));
  EXPECT_FALSE(Touches("k", {"msetnx", "a", "1", "k", "2"}));
  EXPECT_TRUE(Touches("n", {"incr", "n"}));
  EXPECT_TRUE(Touches("n", {"decrby", "n", "2"}));
  EXPECT_TRUE(Touches("n", {"incrbyfloat", "n", "2"}));
  EXPECT_TRUE(Touches("k", {"append", "k", ""}));
  EXPECT_FALSE(Touches("k", {"setrange", "k", "0", ""}));
  EXPECT_TRUE(Touches("k", {"setrange", "k", "0", "x"}));
  EXPECT_FALSE(Touches("k", {"getex", "k"}));
  EXPECT_FALSE(Touches("k", {"getex", "k", "persist"}));
  EXPECT_TRUE(Touches("k", {"getex", "k", "px", "100000"}));
  EXPECT_TRUE(Touches("k", {"getex", "k", "persist"}));
  EXPECT_TRUE(Touches("k", {"getdel", "k"}));
  EXPECT_FALSE(Touches("k", {"getdel", "k"}));
  EXPECT_TRUE(Touches("k", {"setex", "k", "10", "v"}));
  EXPECT_TRUE(Touches("k", {"getex", "k", "exat", "1"}));
}

TEST_F(StringPropagationTest, EncodingHints) {
  Run({"set", "i", "123"});
  Run({"append", "i", "4"});
  Db& db = engine_.keyspace().db(0);
  EXPECT_EQ(db.LookupQuiet("i")->value.value.EncodingName(), "raw");
  Run({"incr", "i"});
  EXPECT_EQ(db.LookupQuiet("i")->value.value.EncodingName(), "int");
  Run({"incrbyfloat", "i", "1"});
  EXPECT_EQ(db.LookupQuiet("i")->value.value.EncodingName(), "embstr");
  Run({"setrange", "i", "0", "9"});
  EXPECT_EQ(db.LookupQuiet("i")->value.value.EncodingName(), "raw");
  Run({"set", "i", "1234567"});  // overwriting in place must drop the raw hint
  EXPECT_EQ(db.LookupQuiet("i")->value.value.EncodingName(), "int");
  Run({"incrbyfloat", "i", "1"});
  Run({"mset", "i", "7654321"});
  EXPECT_EQ(db.LookupQuiet("i")->value.value.EncodingName(), "int");
  Run({"append", "new", "42"});
  EXPECT_EQ(db.LookupQuiet("new")->value.value.EncodingName(), "int");
}

}  // namespace
}  // namespace redlab::server::engine
