// Snapshots: SAVE and BGSAVE write a real RDB file at <dir>/<dbfilename> that loads back (DEBUG
// RELOAD NOSAVE), LASTSAVE and INFO persistence follow, and dir/dbfilename are protected
// parameters as in Redis 7.0. Each server gets its own directory (both targets run at once).
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "conformance/harness/fixture.h"

namespace redlab::conformance {
namespace {

std::string MakeTempDir() {
  char name[] = "/tmp/redlab-persist-XXXXXX";
  return mkdtemp(name) != nullptr ? std::string(name) : std::string("/tmp");
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

class PersistenceTest : public ConformanceTest {
 protected:
  static void TearDownTestSuite() {
    ConformanceTest::TearDownTestSuite();
    std::error_code ignored;
    std::filesystem::remove_all(dir_, ignored);  // the snapshots the tests wrote
  }
  static void SetUpTestSuite() {
    if (!server_) {
      dir_ = MakeTempDir();
      server_ = StartServer({.config = {{"enable-debug-command", "yes"},
                                        {"enable-protected-configs", "yes"},
                                        {"dir", dir_}}});
    }
  }
  // A field of INFO persistence.
  std::string Info(const std::string& field) {
    return FindInfoField(c(), "persistence", field).value_or("<missing>");
  }
  static std::string dir_;
};
std::string PersistenceTest::dir_;

TEST_F(PersistenceTest, SaveWritesALoadableSnapshot) {
  ASSERT_EQ(c()({"SET", "k", "v", "EX", "1000"}), Status("OK"));
  ASSERT_FALSE(c()({"RPUSH", "l", "a", "b"}).is_error());
  EXPECT_NE(Info("rdb_changes_since_last_save"), "0");
  int64_t before = c()({"LASTSAVE"}).integer;
  EXPECT_EQ(c()({"SAVE"}), Status("OK"));
  EXPECT_EQ(Info("rdb_changes_since_last_save"), "0");
  EXPECT_GE(c()({"LASTSAVE"}).integer, before);
  std::string rdb = ReadFile(dir_ + "/dump.rdb");
  EXPECT_EQ(rdb.substr(0, 9), "REDIS0010");
  Reply digest = c()({"DEBUG", "DIGEST"});
  ASSERT_EQ(c()({"FLUSHALL"}), Status("OK"));
  EXPECT_EQ(c()({"DEBUG", "RELOAD", "NOSAVE"}), Status("OK"));
  EXPECT_EQ(c()({"DEBUG", "DIGEST"}), digest);
  Reply ttl = c()({"TTL", "k"});
  EXPECT_TRUE(ttl.integer > 900 && ttl.integer <= 1000) << ttl;
  EXPECT_EQ(c()({"SAVE", "x"}), Error("ERR wrong number of arguments for 'save' command"));
  EXPECT_EQ(c()({"LASTSAVE", "x"}), Error("ERR wrong number of arguments for 'lastsave' command"));
}

TEST_F(PersistenceTest, SaveIsRefusedInTransactionsAndScripts) {
  EXPECT_EQ(c()({"MULTI"}), Status("OK"));
  EXPECT_EQ(c()({"SAVE"}), Error("ERR Command not allowed inside a transaction"));
  EXPECT_EQ(c()({"DISCARD"}), Status("OK"));
  Reply r = c()({"EVAL", "return redis.call('save')", "0"});
  EXPECT_EQ(r.str.rfind("ERR This Redis command is not allowed from script", 0), 0u) << r;
}

TEST_F(PersistenceTest, BgsaveWritesInTheBackground) {
  ASSERT_EQ(c()({"CONFIG", "SET", "dbfilename", "bg.rdb"}), Status("OK"));
  ASSERT_EQ(c()({"SET", "x", "10"}), Status("OK"));
  std::string saves = Info("rdb_saves");
  EXPECT_EQ(c()({"BGSAVE"}), Status("Background saving started"));
  ASSERT_TRUE(Eventually([&] { return Info("rdb_bgsave_in_progress") == "0"; }));
  EXPECT_EQ(Info("rdb_last_bgsave_status"), "ok");
  EXPECT_EQ(std::stoll(Info("rdb_saves")), std::stoll(saves) + 1);
  EXPECT_EQ(ReadFile(dir_ + "/bg.rdb").substr(0, 9), "REDIS0010");
  EXPECT_EQ(c()({"DEL", "x"}), Int(1));
  EXPECT_EQ(c()({"DEBUG", "RELOAD", "NOSAVE"}), Status("OK"));
  EXPECT_EQ(c()({"GET", "x"}), Bulk("10"));
  // In a transaction the save is only scheduled: it starts after.
  EXPECT_EQ(c()({"MULTI"}), Status("OK"));
  EXPECT_EQ(c()({"BGSAVE"}), Status("QUEUED"));
  EXPECT_EQ(c()({"EXEC"}), Array({Status("Background saving scheduled")}));
  ASSERT_TRUE(Eventually([&] { return std::stoll(Info("rdb_saves")) == std::stoll(saves) + 2; }));
  ASSERT_TRUE(Eventually([&] { return Info("rdb_bgsave_in_progress") == "0"; }));
  EXPECT_EQ(c()({"BGSAVE", "x"}), Error("ERR syntax error"));
  EXPECT_EQ(c()({"BGSAVE", "SCHEDULE", "x"}), Error("ERR syntax error"));
  ASSERT_EQ(c()({"CONFIG", "SET", "dbfilename", "dump.rdb"}), Status("OK"));
}

TEST_F(PersistenceTest, FlushallSavesWhenSavePointsAreSet) {
  ASSERT_EQ(c()({"CONFIG", "SET", "save", "3600 1"}), Status("OK"));
  ASSERT_EQ(c()({"SET", "k", "v"}), Status("OK"));
  EXPECT_EQ(c()({"FLUSHALL"}), Status("OK"));
  EXPECT_EQ(Info("rdb_changes_since_last_save"), "0");
  ASSERT_EQ(c()({"CONFIG", "SET", "save", ""}), Status("OK"));
  ASSERT_EQ(c()({"SET", "k", "v"}), Status("OK"));
  EXPECT_EQ(c()({"FLUSHALL"}), Status("OK"));
  EXPECT_NE(Info("rdb_changes_since_last_save"), "0");
}

TEST_F(PersistenceTest, DirAndDbfilenameAreChecked) {
  EXPECT_EQ(c()({"CONFIG", "GET", "dir"}), Array({Bulk("dir"), Bulk(dir_)}));
  EXPECT_EQ(c()({"CONFIG", "SET", "dir", "/no/such/dir"}),
            Error("ERR CONFIG SET failed (possibly related to argument 'dir') - No such file or "
                  "directory"));
  EXPECT_EQ(c()({"CONFIG", "SET", "dbfilename", "a/b.rdb"}),
            Error("ERR CONFIG SET failed (possibly related to argument 'dbfilename') - dbfilename "
                  "can't be a path, just a filename"));
  EXPECT_EQ(c()({"CONFIG", "SET", "dir", dir_}), Status("OK"));
}

// Without enable-protected-configs, dir and dbfilename cannot change at runtime.
class ProtectedConfigTest : public ConformanceTest {};

TEST_F(ProtectedConfigTest, DirAndDbfilenameAreProtected) {
  EXPECT_EQ(c()({"CONFIG", "SET", "dir", "/tmp"}),
            Error("ERR CONFIG SET failed (possibly related to argument 'dir') - can't set "
                  "protected config"));
  EXPECT_EQ(c()({"CONFIG", "SET", "dbfilename", "x.rdb"}),
            Error("ERR CONFIG SET failed (possibly related to argument 'dbfilename') - can't set "
                  "protected config"));
  EXPECT_EQ(c()({"CONFIG", "GET", "enable-protected-configs"}),
            Array({Bulk("enable-protected-configs"), Bulk("no")}));
}

}  // namespace
}  // namespace redlab::conformance
