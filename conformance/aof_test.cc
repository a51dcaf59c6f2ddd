// The append-only file, as Redis 7.0's multi-part AOF: with appendonly yes the directory
// <dir>/appendonlydir holds a manifest, a base file and an incremental file receiving every
// write in RESP; DEBUG LOADAOF and a restart with the same directory bring the data back,
// BGREWRITEAOF moves to a new base and incremental file, CONFIG SET appendonly yes starts one.
// Each server gets its own directory, removed at the end.
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "conformance/harness/fixture.h"

namespace redlab::conformance {
namespace {

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

class AofTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char name[] = "/tmp/redlab-aof-XXXXXX";
    ASSERT_NE(mkdtemp(name), nullptr);
    dir_ = name;
  }
  void TearDown() override {
    if (server_) server_->Stop();
    std::error_code ignored;
    std::filesystem::remove_all(dir_, ignored);
  }
  // A server of the current target in the test's directory, with `extra` settings.
  void Start(std::vector<std::pair<std::string, std::string>> extra = {}) {
    ServerOptions options;
    options.config = {{"dir", dir_}, {"enable-debug-command", "yes"}, {"appendfsync", "always"}};
    for (auto& setting : extra) options.config.push_back(std::move(setting));
    server_ = StartServer(options);
    client_ = std::make_unique<Client>(server_->port());
    // Real Redis accepts connections while it loads (answering -LOADING).
    ASSERT_TRUE(Eventually([&] { return Info("loading") == "0"; }));
  }
  // Kills the server (SIGKILL for processes): what it wrote to the AOF is all that remains.
  void Kill() {
    client_.reset();
    server_->Stop();
    server_.reset();
  }
  std::string Info(const std::string& field) {
    return FindInfoField(c(), "persistence", field).value_or("<missing>");
  }
  // BGREWRITEAOF's work is done (a child's, on real Redis).
  void WaitRewriteDone() {
    EXPECT_TRUE(Eventually([&] {
      return Info("aof_rewrite_in_progress") == "0" && Info("aof_rewrite_scheduled") == "0";
    }));
  }
  std::string Manifest() { return ReadFile(dir_ + "/appendonlydir/appendonly.aof.manifest"); }
  // A dataset of every type, in two databases, with a TTL, a transaction and a consumer group.
  void Populate() {
    Client& r = c();
    ASSERT_EQ(r({"SET", "s", "v"}), Status("OK"));
    ASSERT_EQ(r({"SET", "n", "12345"}), Status("OK"));
    ASSERT_EQ(r({"PEXPIRE", "n", "100000000"}), Int(1));
    ASSERT_EQ(r({"RPUSH", "l", "a", "b", "c"}), Int(3));
    ASSERT_EQ(r({"SADD", "set", "x", "y", "1"}), Int(3));
    ASSERT_EQ(r({"ZADD", "z", "1.5", "a", "-inf", "b", "3", "c"}), Int(3));
    ASSERT_EQ(r({"HSET", "h", "f", "v", "g", "w"}), Int(2));
    ASSERT_EQ(r({"PFADD", "hll", "a", "b", "c"}), Int(1));
    ASSERT_EQ(r({"XADD", "st", "1-1", "f", "v"}), Bulk("1-1"));
    ASSERT_EQ(r({"XADD", "st", "2-1", "f", "w"}), Bulk("2-1"));
    ASSERT_EQ(r({"XGROUP", "CREATE", "st", "g", "0"}), Status("OK"));
    ASSERT_FALSE(
        r({"XREADGROUP", "GROUP", "g", "alice", "COUNT", "1", "STREAMS", "st", ">"}).is_error());
    ASSERT_EQ(r({"XGROUP", "CREATECONSUMER", "st", "g", "bob"}), Int(1));
    ASSERT_EQ(r({"MULTI"}), Status("OK"));
    ASSERT_EQ(r({"INCR", "counter"}), Status("QUEUED"));
    ASSERT_EQ(r({"INCR", "counter"}), Status("QUEUED"));
    ASSERT_EQ(r({"EXEC"}), Array({Int(1), Int(2)}));
    ASSERT_EQ(r({"SELECT", "3"}), Status("OK"));
    ASSERT_EQ(r({"SET", "in3", "yes"}), Status("OK"));
    ASSERT_EQ(r({"SELECT", "0"}), Status("OK"));
    ASSERT_EQ(r({"DEL", "s"}), Int(1));
  }
  Client& c() { return *client_; }

  std::string dir_;
  std::unique_ptr<Server> server_;
  std::unique_ptr<Client> client_;
};

