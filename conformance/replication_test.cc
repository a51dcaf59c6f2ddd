// Replication, black-box, on a master with two replicas of the current target: every write
// family reaches the replicas as the master has it, WAIT counts and times out as Redis's does,
// lag makes it return 0, replicas are read-only and hide expired keys until the master's DEL,
// INFO replication and ROLE have Redis's shape. Plus the replication commands' errors on a lone
// server.
#include <algorithm>
#include <set>

#include "conformance/harness/fixture.h"
#include "conformance/harness/script.h"
#include "conformance/harness/topology.h"

namespace redlab::conformance {
namespace {

// REPLICAOF 127.0.0.1 `master_port` on `replica`, then waits (up to 20 s) for the link to be up.
::testing::AssertionResult ReplicateFrom(Client& replica, int master_port) {
  Reply ok = replica({"REPLICAOF", "127.0.0.1", std::to_string(master_port)});
  if (!(ok == Status("OK"))) return ::testing::AssertionFailure() << "REPLICAOF: " << ok;
  if (!Eventually([&] { return InfoField(replica, "master_link_status") == "up"; },
                  std::chrono::seconds(20))) {
    return ::testing::AssertionFailure() << "the link to " << master_port << " is not up";
  }
  return ::testing::AssertionSuccess();
}

// A key's type, content (in an order independent of encodings) and whether it has a TTL.
std::string Describe(Client& c, const std::string& key) {
  std::string type = c({"TYPE", key}).str;
  std::string out = type + ":";
  std::vector<std::string> parts;
  if (type == "string") {
    parts.push_back(c({"GET", key}).str);
  } else if (type == "list") {
    for (const Reply& r : c({"LRANGE", key, "0", "-1"}).elements) parts.push_back(r.str);
  } else if (type == "set") {
    for (const Reply& r : c({"SMEMBERS", key}).elements) parts.push_back(r.str);
    std::sort(parts.begin(), parts.end());
  } else if (type == "hash") {
    Reply all = c({"HGETALL", key});
    for (size_t i = 0; i + 1 < all.elements.size(); i += 2) {
      parts.push_back(all.elements[i].str + "=" + all.elements[i + 1].str);
    }
    std::sort(parts.begin(), parts.end());
  } else if (type == "zset") {
    for (const Reply& r : c({"ZRANGE", key, "0", "-1", "WITHSCORES"}).elements)
      parts.push_back(r.str);
  }
  for (const std::string& p : parts) out += p + ",";
  int64_t ttl = c({"PTTL", key}).integer;
  out += ttl > 0 ? " ttl" : " ttl=" + std::to_string(ttl);
  return out;
}

// Every key of databases 0..15 on `c`, described.
std::map<std::string, std::string> Dataset(Client& c) {
  std::map<std::string, std::string> out;
  for (int db = 0; db < 16; ++db) {
    c({"SELECT", std::to_string(db)});
    for (const Reply& k : c({"KEYS", "*"}).elements) {
      out[std::to_string(db) + "/" + k.str] = Describe(c, k.str);
    }
  }
  c({"SELECT", "0"});
  return out;
}

class ReplicationTest : public ReplicatedTest {
 protected:
  static void SetUpTestSuite() { StartSuiteTopology({.replicas = 2}); }
};

TEST_F(ReplicationTest, EveryWriteFamilyReplicates) {
  Client m = topology_->ConnectMaster();
  const std::vector<std::vector<std::string>> writes = {
      // strings, with the rewrites Redis propagates (relative TTLs, INCRBYFLOAT, GETEX)
      {"SET", "s1", "v"},
      {"SET", "s2", "v", "EX", "100"},
      {"SETEX", "s5", "100", "v"},
      {"INCR", "n"},
      {"INCRBY", "n", "41"},
      {"INCRBYFLOAT", "f", "1.5"},
      {"APPEND", "s1", "x"},
      {"SETRANGE", "s1", "0", "Z"},
      {"MSET", "m1", "a", "m2", "b"},
      {"GETDEL", "m2"},
      {"SETNX", "s3", "q"},
      {"GETEX", "s3", "PX", "100000"},
      {"GETSET", "s4", "old"},
      // lists
      {"RPUSH", "l", "a", "b", "c", "d"},
      {"LPOP", "l"},
      {"LMOVE", "l", "l2", "LEFT", "RIGHT"},
      {"LINSERT", "l", "BEFORE", "d", "x"},
      {"LSET", "l", "0", "y"},
      {"LREM", "l", "0", "x"},
      {"LTRIM", "l", "0", "5"},
      {"LPUSH", "l3", "1", "2", "3"},
      {"RPOP", "l3", "2"},
      // sets (SPOP's random choice reaches replicas as the SREM it was)
      {"SADD", "s", "a", "b", "c", "d", "e", "1"},
      {"SPOP", "s"},
      {"SPOP", "s", "2"},
      {"SMOVE", "s", "t", "a"},
      {"SADD", "t", "a", "b", "z"},
      {"SINTERSTORE", "si", "s", "t"},
      {"SUNIONSTORE", "su", "s", "t"},
      {"SREM", "t", "z"},
      {"SADD", "ints", "1", "2", "3"},
      // hashes
      {"HSET", "h", "f1", "1", "f2", "2"},
      {"HINCRBY", "h", "f1", "5"},
      {"HINCRBYFLOAT", "h", "f2", "0.25"},
      {"HSETNX", "h", "f3", "x"},
      {"HDEL", "h", "f3"},
      {"HMSET", "h2", "a", "b"},
      // keys
      {"RENAME", "s4", "s6"},
      {"EXPIRE", "n", "100"},
      {"PEXPIRE", "f", "100000"},
      {"PERSIST", "s2"},
      {"DEL", "m1"},
      {"RENAMENX", "s6", "s7"},
      {"EXPIREAT", "s7", "4102444800"},
      // sorted sets
      {"ZADD", "z", "1", "a", "2.5", "b", "-3", "c"},
      {"ZINCRBY", "z", "10", "a"},
      {"ZPOPMIN", "z"},
      {"ZUNIONSTORE", "zu", "2", "z", "ints"},
      {"ZREMRANGEBYSCORE", "zu", "-inf", "1"},
      // a script: its writes reach replicas as effects
      {"EVAL",
       "redis.call('HINCRBY', KEYS[1], 'n', 2) return redis.call('PEXPIRE', KEYS[1], 60000)", "1",
       "scripted"},
  };
  for (const auto& w : writes) {
    Reply r = m.Call(w);
    ASSERT_FALSE(r.is_error()) << w[0] << ": " << r;
  }
  // A transaction, and writes in other databases.
  ASSERT_EQ(m({"MULTI"}), Status("OK"));
  m({"SET", "t1", "1"});
  m({"INCR", "t1"});
  m({"SADD", "t2", "x"});
  ASSERT_EQ(m({"EXEC"}).elements.size(), 3u);
  ASSERT_EQ(m({"SELECT", "5"}), Status("OK"));
  ASSERT_EQ(m({"SET", "in5", "v"}), Status("OK"));
  ASSERT_EQ(m({"SELECT", "0"}), Status("OK"));
  ASSERT_EQ(m({"WAIT", "2", "5000"}), Int(2));

  std::map<std::string, std::string> expected = Dataset(m);
  ASSERT_GT(expected.size(), 15u);  // (set algebra on random SPOPs may make no key)
  for (size_t i = 0; i < topology_->num_replicas(); ++i) {
    Client r = topology_->ConnectReplica(i);
    EXPECT_EQ(Dataset(r), expected) << "replica " << i;
  }
}

TEST_F(ReplicationTest, FullSyncCarriesEveryType) {
  Client m = topology_->ConnectMaster();
  m({"SET", "s", "v", "PX", "100000"});
  m({"RPUSH", "l", "a", "b"});
  m({"SADD", "set", "x", "1"});
  m({"SADD", "ints", "1", "2", "3"});
  m({"HSET", "h", "f", "v"});
  m({"ZADD", "z", "1.5", "a", "-2", "b"});
  m({"SELECT", "3"});
  m({"SET", "in3", "v"});
  m({"SELECT", "0"});
  std::map<std::string, std::string> expected = Dataset(m);
  // A fresh server of the same target becomes a replica: it loads the master's snapshot.
  auto fresh = StartServer();
  Client r(fresh->port());
  ASSERT_TRUE(ReplicateFrom(r, topology_->master_port()));
  EXPECT_EQ(Dataset(r), expected);
  r({"REPLICAOF", "NO", "ONE"});
}

TEST_F(ReplicationTest, FlushAndDeletionsReplicate) {
  Client m = topology_->ConnectMaster();
  m({"SET", "a", "1"});
  m({"SELECT", "2"});
  m({"SET", "b", "1"});
  m({"FLUSHDB"});
  m({"SELECT", "0"});
  m({"DEL", "a"});
  ASSERT_EQ(m({"WAIT", "2", "5000"}), Int(2));
  for (size_t i = 0; i < topology_->num_replicas(); ++i) {
    Client r = topology_->ConnectReplica(i);
    EXPECT_EQ(r({"DBSIZE"}), Int(0));
    r({"SELECT", "2"});
    EXPECT_EQ(r({"DBSIZE"}), Int(0));
  }
}

TEST_F(ReplicationTest, WaitCountsReplicasThatAcknowledged) {
  Client m = topology_->ConnectMaster();
  ASSERT_EQ(m({"SET", "k", "v"}), Status("OK"));
  EXPECT_EQ(m({"WAIT", "2", "5000"}), Int(2));
  // Asking for more replicas than exist waits for the timeout, then answers how many there are.
  EXPECT_EQ(m({"WAIT", "3", "50"}), Int(2));
  // Zero replicas asked for: the count at once.
  EXPECT_EQ(m({"WAIT", "0", "0"}), Int(2));
  // A client that never wrote waits for nothing.
  Client other = topology_->ConnectMaster();
  EXPECT_EQ(other({"WAIT", "2", "0"}), Int(2));
}

TEST_F(ReplicationTest, WaitArgumentErrors) {
  Client m = topology_->ConnectMaster();
  ExpectReplies(m,
                {
                    {{"WAIT", "x", "1"}, Error("ERR value is not an integer or out of range")},
                    {{"WAIT", "1", "x"}, Error("ERR timeout is not an integer or out of range")},
                    {{"WAIT", "1", "1.5"}, Error("ERR timeout is not an integer or out of range")},
                    {{"WAIT", "1", "-1"}, Error("ERR timeout is negative")},
                    {{"WAIT", "1"}, Error("ERR wrong number of arguments for 'wait' command")},
                });
}

TEST_F(ReplicationTest, WaitWithTimeoutZeroWaitsUntilAcked) {
  topology_->HoldReplication();
  // WAIT waits for the caller's own last write.
  Client waiter(topology_->master_port(), std::chrono::milliseconds(200));
  ASSERT_EQ(waiter({"SET", "k", "v"}), Status("OK"));
  waiter.SendCommand({"WAIT", "1", "0"});
  EXPECT_THROW(waiter.Read(), std::runtime_error);  // held: no acknowledgement, no reply
  topology_->ReleaseReplication();
  Reply r;
  ASSERT_TRUE(Eventually([&] {
    try {
      r = waiter.Read();
      return true;
    } catch (const std::runtime_error&) {
      return false;
    }
  }));
  ASSERT_EQ(r.type, Reply::Type::kInteger);
  EXPECT_GE(r.integer, 1);
}

TEST_F(ReplicationTest, LagMakesWaitReturnZero) {
  Client m = topology_->ConnectMaster();
  topology_->DelayReplication(500);
  ASSERT_EQ(m({"SET", "k", "v"}), Status("OK"));
  EXPECT_EQ(m({"WAIT", "1", "50"}), Int(0));
  topology_->DelayReplication(0);
  EXPECT_EQ(m({"WAIT", "2", "5000"}), Int(2));
  Client r = topology_->ConnectReplica(0);
  EXPECT_EQ(r({"GET", "k"}), Bulk("v"));
}

TEST_F(ReplicationTest, HeldStreamMakesWaitTimeOutWithZero) {
  Client m = topology_->ConnectMaster();
  topology_->HoldReplication();
  ASSERT_EQ(m({"SET", "k", "v"}), Status("OK"));
  EXPECT_EQ(m({"WAIT", "1", "100"}), Int(0));
  Client r = topology_->ConnectReplica(0);
  EXPECT_EQ(r({"GET", "k"}), Nil());
  topology_->ReleaseReplication();
  EXPECT_EQ(m({"WAIT", "2", "5000"}), Int(2));
  EXPECT_EQ(r({"GET", "k"}), Bulk("v"));
}

TEST_F(ReplicationTest, ReplicasAreReadOnly) {
  Client r = topology_->ConnectReplica(0);
  EXPECT_EQ(r({"SET", "k", "v"}), Error("READONLY You can't write against a read only replica."));
  EXPECT_EQ(r({"DEL", "k"}), Error("READONLY You can't write against a read only replica."));
  EXPECT_EQ(r({"MULTI"}), Status("OK"));
  EXPECT_EQ(r({"SET", "k", "v"}), Error("READONLY You can't write against a read only replica."));
  EXPECT_EQ(r({"EXEC"}), Error("EXECABORT Transaction discarded because of previous errors."));
  EXPECT_EQ(r({"GET", "k"}), Nil());
  EXPECT_EQ(r({"WAIT", "0", "0"}),
            Error("ERR WAIT cannot be used with replica instances. Please also note that since "
                  "Redis 4.0 if a replica is configured to be writable (which is not the default) "
                  "writes to replicas are just local and are not propagated."));
}

TEST_F(ReplicationTest, ReplicaHidesExpiredKeysUntilTheMastersDel) {
  Client m = topology_->ConnectMaster();
  ASSERT_EQ(m({"SET", "k", "v", "PX", "600"}), Status("OK"));
  ASSERT_EQ(m({"WAIT", "2", "5000"}), Int(2));
  topology_->HoldReplication();  // the master's DEL will not arrive
  Client r = topology_->ConnectReplica(0);
  ASSERT_TRUE(Eventually([&] { return r({"GET", "k"}) == Nil(); }));
  EXPECT_EQ(r({"EXISTS", "k"}), Int(0));
  EXPECT_EQ(r({"DBSIZE"}), Int(1));  // still there: only the master deletes
  topology_->ReleaseReplication();
  EXPECT_TRUE(Eventually([&] { return r({"DBSIZE"}) == Int(0); }));
}

// replica-read-only no: a write on the replica meets a logically expired key as missing and
// deletes it first (Redis's LOOKUP_WRITE), so the key is written new, once; reads still only hide.
TEST_F(ReplicationTest, AWritableReplicaWritesOverExpiredKeys) {
  Client m = topology_->ConnectMaster();
  ASSERT_EQ(m({"SET", "k1", "5", "PX", "600"}), Status("OK"));
  ASSERT_EQ(m({"SET", "k2", "5", "PX", "600"}), Status("OK"));
  ASSERT_EQ(m({"WAIT", "2", "5000"}), Int(2));
  topology_->HoldReplication();  // the master's DELs will not arrive meanwhile
  Client r = topology_->ConnectReplica(0);
  ASSERT_TRUE(Eventually([&] { return r({"EXISTS", "k1", "k2"}) == Int(0); }));
  EXPECT_EQ(r({"DBSIZE"}), Int(2));
  ASSERT_EQ(r({"CONFIG", "SET", "replica-read-only", "no"}), Status("OK"));
  EXPECT_EQ(r({"INCR", "k1"}), Int(1));
  EXPECT_EQ(r({"TTL", "k1"}), Int(-1));
  EXPECT_EQ(r({"GET", "k2"}), Nil());
  EXPECT_EQ(r({"DBSIZE"}), Int(2));
  EXPECT_EQ(r({"DEL", "k1"}), Int(1));
  EXPECT_EQ(r({"DBSIZE"}), Int(1));
  ASSERT_EQ(r({"CONFIG", "SET", "replica-read-only", "yes"}), Status("OK"));
  topology_->ReleaseReplication();
  EXPECT_TRUE(Eventually([&] { return r({"DBSIZE"}) == Int(0); }));
}

TEST_F(ReplicationTest, InfoReplicationOnBothSides) {
  Client m = topology_->ConnectMaster();
  EXPECT_EQ(InfoField(m, "role"), "master");
  EXPECT_EQ(InfoField(m, "connected_slaves"), "2");
  std::set<std::string> ports;
  for (const char* field : {"slave0", "slave1"}) {
    std::string line = InfoField(m, field);
    ASSERT_EQ(line.rfind("ip=127.0.0.1,port=", 0), 0u) << line;
    ports.insert(line.substr(18, line.find(',', 18) - 18));
    EXPECT_NE(line.find(",state=online,offset="), std::string::npos) << line;
    EXPECT_NE(line.find(",lag="), std::string::npos) << line;
  }
  EXPECT_EQ(ports, (std::set<std::string>{std::to_string(topology_->replica_port(0)),
                                          std::to_string(topology_->replica_port(1))}));
  EXPECT_EQ(InfoField(m, "master_failover_state"), "no-failover");
  EXPECT_EQ(InfoField(m, "repl_backlog_active"), "1");
  EXPECT_EQ(InfoField(m, "master_replid").size(), 40u);

  Client r = topology_->ConnectReplica(0);
  EXPECT_EQ(InfoField(r, "role"), "slave");
  EXPECT_EQ(InfoField(r, "master_host"), "127.0.0.1");
  EXPECT_EQ(InfoField(r, "master_link_status"), "up");
  EXPECT_EQ(InfoField(r, "master_sync_in_progress"), "0");
  EXPECT_EQ(InfoField(r, "slave_read_only"), "1");
  // The replica shares the master's history.
  EXPECT_EQ(InfoField(r, "master_replid"), InfoField(m, "master_replid"));
}

TEST_F(ReplicationTest, RoleOnMasterAndReplica) {
  Client m = topology_->ConnectMaster();
  m({"SET", "k", "v"});
  ASSERT_EQ(m({"WAIT", "2", "5000"}), Int(2));
  Reply role = m({"ROLE"});
  ASSERT_EQ(role.elements.size(), 3u) << role;
  EXPECT_EQ(role.elements[0], Bulk("master"));
  EXPECT_EQ(role.elements[1].type, Reply::Type::kInteger);
  ASSERT_EQ(role.elements[2].elements.size(), 2u) << role;
  std::set<std::string> ports;
  for (const Reply& replica : role.elements[2].elements) {
    ASSERT_EQ(replica.elements.size(), 3u);
    EXPECT_EQ(replica.elements[0], Bulk("127.0.0.1"));
    ports.insert(replica.elements[1].str);  // a bulk string, as in Redis
    EXPECT_EQ(replica.elements[2].type, Reply::Type::kBulk);
  }
  EXPECT_EQ(ports, (std::set<std::string>{std::to_string(topology_->replica_port(0)),
                                          std::to_string(topology_->replica_port(1))}));
  Client r = topology_->ConnectReplica(0);
  Reply rrole = r({"ROLE"});
  ASSERT_EQ(rrole.elements.size(), 5u) << rrole;
  EXPECT_EQ(rrole.elements[0], Bulk("slave"));
  EXPECT_EQ(rrole.elements[1], Bulk("127.0.0.1"));
  EXPECT_EQ(rrole.elements[2].type, Reply::Type::kInteger);
  EXPECT_EQ(rrole.elements[3], Bulk("connected"));
  EXPECT_EQ(rrole.elements[4].type, Reply::Type::kInteger);
}

TEST_F(ReplicationTest, ReplicasShowInClientListAsReplicas) {
  Client m = topology_->ConnectMaster();
  std::string replicas = m({"CLIENT", "LIST", "TYPE", "replica"}).str;
  EXPECT_EQ(std::count(replicas.begin(), replicas.end(), '\n'), 2) << replicas;
  EXPECT_NE(replicas.find("flags=S"), std::string::npos) << replicas;
  Client r = topology_->ConnectReplica(0);
  std::string master = r({"CLIENT", "LIST", "TYPE", "master"}).str;
  EXPECT_EQ(std::count(master.begin(), master.end(), '\n'), 1) << master;
  EXPECT_NE(master.find("flags=M"), std::string::npos) << master;
}

// The replication commands on a lone server.
class ReplicationCommandsTest : public ConformanceTest {};

TEST_F(ReplicationCommandsTest, RoleOfALoneMaster) {
  Reply role = c()({"ROLE"});
  ASSERT_EQ(role.elements.size(), 3u);
  EXPECT_EQ(role.elements[0], Bulk("master"));
  EXPECT_EQ(role.elements[2], Array({}));
  EXPECT_EQ(c()({"ROLE", "x"}), Error("ERR wrong number of arguments for 'role' command"));
}

TEST_F(ReplicationCommandsTest, ReplicaofArgumentErrors) {
  ExpectReplies(
      c(), {
               {{"REPLICAOF", "a"}, Error("ERR wrong number of arguments for 'replicaof' command")},
               {{"REPLICAOF", "127.0.0.1", "abc"}, Error("ERR Invalid master port")},
               {{"REPLICAOF", "127.0.0.1", "-1"}, Error("ERR Invalid master port")},
               {{"REPLICAOF", "127.0.0.1", "65536"}, Error("ERR Invalid master port")},
               {{"REPLICAOF", "no", "two"}, Error("ERR Invalid master port")},
               // Already a master: nothing to do.
               {{"REPLICAOF", "NO", "ONE"}, Status("OK")},
               {{"SLAVEOF", "no", "one"}, Status("OK")},
           });
}

TEST_F(ReplicationCommandsTest, ReplconfOptions) {
  EXPECT_EQ(c()({"REPLCONF"}), Status("OK"));
  EXPECT_EQ(c()({"REPLCONF", "a"}), Error("ERR syntax error"));
  EXPECT_EQ(c()({"REPLCONF", "foo", "bar"}), Error("ERR Unrecognized REPLCONF option: foo"));
  EXPECT_EQ(c()({"REPLCONF", "listening-port", "x"}),
            Error("ERR value is not an integer or out of range"));
  EXPECT_EQ(c()({"REPLCONF", "listening-port", "7000", "capa", "eof", "capa", "psync2"}),
            Status("OK"));
  EXPECT_EQ(c()({"REPLCONF", "capa", "unknown"}), Status("OK"));
  EXPECT_EQ(c()({"REPLCONF", "ip-address", "10.0.0.1"}), Status("OK"));
  // ACK and GETACK from a client that is no replica get no reply at all.
  c().SendCommand({"REPLCONF", "ACK", "5"});
  c().SendCommand({"REPLCONF", "GETACK", "*"});
  EXPECT_EQ(c()({"PING"}), Status("PONG"));
}

TEST_F(ReplicationCommandsTest, PsyncArgumentErrors) {
  ExpectReplies(c(),
                {
                    {{"PSYNC", "?"}, Error("ERR wrong number of arguments for 'psync' command")},
                    {{"SYNC", "x"}, Error("ERR wrong number of arguments for 'sync' command")},
                    {{"MULTI"}, Status("OK")},
                    {{"PSYNC", "?", "-1"}, Error("ERR Command not allowed inside a transaction")},
                    {{"DISCARD"}, Status("OK")},
                });
}

TEST_F(ReplicationCommandsTest, FailoverErrorsOnALoneMaster) {
  ExpectReplies(
      c(),
      {
          {{"FAILOVER", "ABORT"}, Error("ERR No failover in progress.")},
          {{"FAILOVER", "TO"}, Error("ERR syntax error")},
          {{"FAILOVER", "foo"}, Error("ERR syntax error")},
          {{"FAILOVER", "ABORT", "TIMEOUT", "10"}, Error("ERR syntax error")},
          {{"FAILOVER", "TIMEOUT", "0"}, Error("ERR FAILOVER timeout must be greater than 0")},
          {{"FAILOVER", "TIMEOUT", "abc"}, Error("ERR value is not an integer or out of range")},
          {{"FAILOVER", "TO", "127.0.0.1", "x"},
           Error("ERR value is not an integer or out of range")},
          {{"FAILOVER"}, Error("ERR FAILOVER requires connected replicas.")},
      });
  EXPECT_EQ(InfoField(c(), "master_failover_state"), "no-failover");
}

// A server made a replica of a master that is not there: it keeps trying, refuses writes and
// WAIT, and comes back as a master with REPLICAOF NO ONE.
TEST(ReplicaofTest, ReplicaOfAnUnreachableMasterAndBack) {
  std::unique_ptr<Server> server = StartServer();
  Client c(server->port());
  int nowhere = FreePort();
  ASSERT_EQ(c({"SET", "k", "v"}), Status("OK"));
  ASSERT_EQ(c({"REPLICAOF", "127.0.0.1", std::to_string(nowhere)}), Status("OK"));
  EXPECT_EQ(c({"REPLICAOF", "127.0.0.1", std::to_string(nowhere)}),
            Status("OK Already connected to specified master"));
  Reply role = c({"ROLE"});
  ASSERT_EQ(role.elements.size(), 5u) << role;
  EXPECT_EQ(role.elements[0], Bulk("slave"));
  EXPECT_EQ(role.elements[2], Int(nowhere));
  EXPECT_TRUE(role.elements[3] == Bulk("connect") || role.elements[3] == Bulk("connecting"))
      << role;
  EXPECT_EQ(role.elements[4], Int(-1));
  EXPECT_EQ(InfoField(c, "master_link_status"), "down");
  EXPECT_EQ(c({"GET", "k"}), Bulk("v"));  // stale data is served (replica-serve-stale-data yes)
  EXPECT_EQ(c({"SET", "k", "w"}), Error("READONLY You can't write against a read only replica."));
  EXPECT_EQ(c({"CONFIG", "SET", "replica-serve-stale-data", "no"}), Status("OK"));
  EXPECT_EQ(c({"GET", "k"}),
            Error("MASTERDOWN Link with MASTER is down and replica-serve-stale-data is set to "
                  "'no'."));
  EXPECT_EQ(c({"PING"}), Error("MASTERDOWN Link with MASTER is down and replica-serve-stale-data "
                               "is set to 'no'."));
  EXPECT_FALSE(c({"INFO", "server"}).is_error());  // INFO may run on stale data
  EXPECT_EQ(c({"CONFIG", "SET", "replica-serve-stale-data", "yes"}), Status("OK"));
  EXPECT_EQ(c({"FAILOVER"}), Error("ERR FAILOVER is not valid when server is a replica."));
  EXPECT_EQ(c({"REPLICAOF", "NO", "ONE"}), Status("OK"));
  EXPECT_EQ(c({"ROLE"}).elements.at(0), Bulk("master"));
  EXPECT_EQ(c({"SET", "k", "w"}), Status("OK"));
  server->Stop();
}

// bind-source-addr: a replica connects to its master from that address, which the master lists
// as the replica's ip.
TEST(ReplicaofTest, BindSourceAddrIsTheAddressTheReplicaConnectsFrom) {
  // 127.0.0.2 is no loopback address to protected mode: the master lets it in.
  std::unique_ptr<Server> master =
      StartServer({.config = {{"protected-mode", "no"}, {"repl-diskless-sync-delay", "0"}}});
  std::unique_ptr<Server> replica = StartServer({.config = {{"bind-source-addr", "127.0.0.2"}}});
  Client m(master->port());
  Client r(replica->port());
  ASSERT_TRUE(ReplicateFrom(r, master->port()));
  std::string slave0 = InfoField(m, "slave0");
  EXPECT_EQ(slave0.rfind("ip=127.0.0.2,", 0), 0u) << slave0;
  EXPECT_EQ(r({"REPLICAOF", "NO", "ONE"}), Status("OK"));
}

// A master (its snapshot sent at once, no PINGs in its stream) and a fresh server made its
// replica, for the tests of one replica's behaviour; the replica lets go of it afterwards.
class ReplicaPairTest : public ::testing::Test {
 protected:
  void SetUp() override {
    master_server_ = StartServer({.config = {{"repl-diskless-sync-delay", "0"}}});
    replica_server_ = StartServer();
    master_.emplace(master_server_->port());
    replica_.emplace(replica_server_->port());
    ASSERT_EQ(master()({"CONFIG", "SET", "repl-ping-replica-period", "3600"}), Status("OK"));
    ASSERT_TRUE(ReplicateFrom(replica(), master_server_->port()));
  }
  Client& master() { return *master_; }
  Client& replica() { return *replica_; }

