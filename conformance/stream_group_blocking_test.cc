// XREADGROUP with BLOCK: served by XADD in blocking order, each waiter getting what the group
// has not delivered yet; -UNBLOCKED when the stream is deleted or overwritten (DEL, SET,
// FLUSHALL), -NOGROUP when the group is destroyed; XREAD waiters stay blocked on DEL.
// And the replication of group effects: XREADGROUP as XCLAIM ... FORCE JUSTID LASTID, NOACK as
// XGROUP CREATECONSUMER and XGROUP SETID ... ENTRIESREAD.
#include <string>
#include <vector>

#include "conformance/blocking_fixture.h"
#include "conformance/harness/replication_stream.h"

namespace redlab::conformance {
namespace {

using Command = std::vector<std::string>;

class StreamGroupBlockingTest : public BlockingFixture {
 protected:
  static Reply Served(const std::string& key, const std::string& id, const std::string& value) {
    return Array({Array({Bulk(key), Array({Array({Bulk(id), Array({Bulk("f"), Bulk(value)})})})})});
  }
  void SetUp() override {
    BlockingFixture::SetUp();
    c()({"XGROUP", "CREATE", "s", "g", "$", "MKSTREAM"});
  }
};

TEST_F(StreamGroupBlockingTest, WaitersShareNewEntriesInBlockingOrder) {
  Client first = Blocked({"XREADGROUP", "GROUP", "g", "alice", "BLOCK", "0", "STREAMS", "s", ">"});
  Client second = Blocked({"XREADGROUP", "GROUP", "g", "bob", "BLOCK", "0", "STREAMS", "s", ">"});
  EXPECT_EQ(c()({"XADD", "s", "1-1", "f", "1"}), Bulk("1-1"));
  EXPECT_EQ(first.Read(), Served("s", "1-1", "1"));
  // The group's last ID passed 1-1: bob waits for the next entry.
  WaitBlocked(1);
  EXPECT_EQ(c()({"XADD", "s", "2-1", "f", "2"}), Bulk("2-1"));
  EXPECT_EQ(second.Read(), Served("s", "2-1", "2"));
  Reply pending = c()({"XPENDING", "s", "g"});
  EXPECT_EQ(pending, Array({Int(2), Bulk("1-1"), Bulk("2-1"),
                            Array({Array({Bulk("alice"), Bulk("1")}),
                                   Array({Bulk("bob"), Bulk("1")})})}));
}

TEST_F(StreamGroupBlockingTest, DeletedOrOverwrittenStreamUnblocks) {
  for (Command change : std::vector<Command>{{"DEL", "s"}, {"SET", "s", "x"}, {"FLUSHALL"}}) {
    c()({"DEL", "s"});
    c()({"XGROUP", "CREATE", "s", "g", "$", "MKSTREAM"});
    Client waiter = Blocked({"XREADGROUP", "GROUP", "g", "c", "BLOCK", "0", "STREAMS", "s", ">"});
    c().Call(change);
    EXPECT_EQ(waiter.Read(), Error("UNBLOCKED the stream key no longer exists")) << change[0];
  }
}

TEST_F(StreamGroupBlockingTest, DestroyedGroupUnblocksWithNoGroup) {
  Client waiter = Blocked({"XREADGROUP", "GROUP", "g", "c", "BLOCK", "0", "STREAMS", "s", ">"});
  EXPECT_EQ(c()({"XGROUP", "DESTROY", "s", "g"}), Int(1));
  EXPECT_EQ(waiter.Read(),
            Error("NOGROUP the consumer group this client was blocked on no longer exists"));
}

TEST_F(StreamGroupBlockingTest, TimeoutAnswersNullArray) {
  Client waiter = Connect();
  waiter.SendCommand({"XREADGROUP", "GROUP", "g", "c", "BLOCK", "20", "STREAMS", "s", ">"});
  EXPECT_EQ(waiter.ReadRaw(), "*-1\r\n");
}

class StreamGroupReplicationTest : public ::testing::Test {
 protected:
  void SetUp() override {
    server_ = StartServer({.config = {{"repl-diskless-sync-delay", "0"}}});
  }
  std::unique_ptr<Server> server_;
};

TEST_F(StreamGroupReplicationTest, GroupEffectsPropagateAsRedisDoes) {
  Client m(server_->port());
  // Whatever a snapshot left in the working directory goes before the replica attaches.
  ASSERT_EQ(m({"FLUSHALL"}), Status("OK"));
  ReplicationStream replica(server_->port());
  ASSERT_NO_FATAL_FAILURE(replica.FullSync());
  m({"XADD", "s", "1-1", "f", "1"});
  EXPECT_EQ(replica.Next(), (Command{"SELECT", "0"}));
  EXPECT_EQ(replica.Next(), (Command{"XADD", "s", "1-1", "f", "1"}));
  m({"XADD", "s", "2-1", "f", "2"});
  EXPECT_EQ(replica.Next(), (Command{"XADD", "s", "2-1", "f", "2"}));
  m({"XGROUP", "CREATE", "s", "g", "0"});
  EXPECT_EQ(replica.Next(), (Command{"XGROUP", "CREATE", "s", "g", "0"}));
  // Each delivered entry is an XCLAIM that recreates the NACK (with the consumer) on the replica.
  ASSERT_EQ(m({"XREADGROUP", "GROUP", "g", "alice", "COUNT", "1", "STREAMS", "s", ">"})
                .elements.size(),
            1u);
  Command claim = replica.Next();
  ASSERT_EQ(claim.size(), 14u);
  EXPECT_EQ(Command(claim.begin(), claim.begin() + 7),
            (Command{"XCLAIM", "s", "g", "alice", "0", "1-1", "TIME"}));
  EXPECT_EQ(Command(claim.begin() + 8, claim.end()),
            (Command{"RETRYCOUNT", "1", "FORCE", "JUSTID", "LASTID", "1-1"}));
  // NOACK: the consumer's creation, then the group's new position.
  m({"XREADGROUP", "GROUP", "g", "bob", "NOACK", "STREAMS", "s", ">"});
  EXPECT_EQ(replica.Next(), (Command{"MULTI"}));
  EXPECT_EQ(replica.Next(), (Command{"XGROUP", "CREATECONSUMER", "s", "g", "bob"}));
  EXPECT_EQ(replica.Next(), (Command{"XGROUP", "SETID", "s", "g", "2-1", "ENTRIESREAD", "2"}));
  EXPECT_EQ(replica.Next(), (Command{"EXEC"}));
  // XCLAIM propagates its effect; XACK as called.
  m({"XCLAIM", "s", "g", "carol", "0", "1-1", "TIME", "1700000000000", "JUSTID"});
  EXPECT_EQ(replica.Next(),
            (Command{"XCLAIM", "s", "g", "carol", "0", "1-1", "TIME", "1700000000000",
                     "RETRYCOUNT", "1", "FORCE", "JUSTID", "LASTID", "2-1"}));
  EXPECT_EQ(m({"XACK", "s", "g", "1-1"}), Int(1));
  EXPECT_EQ(replica.Next(), (Command{"XACK", "s", "g", "1-1"}));
}

}  // namespace
}  // namespace redlab::conformance
