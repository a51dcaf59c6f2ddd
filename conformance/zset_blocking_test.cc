// Sorted-set pops across keys and blocking: ZMPOP, BZPOPMIN, BZPOPMAX, BZMPOP. Reply shapes in
// RESP2 and RESP3, blocking until a key becomes a sorted set, timeouts, errors and what reaches
// replicas.
#include "conformance/blocking_fixture.h"
#include "conformance/harness/replication_stream.h"

namespace redlab::conformance {
namespace {

using Args = std::vector<std::string>;

class ZsetBlockingTest : public BlockingFixture {};

TEST_F(ZsetBlockingTest, BzpopAtOnceWhenASetHasMembers) {
  c()({"ZADD", "z", "0", "a", "1", "b", "2", "c", "3", "d"});
  EXPECT_EQ(c()({"BZPOPMIN", "none", "z", "1"}), Bulks({"z", "a", "0"}));
  EXPECT_EQ(c()({"BZPOPMAX", "z", "1"}), Bulks({"z", "d", "3"}));
  EXPECT_EQ(c().Raw({"BZPOPMIN", "z", "0"}), "*3\r\n$1\r\nz\r\n$1\r\nb\r\n$1\r\n1\r\n");
  c()({"HELLO", "3"});
  EXPECT_EQ(c().Raw({"BZPOPMAX", "z", "0"}), "*3\r\n$1\r\nz\r\n$1\r\nc\r\n,2\r\n");
  EXPECT_EQ(c()({"EXISTS", "z"}), Int(0));
}

TEST_F(ZsetBlockingTest, BzpopBlocksUntilAMemberArrives) {
  Client waiter = Blocked({"BZPOPMIN", "z1", "z2", "0"});
  EXPECT_EQ(c()({"ZADD", "z2", "-1", "foo", "1", "bar"}), Int(2));
  EXPECT_EQ(waiter.ReadRaw(), "*3\r\n$2\r\nz2\r\n$3\r\nfoo\r\n$2\r\n-1\r\n");
  EXPECT_EQ(c()({"ZRANGE", "z2", "0", "-1"}), Bulks({"bar"}));
  Client resp3 = Connect();
  resp3({"HELLO", "3"});
  resp3.SendCommand({"BZPOPMAX", "z3", "0"});
  WaitBlocked(1);
  c()({"ZADD", "z3", "1.5", "x", "2.5", "y"});
  EXPECT_EQ(resp3.ReadRaw(), "*3\r\n$2\r\nz3\r\n$1\r\ny\r\n,2.5\r\n");
}

TEST_F(ZsetBlockingTest, WaitersAreServedInOrderAndTransactionsFirstFinish) {
  Client first = Blocked({"BZPOPMIN", "z", "0"});
  Client second = Blocked({"BZPOPMAX", "z", "0"});
  Client third = Blocked({"BZPOPMIN", "z", "0"});
  InTransaction({{"ZADD", "z", "0", "a"}, {"ZADD", "z", "1", "b"}, {"ZADD", "z", "2", "c"}});
  EXPECT_EQ(first.Read(), Bulks({"z", "a", "0"}));
  EXPECT_EQ(second.Read(), Bulks({"z", "c", "2"}));
  EXPECT_EQ(third.Read(), Bulks({"z", "b", "1"}));
}

TEST_F(ZsetBlockingTest, ListAndSortedSetWaitersOnOneKeyWaitForTheirOwnType) {
  Client zwaiter = Blocked({"BZPOPMIN", "k", "0"});
  Client lwaiter = Blocked({"BLPOP", "k", "0"});
  c()({"RPUSH", "k", "v"});
  EXPECT_EQ(lwaiter.Read(), Bulks({"k", "v"}));
  EXPECT_EQ(ClientsInfo("blocked_clients"), 1);
  c()({"ZADD", "k", "5", "m"});
  EXPECT_EQ(zwaiter.Read(), Bulks({"k", "m", "5"}));
}

TEST_F(ZsetBlockingTest, ZaddAndDelInATransactionServesNoOne) {
  Client waiter = Blocked({"BZMPOP", "0", "1", "zset", "MIN"});
  InTransaction({{"ZADD", "zset", "0", "foo"}, {"DEL", "zset"}, {"SET", "zset", "foo"}});
  c()({"DEL", "zset"});
  c()({"ZADD", "zset", "1", "bar"});
  EXPECT_EQ(waiter.Read(), Array({Bulk("zset"), Array({Bulks({"bar", "1"})})}));
}

TEST_F(ZsetBlockingTest, ZmpopShapes) {
  c()({"ZADD", "z3", "1", "a"});
  c()({"ZADD", "z4", "1", "a", "2", "b", "3", "c", "4", "d", "5", "e"});
  EXPECT_EQ(c().Raw({"ZMPOP", "1", "none", "MIN"}), "*-1\r\n");
  EXPECT_EQ(c().Raw({"ZMPOP", "1", "z3", "MAX"}),
            "*2\r\n$2\r\nz3\r\n*1\r\n*2\r\n$1\r\na\r\n$1\r\n1\r\n");
  EXPECT_EQ(c()({"ZMPOP", "2", "z3", "z4", "min", "COUNT", "2"}),
            Array({Bulk("z4"), Array({Bulks({"a", "1"}), Bulks({"b", "2"})})}));
  EXPECT_EQ(c()({"ZMPOP", "1", "z4", "MAX", "count", "10"}),
            Array({Bulk("z4"), Array({Bulks({"e", "5"}), Bulks({"d", "4"}), Bulks({"c", "3"})})}));
  EXPECT_EQ(c()({"EXISTS", "z3", "z4"}), Int(0));
  c()({"HELLO", "3"});
  c()({"ZADD", "z", "1.5", "a"});
  EXPECT_EQ(c().Raw({"ZMPOP", "1", "none", "MIN"}), "_\r\n");
  EXPECT_EQ(c().Raw({"BZMPOP", "0", "1", "z", "MIN"}),
            "*2\r\n$1\r\nz\r\n*1\r\n*2\r\n$1\r\na\r\n,1.5\r\n");
  EXPECT_EQ(c().Raw({"BZMPOP", "0.01", "1", "z", "MIN"}), "_\r\n");
  EXPECT_EQ(c().Raw({"BZPOPMIN", "z", "0.01"}), "_\r\n");
}

TEST_F(ZsetBlockingTest, TimeoutsAnswerANullArray) {
  EXPECT_EQ(c().Raw({"BZPOPMIN", "z", "0.01"}), "*-1\r\n");
  EXPECT_EQ(c().Raw({"BZPOPMAX", "z", "z2", "0.001"}), "*-1\r\n");
  EXPECT_EQ(c().Raw({"BZMPOP", "0.01", "2", "z", "z2", "MAX", "COUNT", "2"}), "*-1\r\n");
}

TEST_F(ZsetBlockingTest, WrongTypeAndArgumentErrors) {
  c()({"SET", "foo", "bar"});
  EXPECT_EQ(c()({"BZPOPMIN", "foo", "1"}), Error(kWrongType));
  EXPECT_EQ(c()({"BZPOPMAX", "none", "foo", "1"}), Error(kWrongType));
  EXPECT_EQ(c()({"BZMPOP", "1", "2", "none", "foo", "MIN"}), Error(kWrongType));
  EXPECT_EQ(c()({"ZMPOP", "2", "foo", "none", "MAX", "COUNT", "1"}), Error(kWrongType));
  EXPECT_EQ(c()({"BZPOPMIN", "foo", "x"}), Error("ERR timeout is not a float or out of range"));
  EXPECT_EQ(c()({"BZPOPMIN", "z", "-1"}), Error("ERR timeout is negative"));
  EXPECT_EQ(c()({"BZPOPMIN", "z"}), Error("ERR wrong number of arguments for 'bzpopmin' command"));
  ExpectMpopArgumentErrors("ZMPOP", "1", "z", "MIN", {"0", "a", "-1"},
                           {{"1", "z", "bad_where"},
                            {"1", "z", "MIN", "bar_arg"},
                            {"1", "z", "MAX", "MIN"},
                            {"1", "z", "COUNT"},
                            {"1", "z", "MIN", "COUNT", "1", "COUNT", "2"},
                            {"2", "z", "z2", "bad_arg"}});
}

TEST_F(ZsetBlockingTest, BzmpopServesInBlockingOrder) {
  Client c1 = Blocked({"BZMPOP", "0", "2", "myzset", "myzset2", "MIN", "COUNT", "1"});
  Client c2 = Blocked({"BZMPOP", "0", "2", "myzset", "myzset2", "MAX", "COUNT", "10"});
  Client c3 = Blocked({"BZMPOP", "0", "2", "myzset", "myzset2", "MIN", "COUNT", "10"});
  Client c4 = Blocked({"BZMPOP", "0", "2", "myzset", "myzset2", "MAX", "COUNT", "1"});
  InTransaction({{"ZADD", "myzset", "1", "a", "2", "b", "3", "c", "4", "d", "5", "e"},
                 {"ZADD", "myzset2", "1", "a", "2", "b", "3", "c", "4", "d", "5", "e"}});
  auto pairs = [](std::vector<std::pair<std::string, std::string>> items) {
    std::vector<Reply> out;
    for (auto& [m, s] : items) out.push_back(Bulks({m, s}));
    return Array(std::move(out));
  };
  EXPECT_EQ(c1.Read(), Array({Bulk("myzset"), pairs({{"a", "1"}})}));
  EXPECT_EQ(c2.Read(),
            Array({Bulk("myzset"), pairs({{"e", "5"}, {"d", "4"}, {"c", "3"}, {"b", "2"}})}));
  EXPECT_EQ(c3.Read(),
            Array({Bulk("myzset2"),
                   pairs({{"a", "1"}, {"b", "2"}, {"c", "3"}, {"d", "4"}, {"e", "5"}})}));
  c()({"ZADD", "myzset2", "1", "a", "2", "b", "3", "c"});
  EXPECT_EQ(c4.Read(), Array({Bulk("myzset2"), pairs({{"c", "3"}})}));
}

TEST_F(ZsetBlockingTest, NonKeyArgumentsDoNotServe) {
  Client c1 = Blocked({"BZMPOP", "0", "1", "myzset", "MIN", "COUNT", "10"});
  Client c2 = Blocked({"BZMPOP", "0", "2", "myzset2", "myzset3", "MAX", "COUNT", "10"});
  for (std::string key : {"0", "1", "2", "min", "max", "count", "10"}) {
    c().Call({"ZADD", key, "100", "v"});
  }
  EXPECT_EQ(ClientsInfo("blocked_clients"), 2);
  c()({"ZADD", "myzset", "1", "zset"});
  c()({"ZADD", "myzset3", "1", "zset3"});
  EXPECT_EQ(c1.Read(), Array({Bulk("myzset"), Array({Bulks({"zset", "1"})})}));
  EXPECT_EQ(c2.Read(), Array({Bulk("myzset3"), Array({Bulks({"zset3", "1"})})}));
}

TEST_F(ZsetBlockingTest, InsideATransactionNothingBlocks) {
  c()({"MULTI"});
  c()({"BZPOPMIN", "z", "0"});
  c()({"BZMPOP", "0", "1", "z", "MAX"});
  EXPECT_EQ(c().Raw({"EXEC"}), "*2\r\n*-1\r\n*-1\r\n");
  EXPECT_EQ(c()({"EVAL", "return redis.call('BZMPOP', 0, 1, 'z', 'MIN')", "0"}), Nil());
}

TEST_F(ZsetBlockingTest, ReplicatedAsZpop) {
  ReplicationStream stream(port());
  stream.FullSync();
  c()({"ZADD", "myzset", "1", "one", "2", "two", "3", "three"});
  c()({"ZADD", "myzset2", "4", "four", "5", "five", "6", "six"});
  c()({"BZMPOP", "0", "1", "myzset", "MIN"});
  c()({"BZMPOP", "0", "2", "myzset", "myzset2", "MAX", "COUNT", "10"});
  c()({"ZMPOP", "2", "myzset", "myzset2", "MAX", "COUNT", "10"});
  c()({"ZMPOP", "2", "myzset", "myzset2", "MAX", "COUNT", "10"});  // nothing left
  Client waiter = Blocked({"BZPOPMAX", "z", "0"});
  c()({"ZADD", "z", "1", "one", "2", "two"});
  EXPECT_EQ(waiter.Read(), Bulks({"z", "two", "2"}));
  Client mwaiter = Blocked({"BZMPOP", "0", "2", "a", "b", "MIN", "COUNT", "5"});
  c()({"ZADD", "b", "1", "one", "2", "two"});
  EXPECT_EQ(mwaiter.Read(), Array({Bulk("b"), Array({Bulks({"one", "1"}), Bulks({"two", "2"})})}));
  c()({"SET", "marker", "1"});
  const std::vector<Args> expected = {
      {"SELECT", "0"},
      {"ZADD", "myzset", "1", "one", "2", "two", "3", "three"},
      {"ZADD", "myzset2", "4", "four", "5", "five", "6", "six"},
      {"ZPOPMIN", "myzset", "1"},
      {"ZPOPMAX", "myzset", "2"},
      {"ZPOPMAX", "myzset2", "3"},
      {"ZADD", "z", "1", "one", "2", "two"},
      {"ZPOPMAX", "z"},
      {"ZADD", "b", "1", "one", "2", "two"},
      {"ZPOPMIN", "b", "2"},
      {"SET", "marker", "1"},
  };
  for (const Args& e : expected) EXPECT_EQ(stream.Next(), e);
}

}  // namespace
}  // namespace redlab::conformance
