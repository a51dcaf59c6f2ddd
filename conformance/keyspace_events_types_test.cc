// Keyspace notifications of the data types' commands: each command's event names, emitted only
// when something changed, in Redis's order (a "new" key first, a "del" when the command left
// the key empty, both halves of the commands that touch two keys).
#include "conformance/keyspace_events_fixture.h"

namespace redlab::conformance {
namespace {

class KeyspaceTypeEventsTest : public KeyspaceEventsTest {
 protected:
  void SetUp() override {
    KeyspaceEventsTest::SetUp();
    Notify("EAn");
  }
};

TEST_F(KeyspaceTypeEventsTest, StringsSet) {
  Run({"SET", "s", "1"}, Status("OK"));
  Run({"SET", "s", "2", "EX", "100"}, Status("OK"));
  Run({"SET", "s", "3", "NX"}, Nil());
  Run({"SET", "t", "3", "XX"}, Nil());
  Run({"SET", "s", "4", "GET"}, Bulk("2"));
  Run({"SETNX", "s", "5"}, Int(0));
  Run({"SETEX", "e", "100", "v"}, Status("OK"));
  Run({"PSETEX", "e", "100000", "v"}, Status("OK"));
  Run({"GETSET", "s", "6"}, Bulk("4"));
  EXPECT_EQ(Events(), (Strings{Ev("new", "s"), Ev("set", "s"), Ev("set", "s"), Ev("expire", "s"),
                               Ev("set", "s"), Ev("new", "e"), Ev("set", "e"), Ev("expire", "e"),
                               Ev("set", "e"), Ev("expire", "e"), Ev("set", "s")}));
  Run({"MSET", "a", "1", "b", "2", "a", "3"}, Status("OK"));
  Run({"MSETNX", "a", "1", "c", "1"}, Int(0));
  Run({"MSETNX", "c", "1", "d", "1"}, Int(1));
  EXPECT_EQ(Events(),
            (Strings{Ev("new", "a"), Ev("set", "a"), Ev("new", "b"), Ev("set", "b"), Ev("set", "a"),
                     Ev("new", "c"), Ev("set", "c"), Ev("new", "d"), Ev("set", "d")}));
}

TEST_F(KeyspaceTypeEventsTest, StringsComputed) {
  Run({"INCR", "i"}, Int(1));
  Run({"INCRBY", "i", "5"}, Int(6));
  Run({"DECR", "i"}, Int(5));
  Run({"DECRBY", "i", "2"}, Int(3));
  Run({"INCRBYFLOAT", "i", "1.5"}, Bulk("4.5"));
  Run({"INCR", "i"}, Error("ERR value is not an integer or out of range"));
  Run({"APPEND", "a", "x"}, Int(1));
  Run({"APPEND", "a", "y"}, Int(2));
  Run({"SETRANGE", "r", "2", "x"}, Int(3));
  Run({"SETRANGE", "r", "0", ""}, Int(3));
  Run({"SETRANGE", "n", "0", ""}, Int(0));
  EXPECT_EQ(Events(),
            (Strings{Ev("new", "i"), Ev("incrby", "i"), Ev("incrby", "i"), Ev("incrby", "i"),
                     Ev("incrby", "i"), Ev("incrbyfloat", "i"), Ev("new", "a"), Ev("append", "a"),
                     Ev("append", "a"), Ev("new", "r"), Ev("setrange", "r")}));
  // GETEX and GETDEL notify as the expiry or deletion they perform.
  Run({"GETEX", "a", "EX", "100"}, Bulk("xy"));
  Run({"GETEX", "a", "PERSIST"}, Bulk("xy"));
  Run({"GETEX", "a", "PERSIST"}, Bulk("xy"));
  Run({"GETEX", "a"}, Bulk("xy"));
  Run({"GETEX", "a", "PXAT", "1"}, Bulk("xy"));
  Run({"GETDEL", "r"}, Bulk(std::string("\0\0x", 3)));
  Run({"GETDEL", "r"}, Nil());
  EXPECT_EQ(Events(),
            (Strings{Ev("expire", "a"), Ev("persist", "a"), Ev("del", "a"), Ev("del", "r")}));
}

TEST_F(KeyspaceTypeEventsTest, Bitmaps) {
  Run({"SETBIT", "b", "7", "1"}, Int(0));
  Run({"SETBIT", "b", "7", "1"}, Int(1));  // unchanged
  Run({"SETBIT", "b", "7", "0"}, Int(1));
  Run({"SETBIT", "b", "100", "0"}, Int(0));  // grows the string: a change
  Run({"BITFIELD", "f", "SET", "u8", "0", "1"}, Array({Int(0)}));
  Run({"BITFIELD", "f", "SET", "u8", "0", "1"}, Array({Int(1)}));
  Run({"BITFIELD", "f", "GET", "u8", "0", "INCRBY", "u8", "8", "1", "INCRBY", "u8", "16", "1"},
      Array({Int(1), Int(1), Int(1)}));
  Run({"BITOP", "OR", "o", "b", "f"}, Int(13));
  Run({"BITOP", "OR", "o", "nope"}, Int(0));
  Run({"BITOP", "OR", "o", "nope"}, Int(0));
  EXPECT_EQ(Events(), (Strings{Ev("new", "b"), Ev("setbit", "b"), Ev("setbit", "b"),
                               Ev("setbit", "b"), Ev("new", "f"), Ev("setbit", "f"),
                               Ev("setbit", "f"), Ev("new", "o"), Ev("set", "o"), Ev("del", "o")}));
}

TEST_F(KeyspaceTypeEventsTest, ListsPushAndPop) {
  Run({"LPUSH", "l", "a", "b"}, Int(2));
  Run({"RPUSH", "l", "c"}, Int(3));
  Run({"LPUSHX", "nope", "a"}, Int(0));
  Run({"RPUSHX", "l", "d"}, Int(4));
  Run({"LPOP", "l"}, Bulk("b"));
  Run({"RPOP", "l", "2"}, Array({Bulk("d"), Bulk("c")}));
  Run({"LPOP", "l", "0"}, Array({}));
  Run({"RPOP", "l"}, Bulk("a"));
  Run({"LPOP", "l"}, Nil());
  EXPECT_EQ(Events(), (Strings{Ev("new", "l"), Ev("lpush", "l"), Ev("rpush", "l"), Ev("rpush", "l"),
                               Ev("lpop", "l"), Ev("rpop", "l"), Ev("rpop", "l"), Ev("del", "l")}));
  Run({"RPUSH", "m", "1", "2", "3"}, Int(3));
  Run({"LMPOP", "2", "nope", "m", "RIGHT", "COUNT", "2"},
      Array({Bulk("m"), Array({Bulk("3"), Bulk("2")})}));
  Run({"LMPOP", "1", "m", "LEFT", "COUNT", "9"}, Array({Bulk("m"), Array({Bulk("1")})}));
  EXPECT_EQ(Events(), (Strings{Ev("new", "m"), Ev("rpush", "m"), Ev("rpop", "m"), Ev("lpop", "m"),
                               Ev("del", "m")}));
}

TEST_F(KeyspaceTypeEventsTest, ListsEdited) {
  Run({"RPUSH", "l", "a", "b", "a"}, Int(3));
  Run({"LINSERT", "l", "BEFORE", "b", "x"}, Int(4));
  Run({"LINSERT", "l", "AFTER", "nope", "x"}, Int(-1));
  Run({"LSET", "l", "0", "y"}, Status("OK"));
  Run({"LSET", "l", "9", "y"}, Error("ERR index out of range"));
  Run({"LREM", "l", "0", "nope"}, Int(0));
  Run({"LREM", "l", "0", "a"}, Int(1));
  Run({"LTRIM", "l", "0", "-1"}, Status("OK"));  // trims nothing, notifies all the same
  Run({"LTRIM", "l", "1", "1"}, Status("OK"));
  Run({"LREM", "l", "0", "x"}, Int(1));
  EXPECT_EQ(Events(), (Strings{Ev("new", "l"), Ev("rpush", "l"), Ev("linsert", "l"),
                               Ev("lset", "l"), Ev("lrem", "l"), Ev("ltrim", "l"), Ev("ltrim", "l"),
                               Ev("lrem", "l"), Ev("del", "l")}));
  Run({"RPUSH", "l", "a"}, Int(1));
  Run({"LTRIM", "l", "5", "9"}, Status("OK"));
  EXPECT_EQ(Events(),
            (Strings{Ev("new", "l"), Ev("rpush", "l"), Ev("ltrim", "l"), Ev("del", "l")}));
}

// RPOPLPUSH and LMOVE: the push on the destination, then the pop on the source (and its "del").
TEST_F(KeyspaceTypeEventsTest, ListsMoved) {
  Run({"RPUSH", "s", "1", "2"}, Int(2));
  Run({"RPOPLPUSH", "s", "d"}, Bulk("2"));
  Run({"LMOVE", "s", "d", "LEFT", "RIGHT"}, Bulk("1"));
  Run({"RPOPLPUSH", "s", "d"}, Nil());
  Run({"LMOVE", "d", "d", "LEFT", "RIGHT"}, Bulk("2"));  // a rotation keeps the key
  EXPECT_EQ(Events(), (Strings{Ev("new", "s"), Ev("rpush", "s"), Ev("new", "d"), Ev("lpush", "d"),
                               Ev("rpop", "s"), Ev("rpush", "d"), Ev("lpop", "s"), Ev("del", "s"),
                               Ev("rpush", "d"), Ev("lpop", "d")}));
}

TEST_F(KeyspaceTypeEventsTest, Sets) {
  Run({"SADD", "s", "a", "b", "c"}, Int(3));
  Run({"SADD", "s", "a"}, Int(0));
  Run({"SREM", "s", "nope"}, Int(0));
  Run({"SREM", "s", "a"}, Int(1));
  Run({"SREM", "s", "b", "c", "d"}, Int(2));
  EXPECT_EQ(Events(), (Strings{Ev("new", "s"), Ev("sadd", "s"), Ev("srem", "s"), Ev("srem", "s"),
                               Ev("del", "s")}));
  Run({"SADD", "p", "x"}, Int(1));
  Run({"SPOP", "p"}, Bulk("x"));
  Run({"SADD", "p", "1", "2", "3"}, Int(3));
  Run({"SPOP", "p", "0"}, Array({}));
  Reply two = c()({"SPOP", "p", "2"});
  EXPECT_EQ(two.elements.size(), 2u);
  Reply rest = c()({"SPOP", "p", "5"});
  EXPECT_EQ(rest.elements.size(), 1u);
  EXPECT_EQ(Events(), (Strings{Ev("new", "p"), Ev("sadd", "p"), Ev("spop", "p"), Ev("del", "p"),
                               Ev("new", "p"), Ev("sadd", "p"), Ev("spop", "p"), Ev("spop", "p"),
                               Ev("del", "p")}));
}

// SMOVE: "srem" (and "del") on the source, then "sadd" on the destination when it gained the
// member.
TEST_F(KeyspaceTypeEventsTest, SetsMoved) {
  Run({"SADD", "x", "1", "2"}, Int(2));
  Run({"SADD", "y", "2"}, Int(1));
  Run({"SMOVE", "x", "y", "2"}, Int(1));
  Run({"SMOVE", "x", "z", "1"}, Int(1));
  Run({"SMOVE", "y", "y", "2"}, Int(1));
  Run({"SMOVE", "nope", "y", "2"}, Int(0));
  EXPECT_EQ(Events(), (Strings{Ev("new", "x"), Ev("sadd", "x"), Ev("new", "y"), Ev("sadd", "y"),
                               Ev("srem", "x"), Ev("srem", "x"), Ev("del", "x"), Ev("new", "z"),
                               Ev("sadd", "z")}));
}

TEST_F(KeyspaceTypeEventsTest, SetsStored) {
  Run({"SADD", "a", "1", "2"}, Int(2));
  Run({"SADD", "b", "2", "3"}, Int(2));
  Run({"SINTERSTORE", "d", "a", "b"}, Int(1));
  Run({"SUNIONSTORE", "d", "a", "b"}, Int(3));
  Run({"SDIFFSTORE", "d", "a", "b"}, Int(1));
  Run({"SDIFFSTORE", "d", "a", "a"}, Int(0));
  Run({"SUNIONSTORE", "d", "nope"}, Int(0));
  Run({"SINTERSTORE", "d", "a", "b"}, Int(1));
  Run({"SINTERSTORE", "d", "a", "nope"}, Int(0));
  EXPECT_EQ(Events(), (Strings{Ev("new", "a"), Ev("sadd", "a"), Ev("new", "b"), Ev("sadd", "b"),
                               Ev("new", "d"), Ev("sinterstore", "d"), Ev("sunionstore", "d"),
                               Ev("sdiffstore", "d"), Ev("del", "d"), Ev("new", "d"),
                               Ev("sinterstore", "d"), Ev("del", "d")}));
}

TEST_F(KeyspaceTypeEventsTest, SortedSetsAdded) {
  Run({"ZADD", "z", "1", "a", "2", "b"}, Int(2));
  Run({"ZADD", "z", "1", "a"}, Int(0));  // no change, no event
  Run({"ZADD", "z", "CH", "5", "a"}, Int(1));
  Run({"ZADD", "nope", "XX", "1", "a"}, Int(0));
  Run({"ZADD", "z", "GT", "0", "a"}, Int(0));
  Run({"ZINCRBY", "z", "1", "a"}, Bulk("6"));
  Run({"ZADD", "z", "INCR", "1", "b"}, Bulk("3"));
  Run({"ZADD", "z", "NX", "INCR", "1", "b"}, Nil());
  EXPECT_EQ(Events(), (Strings{Ev("new", "z"), Ev("zadd", "z"), Ev("zadd", "z"), Ev("zincr", "z"),
                               Ev("zincr", "z")}));
  Run({"ZREM", "z", "nope"}, Int(0));
  Run({"ZREM", "z", "a"}, Int(1));
  Run({"ZREM", "z", "b", "c"}, Int(1));
  EXPECT_EQ(Events(), (Strings{Ev("zrem", "z"), Ev("zrem", "z"), Ev("del", "z")}));
}

TEST_F(KeyspaceTypeEventsTest, SortedSetsRemovedByRange) {
  Run({"ZADD", "z", "1", "a", "2", "b", "3", "c", "4", "d"}, Int(4));
  Run({"ZREMRANGEBYSCORE", "z", "10", "20"}, Int(0));
  Run({"ZREMRANGEBYSCORE", "z", "1", "1"}, Int(1));
  Run({"ZREMRANGEBYRANK", "z", "0", "0"}, Int(1));
  Run({"ZREMRANGEBYLEX", "z", "[c", "[c"}, Int(1));
  Run({"ZREMRANGEBYRANK", "z", "0", "-1"}, Int(1));
  EXPECT_EQ(Events(), (Strings{Ev("new", "z"), Ev("zadd", "z"), Ev("zremrangebyscore", "z"),
                               Ev("zremrangebyrank", "z"), Ev("zremrangebylex", "z"),
                               Ev("zremrangebyrank", "z"), Ev("del", "z")}));
}

TEST_F(KeyspaceTypeEventsTest, SortedSetsPopped) {
  Run({"ZADD", "z", "1", "a", "2", "b", "3", "c", "4", "d"}, Int(4));
  Run({"ZPOPMIN", "z"}, Array({Bulk("a"), Bulk("1")}));
  Run({"ZPOPMAX", "z", "1"}, Array({Bulk("d"), Bulk("4")}));
  Run({"ZPOPMIN", "z", "0"}, Array({}));
  Run({"BZPOPMIN", "nope", "z", "0"}, Array({Bulk("z"), Bulk("b"), Bulk("2")}));
  Run({"ZMPOP", "1", "z", "MAX", "COUNT", "5"},
      Array({Bulk("z"), Array({Array({Bulk("c"), Bulk("3")})})}));
  Run({"ZPOPMIN", "z"}, Array({}));
  EXPECT_EQ(Events(),
            (Strings{Ev("new", "z"), Ev("zadd", "z"), Ev("zpopmin", "z"), Ev("zpopmax", "z"),
                     Ev("zpopmin", "z"), Ev("zpopmax", "z"), Ev("del", "z")}));
}

TEST_F(KeyspaceTypeEventsTest, SortedSetsStored) {
  Run({"ZADD", "a", "1", "x", "2", "y"}, Int(2));
  Run({"ZADD", "b", "1", "y"}, Int(1));
  Run({"ZUNIONSTORE", "d", "2", "a", "b"}, Int(2));
  Run({"ZINTERSTORE", "d", "2", "a", "b"}, Int(1));
  Run({"ZDIFFSTORE", "d", "2", "a", "b"}, Int(1));
  Run({"ZDIFFSTORE", "d", "2", "a", "a"}, Int(0));
  Run({"ZDIFFSTORE", "d", "2", "a", "a"}, Int(0));
  Run({"ZRANGESTORE", "r", "a", "0", "-1"}, Int(2));
  Run({"ZRANGESTORE", "r", "a", "5", "6"}, Int(0));
  Run({"ZRANGESTORE", "r", "nope", "0", "-1"}, Int(0));
  EXPECT_EQ(Events(), (Strings{Ev("new", "a"), Ev("zadd", "a"), Ev("new", "b"), Ev("zadd", "b"),
                               Ev("new", "d"), Ev("zunionstore", "d"), Ev("zinterstore", "d"),
                               Ev("zdiffstore", "d"), Ev("del", "d"), Ev("new", "r"),
                               Ev("zrangestore", "r"), Ev("del", "r")}));
}

TEST_F(KeyspaceTypeEventsTest, Hashes) {
  Run({"HSET", "h", "a", "1", "b", "2"}, Int(2));
  Run({"HSET", "h", "a", "1"}, Int(0));  // notifies although nothing changed
  Run({"HMSET", "h", "c", "3"}, Status("OK"));
  Run({"HSETNX", "h", "a", "9"}, Int(0));
  Run({"HSETNX", "h", "d", "9"}, Int(1));
  Run({"HINCRBY", "h", "n", "2"}, Int(2));
  Run({"HINCRBYFLOAT", "h", "n", "0.5"}, Bulk("2.5"));
  Run({"HINCRBY", "h", "n", "1"}, Error("ERR hash value is not an integer"));
  Run({"HDEL", "h", "nope"}, Int(0));
  Run({"HDEL", "h", "a"}, Int(1));
  Run({"HDEL", "h", "b", "c", "d", "n", "zz"}, Int(4));
  EXPECT_EQ(Events(), (Strings{Ev("new", "h"), Ev("hset", "h"), Ev("hset", "h"), Ev("hset", "h"),
                               Ev("hset", "h"), Ev("hincrby", "h"), Ev("hincrbyfloat", "h"),
                               Ev("hdel", "h"), Ev("hdel", "h"), Ev("del", "h")}));
}

}  // namespace
}  // namespace redlab::conformance
