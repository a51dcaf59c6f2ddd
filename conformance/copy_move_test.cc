// COPY, MOVE and SWAPDB (with WATCH as Redis's touchAllWatchedKeysInDb judges it), and the
// access data OBJECT reports: IDLETIME under LRU, FREQ under LFU, which commands touch a key.
#include <string>
#include <vector>

#include "conformance/harness/fixture.h"

namespace redlab::conformance {
namespace {

class CopyMoveTest : public ConformanceTest {
 protected:
  static void SetUpTestSuite() {
    if (!server_) server_ = StartServer({.config = {{"enable-debug-command", "yes"}}});
  }
  void TearDown() override {
    EXPECT_EQ(c()({"CONFIG", "SET", "maxmemory-policy", "noeviction"}), Status("OK"));
    EXPECT_EQ(c()({"DEBUG", "SET-ACTIVE-EXPIRE", "1"}), Status("OK"));
  }
  // A digest of one value, to compare copies of every type.
  Reply Digest(std::string_view key) { return c()({"DEBUG", "DIGEST-VALUE", key}); }
};

TEST_F(CopyMoveTest, CopyDuplicatesEveryTypeIndependently) {
  ASSERT_FALSE(c()({"RPUSH", "l", "a", "b", "1"}).is_error());
  ASSERT_FALSE(c()({"SADD", "is", "1", "2", "3"}).is_error());
  ASSERT_FALSE(c()({"SADD", "hs", "1", "a"}).is_error());
  ASSERT_FALSE(c()({"ZADD", "z", "1", "a", "2.5", "b"}).is_error());
  ASSERT_FALSE(c()({"HSET", "h", "f", "17179869184"}).is_error());
  ASSERT_FALSE(c()({"SET", "s", "12"}).is_error());
  for (std::string key : {"l", "is", "hs", "z", "h", "s"}) {
    SCOPED_TRACE(key);
    EXPECT_EQ(c().Call({"COPY", key, key + "2"}), Int(1));
    EXPECT_EQ(Digest(key + "2"), Digest(key));
    EXPECT_EQ(c().Call({"OBJECT", "ENCODING", key + "2"}), c().Call({"OBJECT", "ENCODING", key}));
    EXPECT_EQ(c().Call({"DEL", key}), Int(1));
    EXPECT_NE(Digest(key + "2"), Digest(key));
  }
  EXPECT_EQ(c()({"RPUSH", "l2", "x"}), Int(4));
  EXPECT_EQ(c()({"OBJECT", "REFCOUNT", "l2"}), Int(1));
}

TEST_F(CopyMoveTest, CopyOptionsAndErrors) {
  ASSERT_EQ(c()({"SET", "src", "v", "EX", "100"}), Status("OK"));
  ASSERT_EQ(c()({"SET", "dst", "old"}), Status("OK"));
  EXPECT_EQ(c()({"COPY", "src", "dst"}), Int(0));
  EXPECT_EQ(c()({"COPY", "missing", "x"}), Int(0));
  EXPECT_EQ(c()({"COPY", "src", "dst", "REPLACE"}), Int(1));
  EXPECT_EQ(c()({"GET", "dst"}), Bulk("v"));
  Reply ttl = c()({"TTL", "dst"});
  EXPECT_TRUE(ttl.integer > 0 && ttl.integer <= 100) << ttl;
  EXPECT_EQ(c()({"COPY", "src", "other", "DB", "3"}), Int(1));
  EXPECT_EQ(c()({"SELECT", "3"}), Status("OK"));
  EXPECT_EQ(c()({"GET", "other"}), Bulk("v"));
  EXPECT_EQ(c()({"SELECT", "0"}), Status("OK"));
  EXPECT_EQ(c()({"COPY", "src", "src"}), Error("ERR source and destination objects are the same"));
  EXPECT_EQ(c()({"COPY", "src", "src", "DB", "0"}),
            Error("ERR source and destination objects are the same"));
  EXPECT_EQ(c()({"COPY", "src", "x", "DB", "16"}), Error("ERR DB index is out of range"));
  EXPECT_EQ(c()({"COPY", "src", "x", "DB", "x"}),
            Error("ERR value is not an integer or out of range"));
  EXPECT_EQ(c()({"COPY", "src", "x", "DB", "4294967296"}),
            Error("ERR value is out of range, value must between -2147483648 and 2147483647"));
  EXPECT_EQ(c()({"COPY", "src", "x", "DB"}), Error("ERR syntax error"));
  EXPECT_EQ(c()({"COPY", "src", "x", "NX"}), Error("ERR syntax error"));
  EXPECT_EQ(c()({"COPY", "src"}), Error("ERR wrong number of arguments for 'copy' command"));
}

TEST_F(CopyMoveTest, Move) {
  ASSERT_EQ(c()({"SET", "k", "v", "PX", "100000"}), Status("OK"));
  EXPECT_EQ(c()({"MOVE", "k", "1"}), Int(1));
  EXPECT_EQ(c()({"EXISTS", "k"}), Int(0));
  EXPECT_EQ(c()({"SELECT", "1"}), Status("OK"));
  EXPECT_EQ(c()({"GET", "k"}), Bulk("v"));
  Reply pttl = c()({"PTTL", "k"});
  EXPECT_TRUE(pttl.integer > 90000 && pttl.integer <= 100000) << pttl;
  EXPECT_EQ(c()({"SET", "back", "x"}), Status("OK"));
  EXPECT_EQ(c()({"SELECT", "0"}), Status("OK"));
  EXPECT_EQ(c()({"SET", "back", "y"}), Status("OK"));
  EXPECT_EQ(c()({"MOVE", "back", "1"}), Int(0));  // the target database has it
  EXPECT_EQ(c()({"MOVE", "missing", "1"}), Int(0));
  EXPECT_EQ(c()({"MOVE", "back", "0"}), Error("ERR source and destination objects are the same"));
  EXPECT_EQ(c()({"MOVE", "back", "16"}), Error("ERR DB index is out of range"));
  EXPECT_EQ(c()({"MOVE", "back", "-1"}), Error("ERR DB index is out of range"));
  EXPECT_EQ(c()({"MOVE", "back", "x"}), Error("ERR value is not an integer or out of range"));
}

TEST_F(CopyMoveTest, SwapDb) {
  ASSERT_EQ(c()({"SET", "a", "in0"}), Status("OK"));
  ASSERT_EQ(c()({"SELECT", "1"}), Status("OK"));
  ASSERT_EQ(c()({"SET", "b", "in1", "EX", "100"}), Status("OK"));
  EXPECT_EQ(c()({"SWAPDB", "0", "1"}), Status("OK"));
  // The client stays in database 1, which now holds what was in 0.
  EXPECT_EQ(c()({"GET", "a"}), Bulk("in0"));
  EXPECT_EQ(c()({"EXISTS", "b"}), Int(0));
  EXPECT_EQ(c()({"SELECT", "0"}), Status("OK"));
  EXPECT_EQ(c()({"GET", "b"}), Bulk("in1"));
  Reply ttl = c()({"TTL", "b"});
  EXPECT_TRUE(ttl.integer > 0 && ttl.integer <= 100) << ttl;
  EXPECT_EQ(c()({"SWAPDB", "2", "2"}), Status("OK"));
  EXPECT_EQ(c()({"SWAPDB", "x", "1"}), Error("ERR invalid first DB index"));
  EXPECT_EQ(c()({"SWAPDB", "0", "x"}), Error("ERR invalid second DB index"));
  EXPECT_EQ(c()({"SWAPDB", "0", "16"}), Error("ERR DB index is out of range"));
  EXPECT_EQ(c()({"SWAPDB", "-1", "0"}), Error("ERR DB index is out of range"));
}

// A watched key changed by the swap aborts the transaction; "changes" from an expired key to
// nothing, or from nothing to an expired key, do not (multi.tcl's SWAPDB tests).
TEST_F(CopyMoveTest, SwapDbTouchesWatchedKeys) {
  auto exec_after_swap = [&](int watch_db) {
    EXPECT_EQ(c().Call({"SELECT", std::to_string(watch_db)}), Status("OK"));
    EXPECT_EQ(c()({"WATCH", "x"}), Status("OK"));
    EXPECT_EQ(c()({"SWAPDB", "0", "1"}), Status("OK"));
    EXPECT_EQ(c()({"MULTI"}), Status("OK"));
    EXPECT_EQ(c()({"PING"}), Status("QUEUED"));
    return c()({"EXEC"});
  };
  // The watched key existed and is gone after the swap.
  ASSERT_EQ(c()({"SET", "x", "30"}), Status("OK"));
  EXPECT_EQ(exec_after_swap(0).type, Reply::Type::kNil);
  // The watched key did not exist and appears.
  ASSERT_EQ(c()({"FLUSHALL"}), Status("OK"));
  ASSERT_EQ(c()({"SELECT", "1"}), Status("OK"));
  ASSERT_EQ(c()({"SET", "x", "30"}), Status("OK"));
  EXPECT_EQ(exec_after_swap(0).type, Reply::Type::kNil);
  // Neither database has it: nothing changes.
  ASSERT_EQ(c()({"FLUSHALL"}), Status("OK"));
  EXPECT_EQ(exec_after_swap(0), Array({Status("PONG")}));
}

// The same with logically expired keys still stored (active expiry off, nothing reads them).
TEST_F(CopyMoveTest, SwapDbDoesNotTouchStaleKeys) {
  ASSERT_EQ(c()({"DEBUG", "SET-ACTIVE-EXPIRE", "0"}), Status("OK"));
  auto server_ms = [&] {
    Reply t = c()({"TIME"});
    return std::stoll(t.elements.at(0).str) * 1000 + std::stoll(t.elements.at(1).str) / 1000;
  };
  // Stores x in `db`, expiring in a moment, and waits (reading only the clock) until it has.
  auto stale_x = [&](int db) {
    ASSERT_EQ(c().Call({"SELECT", std::to_string(db)}), Status("OK"));
    int64_t when = server_ms() + 20;
    ASSERT_EQ(c().Call({"SET", "x", "foo", "PXAT", std::to_string(when)}), Status("OK"));
    ASSERT_TRUE(Eventually([&] { return server_ms() > when; }));
  };
  auto watch_swap_exec = [&] {
    EXPECT_EQ(c()({"SELECT", "1"}), Status("OK"));
    EXPECT_EQ(c()({"WATCH", "x"}), Status("OK"));
    EXPECT_EQ(c()({"SWAPDB", "0", "1"}), Status("OK"));
    EXPECT_EQ(c()({"MULTI"}), Status("OK"));
    EXPECT_EQ(c()({"PING"}), Status("QUEUED"));
    return c()({"EXEC"});
  };
  stale_x(1);  // an expired key replaced with no key
  EXPECT_EQ(watch_swap_exec(), Array({Status("PONG")}));
  ASSERT_EQ(c()({"FLUSHALL"}), Status("OK"));
  stale_x(0);  // no key replaced with an expired key
  EXPECT_EQ(watch_swap_exec(), Array({Status("PONG")}));
  ASSERT_EQ(c()({"FLUSHALL"}), Status("OK"));
  stale_x(1);  // an expired key replaced with another
  stale_x(0);
  EXPECT_EQ(watch_swap_exec(), Array({Status("PONG")}));
  // A live key replacing an expired one is a change.
  ASSERT_EQ(c()({"FLUSHALL"}), Status("OK"));
  stale_x(1);
  ASSERT_EQ(c()({"SELECT", "0"}), Status("OK"));
  ASSERT_EQ(c()({"SET", "x", "live"}), Status("OK"));
  EXPECT_EQ(watch_swap_exec().type, Reply::Type::kNil);
}

TEST_F(CopyMoveTest, IdletimeIsTouchedByReadsNotByTtlTypeExists) {
  ASSERT_EQ(c()({"CONFIG", "SET", "maxmemory-policy", "allkeys-lru"}), Status("OK"));
  ASSERT_EQ(c()({"SET", "k", "v"}), Status("OK"));
  Reply dump = c()({"DUMP", "k"});
  ASSERT_EQ(c()({"DEL", "k"}), Int(1));
  ASSERT_EQ(c().Call({"RESTORE", "k", "0", dump.str, "IDLETIME", "1000"}), Status("OK"));
  auto idle = [&] { return c()({"OBJECT", "IDLETIME", "k"}).integer; };
  EXPECT_GE(idle(), 1000);
  for (std::string cmd : {"TTL", "PTTL", "TYPE", "EXISTS", "EXPIRETIME", "OBJECT"}) {
    if (cmd == "OBJECT") {
      c()({"OBJECT", "ENCODING", "k"});
    } else {
      c().Call({cmd, "k"});
    }
    EXPECT_GE(idle(), 1000) << cmd;
  }
  EXPECT_EQ(c()({"TOUCH", "k", "missing"}), Int(1));
  EXPECT_LT(idle(), 1000);
  ASSERT_EQ(c().Call({"RESTORE", "k", "0", dump.str, "IDLETIME", "1000", "REPLACE"}), Status("OK"));
  EXPECT_EQ(c()({"GET", "k"}), Bulk("v"));
  EXPECT_LT(idle(), 1000);
}

TEST_F(CopyMoveTest, ObjectFreqNeedsAnLfuPolicy) {
  ASSERT_EQ(c()({"SET", "k", "v"}), Status("OK"));
  EXPECT_EQ(c()({"OBJECT", "FREQ", "k"}),
            Error("ERR An LFU maxmemory policy is not selected, access frequency not tracked. "
                  "Please note that when switching between policies at runtime LRU and LFU data "
                  "will take some time to adjust."));
  EXPECT_EQ(c()({"OBJECT", "FREQ", "missing"}), Nil());
  ASSERT_EQ(c()({"CONFIG", "SET", "maxmemory-policy", "volatile-lfu"}), Status("OK"));
  ASSERT_EQ(c()({"SET", "k2", "v"}), Status("OK"));
  // A new key starts at LFU_INIT_VAL 5; the first access always counts (then less and less).
  EXPECT_EQ(c()({"OBJECT", "FREQ", "k2"}), Int(5));
  EXPECT_EQ(c()({"GET", "k2"}), Bulk("v"));
  EXPECT_EQ(c()({"OBJECT", "FREQ", "k2"}), Int(6));
  EXPECT_EQ(c()({"OBJECT", "IDLETIME", "k2"}),
            Error("ERR An LFU maxmemory policy is selected, idle time not tracked. Please note "
                  "that when switching between policies at runtime LRU and LFU data will take "
                  "some time to adjust."));
}

}  // namespace
}  // namespace redlab::conformance
