// Blocking and multi-key list pops: BLPOP, BRPOP, BRPOPLPUSH, BLMOVE, LMPOP, BLMPOP. Immediate
// answers, blocking until a key becomes a list (in blocking order, after the command,
// transaction or rename that made it), timeouts, WRONGTYPE, transactions and scripts, WATCH,
// and what reaches replicas.
#include <memory>

#include "conformance/blocking_fixture.h"
#include "conformance/harness/replication_stream.h"
#include "conformance/harness/target.h"
#include "conformance/harness/topology.h"

namespace redlab::conformance {
namespace {

using Args = std::vector<std::string>;

class ListBlockingTest : public BlockingFixture {
 protected:
  // `waiter` is still blocked; once `key` is deleted and `push` makes a list of it again, the
  // waiter is served `served`.
  void ExpectStillBlockedUntilAList(Client& waiter, const std::string& key,
                                    const std::vector<std::string>& push, const Reply& served) {
    EXPECT_EQ(ClientsInfo("blocked_clients"), 1);
    c()({"DEL", key});
    c().Call(push);
    EXPECT_EQ(waiter.Read(), served);
  }
  Reply All(std::string_view key) { return c()({"LRANGE", key, "0", "-1"}); }

  // A client blocked in BRPOPLPUSH srclist dstlist, and one that WATCHes dstlist and has queued
  // GET somekey (somekey is somevalue) in a transaction.
  struct MoverAndWatcher {
    Client mover;
    Client watcher;
  };
  MoverAndWatcher BlockedMoverAndWatcher() {
    c()({"SET", "somekey", "somevalue"});
    MoverAndWatcher m{Blocked({"BRPOPLPUSH", "srclist", "dstlist", "0"}), Connect()};
    EXPECT_EQ(m.watcher({"WATCH", "dstlist"}), Status("OK"));
    m.watcher({"MULTI"});
    m.watcher({"GET", "somekey"});
    return m;
  }
};

TEST_F(ListBlockingTest, PopsAtOnceWhenAListHasElements) {
  c()({"RPUSH", "l", "a", "b", "c", "d"});
  EXPECT_EQ(c()({"BLPOP", "l", "1"}), Bulks({"l", "a"}));
  EXPECT_EQ(c()({"BRPOP", "l", "1"}), Bulks({"l", "d"}));
  // The first key holding a list is the one popped.
  EXPECT_EQ(c()({"BLPOP", "missing", "l", "0"}), Bulks({"l", "b"}));
  EXPECT_EQ(c()({"BRPOP", "l", "missing", "0"}), Bulks({"l", "c"}));
  EXPECT_EQ(c()({"EXISTS", "l"}), Int(0));  // emptied, so deleted
  c()({"RPUSH", "l1", "x"});
  c()({"RPUSH", "l2", "y"});
  EXPECT_EQ(c()({"BLPOP", "l2", "l1", "l2", "0"}), Bulks({"l2", "y"}));
}

TEST_F(ListBlockingTest, BlocksUntilAPushCreatesTheList) {
  Client waiter = Blocked({"BLPOP", "l", "0"});
  EXPECT_EQ(ClientsInfo("blocked_clients"), 1);
  EXPECT_EQ(c()({"RPUSH", "l", "a", "b"}), Int(2));  // the pusher sees the length it made
  EXPECT_EQ(waiter.Read(), Bulks({"l", "a"}));
  EXPECT_EQ(All("l"), Bulks({"b"}));
  EXPECT_EQ(ClientsInfo("blocked_clients"), 0);
}

// CLIENT REPLY OFF or SKIP silence a blocked command's reply too, though it comes later.
TEST_F(ListBlockingTest, SilencedRepliesOfBlockedCommandsStaySilent) {
  Client waiter = Connect();
  waiter.SendCommand({"CLIENT", "REPLY", "SKIP"});
  waiter.SendCommand({"BLPOP", "l", "0"});
  WaitBlocked(1);
  EXPECT_EQ(c()({"RPUSH", "l", "a", "b"}), Int(2));
  EXPECT_EQ(waiter({"PING", "after-skip"}), Bulk("after-skip"));  // the first reply it sees
  EXPECT_EQ(All("l"), Bulks({"b"}));                              // yet it was served
  waiter.SendCommand({"CLIENT", "REPLY", "OFF"});
  waiter.SendCommand({"BLPOP", "l2", "0"});
  WaitBlocked(1);
  waiter.SendCommand({"CLIENT", "REPLY", "ON"});
  EXPECT_EQ(ClientsInfo("blocked_clients"), 1);  // the ON waits behind the blocked BLPOP
  EXPECT_EQ(c()({"RPUSH", "l2", "x"}), Int(1));
  EXPECT_EQ(waiter.Read(), Status("OK"));  // the BLPOP's reply was dropped, ON's is not
  EXPECT_EQ(c()({"EXISTS", "l2"}), Int(0));
}

// SWAPDB makes the keys of the other database present: waiters on them are served.
TEST_F(ListBlockingTest, SwapdbServesClientsWaitingOnKeysItBrings) {
  Client waiter = Connect();
  EXPECT_EQ(waiter({"SELECT", "1"}), Status("OK"));
  waiter.SendCommand({"BLPOP", "k", "0"});
  WaitBlocked(1);
  EXPECT_EQ(c()({"RPUSH", "k", "hello"}), Int(1));
  EXPECT_EQ(c()({"SWAPDB", "0", "1"}), Status("OK"));
  EXPECT_EQ(waiter.Read(), Bulks({"k", "hello"}));
  EXPECT_EQ(waiter({"EXISTS", "k"}), Int(0));
  EXPECT_EQ(c()({"SWAPDB", "0", "1"}), Status("OK"));
  c()({"FLUSHALL"});
}

TEST_F(ListBlockingTest, WaitersAreServedInTheOrderTheyBlocked) {
  Client first = Blocked({"BLPOP", "l", "0"});
  Client second = Blocked({"BRPOP", "other", "l", "0"});
  Client third = Blocked({"BLPOP", "l", "0"});
  c()({"RPUSH", "l", "1", "2"});
  EXPECT_EQ(first.Read(), Bulks({"l", "1"}));
  EXPECT_EQ(second.Read(), Bulks({"l", "2"}));
  EXPECT_EQ(c()({"EXISTS", "l"}), Int(0));
  EXPECT_EQ(ClientsInfo("blocked_clients"), 1);  // the third waits on
  c()({"LPUSH", "l", "3"});
  EXPECT_EQ(third.Read(), Bulks({"l", "3"}));
}

TEST_F(ListBlockingTest, ServedFromTheKeyThatBecameReady) {
  Client waiter = Blocked({"BLPOP", "l1", "l2", "l2", "l1", "0"});
  c()({"RPUSH", "l2", "x"});
  EXPECT_EQ(waiter.Read(), Bulks({"l2", "x"}));
  // Served once: a later push stays.
  c()({"RPUSH", "l1", "y"});
  EXPECT_EQ(All("l1"), Bulks({"y"}));
}

TEST_F(ListBlockingTest, VariadicPushServesOnceTheWholePushIsDone) {
  Client waiter = Blocked({"BLPOP", "l", "0"});
  EXPECT_EQ(c()({"LPUSH", "l", "foo", "bar"}), Int(2));
  EXPECT_EQ(waiter.Read(), Bulks({"l", "bar"}));
  EXPECT_EQ(All("l"), Bulks({"foo"}));
}

TEST_F(ListBlockingTest, TransactionIsServedAfterExec) {
  Client waiter = Blocked({"BLPOP", "l", "0"});
  EXPECT_EQ(InTransaction({{"LPUSH", "l", "a"}, {"LPUSH", "l", "b"}, {"LPUSH", "l", "c"}}),
            Array({Int(1), Int(2), Int(3)}));
  EXPECT_EQ(waiter.Read(), Bulks({"l", "c"}));
}

TEST_F(ListBlockingTest, KeyGoneAgainByExecServesNoOne) {
  Client waiter = Blocked({"BLPOP", "l", "0"});
  InTransaction({{"LPUSH", "l", "a"}, {"DEL", "l"}});
  InTransaction({{"LPUSH", "l", "a"}, {"DEL", "l"}, {"SET", "l", "foo"}});
  ExpectStillBlockedUntilAList(waiter, "l", {"LPUSH", "l", "b"}, Bulks({"l", "b"}));
}

TEST_F(ListBlockingTest, KeyOfAnotherTypeKeepsTheClientWaitingUntilItIsAList) {
  Client waiter = Blocked({"BLPOP", "k", "0"});
  c()({"ZADD", "k", "1", "m"});
  c()({"SET", "s", "v"});
  EXPECT_EQ(c()({"EXISTS", "k"}), Int(1));
  ExpectStillBlockedUntilAList(waiter, "k", {"RPUSH", "k", "v"}, Bulks({"k", "v"}));
}

TEST_F(ListBlockingTest, ScriptIsServedAfterItEnds) {
  Client waiter = Blocked({"BRPOP", "l", "0"});
  EXPECT_EQ(
      c()({"EVAL", "redis.call('RPUSH', KEYS[1], 'a', 'b') return redis.call('LLEN', KEYS[1])", "1",
           "l"}),
      Int(2));
  EXPECT_EQ(waiter.Read(), Bulks({"l", "b"}));
}

TEST_F(ListBlockingTest, RenameIntoPlaceServes) {
  Client waiter = Blocked({"BLPOP", "foo", "0"});
  c()({"LPUSH", "bob", "abc", "def", "hij"});
  EXPECT_EQ(c()({"RENAME", "bob", "foo"}), Status("OK"));
  EXPECT_EQ(waiter.Read(), Bulks({"foo", "hij"}));
}

TEST_F(ListBlockingTest, ListMadeByLmoveServes) {
  Client waiter = Blocked({"BRPOP", "dst", "0"});
  c()({"RPUSH", "src", "x", "y"});
  EXPECT_EQ(c()({"LMOVE", "src", "dst", "LEFT", "RIGHT"}), Bulk("x"));
  EXPECT_EQ(waiter.Read(), Bulks({"dst", "x"}));
  EXPECT_EQ(c()({"EXISTS", "dst"}), Int(0));
}

TEST_F(ListBlockingTest, TimeoutAnswersANullArray) {
  Client waiter = Connect();
  EXPECT_EQ(waiter.Raw({"BLPOP", "l1", "l2", "0.01"}), "*-1\r\n");
  EXPECT_EQ(waiter.Raw({"BRPOP", "l", "0.001"}), "*-1\r\n");
  EXPECT_EQ(waiter.Raw({"BLMPOP", "0.01", "1", "l", "LEFT"}), "*-1\r\n");
  // BLMOVE too, although it answers a null bulk when it cannot block.
  EXPECT_EQ(waiter.Raw({"BLMOVE", "l", "d", "LEFT", "LEFT", "0.01"}), "*-1\r\n");
  EXPECT_EQ(waiter.Raw({"BRPOPLPUSH", "l", "d", "0.01"}), "*-1\r\n");
  waiter({"HELLO", "3"});
  EXPECT_EQ(waiter.Raw({"BLPOP", "l", "0.01"}), "_\r\n");
  EXPECT_EQ(ClientsInfo("blocked_clients"), 0);
}

TEST_F(ListBlockingTest, TimeoutArgumentErrors) {
  const Args kBad[] = {{"BLPOP", "l", "abc"},
                       {"BLPOP", "l", "nan"},
                       {"BRPOP", "l", " 1"},
                       {"BRPOPLPUSH", "a", "b", "1x"},
                       {"BLMOVE", "a", "b", "LEFT", "LEFT", ""},
                       {"BLMPOP", "x", "1", "l", "LEFT"}};
  for (const Args& command : kBad) {
    EXPECT_EQ(c().Call(command), Error("ERR timeout is not a float or out of range")) << command[0];
  }
  // Negative, and too large to be a number of milliseconds (Redis then sees it as negative).
  for (std::string timeout : {"-1", "-0.5", "inf", "-inf", "1e16", "9223372036854775807"}) {
    EXPECT_EQ(c().Call({"BLPOP", "l", timeout}), Error("ERR timeout is negative")) << timeout;
  }
  // The timeout is checked before the keys.
  c()({"SET", "s", "v"});
  EXPECT_EQ(c()({"BLPOP", "s", "x"}), Error("ERR timeout is not a float or out of range"));
  EXPECT_EQ(c()({"BLPOP", "l"}), Error("ERR wrong number of arguments for 'blpop' command"));
  EXPECT_EQ(c()({"BRPOPLPUSH", "a", "b"}),
            Error("ERR wrong number of arguments for 'brpoplpush' command"));
  EXPECT_EQ(c()({"BLMOVE", "a", "b", "LEFT", "LEFT"}),
            Error("ERR wrong number of arguments for 'blmove' command"));
  // BLMOVE checks its directions before the timeout.
  EXPECT_EQ(c()({"BLMOVE", "a", "b", "UP", "LEFT", "x"}), Error("ERR syntax error"));
  EXPECT_EQ(c()({"BLMOVE", "a", "b", "LEFT", "DOWN", "-1"}), Error("ERR syntax error"));
  EXPECT_EQ(c()({"BLMOVE", "a", "b", "LEFT", "LEFT", "-1"}), Error("ERR timeout is negative"));
}

TEST_F(ListBlockingTest, WrongTypeStopsAtTheFirstNonListKey) {
  c()({"SET", "s", "v"});
  c()({"RPUSH", "l", "a"});
  EXPECT_EQ(c()({"BLPOP", "missing", "s", "l", "0"}), Error(kWrongType));
  EXPECT_EQ(c()({"BLPOP", "l", "s", "0"}), Bulks({"l", "a"}));  // served before reaching s
  EXPECT_EQ(c()({"BRPOPLPUSH", "s", "d", "0"}), Error(kWrongType));
  EXPECT_EQ(c()({"BLMOVE", "s", "d", "LEFT", "LEFT", "0"}), Error(kWrongType));
  EXPECT_EQ(c()({"BLMPOP", "0", "2", "missing", "s", "LEFT"}), Error(kWrongType));
  EXPECT_EQ(c()({"LMPOP", "2", "missing", "s", "LEFT"}), Error(kWrongType));
  // A missing source blocks without looking at the destination; a present one checks it.
  c()({"RPUSH", "l", "a"});
  EXPECT_EQ(c()({"BRPOPLPUSH", "l", "s", "0"}), Error(kWrongType));
  EXPECT_EQ(All("l"), Bulks({"a"}));
}

TEST_F(ListBlockingTest, InsideATransactionNothingBlocks) {
  c()({"RPUSH", "xlist", "foo", "bar"});
  c()({"MULTI"});
  c()({"BLPOP", "xlist", "0"});
  c()({"BLPOP", "xlist", "0"});
  c()({"BLPOP", "xlist", "0"});
  c()({"BRPOPLPUSH", "xlist", "target", "0"});
  c()({"BLMOVE", "xlist", "target", "LEFT", "RIGHT", "0"});
  c()({"BLMPOP", "0", "1", "xlist", "LEFT"});
  EXPECT_EQ(c().Raw({"EXEC"}),
            "*6\r\n*2\r\n$5\r\nxlist\r\n$3\r\nfoo\r\n*2\r\n$5\r\nxlist\r\n$3\r\nbar\r\n*-1\r\n"
            "$-1\r\n$-1\r\n*-1\r\n");
}

TEST_F(ListBlockingTest, BrpoplpushMovesAtOnceOrWhenServed) {
  c()({"RPUSH", "target", "bar"});
  c()({"RPUSH", "src", "a", "b", "c", "d"});
  EXPECT_EQ(c()({"BRPOPLPUSH", "src", "target", "1"}), Bulk("d"));
  EXPECT_EQ(All("target"), Bulks({"d", "bar"}));
  Client waiter = Blocked({"BRPOPLPUSH", "empty", "target", "0"});
  c()({"RPUSH", "empty", "foo"});
  EXPECT_EQ(waiter.Read(), Bulk("foo"));
  EXPECT_EQ(All("target"), Bulks({"foo", "d", "bar"}));
  EXPECT_EQ(c()({"EXISTS", "empty"}), Int(0));
}

TEST_F(ListBlockingTest, BlmoveEveryDirection) {
  for (std::string from : {"LEFT", "RIGHT"}) {
    for (std::string to : {"LEFT", "RIGHT"}) {
      c()({"DEL", "src", "dst"});
      c()({"RPUSH", "dst", "bar"});
      c()({"RPUSH", "src", "a", "b", "c"});
      std::string moved = from == "LEFT" ? "a" : "c";
      EXPECT_EQ(c().Call({"BLMOVE", "src", "dst", from, to, "0"}), Bulk(moved));
      EXPECT_EQ(All("dst"), to == "LEFT" ? Bulks({moved, "bar"}) : Bulks({"bar", moved}));
      // And when served.
      c()({"DEL", "src"});
      Client waiter = Blocked({"BLMOVE", "src", "dst", from, to, "0"});
      c()({"RPUSH", "src", "x", "y"});
      std::string served = from == "LEFT" ? "x" : "y";
      EXPECT_EQ(waiter.Read(), Bulk(served)) << from << " " << to;
      EXPECT_EQ(c().Call({"LINDEX", "dst", to == "LEFT" ? "0" : "-1"}), Bulk(served));
    }
  }
}

TEST_F(ListBlockingTest, ServedMoveToAWrongTypeErrsAndLeavesTheElementToTheNext) {
  c()({"SET", "target1", "nolist"});
  Client first = Blocked({"BRPOPLPUSH", "src", "target1", "0"});
  Client second = Blocked({"BRPOPLPUSH", "src", "target2", "0"});
  c()({"RPUSH", "src", "foo"});
  EXPECT_EQ(first.Read(), Error(kWrongType));
  EXPECT_EQ(second.Read(), Bulk("foo"));
  EXPECT_EQ(All("target2"), Bulks({"foo"}));
  // Alone, the element stays where it was, in order.
  Client third = Blocked({"BLMOVE", "src2", "target1", "RIGHT", "LEFT", "0"});
  c()({"RPUSH", "src2", "a", "b", "c"});
  EXPECT_EQ(third.Read(), Error(kWrongType));
  EXPECT_EQ(All("src2"), Bulks({"a", "b", "c"}));
}

TEST_F(ListBlockingTest, MovedElementServesTheDestinationsWaiters) {
  Client popper = Blocked({"BLPOP", "target", "0"});
  Client mover = Blocked({"BLMOVE", "src", "target", "LEFT", "RIGHT", "0"});
  c()({"RPUSH", "src", "foo"});
  EXPECT_EQ(mover.Read(), Bulk("foo"));
  EXPECT_EQ(popper.Read(), Bulks({"target", "foo"}));
  EXPECT_EQ(c()({"EXISTS", "target"}), Int(0));
}

TEST_F(ListBlockingTest, LinkedCircularAndSelfMoves) {
  {
    Client a = Blocked({"BLMOVE", "list1", "list2", "RIGHT", "LEFT", "0"});
    Client b = Blocked({"BLMOVE", "list2", "list3", "LEFT", "RIGHT", "0"});
    c()({"RPUSH", "list1", "foo"});
    EXPECT_EQ(a.Read(), Bulk("foo"));
    EXPECT_EQ(b.Read(), Bulk("foo"));
    EXPECT_EQ(All("list3"), Bulks({"foo"}));
    EXPECT_EQ(c()({"EXISTS", "list1", "list2"}), Int(0));
  }
  {
    Client a = Blocked({"BRPOPLPUSH", "c1", "c2", "0"});
    Client b = Blocked({"BRPOPLPUSH", "c2", "c1", "0"});
    c()({"RPUSH", "c1", "foo"});
    EXPECT_EQ(a.Read(), Bulk("foo"));
    EXPECT_EQ(b.Read(), Bulk("foo"));
    EXPECT_EQ(All("c1"), Bulks({"foo"}));
    EXPECT_EQ(c()({"EXISTS", "c2"}), Int(0));
  }
  {
    Client a = Blocked({"BRPOPLPUSH", "self", "self", "0"});
    c()({"RPUSH", "self", "foo"});
    EXPECT_EQ(a.Read(), Bulk("foo"));
    EXPECT_EQ(All("self"), Bulks({"foo"}));
  }
}

TEST_F(ListBlockingTest, LmpopPopsFromTheFirstNonEmptyList) {
  c()({"RPUSH", "l1", "a", "b", "c"});
  c()({"RPUSH", "l2", "d", "e"});
  EXPECT_EQ(c()({"LMPOP", "2", "none", "l1", "LEFT"}), Array({Bulk("l1"), Bulks({"a"})}));
  EXPECT_EQ(c()({"LMPOP", "2", "l1", "l2", "right", "COUNT", "10"}),
            Array({Bulk("l1"), Bulks({"c", "b"})}));
  EXPECT_EQ(c()({"LMPOP", "2", "l1", "l2", "LEFT", "count", "1"}),
            Array({Bulk("l2"), Bulks({"d"})}));
  EXPECT_EQ(c().Raw({"LMPOP", "1", "none", "LEFT"}), "*-1\r\n");
  EXPECT_EQ(c()({"BLMPOP", "0", "1", "l2", "RIGHT", "COUNT", "5"}),
            Array({Bulk("l2"), Bulks({"e"})}));
  EXPECT_EQ(c()({"EXISTS", "l1", "l2"}), Int(0));
  c()({"HELLO", "3"});
  EXPECT_EQ(c().Raw({"LMPOP", "1", "none", "LEFT"}), "_\r\n");
  c()({"RPUSH", "l", "x"});
  EXPECT_EQ(c().Raw({"LMPOP", "1", "l", "LEFT"}), "*2\r\n$1\r\nl\r\n*1\r\n$1\r\nx\r\n");
}

TEST_F(ListBlockingTest, LmpopArgumentErrors) {
  ExpectMpopArgumentErrors("LMPOP", "0", "l", "LEFT", {"0", "a", "-1", "1.5"},
                           {{"2", "l", "LEFT"},  // too few keys
                            {"1", "l", "UP"},
                            {"1", "l", "LEFT", "bar"},
                            {"1", "l", "LEFT", "RIGHT"},
                            {"1", "l", "COUNT"},
                            {"1", "l", "LEFT", "COUNT"},
                            {"1", "l", "LEFT", "COUNT", "1", "COUNT", "2"}});
  // BLMPOP checks its timeout last.
  EXPECT_EQ(c()({"BLMPOP", "x", "0", "l", "LEFT"}), Error("ERR numkeys should be greater than 0"));
  EXPECT_EQ(c()({"BLMPOP", "-1", "1", "l", "LEFT", "COUNT", "0"}),
            Error("ERR count should be greater than 0"));
  EXPECT_EQ(c()({"BLMPOP", "-1", "1", "l", "LEFT"}), Error("ERR timeout is negative"));
}

TEST_F(ListBlockingTest, BlmpopServesInBlockingOrder) {
  Client c1 = Blocked({"BLMPOP", "0", "2", "blist", "blist2", "LEFT", "COUNT", "1"});
  Client c2 = Blocked({"BLMPOP", "0", "2", "blist", "blist2", "RIGHT", "COUNT", "10"});
  Client c3 = Blocked({"BLMPOP", "0", "2", "blist", "blist2", "LEFT", "COUNT", "10"});
  Client c4 = Blocked({"BLMPOP", "0", "2", "blist", "blist2", "RIGHT", "COUNT", "1"});
  InTransaction(
      {{"LPUSH", "blist", "a", "b", "c", "d", "e"}, {"LPUSH", "blist2", "1", "2", "3", "4", "5"}});
  EXPECT_EQ(c1.Read(), Array({Bulk("blist"), Bulks({"e"})}));
  EXPECT_EQ(c2.Read(), Array({Bulk("blist"), Bulks({"a", "b", "c", "d"})}));
  EXPECT_EQ(c3.Read(), Array({Bulk("blist2"), Bulks({"5", "4", "3", "2", "1"})}));
  EXPECT_EQ(ClientsInfo("blocked_clients"), 1);
  c()({"LPUSH", "blist2", "1", "2", "3"});
  EXPECT_EQ(c4.Read(), Array({Bulk("blist2"), Bulks({"1"})}));
  EXPECT_EQ(All("blist2"), Bulks({"3", "2"}));
}

TEST_F(ListBlockingTest, ScriptsCannotBlock) {
  EXPECT_EQ(c()({"EVAL", "return redis.call('BLPOP', 'l', 0)", "0"})
                .str.rfind("ERR This Redis command is not allowed from script", 0),
            0u);
  // BLMPOP may run in a script, answering at once.
  EXPECT_EQ(c()({"EVAL", "return redis.call('BLMPOP', 0, 1, 'l', 'LEFT')", "0"}), Nil());
  c()({"RPUSH", "l", "a"});
  EXPECT_EQ(c()({"EVAL", "return redis.call('BLMPOP', 0, 1, 'l', 'LEFT')", "0"}),
            Array({Bulk("l"), Bulks({"a"})}));
}

TEST_F(ListBlockingTest, PushFromAServedMoveBreaksAWatch) {
  auto [mover, watcher] = BlockedMoverAndWatcher();
  c()({"LPUSH", "srclist", "element"});
  EXPECT_EQ(mover.Read(), Bulk("element"));
  EXPECT_EQ(watcher({"EXEC"}), Nil());
}

TEST_F(ListBlockingTest, BlockedMoveDoesNotBreakAWatch) {
  auto [mover, watcher] = BlockedMoverAndWatcher();
  EXPECT_EQ(watcher({"EXEC"}), Array({Bulk("somevalue")}));
  c()({"LPUSH", "srclist", "element"});
  EXPECT_EQ(mover.Read(), Bulk("element"));
}

TEST_F(ListBlockingTest, ServedClientGoesOnWithItsPipeline) {
  // Each client waits on its key, then pushes to the next one's: one push serves them all.
  constexpr int kClients = 200;
  std::vector<Client> chain;
  for (int i = 0; i < kClients; ++i) {
    chain.push_back(Connect());
    chain.back().Send(Client::Encode({"BLPOP", "k" + std::to_string(i), "0"}) +
                      Client::Encode({"RPUSH", "k" + std::to_string(i + 1), "x"}));
  }
  WaitBlocked(kClients);
  EXPECT_EQ(c()({"RPUSH", "k0", "x"}), Int(1));
  for (int i = 0; i < kClients; ++i) {
    EXPECT_EQ(chain[i].Read(), Bulks({"k" + std::to_string(i), "x"}));
    EXPECT_EQ(chain[i].Read(), Int(1));
  }
  EXPECT_EQ(All("k" + std::to_string(kClients)), Bulks({"x"}));
  EXPECT_EQ(c()({"DBSIZE"}), Int(1));
}

TEST_F(ListBlockingTest, ClientThatLeavesWhileBlockedIsForgotten) {
  { Client gone = Blocked({"BLPOP", "l", "0"}); }
  WaitBlocked(0);
  c()({"RPUSH", "l", "x"});
  EXPECT_EQ(All("l"), Bulks({"x"}));
}

TEST_F(ListBlockingTest, KilledClientIsNotServed) {
  Client waiter = Connect();
  int64_t id = IdOf(waiter);
  waiter.SendCommand({"BLPOP", "l", "0"});
  WaitBlocked(1);
  EXPECT_EQ(InTransaction({{"CLIENT", "KILL", "ID", std::to_string(id)}, {"RPUSH", "l", "x"}}),
            Array({Int(1), Int(1)}));
  EXPECT_EQ(All("l"), Bulks({"x"}));
  EXPECT_TRUE(waiter.WaitClosed());
}

TEST_F(ListBlockingTest, ReplicatedAsThePlainPops) {
  ReplicationStream stream(port());
  stream.FullSync();
  c()({"RPUSH", "l", "a", "b", "c"});
  c()({"RPUSH", "l2", "1", "2", "3"});
  c()({"BLPOP", "l", "0"});
  c()({"BRPOP", "l", "0"});
  c()({"BLMPOP", "0", "2", "l", "l2", "RIGHT", "COUNT", "10"});
  c()({"BLMPOP", "0", "2", "l", "l2", "left", "COUNT", "1"});
  c()({"LMPOP", "1", "l2", "LEFT", "COUNT", "9"});
  c()({"RPUSH", "l", "x", "y"});
  c()({"BRPOPLPUSH", "l", "d", "0"});
  c()({"BLMOVE", "l", "d", "Left", "right", "0"});
  // Nothing to pop, nothing propagated (the SET shows what comes next).
  c()({"LMPOP", "1", "none", "LEFT"});
  c()({"BLPOP", "none", "0.01"});
  c()({"SET", "marker", "1"});
  const std::vector<Args> expected = {
      {"SELECT", "0"},
      {"RPUSH", "l", "a", "b", "c"},
      {"RPUSH", "l2", "1", "2", "3"},
      {"LPOP", "l"},
      {"RPOP", "l"},
      {"RPOP", "l", "1"},
      {"LPOP", "l2", "1"},
      {"LPOP", "l2", "2"},
      {"RPUSH", "l", "x", "y"},
      {"RPOPLPUSH", "l", "d"},
      {"LMOVE", "l", "d", "Left", "right"},
      {"SET", "marker", "1"},
  };
  for (const Args& e : expected) EXPECT_EQ(stream.Next(), e);
}

TEST_F(ListBlockingTest, ServedPopsAreReplicatedAsThePlainPops) {
  ReplicationStream stream(port());
  stream.FullSync();
  Client popper = Blocked({"BLPOP", "l", "0"});
  c()({"RPUSH", "l", "a", "b"});
  EXPECT_EQ(popper.Read(), Bulks({"l", "a"}));
  Client mpopper = Blocked({"BLMPOP", "0", "2", "l3", "l4", "RIGHT", "COUNT", "5"});
  c()({"RPUSH", "l4", "1", "2", "3"});
  EXPECT_EQ(mpopper.Read(), Array({Bulk("l4"), Bulks({"3", "2", "1"})}));
  Client mover = Blocked({"BLMOVE", "src", "dst", "LEFT", "RIGHT", "0"});
  Client rmover = Blocked({"BRPOPLPUSH", "src", "dst", "0"});
  c()({"RPUSH", "src", "x", "y"});
  EXPECT_EQ(mover.Read(), Bulk("x"));
  EXPECT_EQ(rmover.Read(), Bulk("y"));
  const std::vector<Args> expected = {
      {"SELECT", "0"},
      {"RPUSH", "l", "a", "b"},
      {"LPOP", "l"},
      {"RPUSH", "l4", "1", "2", "3"},
      {"RPOP", "l4", "3"},
      {"RPUSH", "src", "x", "y"},
      {"LMOVE", "src", "dst", "left", "right"},
      {"RPOPLPUSH", "src", "dst"},
  };
  for (const Args& e : expected) EXPECT_EQ(stream.Next(), e);
}

// The key made by a transaction has expired by the time its waiters would be served (the
// transaction stalled past its TTL): it is deleted then, its DEL replicated, and no one served.
TEST(ListBlockingExpiryTest, KeyExpiredBeforeItsWaitersAreServed) {
  std::unique_ptr<Server> server =
      StartServer({.requirepass = "", .config = {{"enable-debug-command", "yes"}}});
  Client c(server->port());
  ASSERT_EQ(c({"DEBUG", "SET-ACTIVE-EXPIRE", "0"}), Status("OK"));
  ReplicationStream stream(server->port());
  stream.FullSync();
  Client waiter(server->port());
  int64_t id = waiter({"CLIENT", "ID"}).integer;
  waiter.SendCommand({"BRPOP", "k", "0"});
  auto blocked = [&] {
    return c({"INFO", "clients"}).str.find("\nblocked_clients:1\r") != std::string::npos;
  };
  ASSERT_TRUE(Eventually(blocked));
  c({"MULTI"});
  c({"RPUSH", "k", "hello"});
  c({"PEXPIRE", "k", "100"});
  c({"DEBUG", "SLEEP", "0.2"});
  EXPECT_EQ(c({"EXEC"}), Array({Int(1), Int(1), Status("OK")}));
  EXPECT_TRUE(blocked());
  EXPECT_EQ(c({"EXISTS", "k"}), Int(0));
  EXPECT_EQ(c({"CLIENT", "UNBLOCK", std::to_string(id)}), Int(1));
  EXPECT_EQ(waiter.ReadRaw(), "*-1\r\n");
  EXPECT_EQ(stream.Next(), (Args{"SELECT", "0"}));
  EXPECT_EQ(stream.Next(), (Args{"MULTI"}));
  EXPECT_EQ(stream.Next(), (Args{"RPUSH", "k", "hello"}));
  Args pexpireat = stream.Next();
  ASSERT_EQ(pexpireat.size(), 3u);
  EXPECT_EQ(pexpireat[0], "PEXPIREAT");
  EXPECT_EQ(stream.Next(), (Args{"EXEC"}));
  EXPECT_EQ(stream.Next(), (Args{"DEL", "k"}));
  c({"DEBUG", "SET-ACTIVE-EXPIRE", "1"});
}

// A writable replica serves its own blocked clients from the master's stream, as Redis 7.0
// does: the pop is the replica's alone, and the two datasets part.
TEST(ListBlockingReplicaTest, WritableReplicaServesItsWaitersFromTheStream) {
  TopologyOptions options;
  options.fault_proxy = false;
  std::unique_ptr<Topology> topology = StartTopology(options);
  ASSERT_TRUE(topology->WaitForSync());
  Client replica = topology->ConnectReplica(0);
  ASSERT_EQ(replica({"CONFIG", "SET", "replica-read-only", "no"}), Status("OK"));
  Client waiter = topology->ConnectReplica(0);
  waiter.SendCommand({"BLPOP", "l", "0"});
  ASSERT_TRUE(Eventually([&] {
    return replica({"INFO", "clients"}).str.find("\nblocked_clients:1\r") != std::string::npos;
  }));
  Client master = topology->ConnectMaster();
  EXPECT_EQ(master({"RPUSH", "l", "a", "b"}), Int(2));
  EXPECT_EQ(waiter.Read(), Array({Bulk("l"), Bulk("a")}));
  EXPECT_EQ(master({"LRANGE", "l", "0", "-1"}), Array({Bulk("a"), Bulk("b")}));
  EXPECT_EQ(replica({"LRANGE", "l", "0", "-1"}), Array({Bulk("b")}));
}

}  // namespace
}  // namespace redlab::conformance
