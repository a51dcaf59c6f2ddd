// Keyspace notifications (notify-keyspace-events): the setting's letters and normal form, the two
// channel kinds byte for byte in RESP2 and RESP3, class masking, the "new", "keymiss", "expired"
// and "evicted" events, the generic commands' events, blocked pops served by a push, and events
// from transactions and scripts as their commands run. The data types' commands are in
// keyspace_events_types_test.cc.
#include "conformance/keyspace_events_fixture.h"

namespace redlab::conformance {
namespace {

Reply ConfigValue(std::string value) {
  return Array({Bulk("notify-keyspace-events"), Bulk(std::move(value))});
}

TEST_F(KeyspaceEventsTest, SettingIsShownInItsNormalForm) {
  EXPECT_EQ(c()({"CONFIG", "GET", "notify-keyspace-events"}), ConfigValue(""));
  const std::pair<std::string, std::string> cases[] = {
      {"Kx", "xK"},   {"gKE", "gKE"},    {"$lshzxeKE", "$lshzxeKE"},
      {"KA", "AK"},   {"EA", "AE"},      {"g$lshzxetd", "A"},  // every class A stands for
      {"Kxn", "xnK"}, {"AnKE", "AKE"},  // n is on, but A's form does not show it
      {"mK", "Km"},   {"KEAmn", "AKEm"}, {"", ""},
  };
  for (const auto& [set, shown] : cases) {
    SCOPED_TRACE(set);
    EXPECT_EQ(c()({"CONFIG", "SET", "notify-keyspace-events", set}), Status("OK"));
    EXPECT_EQ(c()({"CONFIG", "GET", "notify-keyspace-events"}), ConfigValue(shown));
  }
  Notify("Kx");
  for (std::string bad : {"Kq", "K E", "a"}) {
    EXPECT_EQ(c()({"CONFIG", "SET", "notify-keyspace-events", bad}),
              Error("ERR CONFIG SET failed (possibly related to argument 'notify-keyspace-events') "
                    "- Invalid event class character. Use 'Ag$lshzxeKEtmdn'."));
  }
  EXPECT_EQ(c()({"CONFIG", "GET", "notify-keyspace-events"}), ConfigValue("xK"));
}

TEST_F(KeyspaceEventsTest, NothingIsPublishedByDefault) {
  Run({"SET", "k", "v"}, Status("OK"));
  Run({"DEL", "k"}, Int(1));
  EXPECT_EQ(Events(), Strings{});
  // A class without a channel kind publishes nothing either, nor a channel kind alone.
  Notify("A");
  Run({"SET", "k", "v"}, Status("OK"));
  Notify("KE");
  Run({"SET", "k", "v"}, Status("OK"));
  EXPECT_EQ(Events(), Strings{});
}

// The exact bytes a subscriber of each channel gets, by name and by pattern, in RESP2 and as
// RESP3 pushes; keyspace first, then keyevent.
TEST_F(KeyspaceEventsTest, BothChannelKindsByteForByte) {
  Notify("KE$");
  Client resp2 = Connect();
  resp2.SendCommand({"SUBSCRIBE", "__keyspace@0__:foo", "__keyevent@0__:set"});
  resp2.ReadRaw();
  resp2.ReadRaw();
  Client resp3 = Connect();
  ASSERT_EQ(resp3({"HELLO", "3"}).type, Reply::Type::kMap);
  resp3.SendCommand({"PSUBSCRIBE", "__key*@0__:*"});
  resp3.ReadRaw();
  Run({"SET", "foo", "bar"}, Status("OK"));
  EXPECT_EQ(resp2.ReadRaw(), "*3\r\n$7\r\nmessage\r\n$18\r\n__keyspace@0__:foo\r\n$3\r\nset\r\n");
  EXPECT_EQ(resp2.ReadRaw(), "*3\r\n$7\r\nmessage\r\n$18\r\n__keyevent@0__:set\r\n$3\r\nfoo\r\n");
  EXPECT_EQ(resp3.ReadRaw(),
            ">4\r\n$8\r\npmessage\r\n$12\r\n__key*@0__:*\r\n$18\r\n__keyspace@0__:foo\r\n$3\r\n"
            "set\r\n");
  EXPECT_EQ(resp3.ReadRaw(),
            ">4\r\n$8\r\npmessage\r\n$12\r\n__key*@0__:*\r\n$18\r\n__keyevent@0__:set\r\n$3\r\n"
            "foo\r\n");
  EXPECT_EQ(Events(), (Strings{Ks("foo", "set"), Ev("set", "foo")}));
}

// A RESP3 client gets the events of its own commands as pushes where Redis writes them: before
// the reply, or within it (ZPOPMIN notifies once it has written the reply's header).
TEST_F(KeyspaceEventsTest, OwnEventsArriveAmongOwnReplies) {
  Notify("Ez");
  ASSERT_EQ(c()({"HELLO", "3"}).type, Reply::Type::kMap);
  c().SendCommand({"SUBSCRIBE", "__keyevent@0__:zpopmin"});
  c().ReadRaw();
  Run({"ZADD", "z", "1", "a", "2", "b"}, Int(2));
  // (Read as two values: the reader takes the push for the array's first element.)
  c().SendCommand({"ZPOPMIN", "z", "2"});
  std::string got = c().ReadRaw();
  got += c().ReadRaw();
  EXPECT_EQ(got,
            "*2\r\n>3\r\n$7\r\nmessage\r\n$22\r\n__keyevent@0__:zpopmin\r\n$1\r\nz\r\n"
            "*2\r\n$1\r\na\r\n,1\r\n*2\r\n$1\r\nb\r\n,2\r\n");
  EXPECT_EQ(Events(), (Strings{Ev("zadd", "z"), Ev("zpopmin", "z")}));  // (no g: no "del")
}

TEST_F(KeyspaceEventsTest, ChannelsNameTheKeysDatabase) {
  Notify("KEg");
  Run({"SELECT", "9"}, Status("OK"));
  Run({"SET", "k", "v"}, Status("OK"));
  Run({"EXPIRE", "k", "100"}, Int(1));
  EXPECT_EQ(Events(), (Strings{Ks("k", "expire", 9), Ev("expire", "k", 9)}));
}

TEST_F(KeyspaceEventsTest, OnlyEnabledClassesArePublished) {
  Notify("KEl");
  Run({"SET", "s", "v"}, Status("OK"));
  Run({"LPUSH", "l", "a"}, Int(1));
  Run({"DEL", "s"}, Int(1));
  EXPECT_EQ(Events(), (Strings{Ks("l", "lpush"), Ev("lpush", "l")}));
  Notify("Kg");
  Run({"LPUSH", "l", "b"}, Int(2));
  Run({"DEL", "l"}, Int(1));
  EXPECT_EQ(Events(), (Strings{Ks("l", "del")}));
}

// "new" (class n, which A does not include) comes when a key is created, before the event of
// the command that created it; RENAME, MOVE, COPY and RESTORE create their destination anew.
TEST_F(KeyspaceEventsTest, NewKeys) {
  Notify("EA");
  Run({"SET", "a", "1"}, Status("OK"));
  EXPECT_EQ(Events(), (Strings{Ev("set", "a")}));
  Notify("En");
  Run({"SET", "a", "2"}, Status("OK"));
  Run({"SET", "b", "1"}, Status("OK"));
  Run({"LPUSH", "l", "x"}, Int(1));
  Run({"LPUSH", "l", "y"}, Int(2));
  EXPECT_EQ(Events(), (Strings{Ev("new", "b"), Ev("new", "l")}));
  Notify("EAn");
  Run({"RENAME", "a", "b"}, Status("OK"));
  Run({"COPY", "b", "c", "REPLACE"}, Int(1));
  Run({"COPY", "b", "c", "REPLACE"}, Int(1));
  Run({"MOVE", "c", "3"}, Int(1));
  EXPECT_EQ(Events(),
            (Strings{Ev("new", "b"), Ev("rename_from", "a"), Ev("rename_to", "b"), Ev("new", "c"),
                     Ev("copy_to", "c"), Ev("new", "c"), Ev("copy_to", "c"), Ev("new", "c", 3),
                     Ev("move_from", "c"), Ev("move_to", "c", 3)}));
  // A snapshot's keys are loaded, not created.
  Run({"DEBUG", "RELOAD"}, Status("OK"));
  Run({"DEBUG", "POPULATE", "2", "p"}, Status("OK"));
  EXPECT_EQ(Events(), (Strings{Ev("new", "p:0"), Ev("new", "p:1")}));
}

// "keymiss" (class m, not in A): a read that finds no key. OBJECT looks without it, writes never
// report a miss.
TEST_F(KeyspaceEventsTest, KeyMisses) {
  Notify("Em");
  Run({"GET", "a"}, Nil());
  Run({"EXISTS", "b", "c"}, Int(0));
  Run({"HGET", "d", "f"}, Nil());
  Run({"OBJECT", "ENCODING", "e"}, Nil());
  Run({"LPOP", "f"}, Nil());
  Run({"SET", "g", "v"}, Status("OK"));
  Run({"GET", "g"}, Bulk("v"));
  Run({"MGET", "g", "h"}, Array({Bulk("v"), Nil()}));
  EXPECT_EQ(Events(), (Strings{Ev("keymiss", "a"), Ev("keymiss", "b"), Ev("keymiss", "c"),
                               Ev("keymiss", "d"), Ev("keymiss", "h")}));
  Notify("EA");
  Run({"GET", "a"}, Nil());
  EXPECT_EQ(Events(), Strings{});
}

TEST_F(KeyspaceEventsTest, GenericCommands) {
  Notify("KEg");
  Run({"SET", "a", "1"}, Status("OK"));
  Run({"SET", "b", "2"}, Status("OK"));
  Run({"DEL", "a", "nope", "b"}, Int(2));
  Run({"SET", "a", "1"}, Status("OK"));
  Run({"UNLINK", "a"}, Int(1));
  EXPECT_EQ(Events(), (Strings{Ks("a", "del"), Ev("del", "a"), Ks("b", "del"), Ev("del", "b"),
                               Ks("a", "del"), Ev("del", "a")}));
  Notify("Eg");
  Run({"SET", "a", "1"}, Status("OK"));
  Run({"RENAME", "a", "a"}, Status("OK"));
  Run({"RENAMENX", "a", "b"}, Int(1));
  Run({"SET", "a", "1"}, Status("OK"));
  Run({"RENAMENX", "a", "b"}, Int(0));
  Run({"MOVE", "a", "1"}, Int(1));
  Run({"MOVE", "nope", "1"}, Int(0));
  Run({"COPY", "b", "c", "DB", "2"}, Int(1));
  Run({"COPY", "b", "c", "DB", "2"}, Int(0));
  EXPECT_EQ(Events(), (Strings{Ev("rename_from", "a"), Ev("rename_to", "b"), Ev("move_from", "a"),
                               Ev("move_to", "a", 1), Ev("copy_to", "c", 2)}));
  // Expiry: a time in the past deletes; PERSIST notifies only when there was a TTL.
  Run({"EXPIRE", "b", "100"}, Int(1));
  Run({"EXPIRE", "b", "200", "NX"}, Int(0));
  Run({"PEXPIREAT", "b", "99999999999999"}, Int(1));
  Run({"PERSIST", "b"}, Int(1));
  Run({"PERSIST", "b"}, Int(0));
  Run({"EXPIREAT", "b", "1"}, Int(1));
  Run({"EXPIRE", "nope", "1"}, Int(0));
  EXPECT_EQ(Events(),
            (Strings{Ev("expire", "b"), Ev("expire", "b"), Ev("persist", "b"), Ev("del", "b")}));
}

TEST_F(KeyspaceEventsTest, RestoreAndSortStore) {
  Notify("EAn");
  Run({"RPUSH", "l", "3", "1", "2"}, Int(3));
  Reply payload = c()({"DUMP", "l"});
  ASSERT_EQ(payload.type, Reply::Type::kBulk);
  EXPECT_EQ(c()({"RESTORE", "r", "0", payload.str}), Status("OK"));
  EXPECT_EQ(c()({"RESTORE", "r", "0", payload.str, "REPLACE"}), Status("OK"));
  // Restored already expired: the replaced key is deleted, nothing is created.
  EXPECT_EQ(c()({"RESTORE", "r", "1", payload.str, "REPLACE", "ABSTTL"}), Status("OK"));
  EXPECT_EQ(Events(), (Strings{Ev("new", "l"), Ev("rpush", "l"), Ev("new", "r"), Ev("restore", "r"),
                               Ev("new", "r"), Ev("restore", "r"), Ev("del", "r")}));
  Run({"SORT", "l", "STORE", "s"}, Int(3));
  Run({"SORT", "l", "STORE", "s"}, Int(3));
  Run({"SORT", "nope", "STORE", "s"}, Int(0));
  Run({"SORT", "nope", "STORE", "s"}, Int(0));
  EXPECT_EQ(Events(),
            (Strings{Ev("new", "s"), Ev("sortstore", "s"), Ev("sortstore", "s"), Ev("del", "s")}));
}

// A key found expired by a command goes with "expired" before the command's own events (a miss
// for a read, "new" for a write that creates it again).
TEST_F(KeyspaceEventsTest, ExpiredOnAccess) {
  Notify("KExmn");
  Run({"DEBUG", "SET-ACTIVE-EXPIRE", "0"}, Status("OK"));
  Run({"SET", "a", "1", "PX", "1"}, Status("OK"));
  Run({"SET", "b", "1", "PX", "1"}, Status("OK"));
  Run({"SET", "c", "1", "PX", "1"}, Status("OK"));
  // Until the keys are past their time: three misses later, they are.
  ASSERT_TRUE(Eventually([&] { return c()({"PTTL", "c"}) == Int(-2); }));
  Run({"GET", "a"}, Nil());
  Run({"SET", "b", "2"}, Status("OK"));
  EXPECT_EQ(Events(),
            (Strings{Ks("a", "new"), Ev("new", "a"), Ks("b", "new"), Ev("new", "b"), Ks("c", "new"),
                     Ev("new", "c"), Ks("c", "expired"), Ev("expired", "c"), Ks("c", "keymiss"),
                     Ev("keymiss", "c"), Ks("a", "expired"), Ev("expired", "a"), Ks("a", "keymiss"),
                     Ev("keymiss", "a"), Ks("b", "expired"), Ev("expired", "b"), Ks("b", "new"),
                     Ev("new", "b")}));
}

// The active expire cycle finds keys without any command: the event is what the test waits on.
TEST_F(KeyspaceEventsTest, ExpiredInTheBackground) {
  Notify("Ex");
  Run({"SET", "a", "1", "PX", "1"}, Status("OK"));
  Reply r = listener_->Read();
  EXPECT_EQ(
      r, Array({Bulk("pmessage"), Bulk("__key*__:*"), Bulk("__keyevent@0__:expired"), Bulk("a")}));
  EXPECT_EQ(c()({"DBSIZE"}), Int(0));
  EXPECT_EQ(Events(), Strings{});
}

// Lowering maxmemory under the memory in use evicts at once, before any further command.
TEST_F(KeyspaceEventsTest, Evicted) {
  Notify("KEe");
  Run({"CONFIG", "SET", "maxmemory-policy", "allkeys-lru"}, Status("OK"));
  Run({"SET", "k", "v"}, Status("OK"));
  Run({"CONFIG", "SET", "maxmemory", "1"}, Status("OK"));
  EXPECT_EQ(listener_->Read(), Array({Bulk("pmessage"), Bulk("__key*__:*"),
                                      Bulk("__keyspace@0__:k"), Bulk("evicted")}));
  EXPECT_EQ(listener_->Read(), Array({Bulk("pmessage"), Bulk("__key*__:*"),
                                      Bulk("__keyevent@0__:evicted"), Bulk("k")}));
  Run({"CONFIG", "SET", "maxmemory", "0"}, Status("OK"));
  EXPECT_EQ(c()({"DBSIZE"}), Int(0));
  EXPECT_EQ(Events(), Strings{});
}

// A blocked pop served by a push notifies as the pop it performs, after the push's events.
TEST_F(KeyspaceEventsTest, ServedBlockedPops) {
  Notify("EAn");
  Client blocked = Connect();
  blocked.SendCommand({"BLPOP", "q", "0"});
  WaitBlocked(1);
  Run({"RPUSH", "q", "1", "2"}, Int(2));
  EXPECT_EQ(blocked.Read(), Array({Bulk("q"), Bulk("1")}));
  blocked.SendCommand({"BLMOVE", "m", "d", "RIGHT", "LEFT", "0"});
  WaitBlocked(1);
  Run({"LPUSH", "m", "x"}, Int(1));
  EXPECT_EQ(blocked.Read(), Bulk("x"));
  blocked.SendCommand({"BZPOPMAX", "z", "0"});
  WaitBlocked(1);
  Run({"ZADD", "z", "1", "a"}, Int(1));
  EXPECT_EQ(blocked.Read(), Array({Bulk("z"), Bulk("a"), Bulk("1")}));
  EXPECT_EQ(Events(), (Strings{Ev("new", "q"), Ev("rpush", "q"), Ev("lpop", "q"), Ev("new", "m"),
                               Ev("lpush", "m"), Ev("new", "d"), Ev("lpush", "d"), Ev("rpop", "m"),
                               Ev("del", "m"), Ev("new", "z"), Ev("zadd", "z"), Ev("zpopmax", "z"),
                               Ev("del", "z")}));
  // Blocking commands that find data act at once, with the plain pop's events.
  Run({"RPUSH", "q", "3"}, Int(2));
  Run({"BRPOP", "q", "0"}, Array({Bulk("q"), Bulk("3")}));
  Run({"BLMPOP", "0", "1", "q", "LEFT", "COUNT", "5"}, Array({Bulk("q"), Array({Bulk("2")})}));
  EXPECT_EQ(Events(),
            (Strings{Ev("rpush", "q"), Ev("rpop", "q"), Ev("lpop", "q"), Ev("del", "q")}));
}

// Inside MULTI/EXEC and scripts the events go out as each command runs.
TEST_F(KeyspaceEventsTest, TransactionsAndScripts) {
  Notify("EA");
  Run({"MULTI"}, Status("OK"));
  Run({"SET", "t", "1"}, Status("QUEUED"));
  Run({"INCR", "t"}, Status("QUEUED"));
  Run({"DEL", "t"}, Status("QUEUED"));
  Run({"EXEC"}, Array({Status("OK"), Int(2), Int(1)}));
  EXPECT_EQ(Events(), (Strings{Ev("set", "t"), Ev("incrby", "t"), Ev("del", "t")}));
  Run({"EVAL",
       "redis.call('SET', KEYS[1], 'x') redis.call('PEXPIRE', KEYS[1], 100000) "
       "return redis.call('DEL', KEYS[1])",
       "1", "s"},
      Int(1));
  EXPECT_EQ(Events(), (Strings{Ev("set", "s"), Ev("expire", "s"), Ev("del", "s")}));
}

}  // namespace
}  // namespace redlab::conformance
