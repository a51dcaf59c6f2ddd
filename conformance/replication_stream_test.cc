// The replication stream itself, read as a replica reads it (REPLCONF capa, PSYNC, the snapshot
// skipped, then command after command) on both targets: what a master propagates is the effect
// of a write, not the write (relative TTLs as PXAT / PEXPIREAT, GETDEL and expiry as DEL,
// INCRBYFLOAT as SET ... KEEPTTL, a script's writes wrapped in MULTI/EXEC), and a replica that
// comes back with the history it has gets "+CONTINUE" and exactly the bytes it missed.
#include "conformance/harness/replication_stream.h"

#include <set>

#include "conformance/harness/fixture.h"

namespace redlab::conformance {
namespace {

using Command = std::vector<std::string>;

int64_t NowMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

int64_t StatsField(Client& c, std::string_view field) {
  std::string info = c({"INFO", "stats"}).str;
  std::string needle = "\n" + std::string(field) + ":";
  size_t start = info.find(needle) + needle.size();
  return std::stoll(info.substr(start, info.find('\r', start) - start));
}

// `got` is `expected` followed by an absolute unix time in ms that lies `ttl_ms` after a moment
// between `before` and now.
void ExpectAbsolute(const Command& got, Command expected, int64_t before, int64_t ttl_ms) {
  ASSERT_EQ(got.size(), expected.size() + 1) << ::testing::PrintToString(got);
  EXPECT_EQ(Command(got.begin(), got.end() - 1), expected);
  int64_t at = std::stoll(got.back());
  EXPECT_GE(at, before + ttl_ms);
  EXPECT_LE(at, NowMs() + ttl_ms);
}

class ReplicationStreamTest : public ::testing::Test {
 protected:
  void SetUp() override {
    // The snapshot leaves at once instead of after Redis's default 5 s gathering delay; DEBUG
    // SET-ACTIVE-EXPIRE holds back the active expire cycle.
    server_ = StartServer(
        {.config = {{"repl-diskless-sync-delay", "0"}, {"enable-debug-command", "yes"}}});
  }
  std::unique_ptr<Server> server_;
};

TEST_F(ReplicationStreamTest, TheMasterPropagatesEffects) {
  ReplicationStream replica(server_->port());
  ASSERT_NO_FATAL_FAILURE(replica.FullSync());
  Client m(server_->port());

  int64_t before = NowMs();
  ASSERT_EQ(m({"SET", "a", "1", "EX", "100"}), Status("OK"));
  EXPECT_EQ(replica.Next(), (Command{"SELECT", "0"}));
  ExpectAbsolute(replica.Next(), {"SET", "a", "1", "PXAT"}, before, 100000);

  before = NowMs();
  ASSERT_EQ(m({"EXPIRE", "a", "200"}), Int(1));
  ExpectAbsolute(replica.Next(), {"PEXPIREAT", "a"}, before, 200000);
  before = NowMs();
  ASSERT_EQ(m({"SETEX", "s", "100", "v"}), Status("OK"));
  ExpectAbsolute(replica.Next(), {"SET", "s", "v", "PXAT"}, before, 100000);
  before = NowMs();
  ASSERT_EQ(m({"GETEX", "s", "PX", "5000"}), Bulk("v"));
  ExpectAbsolute(replica.Next(), {"PEXPIREAT", "s"}, before, 5000);
  ASSERT_EQ(m({"GETEX", "s", "PERSIST"}), Bulk("v"));
  EXPECT_EQ(replica.Next(), (Command{"PERSIST", "s"}));

  ASSERT_EQ(m({"GETDEL", "a"}), Bulk("1"));
  EXPECT_EQ(replica.Next(), (Command{"DEL", "a"}));
  ASSERT_EQ(m({"INCRBYFLOAT", "f", "1.5"}), Bulk("1.5"));
  EXPECT_EQ(replica.Next(), (Command{"SET", "f", "1.5", "KEEPTTL"}));

  // A key that expires leaves the replicas' data as a DEL from the master (whether the active
  // cycle or an access found it first).
  before = NowMs();
  ASSERT_EQ(m({"SET", "e", "1", "PX", "1"}), Status("OK"));
  ExpectAbsolute(replica.Next(), {"SET", "e", "1", "PXAT"}, before, 1);
  ASSERT_TRUE(Eventually([&] { return m({"GET", "e"}) == Nil(); }));
  EXPECT_EQ(replica.Next(), (Command{"DEL", "e"}));

  // A script's writes, as effects, wrapped so replicas apply them all or none.
  before = NowMs();
  ASSERT_EQ(
      m({"EVAL", "redis.call('SET', KEYS[1], 'x') return redis.call('PEXPIRE', KEYS[1], 60000)",
         "1", "c"}),
      Int(1));
  EXPECT_EQ(replica.Next(), (Command{"MULTI"}));
  EXPECT_EQ(replica.Next(), (Command{"SET", "c", "x"}));
  ExpectAbsolute(replica.Next(), {"PEXPIREAT", "c"}, before, 60000);
  EXPECT_EQ(replica.Next(), (Command{"EXEC"}));
  // One write needs no wrapping.
  ASSERT_EQ(m({"EVAL", "return redis.call('INCR', KEYS[1])", "1", "n"}), Int(1));
  EXPECT_EQ(replica.Next(), (Command{"INCR", "n"}));
  // A script that writes nothing sends nothing: the next command is the transaction below.
  ASSERT_EQ(m({"EVAL", "return redis.call('GET', KEYS[1])", "1", "n"}), Bulk("1"));

  ASSERT_EQ(m({"MULTI"}), Status("OK"));
  ASSERT_EQ(m({"SET", "t", "1"}), Status("QUEUED"));
  ASSERT_EQ(m({"INCR", "t"}), Status("QUEUED"));
  ASSERT_EQ(m({"EXEC"}), Array({Status("OK"), Int(2)}));
  EXPECT_EQ(replica.Next(), (Command{"MULTI"}));
  EXPECT_EQ(replica.Next(), (Command{"SET", "t", "1"}));
  EXPECT_EQ(replica.Next(), (Command{"INCR", "t"}));
  EXPECT_EQ(replica.Next(), (Command{"EXEC"}));

  ASSERT_EQ(m({"SELECT", "3"}), Status("OK"));
  ASSERT_EQ(m({"SET", "z", "1"}), Status("OK"));
  EXPECT_EQ(replica.Next(), (Command{"SELECT", "3"}));
  EXPECT_EQ(replica.Next(), (Command{"SET", "z", "1"}));
}

// Keys expired by a command that may touch any key (SCAN, RANDOMKEY) or by the active expire
// cycle leave as DELs each on its own, never wrapped in MULTI/EXEC (Redis's propagate_no_multi
// and CMD_TOUCHES_ARBITRARY_KEYS); within a transaction they stay inside it.
TEST_F(ReplicationStreamTest, KeysExpiredOutsideTheirOwnCommandAreNotWrapped) {
  Client m(server_->port());
  ASSERT_EQ(m({"FLUSHALL"}), Status("OK"));  // (a reused server may hold other tests' keys)
  ReplicationStream replica(server_->port());
  ASSERT_NO_FATAL_FAILURE(replica.FullSync());
  ASSERT_EQ(m({"DEBUG", "SET-ACTIVE-EXPIRE", "0"}), Status("OK"));
  // Two keys that are logically expired once `sentinel`, set after them, is.
  auto expire_two = [&](const std::string& prefix) {
    for (const std::string& k : {prefix + "1", prefix + "2", prefix + "sentinel"}) {
      ASSERT_EQ(m({"SET", k, "v", "PX", "1"}), Status("OK"));
      ASSERT_EQ(replica.Next().at(0), "SET");
    }
    ASSERT_TRUE(Eventually([&] { return m({"EXISTS", prefix + "sentinel"}) == Int(0); }));
    EXPECT_EQ(replica.Next(), (Command{"DEL", prefix + "sentinel"}));
  };
  auto expect_two_dels = [&](const std::string& prefix) {
    std::set<Command> dels = {replica.Next(), replica.Next()};
    EXPECT_EQ(dels, (std::set<Command>{{"DEL", prefix + "1"}, {"DEL", prefix + "2"}}));
  };
  ASSERT_EQ(m({"SET", "first", "1"}), Status("OK"));
  ASSERT_EQ(replica.Next(), (Command{"SELECT", "0"}));
  ASSERT_EQ(replica.Next(), (Command{"SET", "first", "1"}));

  ASSERT_NO_FATAL_FAILURE(expire_two("scan"));
  ASSERT_EQ(m({"SCAN", "0", "COUNT", "100"}).elements.at(1), Array({Bulk("first")}));
  expect_two_dels("scan");

  // RANDOMKEY meets the expired keys when there is nothing else to return.
  ASSERT_EQ(m({"DEL", "first"}), Int(1));
  ASSERT_EQ(replica.Next(), (Command{"DEL", "first"}));
  ASSERT_NO_FATAL_FAILURE(expire_two("random"));
  ASSERT_EQ(m({"RANDOMKEY"}), Nil());
  expect_two_dels("random");

  ASSERT_NO_FATAL_FAILURE(expire_two("multi"));
  ASSERT_EQ(m({"MULTI"}), Status("OK"));
  ASSERT_EQ(m({"SCAN", "0", "COUNT", "100"}), Status("QUEUED"));
  ASSERT_EQ(m({"EXEC"}), Array({Array({Bulk("0"), Array({})})}));
  EXPECT_EQ(replica.Next(), (Command{"MULTI"}));
  expect_two_dels("multi");
  EXPECT_EQ(replica.Next(), (Command{"EXEC"}));

  for (const char* k : {"active1", "active2"}) {
    ASSERT_EQ(m({"SET", k, "v", "PX", "1"}), Status("OK"));
    ASSERT_EQ(replica.Next().at(0), "SET");
  }
  ASSERT_EQ(m({"DEBUG", "SET-ACTIVE-EXPIRE", "1"}), Status("OK"));
  expect_two_dels("active");
  // The stream goes on with the next write: no EXEC was left behind.
  ASSERT_EQ(m({"SET", "after", "1"}), Status("OK"));
  EXPECT_EQ(replica.Next(), (Command{"SET", "after", "1"}));
}

// Keyspace notifications reach the master's subscribers only: the stream carries the writes,
// never the messages they caused (a PUBLISH, by contrast, is propagated).
TEST_F(ReplicationStreamTest, KeyspaceNotificationsAreNotPropagated) {
  ReplicationStream replica(server_->port());
  ASSERT_NO_FATAL_FAILURE(replica.FullSync());
  Client m(server_->port());
  ASSERT_EQ(m({"CONFIG", "SET", "notify-keyspace-events", "KEAn"}), Status("OK"));
  Client sub(server_->port());
  sub.SendCommand({"PSUBSCRIBE", "*"});
  sub.Read();
  ASSERT_EQ(m({"SET", "k", "v", "PX", "1"}), Status("OK"));
  EXPECT_EQ(sub.Read().elements.at(2).str, "__keyspace@0__:k");  // new
  EXPECT_EQ(sub.Read().elements.at(2).str, "__keyevent@0__:new");
  ASSERT_TRUE(Eventually([&] { return m({"EXISTS", "k"}) == Int(0); }));
  ASSERT_EQ(m({"PUBLISH", "ch", "m"}), Int(1));
  EXPECT_EQ(replica.Next(), (Command{"SELECT", "0"}));
  EXPECT_EQ(replica.Next().at(0), "SET");
  EXPECT_EQ(replica.Next(), (Command{"DEL", "k"}));
  EXPECT_EQ(replica.Next(), (Command{"PUBLISH", "ch", "m"}));
}

TEST_F(ReplicationStreamTest, AReplicaThatComesBackContinuesFromTheBacklog) {
  Client m(server_->port());
  std::string replid;
  int64_t offset = 0;
  {
    ReplicationStream replica(server_->port());
    ASSERT_NO_FATAL_FAILURE(replica.FullSync());
    ASSERT_EQ(m({"SET", "p", "1"}), Status("OK"));
    EXPECT_EQ(replica.Next(), (Command{"SELECT", "0"}));
    EXPECT_EQ(replica.Next(), (Command{"SET", "p", "1"}));
    replid = replica.replid();
    offset = replica.offset();
  }  // the link drops
  int64_t partial_before = StatsField(m, "sync_partial_ok");
  int64_t full_before = StatsField(m, "sync_full");
  // Written while the replica is away: the master keeps it in its backlog.
  ASSERT_EQ(m({"SET", "q", "2"}), Status("OK"));
  ASSERT_EQ(m({"DEL", "p"}), Int(1));

  ReplicationStream back(server_->port());
  EXPECT_EQ(back.PartialSync(replid, offset + 1), "+CONTINUE " + replid);
  // Exactly what it missed, from where it stopped (the SELECT it already had is not repeated).
  EXPECT_EQ(back.Next(), (Command{"SET", "q", "2"}));
  EXPECT_EQ(back.Next(), (Command{"DEL", "p"}));
  EXPECT_EQ(StatsField(m, "sync_partial_ok"), partial_before + 1);
  EXPECT_EQ(StatsField(m, "sync_full"), full_before);

  // An offset the backlog does not cover, or a history the master never had: a full resync.
  ReplicationStream lost(server_->port());
  std::string reply = lost.PartialSync(replid, offset + 1000000);
  EXPECT_EQ(reply.rfind("+FULLRESYNC " + replid + " ", 0), 0u) << reply;
  EXPECT_EQ(StatsField(m, "sync_partial_err"), 1);
}

}  // namespace
}  // namespace redlab::conformance
