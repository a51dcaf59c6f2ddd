// Functions and replication: FUNCTION LOAD, DELETE, FLUSH and RESTORE reach replicas as the
// commands they were, a function's writes as their effects; a read-only replica refuses to load
// libraries and to run functions that may write; a replica syncing from scratch gets the master's
// libraries in the snapshot, between redlab and real Redis in both directions.
#include <memory>

#include "conformance/function_util.h"
#include "conformance/harness/topology.h"

namespace redlab::conformance {
namespace {

const Reply kReadonly = Error("READONLY You can't write against a read only replica.");

// FUNCTION LIST's entry for a library of one no-writes function.
Reply NoWritesEntry(std::string_view lib, std::string_view fn) {
  return Array({Bulk("library_name"), Bulk(std::string(lib)), Bulk("engine"), Bulk("LUA"),
                Bulk("functions"),
                Array({Array({Bulk("name"), Bulk(std::string(fn)), Bulk("description"), Nil(),
                              Bulk("flags"), Array({Status("no-writes")})})})});
}

class FunctionReplicationTest : public ReplicatedTest {
 protected:
  static void SetUpTestSuite() {
    // Real Redis: a new replica's full sync at once rather than after the diskless delay.
    StartSuiteTopology({.config = {{"repl-diskless-sync-delay", "0"}}});
  }
  void SetUp() override {
    ASSERT_EQ(topology_->ConnectMaster()({"FUNCTION", "FLUSH"}), Status("OK"));
    ReplicatedTest::SetUp();
  }
};

TEST_F(FunctionReplicationTest, FunctionCommandsReplicate) {
  Client m = topology_->ConnectMaster();
  Client r = topology_->ConnectReplica(0);
  ASSERT_EQ(m.Call({"FUNCTION", "LOAD", NoWritesFunctionCode("test", "test", "return 'hello'")}),
            Bulk("test"));
  ASSERT_TRUE(topology_->WaitForSync());
  EXPECT_EQ(r({"FUNCTION", "LIST"}), Array({NoWritesEntry("test", "test")}));
  EXPECT_EQ(r({"FCALL", "test", "0"}), Bulk("hello"));
  EXPECT_EQ(r({"FCALL_RO", "test", "0"}), Bulk("hello"));

  std::string dump = m({"FUNCTION", "DUMP"}).str;
  ASSERT_EQ(m({"FUNCTION", "DELETE", "test"}), Status("OK"));
  ASSERT_TRUE(topology_->WaitForSync());
  EXPECT_EQ(r({"FUNCTION", "LIST"}), Array({}));

  ASSERT_EQ(m.Call({"FUNCTION", "RESTORE", dump}), Status("OK"));
  ASSERT_TRUE(topology_->WaitForSync());
  EXPECT_EQ(r({"FUNCTION", "LIST"}), Array({NoWritesEntry("test", "test")}));

  ASSERT_EQ(m({"FUNCTION", "FLUSH"}), Status("OK"));
  ASSERT_TRUE(topology_->WaitForSync());
  EXPECT_EQ(r({"FUNCTION", "LIST"}), Array({}));
}

TEST_F(FunctionReplicationTest, FunctionEffectsReplicate) {
  Client m = topology_->ConnectMaster();
  Client r = topology_->ConnectReplica(0);
  ASSERT_EQ(m.Call({"FUNCTION", "LOAD",
                    Library("lib",
                            "redis.register_function('writes', function(keys, args)\n"
                            "  redis.call('set', keys[1], args[1])\n"
                            "  redis.call('incr', 'n')\n"
                            "  redis.set_repl(redis.REPL_NONE)\n"
                            "  redis.call('set', 'unreplicated', '1')\n"
                            "  return redis.call('get', keys[1])\n"
                            "end)")}),
            Bulk("lib"));
  EXPECT_EQ(m({"FCALL", "writes", "1", "x", "v"}), Bulk("v"));
  ASSERT_TRUE(topology_->WaitForSync());
  EXPECT_EQ(r({"GET", "x"}), Bulk("v"));
  EXPECT_EQ(r({"GET", "n"}), Bulk("1"));
  EXPECT_EQ(r({"GET", "unreplicated"}), Nil());
  EXPECT_EQ(m({"GET", "unreplicated"}), Bulk("1"));
}

TEST_F(FunctionReplicationTest, ReadOnlyReplicaRefusesWrites) {
  Client m = topology_->ConnectMaster();
  Client r = topology_->ConnectReplica(0);
  ASSERT_EQ(m.Call({"FUNCTION", "LOAD",
                    FunctionCode("test", "test", "return redis.call('set', 'x', '1')")}),
            Bulk("test"));
  ASSERT_TRUE(topology_->WaitForSync());
  EXPECT_EQ(r.Call({"FUNCTION", "LOAD", FunctionCode("other", "other", "return 1")}), kReadonly);
  EXPECT_EQ(r({"FUNCTION", "DELETE", "test"}), kReadonly);
  EXPECT_EQ(r({"FUNCTION", "FLUSH"}), kReadonly);
  // A function that may write is a write command for the replica, even under FCALL_RO.
  EXPECT_EQ(r({"FCALL", "test", "0"}), kReadonly);
  EXPECT_EQ(r({"FCALL_RO", "test", "0"}), kReadonly);
  EXPECT_EQ(r({"FUNCTION", "LIST"}), Array({ListEntry("test", {"test"})}));
  // EVAL scripts are judged by their shebang the same way; without one, by what they call.
  EXPECT_EQ(r({"EVAL", "#!lua\nreturn 1", "0"}), kReadonly);
  EXPECT_EQ(r({"EVAL", "#!lua flags=no-writes\nreturn 1", "0"}), Int(1));
  EXPECT_EQ(r({"EVAL", "return 1", "0"}), Int(1));
  EXPECT_EQ(r({"EVAL", "return redis.call('set', 'x', '2')", "0"}).str.substr(0, 54),
            "READONLY You can't write against a read only replica. ");
}

TEST_F(FunctionReplicationTest, NewReplicaGetsTheLibrariesInTheSnapshot) {
  Client m = topology_->ConnectMaster();
  ASSERT_EQ(m.Call({"FUNCTION", "LOAD", NoWritesFunctionCode("test", "test", "return 'hello'")}),
            Bulk("test"));
  PrivateDir dir;
  ServerOptions options;
  options.config = {{"dir", dir.path()}};
  std::unique_ptr<Server> fresh = StartServer(options);
  Client f(fresh->port());
  ASSERT_EQ(f({"FUNCTION", "FLUSH"}), Status("OK"));
  // Its own libraries go: the master's replace them.
  ASSERT_EQ(f.Call({"FUNCTION", "LOAD", FunctionCode("mine", "mine", "return 1")}), Bulk("mine"));
  ASSERT_EQ(f({"REPLICAOF", "127.0.0.1", std::to_string(topology_->master_port())}), Status("OK"));
  EXPECT_TRUE(Eventually(
      [&] {
        return f({"FUNCTION", "LIST"}) == Array({NoWritesEntry("test", "test")});
      },
      std::chrono::seconds(10)));
  EXPECT_EQ(f({"FCALL", "test", "0"}), Bulk("hello"));
  EXPECT_EQ(f({"FCALL", "mine", "0"}), Error("ERR Function not found"));
  f({"REPLICAOF", "NO", "ONE"});
  fresh->Stop();
}

// Between the two implementations: the snapshot of either carries its libraries to a replica of
// the other, and a FUNCTION DUMP of either restores on the other.
class FunctionInteropTest : public ::testing::Test {
 protected:
  void SetUp() override {
    redis_ = StartServerOf(Target::kRedis,
                           {.config = {{"repl-diskless-sync-delay", "0"}, {"dir", dir_.path()}}});
    redlab_ = StartServerOf(Target::kEmbedded);
  }
  void TearDown() override {
    redlab_->Stop();
    redis_->Stop();
  }
  PrivateDir dir_;
  std::unique_ptr<Server> redis_;
  std::unique_ptr<Server> redlab_;
};

// `master` (listening on `master_port`) loads library "test" (function test, returning 'hi');
// `replica` becomes its replica, gets the library and runs the function, then is a master again.
void ExpectALibraryReachesTheReplica(Client& master, int master_port, Client& replica) {
  ASSERT_EQ(master.Call({"FUNCTION", "LOAD", NoWritesFunctionCode("test", "test", "return 'hi'")}),
            Bulk("test"));
  ASSERT_EQ(replica({"REPLICAOF", "127.0.0.1", std::to_string(master_port)}), Status("OK"));
  EXPECT_TRUE(Eventually(
      [&] {
        return replica({"FUNCTION", "LIST"}) == Array({NoWritesEntry("test", "test")});
      },
      std::chrono::seconds(10)));
  EXPECT_EQ(replica({"FCALL", "test", "0"}), Bulk("hi"));
  replica({"REPLICAOF", "NO", "ONE"});
}

TEST_F(FunctionInteropTest, RedlabReplicaOfRedisMaster) {
  Client redis(redis_->port());
  Client redlab(redlab_->port());
  ExpectALibraryReachesTheReplica(redis, redis_->port(), redlab);
}

TEST_F(FunctionInteropTest, RedisReplicaOfRedlabMaster) {
  Client redis(redis_->port());
  Client redlab(redlab_->port());
  ASSERT_EQ(redlab({"FUNCTION", "FLUSH"}), Status("OK"));
  ExpectALibraryReachesTheReplica(redlab, redlab_->port(), redis);
}

TEST_F(FunctionInteropTest, DumpsAreTheSameAndRestoreOnEither) {
  Client redis(redis_->port());
  Client redlab(redlab_->port());
  ASSERT_EQ(redlab({"FUNCTION", "FLUSH"}), Status("OK"));
  // One library stored as it is, one long enough to be compressed.
  std::string short_code = FunctionCode("short", "s", "return 1");
  std::string long_code = FunctionCode("long", "l", "return '" + std::string(200, 'a') + "'");
  for (const std::string& code : {short_code, long_code}) {
    ASSERT_EQ(redis({"FUNCTION", "FLUSH"}), Status("OK"));
    ASSERT_EQ(redlab({"FUNCTION", "FLUSH"}), Status("OK"));
    ASSERT_EQ(redis.Call({"FUNCTION", "LOAD", code}).type, Reply::Type::kBulk);
    ASSERT_EQ(redlab.Call({"FUNCTION", "LOAD", code}).type, Reply::Type::kBulk);
    std::string from_redis = redis({"FUNCTION", "DUMP"}).str;
    std::string from_redlab = redlab({"FUNCTION", "DUMP"}).str;
    EXPECT_EQ(from_redlab, from_redis);
    ASSERT_EQ(redis.Call({"FUNCTION", "RESTORE", from_redlab, "FLUSH"}), Status("OK"));
    ASSERT_EQ(redlab.Call({"FUNCTION", "RESTORE", from_redis, "FLUSH"}), Status("OK"));
    EXPECT_EQ(redlab({"FUNCTION", "LIST", "WITHCODE"}), redis({"FUNCTION", "LIST", "WITHCODE"}));
  }
}

}  // namespace
}  // namespace redlab::conformance