TEST_F(AofTest, StartsWithABaseAndAnIncrementalFileThatReceivesWrites) {
  Start({{"appendonly", "yes"}});
  EXPECT_EQ(Info("aof_enabled"), "1");
  EXPECT_EQ(Manifest(),
            "file appendonly.aof.1.base.rdb seq 1 type b\n"
            "file appendonly.aof.1.incr.aof seq 1 type i\n");
  EXPECT_EQ(ReadFile(dir_ + "/appendonlydir/appendonly.aof.1.base.rdb").substr(0, 9), "REDIS0010");
  ASSERT_EQ(c()({"SET", "k", "v"}), Status("OK"));
  ASSERT_EQ(c()({"SELECT", "2"}), Status("OK"));
  ASSERT_EQ(c()({"MULTI"}), Status("OK"));
  ASSERT_EQ(c()({"SET", "a", "1"}), Status("QUEUED"));
  ASSERT_EQ(c()({"SET", "b", "2"}), Status("QUEUED"));
  ASSERT_EQ(c()({"EXEC"}), Array({Status("OK"), Status("OK")}));
  ASSERT_EQ(c()({"GET", "a"}), Bulk("1"));  // a read is not written
  EXPECT_EQ(ReadFile(dir_ + "/appendonlydir/appendonly.aof.1.incr.aof"),
            "*2\r\n$6\r\nSELECT\r\n$1\r\n0\r\n*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$1\r\nv\r\n"
            "*2\r\n$6\r\nSELECT\r\n$1\r\n2\r\n*1\r\n$5\r\nMULTI\r\n"
            "*3\r\n$3\r\nSET\r\n$1\r\na\r\n$1\r\n1\r\n*3\r\n$3\r\nSET\r\n$1\r\nb\r\n$1\r\n2\r\n"
            "*1\r\n$4\r\nEXEC\r\n");
}

TEST_F(AofTest, DebugLoadAofKeepsTheData) {
  Start({{"appendonly", "yes"}});
  Populate();
  Reply digest = c()({"DEBUG", "DIGEST"});
  Reply pending = c()({"XPENDING", "st", "g"});
  EXPECT_EQ(c()({"DEBUG", "LOADAOF"}), Status("OK"));
  EXPECT_EQ(c()({"DEBUG", "DIGEST"}), digest);
  EXPECT_EQ(c()({"XPENDING", "st", "g"}), pending);
  EXPECT_EQ(c()({"XINFO", "CONSUMERS", "st", "g"}).elements.size(), 2u);
  EXPECT_EQ(c()({"DBSIZE"}), Int(8));
  EXPECT_EQ(Info("rdb_changes_since_last_save"), "0");
  // Writes go on into the same incremental file.
  ASSERT_EQ(c()({"SET", "after", "1"}), Status("OK"));
  EXPECT_EQ(c()({"DEBUG", "LOADAOF"}), Status("OK"));
  EXPECT_EQ(c()({"GET", "after"}), Bulk("1"));
}

TEST_F(AofTest, RewriteWithoutRdbPreambleWritesCommandsThatLoadBack) {
  Start({{"appendonly", "yes"}, {"aof-use-rdb-preamble", "no"}});
  EXPECT_EQ(Manifest(),
            "file appendonly.aof.1.base.aof seq 1 type b\n"
            "file appendonly.aof.1.incr.aof seq 1 type i\n");
  Populate();
  ASSERT_EQ(c()({"FUNCTION", "LOAD",
                 "#!lua name=lib\nredis.register_function('f', function() "
                 "return 1 end)"}),
            Bulk("lib"));
  Reply digest = c()({"DEBUG", "DIGEST"});
  EXPECT_EQ(c()({"BGREWRITEAOF"}), Status("Background append only file rewriting started"));
  WaitRewriteDone();
  EXPECT_EQ(Info("aof_last_bgrewrite_status"), "ok");
  EXPECT_EQ(Info("aof_rewrites"), "1");
  EXPECT_EQ(Manifest(),
            "file appendonly.aof.2.base.aof seq 2 type b\n"
            "file appendonly.aof.2.incr.aof seq 2 type i\n");
  EXPECT_FALSE(std::filesystem::exists(dir_ + "/appendonlydir/appendonly.aof.1.incr.aof"));
  std::string base = ReadFile(dir_ + "/appendonlydir/appendonly.aof.2.base.aof");
  EXPECT_EQ(base.rfind("*3\r\n$8\r\nFUNCTION\r\n$4\r\nLOAD\r\n", 0), 0u) << base.substr(0, 40);
  EXPECT_NE(
      base.find("*2\r\n$6\r\nSELECT\r\n$1\r\n3\r\n*3\r\n$3\r\nSET\r\n$3\r\nin3\r\n$3\r\nyes\r\n"),
      std::string::npos);
  ASSERT_EQ(c()({"SET", "later", "x"}), Status("OK"));
  EXPECT_EQ(ReadFile(dir_ + "/appendonlydir/appendonly.aof.2.incr.aof"),
            "*2\r\n$6\r\nSELECT\r\n$1\r\n0\r\n*3\r\n$3\r\nSET\r\n$5\r\nlater\r\n$1\r\nx\r\n");
  ASSERT_EQ(c()({"DEL", "later"}), Int(1));
  EXPECT_EQ(c()({"DEBUG", "LOADAOF"}), Status("OK"));
  EXPECT_EQ(c()({"DEBUG", "DIGEST"}), digest);
  EXPECT_EQ(c()({"FCALL", "f", "0"}), Int(1));
  EXPECT_EQ(c()({"BGREWRITEAOF", "x"}),
            Error("ERR wrong number of arguments for 'bgrewriteaof' command"));
}

