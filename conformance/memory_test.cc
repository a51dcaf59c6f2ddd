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

// MEMORY STATS: getMemoryOverheadData's fields in Redis's order (integers, ratios as doubles,
// bulk strings in RESP2), a db.N map for each database that holds keys.
TEST_F(MemoryTest, MemoryStatsNamesEveryFigureInRedisOrder) {
  const std::vector<std::string> head = {
      "peak.allocated", "total.allocated", "startup.allocated", "replication.backlog",
      "clients.slaves", "clients.normal",  "cluster.links",     "aof.buffer",
      "lua.caches",     "functions.caches"};
  const std::vector<std::string> tail = {"overhead.total",
                                         "keys.count",
                                         "keys.bytes-per-key",
                                         "dataset.bytes",
                                         "dataset.percentage",
                                         "peak.percentage",
                                         "allocator.allocated",
                                         "allocator.active",
                                         "allocator.resident",
                                         "allocator-fragmentation.ratio",
                                         "allocator-fragmentation.bytes",
                                         "allocator-rss.ratio",
                                         "allocator-rss.bytes",
                                         "rss-overhead.ratio",
                                         "rss-overhead.bytes",
                                         "fragmentation",
                                         "fragmentation.bytes"};
  auto names_of = [](const Reply& stats) {
    std::vector<std::string> names;
    for (size_t i = 0; i < stats.elements.size(); i += 2) names.push_back(stats.elements[i].str);
    return names;
  };
  auto value_of = [](const Reply& stats, const std::string& name) {
    for (size_t i = 0; i + 1 < stats.elements.size(); i += 2) {
      if (stats.elements[i].str == name) return stats.elements[i + 1];
    }
    return Reply{};
  };
  ASSERT_EQ(c()({"FLUSHALL"}), Status("OK"));
  std::vector<std::string> empty = head;
  empty.insert(empty.end(), tail.begin(), tail.end());
  Reply stats = c()({"MEMORY", "STATS"});
  EXPECT_EQ(names_of(stats), empty);
  EXPECT_EQ(value_of(stats, "keys.count"), Int(0));
  EXPECT_EQ(value_of(stats, "dataset.percentage").type, Reply::Type::kBulk);
  ASSERT_EQ(c()({"SELECT", "3"}), Status("OK"));
  ASSERT_EQ(c()({"SET", "k", "v", "EX", "100"}), Status("OK"));
  ASSERT_EQ(c()({"SELECT", "0"}), Status("OK"));
  std::vector<std::string> with_db = head;
  with_db.push_back("db.3");
  with_db.insert(with_db.end(), tail.begin(), tail.end());
  stats = c()({"MEMORY", "STATS"});
  EXPECT_EQ(names_of(stats), with_db);
  EXPECT_EQ(value_of(stats, "keys.count"), Int(1));
  Reply db = value_of(stats, "db.3");
  EXPECT_EQ(names_of(db), (std::vector<std::string>{"overhead.hashtable.main",
                                                    "overhead.hashtable.expires",
                                                    "overhead.hashtable.slot-to-keys"}));
  EXPECT_EQ(value_of(db, "overhead.hashtable.slot-to-keys"), Int(0));
  EXPECT_GT(value_of(db, "overhead.hashtable.main").integer, 0);
  EXPECT_GT(value_of(db, "overhead.hashtable.expires").integer, 0);
  EXPECT_EQ(c()({"MEMORY", "STATS", "x"}),
            Error("ERR wrong number of arguments for 'memory|stats' command"));
  ASSERT_EQ(c()({"FLUSHALL"}), Status("OK"));
}

}  // namespace
}  // namespace redlab::conformance
