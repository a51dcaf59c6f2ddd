// DEBUG's data subcommands as Redis's test suite uses them: OBJECT's line (encoding,
// serializedlength, quicklist fields), DIGEST and DIGEST-VALUE (Redis's exact digests: the
// expected values below come from redis-server), RELOAD, PROTOCOL's bytes in RESP2 and RESP3,
// POPULATE, ERROR, and the settings subcommands.
#include <stdlib.h>

#include <filesystem>
#include <string>
#include <vector>

#include "conformance/harness/fixture.h"

namespace redlab::conformance {
namespace {

class DebugTest : public ConformanceTest {
 protected:
  // RELOAD writes snapshots: each server gets a directory of its own (both targets run at once).
  static void SetUpTestSuite() {
    if (!server_) {
      char dir[] = "/tmp/redlab-debug-XXXXXX";
      dir_ = mkdtemp(dir) != nullptr ? dir : "";
      server_ = StartServer({.config = {{"enable-debug-command", "yes"},
                                        {"enable-protected-configs", "yes"},
                                        {"dir", dir_.empty() ? "/tmp" : dir_}}});
    }
  }
  static void TearDownTestSuite() {
    ConformanceTest::TearDownTestSuite();
    std::error_code ignored;
    if (!dir_.empty()) std::filesystem::remove_all(dir_, ignored);
  }
  static std::string dir_;
  void TearDown() override {
    EXPECT_EQ(c()({"DEBUG", "QUICKLIST-PACKED-THRESHOLD", "0"}), Status("OK"));
    EXPECT_EQ(c()({"DEBUG", "SET-DISABLE-DENY-SCRIPTS", "0"}), Status("OK"));
  }
  // The dataset cap2 built on redis-server to take the digests below.
  void Populate() {
    for (std::vector<std::string> cmd :
         std::vector<std::vector<std::string>>{{"SET", "s", "hello"},
                                               {"SET", "n", "12345"},
                                               {"RPUSH", "l", "a", "b", "1"},
                                               {"SADD", "set", "x", "y", "3"},
                                               {"ZADD", "z", "1.5", "m", "-2", "n"},
                                               {"HSET", "h", "f", "v", "g", "1"},
                                               {"SET", "t", "v", "PX", "100000000"},
                                               {"SELECT", "3"},
                                               {"SET", "other", "db3"},
                                               {"SELECT", "0"}}) {
      ASSERT_FALSE(c().Call(cmd).is_error()) << cmd[0];
    }
  }
  // DEBUG OBJECT's line without the address and the access-time fields.
  std::string ObjectLine(std::string_view key) {
    Reply r = c()({"DEBUG", "OBJECT", key});
    if (r.type != Reply::Type::kStatus) return r.Describe();
    std::string out;
    size_t pos = 0;
    int field = 0;
    while (pos <= r.str.size()) {
      size_t end = r.str.find(' ', pos);
      if (end == std::string::npos) end = r.str.size();
      std::string word = r.str.substr(pos, end - pos);
      // "Value", "at:0x...", ..., "lru:N", "lru_seconds_idle:N" are dropped.
      if (field >= 2 && word.rfind("lru", 0) != 0) out += (out.empty() ? "" : " ") + word;
      ++field;
      pos = end + 1;
    }
    return out;
  }
};
std::string DebugTest::dir_;

// CONFIG REWRITE answers that there is no file; DEBUG's variant has no such check, and Redis's
// rewrite of no file fails as fopen(NULL) does.
TEST_F(DebugTest, ConfigRewriteForceAllWithoutAFileFails) {
  EXPECT_EQ(c()({"DEBUG", "CONFIG-REWRITE-FORCE-ALL"}),
            Error("ERR CONFIG-REWRITE-FORCE-ALL failed: Bad address"));
}

TEST_F(DebugTest, ObjectDescribesEncodingAndSerializedLength) {
  Populate();
  EXPECT_EQ(ObjectLine("s"), "refcount:1 encoding:embstr serializedlength:6");
  EXPECT_EQ(ObjectLine("n"), "refcount:1 encoding:int serializedlength:3");
  EXPECT_EQ(ObjectLine("l"),
            "refcount:1 encoding:quicklist serializedlength:18 ql_nodes:1 ql_avg_node:3.00 "
            "ql_listpack_max:-2 ql_compressed:0 ql_uncompressed_size:15");
  EXPECT_EQ(ObjectLine("set"), "refcount:1 encoding:hashtable serializedlength:7");
  EXPECT_EQ(ObjectLine("z"), "refcount:1 encoding:listpack serializedlength:22");
  EXPECT_EQ(ObjectLine("h"), "refcount:1 encoding:listpack serializedlength:19");
  ASSERT_EQ(c()({"SET", "small", "7"}), Status("OK"));
  EXPECT_EQ(ObjectLine("small"), "refcount:2147483647 encoding:int serializedlength:2");
  Reply line = c()({"DEBUG", "OBJECT", "s"});
  EXPECT_EQ(line.str.rfind("Value at:0x", 0), 0u) << line;
  EXPECT_EQ(c()({"DEBUG", "OBJECT", "missing"}), Error("ERR no such key"));
  // A value changed in place keeps its address (incr.tcl relies on it).
  ASSERT_EQ(c()({"SET", "counter", "20000"}), Status("OK"));
  std::string before = c()({"DEBUG", "OBJECT", "counter"}).str;
  ASSERT_EQ(c()({"INCR", "counter"}), Int(20001));
  std::string after = c()({"DEBUG", "OBJECT", "counter"}).str;
  EXPECT_EQ(before.substr(0, before.find(' ', 9)), after.substr(0, after.find(' ', 9)));
}

TEST_F(DebugTest, QuicklistNodesFollowThePackedThreshold) {
  std::vector<std::string> push = {"RPUSH", "big"};
  for (int i = 0; i < 2000; ++i) push.push_back("item-" + std::to_string(i));
  ASSERT_EQ(c().Call(push), Int(2000));
  EXPECT_EQ(ObjectLine("big"),
            "refcount:1 encoding:quicklist serializedlength:9965 ql_nodes:3 ql_avg_node:666.67 "
            "ql_listpack_max:-2 ql_compressed:0 ql_uncompressed_size:20911");
  // Built at the head, the partial node is the first one, as in Redis; a copy, a restored dump
  // and the dump of either keep that.
  push[0] = "LPUSH";
  push[1] = "left";
  ASSERT_EQ(c().Call(push), Int(2000));
  const std::string left_line =
      "refcount:1 encoding:quicklist serializedlength:9920 ql_nodes:3 ql_avg_node:666.67 "
      "ql_listpack_max:-2 ql_compressed:0 ql_uncompressed_size:20911";
  EXPECT_EQ(ObjectLine("left"), left_line);
  EXPECT_EQ(c()({"COPY", "left", "left-copy"}), Int(1));
  EXPECT_EQ(ObjectLine("left-copy"), left_line);
  Reply dump = c()({"DUMP", "left"});
  EXPECT_EQ(c().Call({"RESTORE", "left-restored", "0", dump.str}), Status("OK"));
  EXPECT_EQ(ObjectLine("left-restored"), left_line);
  EXPECT_EQ(c()({"DUMP", "left-restored"}), dump);
  // Elements at least as long as the threshold get plain nodes of their own.
  EXPECT_EQ(c()({"DEBUG", "QUICKLIST-PACKED-THRESHOLD", "100"}), Status("OK"));
  ASSERT_EQ(c().Call({"RPUSH", "plain", "a", std::string(150, 'x'), "b", "c"}), Int(4));
  EXPECT_EQ(ObjectLine("plain"),
            "refcount:1 encoding:quicklist serializedlength:42 ql_nodes:3 ql_avg_node:1.33 "
            "ql_listpack_max:-2 ql_compressed:0 ql_uncompressed_size:173");
  EXPECT_EQ(c()({"DEBUG", "QUICKLIST-PACKED-THRESHOLD", "5gb"}),
            Error("ERR argument must be a memory value bigger than 1 and smaller than 4gb"));
  EXPECT_EQ(c()({"DEBUG", "QUICKLIST-PACKED-THRESHOLD", "abc"}),
            Error("ERR argument must be a memory value bigger than 1 and smaller than 4gb"));
  EXPECT_EQ(c()({"DEBUG", "QUICKLIST", "plain"}), Status("Quicklist structure printed on stdout"));
  EXPECT_EQ(c()({"DEBUG", "QUICKLIST", "plain", "1"}),
            Status("Quicklist structure printed on stdout"));
  EXPECT_EQ(c()({"DEBUG", "QUICKLIST", "missing"}), Error("ERR no such key"));
}

TEST_F(DebugTest, ListpackAndQuicklistNeedTheirEncodings) {
  ASSERT_FALSE(c()({"HSET", "h", "f", "v"}).is_error());
  ASSERT_FALSE(c()({"RPUSH", "l", "a"}).is_error());
  EXPECT_EQ(c()({"DEBUG", "LISTPACK", "h"}), Status("Listpack structure printed on stdout"));
  EXPECT_EQ(c()({"DEBUG", "LISTPACK", "l"}), Error("ERR Not a listpack encoded object."));
  EXPECT_EQ(c()({"DEBUG", "QUICKLIST", "h"}), Error("ERR Not a quicklist encoded object."));
  EXPECT_EQ(c()({"DEBUG", "LISTPACK", "missing"}), Error("ERR no such key"));
}

TEST_F(DebugTest, DigestsAreRedisOwn) {
  EXPECT_EQ(c()({"DEBUG", "DIGEST"}), Status(std::string(40, '0')));
  Populate();
  EXPECT_EQ(c()({"DEBUG", "DIGEST"}), Status("ee6f5ca4ed4442fbf413cb4f13a4a1e336e6eed3"));
  EXPECT_EQ(
      c()({"DEBUG", "DIGEST-VALUE", "s", "l", "set", "z", "h", "t", "missing"}),
      Array({Status("36b23a1456b2dce2c3ed252c456761301dba8060"),
             Status("981fd62c1655c074205cff40b800bd5a5bfdcd41"),
             Status("415a07507e2348d139f9fd645a024f6be569dd65"),
             Status("42f3db49440fa8d8c097881bf7c35f214fdcd4b6"),
             Status("6679ee22f89ed8001eeb5309d0900265ea56c03a"),
             Status("311b17018163335616e089f6b951c82c477335ac"), Status(std::string(40, '0'))}));
  EXPECT_EQ(c()({"DEBUG", "DIGEST-VALUE"}), Array({}));
  // A change anywhere changes the dataset digest; the encoding does not.
  ASSERT_EQ(c()({"SET", "s", "hellO"}), Status("OK"));
  EXPECT_NE(c()({"DEBUG", "DIGEST"}), Status("ee6f5ca4ed4442fbf413cb4f13a4a1e336e6eed3"));
  ASSERT_EQ(c()({"SET", "s", "hello"}), Status("OK"));
  ASSERT_EQ(c()({"CONFIG", "SET", "zset-max-listpack-entries", "0"}), Status("OK"));
  ASSERT_EQ(c()({"DEL", "z"}), Int(1));
  ASSERT_EQ(c()({"ZADD", "z", "1.5", "m", "-2", "n"}), Int(2));
  ASSERT_EQ(c()({"CONFIG", "SET", "zset-max-listpack-entries", "128"}), Status("OK"));
  EXPECT_EQ(c()({"OBJECT", "ENCODING", "z"}), Bulk("skiplist"));
  EXPECT_EQ(c()({"DEBUG", "DIGEST"}), Status("ee6f5ca4ed4442fbf413cb4f13a4a1e336e6eed3"));
}

TEST_F(DebugTest, ReloadKeepsDataAndTtls) {
  ASSERT_EQ(c().Call({"CONFIG", "SET", "dbfilename", "debug-reload.rdb"}), Status("OK"));
  Populate();
  Reply digest = c()({"DEBUG", "DIGEST"});
  Reply pexpiretime = c()({"PEXPIRETIME", "t"});
  EXPECT_EQ(c()({"DEBUG", "RELOAD"}), Status("OK"));
  EXPECT_EQ(c()({"DEBUG", "DIGEST"}), digest);
  EXPECT_EQ(c()({"PEXPIRETIME", "t"}), pexpiretime);
  EXPECT_EQ(c()({"OBJECT", "ENCODING", "z"}), Bulk("listpack"));
  EXPECT_EQ(c()({"INFO", "persistence"}).str.find("rdb_changes_since_last_save:0\r\n") !=
                std::string::npos,
            true);
  // NOSAVE loads the file as it is; NOFLUSH MERGE adds its keys to what is there.
  ASSERT_EQ(c()({"SET", "after", "1"}), Status("OK"));
  EXPECT_EQ(c()({"DEBUG", "RELOAD", "NOSAVE"}), Status("OK"));
  EXPECT_EQ(c()({"EXISTS", "after"}), Int(0));
  ASSERT_EQ(c()({"SET", "after", "1"}), Status("OK"));
  ASSERT_EQ(c()({"SET", "s", "changed"}), Status("OK"));
  EXPECT_EQ(c()({"DEBUG", "RELOAD", "NOSAVE", "NOFLUSH", "MERGE"}), Status("OK"));
  EXPECT_EQ(c()({"GET", "after"}), Bulk("1"));
  EXPECT_EQ(c()({"GET", "s"}), Bulk("hello"));
  EXPECT_EQ(c()({"DEBUG", "RELOAD", "bogus"}),
            Error("ERR DEBUG RELOAD only supports the MERGE, NOFLUSH and NOSAVE options."));
  ASSERT_EQ(c()({"CONFIG", "SET", "dbfilename", "no-such-file.rdb"}), Status("OK"));
  EXPECT_EQ(c()({"DEBUG", "RELOAD", "NOSAVE"}), Error("ERR Error trying to load the RDB dump"));
  ASSERT_EQ(c()({"CONFIG", "SET", "dbfilename", "dump.rdb"}), Status("OK"));
}

// DEBUG PROTOCOL's exact bytes.
TEST_F(DebugTest, ProtocolRepliesInBothProtocols) {
  struct Case {
    std::string type, resp2, resp3;
  };
  const std::vector<Case> cases = {
      {"string", "$11\r\nHello World\r\n", "$11\r\nHello World\r\n"},
      {"integer", ":12345\r\n", ":12345\r\n"},
      {"double", "$5\r\n3.141\r\n", ",3.141\r\n"},
      {"bignum", "$37\r\n1234567999999999999999999999999999999\r\n",
       "(1234567999999999999999999999999999999\r\n"},
      {"null", "$-1\r\n", "_\r\n"},
      {"array", "*3\r\n:0\r\n:1\r\n:2\r\n", "*3\r\n:0\r\n:1\r\n:2\r\n"},
      {"set", "*3\r\n:0\r\n:1\r\n:2\r\n", "~3\r\n:0\r\n:1\r\n:2\r\n"},
      {"map", "*6\r\n:0\r\n:0\r\n:1\r\n:1\r\n:2\r\n:0\r\n",
       "%3\r\n:0\r\n#f\r\n:1\r\n#t\r\n:2\r\n#f\r\n"},
      {"attrib", "$39\r\nSome real reply following the attribute\r\n",
       "|1\r\n$14\r\nkey-popularity\r\n*2\r\n$7\r\nkey:123\r\n:90\r\n"
       "$39\r\nSome real reply following the attribute\r\n"},
      {"verbatim", "$25\r\nThis is a verbatim\nstring\r\n",
       "=29\r\ntxt:This is a verbatim\nstring\r\n"},
      {"true", ":1\r\n", "#t\r\n"},
      {"false", ":0\r\n", "#f\r\n"},
      {"push", "-ERR RESP2 is not supported by this command\r\n",
       ">2\r\n$16\r\nserver-cpu-usage\r\n:42\r\n$40\r\nSome real reply following the push "
       "reply\r\n"},
      {"nope",
       "-ERR Wrong protocol type name. Please use one of the following: "
       "string|integer|double|bignum|null|array|set|map|attrib|push|verbatim|true|false\r\n",
       "-ERR Wrong protocol type name. Please use one of the following: "
       "string|integer|double|bignum|null|array|set|map|attrib|push|verbatim|true|false\r\n"},
  };
  for (const Case& k : cases) {
    SCOPED_TRACE(k.type);
    EXPECT_EQ(c().Raw({"DEBUG", "PROTOCOL", k.type}), k.resp2);
  }
  Client resp3(port());
  ASSERT_EQ(resp3({"HELLO", "3"}).type, Reply::Type::kMap);
  for (const Case& k : cases) {
    SCOPED_TRACE(k.type);
    std::string raw = resp3.Raw({"DEBUG", "PROTOCOL", k.type});
    // A push is followed by a real reply, for clients that dropped the push.
    if (k.type == "push") raw += resp3.ReadRaw();
    EXPECT_EQ(raw, k.resp3);
  }
}

TEST_F(DebugTest, PopulateErrorAndSettings) {
  EXPECT_EQ(c()({"DEBUG", "POPULATE", "3"}), Status("OK"));
  EXPECT_EQ(c()({"MGET", "key:0", "key:2", "key:3"}),
            Array({Bulk("value:0"), Bulk("value:2"), Nil()}));
  EXPECT_EQ(c()({"DEBUG", "POPULATE", "2", "p", "9"}), Status("OK"));
  EXPECT_EQ(c()({"GET", "p:1"}), Bulk(std::string("value:1\0\0", 9)));
  EXPECT_EQ(c()({"DEBUG", "POPULATE", "2", "p", "3"}), Status("OK"));  // existing keys stay
  EXPECT_EQ(c()({"GET", "p:1"}), Bulk(std::string("value:1\0\0", 9)));
  EXPECT_EQ(c()({"DEBUG", "POPULATE", "-1"}), Error("ERR value is out of range, must be positive"));
  EXPECT_EQ(c()({"DEBUG", "POPULATE", "x"}), Error("ERR value is out of range, must be positive"));
  EXPECT_EQ(c()({"DBSIZE"}), Int(5));
  EXPECT_EQ(c()({"DEBUG", "ERROR", "CUSTOM some\r\ntext"}), Error("CUSTOM some  text"));
  EXPECT_EQ(c()({"DEBUG", "REPLYBUFFER", "PEAK-RESET-TIME", "never"}), Status("OK"));
  EXPECT_EQ(c()({"DEBUG", "REPLYBUFFER", "PEAK-RESET-TIME", "reset"}), Status("OK"));
  EXPECT_EQ(c()({"DEBUG", "REPLYBUFFER", "PEAK-RESET-TIME", "x"}),
            Error("ERR value is not an integer or out of range"));
  EXPECT_EQ(c()({"DEBUG", "REPLYBUFFER", "RESIZING", "1"}), Status("OK"));
  EXPECT_EQ(c()({"DEBUG", "REPLYBUFFER", "SIZE", "1"}),
            Error("ERR unknown subcommand or wrong number of arguments for 'REPLYBUFFER'. Try "
                  "DEBUG HELP."));
  EXPECT_EQ(c()({"DEBUG", "STRINGMATCH-TEST"}),
            Status("Apparently Redis did not crash: test passed"));
  EXPECT_EQ(c()({"DEBUG", "CLIENT-EVICTION"}), Error("ERR maxmemory-clients is disabled."));
  // JMAP is not a DEBUG subcommand of Redis 7.0.
  EXPECT_EQ(
      c()({"DEBUG", "JMAP"}),
      Error("ERR unknown subcommand or wrong number of arguments for 'JMAP'. Try DEBUG HELP."));
  EXPECT_EQ(c()({"DEBUG", "OBJECT"}),
            Error("ERR unknown subcommand or wrong number of arguments for 'OBJECT'. Try DEBUG "
                  "HELP."));
}

TEST_F(DebugTest, DisableDenyScriptsLetsScriptsCallNoscriptCommands) {
  const char* script = "return redis.call('unwatch')";
  EXPECT_EQ(c()({"EVAL", script, "0"}),
            Error("ERR This Redis command is not allowed from script script: "
                  "4a84ce53df3fe64c49f00be31eb28ab86acdf771, on @user_script:1."));
  EXPECT_EQ(c()({"DEBUG", "SET-DISABLE-DENY-SCRIPTS", "1"}), Status("OK"));
  EXPECT_EQ(c()({"EVAL", script, "0"}), Status("OK"));
}

TEST_F(DebugTest, ChangeReplIdGivesANewReplicationId) {
  auto replid = [&] {
    std::string info = c()({"INFO", "replication"}).str;
    size_t at = info.find("master_replid:");
    return info.substr(at + 14, 40);
  };
  std::string before = replid();
  EXPECT_EQ(c()({"DEBUG", "CHANGE-REPL-ID"}), Status("OK"));
  EXPECT_NE(replid(), before);
  std::string info = c()({"INFO", "replication"}).str;
  EXPECT_NE(info.find("master_replid2:0000000000000000000000000000000000000000\r\n"),
            std::string::npos);
}

}  // namespace
}  // namespace redlab::conformance
