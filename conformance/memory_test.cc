// Memory: INFO memory, the maxmemory limit (OOM refusals, eviction), OBJECT and MEMORY USAGE.
#include <map>

#include "conformance/harness/fixture.h"

namespace redlab::conformance {
namespace {

class MemoryTest : public ConformanceTest {
 protected:
  void TearDown() override {
    c()({"CONFIG", "SET", "maxmemory", "0"});
    c()({"CONFIG", "SET", "maxmemory-policy", "noeviction"});
  }
};

TEST_F(MemoryTest, UsedMemoryGrowsWithData) {
  int64_t before = InfoNumber(c(), "memory", "used_memory");
  ASSERT_GT(before, 0);
  std::string value(1000, 'x');
  for (int i = 0; i < 2000; ++i) c()({"SET", "k" + std::to_string(i), value});
  int64_t after = InfoNumber(c(), "memory", "used_memory");
  EXPECT_GT(after - before, 2000 * 1000);
  c()({"FLUSHALL"});
  EXPECT_LT(InfoNumber(c(), "memory", "used_memory"), after - 1000 * 1000);
}

TEST_F(MemoryTest, OverMaxmemoryWritesThatGrowAreRefused) {
  c()({"SET", "existing", "v"});
  EXPECT_EQ(c()({"CONFIG", "SET", "maxmemory", "1"}), Status("OK"));
  EXPECT_EQ(c()({"SET", "k", "v"}),
            Error("OOM command not allowed when used memory > 'maxmemory'."));
  EXPECT_EQ(c()({"HSET", "h", "f", "v"}),
            Error("OOM command not allowed when used memory > 'maxmemory'."));
  // Reads and deletions still run.
  EXPECT_EQ(c()({"GET", "existing"}), Bulk("v"));
  EXPECT_EQ(c()({"DEL", "existing"}), Int(1));
  // Inside MULTI everything but EXEC/DISCARD is refused, and EXEC then aborts.
  EXPECT_EQ(c()({"MULTI"}), Status("OK"));
  EXPECT_EQ(c()({"GET", "x"}), Error("OOM command not allowed when used memory > 'maxmemory'."));
  EXPECT_EQ(c()({"EXEC"}), Error("EXECABORT Transaction discarded because of previous errors."));
  EXPECT_EQ(c()({"CONFIG", "SET", "maxmemory", "0"}), Status("OK"));
  EXPECT_EQ(c()({"SET", "k", "v"}), Status("OK"));
}

TEST_F(MemoryTest, EvictionKeepsTheNodeUnderItsLimit) {
  int64_t used = InfoNumber(c(), "memory", "used_memory");
  ASSERT_GT(used, 0);
  int64_t limit = used + 2 * 1024 * 1024;
  ASSERT_EQ(c()({"CONFIG", "SET", "maxmemory", std::to_string(limit)}), Status("OK"));
  ASSERT_EQ(c()({"CONFIG", "SET", "maxmemory-policy", "allkeys-random"}), Status("OK"));
  std::string value(1000, 'x');
  for (int i = 0; i < 6000; ++i) {
    ASSERT_EQ(c()({"SET", "k" + std::to_string(i), value}), Status("OK")) << i;
  }
  EXPECT_LT(c()({"DBSIZE"}).integer, 6000);
  EXPECT_GT(InfoNumber(c(), "stats", "evicted_keys"), 0);
}

TEST_F(MemoryTest, ObjectEncoding) {
  c()({"SET", "int", "12345"});
  c()({"SET", "short", "hello"});
  c()({"SET", "long", std::string(100, 'a')});
  c()({"HSET", "h", "f", "v"});
  EXPECT_EQ(c()({"OBJECT", "ENCODING", "int"}), Bulk("int"));
  EXPECT_EQ(c()({"OBJECT", "ENCODING", "short"}), Bulk("embstr"));
  EXPECT_EQ(c()({"OBJECT", "ENCODING", "long"}), Bulk("raw"));
  EXPECT_EQ(c()({"OBJECT", "ENCODING", "h"}), Bulk("listpack"));
  EXPECT_EQ(c()({"OBJECT", "ENCODING", "missing"}), Nil());
  c()({"APPEND", "short", "!"});
  EXPECT_EQ(c()({"OBJECT", "ENCODING", "short"}), Bulk("raw"));
}

TEST_F(MemoryTest, ObjectRefcountIdletimeFreq) {
  c()({"SET", "small", "7"});
  c()({"SET", "big", "123456"});
  EXPECT_EQ(c()({"OBJECT", "REFCOUNT", "small"}), Int(2147483647));  // a shared integer
  EXPECT_EQ(c()({"OBJECT", "REFCOUNT", "big"}), Int(1));
  EXPECT_EQ(c()({"OBJECT", "IDLETIME", "big"}), Int(0));
  EXPECT_EQ(c()({"OBJECT", "FREQ", "big"}),
            Error("ERR An LFU maxmemory policy is not selected, access frequency not tracked. "
                  "Please note that when switching between policies at runtime LRU and LFU data "
                  "will take some time to adjust."));
  EXPECT_EQ(c()({"OBJECT", "REFCOUNT", "missing"}), Nil());
  EXPECT_EQ(c()({"OBJECT", "NOPE", "x"}), Error("ERR unknown subcommand 'NOPE'. Try OBJECT HELP."));
  EXPECT_EQ(c()({"OBJECT", "HELP"}).elements.size(), 15u);
}

TEST_F(MemoryTest, MemoryUsage) {
  c()({"SET", "k", std::string(5000, 'v')});
  Reply usage = c()({"MEMORY", "USAGE", "k"});
  ASSERT_EQ(usage.type, Reply::Type::kInteger);
  EXPECT_GT(usage.integer, 5000);
  EXPECT_LT(usage.integer, 12000);
  EXPECT_EQ(c()({"MEMORY", "USAGE", "missing"}), Nil());
  EXPECT_EQ(c()({"MEMORY", "USAGE", "k", "SAMPLES", "x"}),
            Error("ERR value is not an integer or out of range"));
  EXPECT_EQ(c()({"MEMORY", "USAGE", "k", "SAMPLES", "-1"}), Error("ERR syntax error"));
  EXPECT_EQ(c()({"MEMORY", "USAGE", "k", "BOGUS"}), Error("ERR syntax error"));
  EXPECT_EQ(c()({"MEMORY", "USAGE", "k", "SAMPLES", "0"}).type, Reply::Type::kInteger);
}

}  // namespace
}  // namespace redlab::conformance
