// Transactions: MULTI, EXEC, DISCARD, WATCH, UNWATCH.
#include "conformance/harness/fixture.h"

namespace redlab::conformance {
namespace {

class TransactionTest : public ConformanceTest {};

TEST_F(TransactionTest, QueuesAndExecutes) {
  EXPECT_EQ(c()({"MULTI"}), Status("OK"));
  EXPECT_EQ(c()({"SET", "a", "1"}), Status("QUEUED"));
  EXPECT_EQ(c()({"GET", "a"}), Status("QUEUED"));
  EXPECT_EQ(c()({"HGET", "a", "f"}), Status("QUEUED"));
  // Errors at run time are replies inside EXEC's array; the rest still runs.
  EXPECT_EQ(c().Raw({"EXEC"}),
            "*3\r\n+OK\r\n$1\r\n1\r\n-WRONGTYPE Operation against a key holding the wrong kind "
            "of value\r\n");
}

TEST_F(TransactionTest, EmptyTransaction) {
  EXPECT_EQ(c()({"MULTI"}), Status("OK"));
  EXPECT_EQ(c().Raw({"EXEC"}), "*0\r\n");
}

TEST_F(TransactionTest, QueueTimeErrorAbortsExec) {
  c()({"MULTI"});
  EXPECT_EQ(c()({"SET", "a", "1"}), Status("QUEUED"));
  EXPECT_EQ(c()({"GET"}), Error("ERR wrong number of arguments for 'get' command"));
  EXPECT_EQ(c()({"EXEC"}), Error("EXECABORT Transaction discarded because of previous errors."));
  EXPECT_EQ(c()({"GET", "a"}), Nil());
  c()({"MULTI"});
  c()({"NOSUCHCMD"});
  EXPECT_EQ(c()({"EXEC"}), Error("EXECABORT Transaction discarded because of previous errors."));
}

TEST_F(TransactionTest, TransactionErrors) {
  EXPECT_EQ(c()({"EXEC"}), Error("ERR EXEC without MULTI"));
  EXPECT_EQ(c()({"DISCARD"}), Error("ERR DISCARD without MULTI"));
  c()({"MULTI"});
  EXPECT_EQ(c()({"MULTI"}), Error("ERR MULTI calls can not be nested"));
  EXPECT_EQ(c()({"WATCH", "x"}), Error("ERR WATCH inside MULTI is not allowed"));
  // Neither error aborts the transaction.
  EXPECT_EQ(c()({"SET", "a", "1"}), Status("QUEUED"));
  EXPECT_EQ(c()({"EXEC"}), Array({Status("OK")}));
}

TEST_F(TransactionTest, NoMultiCommandsAreRefused) {
  c()({"MULTI"});
  EXPECT_EQ(c()({"SHUTDOWN"}), Error("ERR Command not allowed inside a transaction"));
  EXPECT_EQ(c()({"EXEC"}), Error("EXECABORT Transaction discarded because of previous errors."));
}

TEST_F(TransactionTest, Discard) {
  c()({"MULTI"});
  c()({"SET", "a", "1"});
  EXPECT_EQ(c()({"DISCARD"}), Status("OK"));
  EXPECT_EQ(c()({"GET", "a"}), Nil());
  EXPECT_EQ(c()({"EXEC"}), Error("ERR EXEC without MULTI"));
}

TEST_F(TransactionTest, WatchedKeyModifiedByAnotherClient) {
  c()({"SET", "k", "1"});
  EXPECT_EQ(c()({"WATCH", "k"}), Status("OK"));
  Client other = Connect();
  other({"SET", "k", "2"});
  c()({"MULTI"});
  c()({"SET", "k", "3"});
  EXPECT_EQ(c().Raw({"EXEC"}), "*-1\r\n");
  EXPECT_EQ(c()({"GET", "k"}), Bulk("2"));
}

TEST_F(TransactionTest, AbortedExecIsNullInResp3) {
  c()({"HELLO", "3"});
  c()({"WATCH", "k"});
  Connect()({"SET", "k", "x"});
  c()({"MULTI"});
  EXPECT_EQ(c().Raw({"EXEC"}), "_\r\n");
}

TEST_F(TransactionTest, WatchedKeyUntouchedLetsExecRun) {
  c()({"SET", "k", "1"});
  c()({"WATCH", "k", "other"});
  Connect()({"SET", "unrelated", "x"});
  c()({"MULTI"});
  c()({"INCR", "k"});
  EXPECT_EQ(c()({"EXEC"}), Array({Int(2)}));
}

TEST_F(TransactionTest, WatchIsCleared) {
  c()({"WATCH", "k"});
  EXPECT_EQ(c()({"UNWATCH"}), Status("OK"));
  Connect()({"SET", "k", "x"});
  c()({"MULTI"});
  c()({"GET", "k"});
  EXPECT_EQ(c()({"EXEC"}), Array({Bulk("x")}));
  // EXEC unwatches too: a later change does not affect the next transaction.
  c()({"WATCH", "k"});
  c()({"MULTI"});
  c()({"EXEC"});
  Connect()({"SET", "k", "y"});
  c()({"MULTI"});
  c()({"GET", "k"});
  EXPECT_EQ(c()({"EXEC"}), Array({Bulk("y")}));
}

TEST_F(TransactionTest, DeleteOfWatchedKeyBreaksWatch) {
  c()({"SET", "k", "1"});
  c()({"WATCH", "k"});
  Connect()({"DEL", "k"});
  c()({"MULTI"});
  c()({"PING"});
  EXPECT_EQ(c()({"EXEC"}), Nil());
}

TEST_F(TransactionTest, FlushAllBreaksWatchOfExistingKey) {
  c()({"SET", "k", "1"});
  c()({"WATCH", "k"});
  Connect()({"FLUSHALL"});
  c()({"MULTI"});
  c()({"PING"});
  EXPECT_EQ(c()({"EXEC"}), Nil());
}

TEST_F(TransactionTest, FlushOfAbsentWatchedKeyDoesNotBreakWatch) {
  c()({"WATCH", "absent"});
  Connect()({"FLUSHDB"});
  c()({"MULTI"});
  c()({"PING"});
  EXPECT_EQ(c()({"EXEC"}), Array({Status("PONG")}));
}

TEST_F(TransactionTest, WatchedKeyModifiedInsideOwnTransactionRuns) {
  c()({"SET", "k", "1"});
  c()({"WATCH", "k"});
  c()({"MULTI"});
  c()({"SET", "k", "2"});
  c()({"GET", "k"});
  EXPECT_EQ(c()({"EXEC"}), Array({Status("OK"), Bulk("2")}));
}

TEST_F(TransactionTest, PipelinedTransaction) {
  c().Send(Client::Encode({"MULTI"}) + Client::Encode({"SET", "p", "1"}) +
           Client::Encode({"INCR", "p"}) + Client::Encode({"EXEC"}));
  EXPECT_EQ(c().ReadRaw(), "+OK\r\n");
  EXPECT_EQ(c().ReadRaw(), "+QUEUED\r\n");
  EXPECT_EQ(c().ReadRaw(), "+QUEUED\r\n");
  EXPECT_EQ(c().ReadRaw(), "*2\r\n+OK\r\n:2\r\n");
}

TEST_F(TransactionTest, ResetDiscardsTransaction) {
  c()({"MULTI"});
  c()({"SET", "a", "1"});
  EXPECT_EQ(c()({"RESET"}), Status("RESET"));
  EXPECT_EQ(c()({"EXEC"}), Error("ERR EXEC without MULTI"));
  EXPECT_EQ(c()({"GET", "a"}), Nil());
}

// A watched key that expires before EXEC breaks the watch, whether the expiry is noticed lazily
// (by EXEC itself) or by the active cycle. The sentinel, set with the same TTL just after it,
// tells when the key has expired without touching the key.
TEST_F(TransactionTest, ExpiryOfAWatchedKeyBreaksWatch) {
  c()({"SET", "k", "1", "PX", "50"});
  c()({"SET", "sentinel", "1", "PX", "50"});
  EXPECT_EQ(c()({"WATCH", "k"}), Status("OK"));
  ASSERT_TRUE(Eventually([&] { return Connect()({"EXISTS", "sentinel"}) == Int(0); }));
  c()({"MULTI"});
  c()({"INCR", "k"});
  EXPECT_EQ(c().Raw({"EXEC"}), "*-1\r\n");
  EXPECT_EQ(c()({"EXISTS", "k"}), Int(0));
}

// A key already expired when WATCHed (a stale key not yet deleted) is watched as absent: its
// deletion afterwards, lazy or by FLUSHDB, is no change.
TEST_F(TransactionTest, WatchOfAnAlreadyExpiredKeyIsNotBrokenByItsDeletion) {
  for (const char* deleter : {"", "EXISTS", "FLUSHDB"}) {
    c()({"SET", "x", "foo", "PX", "1"});
    c()({"SET", "sentinel", "1", "PX", "1"});
    ASSERT_TRUE(Eventually([&] { return Connect()({"EXISTS", "sentinel"}) == Int(0); }));
    EXPECT_EQ(c()({"WATCH", "x"}), Status("OK"));
    if (std::string_view(deleter) == "EXISTS") {
      EXPECT_EQ(Connect()({"EXISTS", "x"}), Int(0));
    }
    if (std::string_view(deleter) == "FLUSHDB") {
      EXPECT_EQ(Connect()({"FLUSHDB"}), Status("OK"));
    }
    c()({"MULTI"});
    c()({"PING"});
    EXPECT_EQ(c()({"EXEC"}), Array({Status("PONG")})) << deleter;
  }
}

}  // namespace
}  // namespace redlab::conformance