TEST_F(AofTest, ARestartWithTheSameDirectoryRestoresTheData) {
  Start({{"appendonly", "yes"}});
  Populate();
  Reply digest = c()({"DEBUG", "DIGEST"});
  Kill();
  Start({{"appendonly", "yes"}});
  EXPECT_EQ(c()({"DEBUG", "DIGEST"}), digest);
  EXPECT_EQ(c()({"SELECT", "3"}), Status("OK"));
  EXPECT_EQ(c()({"GET", "in3"}), Bulk("yes"));
  EXPECT_EQ(c()({"SELECT", "0"}), Status("OK"));
  EXPECT_EQ(Manifest(),
            "file appendonly.aof.1.base.rdb seq 1 type b\n"
            "file appendonly.aof.1.incr.aof seq 1 type i\n");
  // After a rewrite the new base and incremental file are what a restart reads.
  EXPECT_EQ(c()({"BGREWRITEAOF"}), Status("Background append only file rewriting started"));
  WaitRewriteDone();
  ASSERT_EQ(c()({"SET", "after-rewrite", "1"}), Status("OK"));
  Reply digest2 = c()({"DEBUG", "DIGEST"});
  Kill();
  Start({{"appendonly", "yes"}});
  EXPECT_EQ(c()({"DEBUG", "DIGEST"}), digest2);
  EXPECT_EQ(c()({"GET", "after-rewrite"}), Bulk("1"));
  EXPECT_EQ(Manifest(),
            "file appendonly.aof.2.base.rdb seq 2 type b\n"
            "file appendonly.aof.2.incr.aof seq 2 type i\n");
  // Without appendonly the AOF is not read.
  Kill();
  Start();
  EXPECT_EQ(c()({"DBSIZE"}), Int(0));
  EXPECT_EQ(Info("aof_enabled"), "0");
}

TEST_F(AofTest, ConfigSetAppendonlyStartsARewrite) {
  Start();
  EXPECT_EQ(Info("aof_enabled"), "0");
  EXPECT_EQ(Info("aof_current_size"), "<missing>");
  ASSERT_EQ(c()({"SET", "before", "1"}), Status("OK"));
  EXPECT_EQ(c()({"CONFIG", "SET", "appendonly", "yes"}), Status("OK"));
  WaitRewriteDone();
  EXPECT_EQ(Info("aof_enabled"), "1");
  EXPECT_EQ(Info("aof_rewrites"), "1");
  EXPECT_EQ(Manifest(),
            "file appendonly.aof.1.base.rdb seq 1 type b\n"
            "file appendonly.aof.1.incr.aof seq 1 type i\n");
  ASSERT_EQ(c()({"SET", "after", "2"}), Status("OK"));
  EXPECT_EQ(c()({"DEBUG", "LOADAOF"}), Status("OK"));
  EXPECT_EQ(c()({"MGET", "before", "after"}), Array({Bulk("1"), Bulk("2")}));
  EXPECT_EQ(c()({"CONFIG", "SET", "appendonly", "no"}), Status("OK"));
  EXPECT_EQ(Info("aof_enabled"), "0");
  ASSERT_EQ(c()({"SET", "unlogged", "3"}), Status("OK"));
  EXPECT_EQ(c()({"DEBUG", "LOADAOF"}), Status("OK"));
  EXPECT_EQ(c()({"GET", "unlogged"}), Nil());
  EXPECT_EQ(c()({"GET", "after"}), Bulk("2"));
}

}  // namespace
}  // namespace redlab::conformance