 private:
  std::unique_ptr<Server> master_server_, replica_server_;
  std::optional<Client> master_, replica_;
};

// CLIENT PAUSE WRITE on a replica holds its master's stream too: what arrives is read
// (slave_read_repl_offset) but not applied (slave_repl_offset) until the pause ends.
TEST_F(ReplicaPairTest, APausedReplicaReadsItsMastersStreamButAppliesItAfterThePause) {
  Client& m = master();
  Client& r = replica();
  ASSERT_EQ(m({"SET", "foo", "bar"}), Status("OK"));
  int64_t before = InfoNumber(m, "replication", "master_repl_offset");
  ASSERT_TRUE(Eventually(
      [&] { return InfoNumber(r, "replication", "slave_repl_offset") == before; }));

  ASSERT_EQ(r({"CLIENT", "PAUSE", "100000", "WRITE"}), Status("OK"));
  ASSERT_EQ(m({"SET", "foo2", "bar2"}), Status("OK"));
  ASSERT_EQ(m({"SET", "foo3", "bar3"}), Status("OK"));
  int64_t after = InfoNumber(m, "replication", "master_repl_offset");
  ASSERT_TRUE(Eventually(
      [&] { return InfoNumber(r, "replication", "slave_read_repl_offset") == after; }));
  EXPECT_EQ(InfoNumber(r, "replication", "slave_repl_offset"), before);
  EXPECT_EQ(r({"GET", "foo2"}), Nil());

  ASSERT_EQ(r({"CLIENT", "UNPAUSE"}), Status("OK"));
  EXPECT_TRUE(Eventually(
      [&] { return InfoNumber(r, "replication", "slave_repl_offset") == after; }));
  EXPECT_EQ(r({"GET", "foo3"}), Bulk("bar3"));
  EXPECT_EQ(r({"REPLICAOF", "NO", "ONE"}), Status("OK"));
}

// The master link drops while a paused replica holds a command of its stream: the command
// dies with the master client, comes again from the master's backlog, and is applied once.
TEST_F(ReplicaPairTest, APostponedCommandOfALostLinkIsAppliedOnceAfterTheResync) {
  Client& m = master();
  Client& r = replica();
  ASSERT_EQ(r({"CLIENT", "PAUSE", "100000", "WRITE"}), Status("OK"));
  ASSERT_EQ(m({"INCR", "n"}), Int(1));
  int64_t offset = InfoNumber(m, "replication", "master_repl_offset");
  ASSERT_TRUE(Eventually(
      [&] { return InfoNumber(r, "replication", "slave_read_repl_offset") == offset; }));
  EXPECT_EQ(r({"CLIENT", "KILL", "TYPE", "MASTER"}), Int(1));
  ASSERT_TRUE(Eventually([&] {
    return InfoField(r, "master_link_status") == "up" &&
           InfoNumber(r, "replication", "slave_read_repl_offset") == offset;
  }));
  ASSERT_EQ(r({"CLIENT", "UNPAUSE"}), Status("OK"));
  EXPECT_TRUE(Eventually(
      [&] { return InfoNumber(r, "replication", "slave_repl_offset") == offset; }));
  EXPECT_EQ(r({"GET", "n"}), Bulk("1"));
  ASSERT_EQ(m({"INCR", "n"}), Int(2));
  offset = InfoNumber(m, "replication", "master_repl_offset");
  EXPECT_TRUE(Eventually([&] { return r({"GET", "n"}) == Bulk("2"); }));
  EXPECT_EQ(InfoNumber(r, "replication", "slave_repl_offset"), offset);
  EXPECT_EQ(r({"REPLICAOF", "NO", "ONE"}), Status("OK"));
}

// A writable replica expires the keys its own clients gave a TTL (no DEL of the master will
// come for them), without anyone reading them: DBSIZE drops and expired_keys counts them.
TEST_F(ReplicaPairTest, AWritableReplicaExpiresTheKeysItsClientsGaveATtl) {
  Client& r = replica();
  ASSERT_EQ(r({"CONFIG", "SET", "replica-read-only", "no"}), Status("OK"));
  int64_t expired_before = InfoNumber(r, "stats", "expired_keys");
  ASSERT_EQ(r({"SET", "own", "v", "PX", "1"}), Status("OK"));
  ASSERT_EQ(r({"SET", "kept", "v"}), Status("OK"));
  EXPECT_TRUE(Eventually([&] { return r({"DBSIZE"}) == Int(1); }));
  EXPECT_EQ(InfoNumber(r, "stats", "expired_keys"), expired_before + 1);
  EXPECT_EQ(r({"GET", "kept"}), Bulk("v"));
  EXPECT_EQ(r({"REPLICAOF", "NO", "ONE"}), Status("OK"));
}

}  // namespace
}  // namespace redlab::conformance
