// String commands that read or replace whole values: GET, SET (every option and conflict),
// SETNX, SETEX, PSETEX, GETSET, GETDEL, GETEX, MGET, MSET, MSETNX, with their expiry.
#include "conformance/string_fixture.h"

namespace redlab::conformance {
namespace {

constexpr char kWrongType[] = "WRONGTYPE Operation against a key holding the wrong kind of value";

TEST_F(StringTest, GetAndSetValues) {
  EXPECT_EQ(c().Raw({"GET", "k"}), "$-1\r\n");
  EXPECT_EQ(c().Raw({"SET", "k", "v"}), "+OK\r\n");
  EXPECT_EQ(c().Raw({"GET", "k"}), "$1\r\nv\r\n");
  EXPECT_EQ(c()({"SET", "k", "other"}), Status("OK"));
  EXPECT_EQ(c()({"GET", "k"}), Bulk("other"));
  EXPECT_EQ(c()({"SET", "", ""}), Status("OK"));  // empty key and empty value are fine
  EXPECT_EQ(c().Raw({"GET", ""}), "$0\r\n\r\n");
  std::string binary("a\0b\r\n\xff", 6);
  EXPECT_EQ(c()({"SET", binary, binary}), Status("OK"));
  EXPECT_EQ(c()({"GET", binary}), Bulk(binary));
  EXPECT_EQ(c()({"DBSIZE"}), Int(3));
}

TEST_F(StringTest, GetWrongType) {
  MakeHash("h");
  EXPECT_EQ(c()({"GET", "h"}), Error(kWrongType));
  // SET replaces a value of any type.
  EXPECT_EQ(c()({"SET", "h", "v"}), Status("OK"));
  EXPECT_EQ(c()({"GET", "h"}), Bulk("v"));
}

TEST_F(StringTest, SetNxXx) {
  EXPECT_EQ(c().Raw({"SET", "k", "1", "XX"}), "$-1\r\n");
  EXPECT_EQ(c()({"DBSIZE"}), Int(0));
  EXPECT_EQ(c()({"SET", "k", "1", "NX"}), Status("OK"));
  EXPECT_EQ(c()({"SET", "k", "2", "NX"}), Nil());
  EXPECT_EQ(c()({"GET", "k"}), Bulk("1"));
  EXPECT_EQ(c()({"SET", "k", "3", "xx"}), Status("OK"));
  EXPECT_EQ(c()({"GET", "k"}), Bulk("3"));
  EXPECT_EQ(c()({"SET", "k", "4", "nx", "nx"}), Nil());  // a repeated option is allowed
  EXPECT_EQ(c()({"SET", "k", "4", "Xx", "xX"}), Status("OK"));
}

TEST_F(StringTest, SetNxOnAnotherType) {
  MakeHash("h");
  EXPECT_EQ(c()({"SET", "h", "v", "NX"}), Nil());
  EXPECT_EQ(c()({"TYPE", "h"}), Status("hash"));
  EXPECT_EQ(c()({"SET", "h", "v", "XX"}), Status("OK"));
  EXPECT_EQ(c()({"TYPE", "h"}), Status("string"));
}

TEST_F(StringTest, SetOptionConflictsAreSyntaxErrors) {
  const Reply syntax = Error("ERR syntax error");
  for (auto args : std::vector<std::vector<std::string>>{{"NX", "XX"},
                                                         {"XX", "NX"},
                                                         {"EX", "10", "PX", "10"},
                                                         {"PX", "10", "EX", "10"},
                                                         {"EX", "10", "EXAT", "10"},
                                                         {"EXAT", "10", "PXAT", "10"},
                                                         {"PXAT", "10", "PX", "10"},
                                                         {"KEEPTTL", "EX", "10"},
                                                         {"EX", "10", "KEEPTTL"},
                                                         {"PXAT", "10", "KEEPTTL"},
                                                         {"EX"},
                                                         {"PX"},
                                                         {"NX", "EXAT"},
                                                         {"PERSIST"},
                                                         {"foo"},
                                                         {"GET", "bar"},
                                                         {"EX", "10", "x"}}) {
    std::vector<std::string> cmd = {"SET", "k", "v"};
    cmd.insert(cmd.end(), args.begin(), args.end());
    EXPECT_EQ(c().Call(cmd), syntax) << cmd.size();
  }
  EXPECT_EQ(c()({"DBSIZE"}), Int(0));
  // An option's value is taken as a value, even when it reads like an option.
  EXPECT_EQ(c()({"SET", "k", "v", "EX", "nx"}),
            Error("ERR value is not an integer or out of range"));
}

TEST_F(StringTest, SetOptionsMatchUpToANulByte) {
  // Redis compares option words as C strings: "nx\0junk" is NX.
  ASSERT_EQ(c()({"SET", "k", "v"}), Status("OK"));
  EXPECT_EQ(c()({"SET", "k", "w", std::string("nx\0junk", 7)}), Nil());
  EXPECT_EQ(c()({"SET", "k", "w", std::string("get\0", 4)}), Bulk("v"));
  EXPECT_EQ(c()({"GET", "k"}), Bulk("w"));
}

TEST_F(StringTest, SetInvalidExpireTimes) {
  const Reply invalid = Error("ERR invalid expire time in 'set' command");
  EXPECT_EQ(c()({"SET", "k", "v", "EX", "0"}), invalid);
  EXPECT_EQ(c()({"SET", "k", "v", "EX", "-1"}), invalid);
  EXPECT_EQ(c()({"SET", "k", "v", "PX", "0"}), invalid);
  EXPECT_EQ(c()({"SET", "k", "v", "EXAT", "0"}), invalid);
  EXPECT_EQ(c()({"SET", "k", "v", "PXAT", "-5"}), invalid);
  // Seconds that overflow when made ms, and relative times that overflow when made absolute.
  EXPECT_EQ(c()({"SET", "k", "v", "EX", "9223372036854776"}), invalid);
  EXPECT_EQ(c()({"SET", "k", "v", "EX", "9223372036854775"}), invalid);
  EXPECT_EQ(c()({"SET", "k", "v", "PX", "9223372036854775807"}), invalid);
  EXPECT_EQ(c()({"SET", "k", "v", "PX", "9223372036854775000"}), invalid);
  const Reply not_int = Error("ERR value is not an integer or out of range");
  EXPECT_EQ(c()({"SET", "k", "v", "EX", "abc"}), not_int);
  EXPECT_EQ(c()({"SET", "k", "v", "EX", "1.5"}), not_int);
  EXPECT_EQ(c()({"SET", "k", "v", "PX", "9223372036854775808"}), not_int);
  EXPECT_EQ(c()({"DBSIZE"}), Int(0));
  // Absolute times far away are fine as long as they fit.
  EXPECT_EQ(c()({"SET", "k", "v", "EXAT", "9223372036854775"}), Status("OK"));
  EXPECT_EQ(c()({"SET", "k", "v", "PXAT", "9223372036854775807"}), Status("OK"));
  EXPECT_EQ(c()({"GET", "k"}), Bulk("v"));
}

TEST_F(StringTest, SetExpiryOptions) {
  ASSERT_EQ(c()({"SET", "ex", "v", "EX", "100"}), Status("OK"));
  EXPECT_GT(Pttl("ex"), 98000);
  EXPECT_LE(Pttl("ex"), 100000);
  ASSERT_EQ(c()({"SET", "px", "v", "px", "50000"}), Status("OK"));
  EXPECT_GT(Pttl("px"), 48000);
  EXPECT_LE(Pttl("px"), 50000);
  int64_t now = ServerNowMs();
  ASSERT_EQ(c()({"SET", "exat", "v", "exat", std::to_string(now / 1000 + 200)}), Status("OK"));
  EXPECT_GT(Pttl("exat"), 197000);
  EXPECT_LE(Pttl("exat"), 200000);
  ASSERT_EQ(c()({"SET", "pxat", "v", "PxAt", std::to_string(now + 300000)}), Status("OK"));
  EXPECT_GT(Pttl("pxat"), 298000);
  EXPECT_LE(Pttl("pxat"), 300000);
  // The last of repeated expiries wins.
  ASSERT_EQ(c()({"SET", "twice", "v", "EX", "10", "EX", "1000"}), Status("OK"));
  EXPECT_GT(Pttl("twice"), 998000);
  // With NX or XX.
  ASSERT_EQ(c()({"SET", "nx", "v", "NX", "PX", "70000"}), Status("OK"));
  EXPECT_GT(Pttl("nx"), 68000);
  EXPECT_EQ(c()({"SET", "nx", "v", "EX", "1", "NX"}), Nil());
  EXPECT_GT(Pttl("nx"), 68000);
}

TEST_F(StringTest, SetKeepTtl) {
  ASSERT_EQ(c()({"SET", "k", "v", "EX", "100"}), Status("OK"));
  EXPECT_EQ(c()({"SET", "k", "v2", "KEEPTTL"}), Status("OK"));
  EXPECT_GT(Pttl("k"), 98000);
  EXPECT_EQ(c()({"GET", "k"}), Bulk("v2"));
  EXPECT_EQ(c()({"SET", "k", "v3", "keepttl", "XX", "GET"}), Bulk("v2"));
  EXPECT_GT(Pttl("k"), 98000);
  EXPECT_EQ(c()({"SET", "k", "v4"}), Status("OK"));  // a plain SET drops the TTL
  EXPECT_EQ(Pttl("k"), -1);
  EXPECT_EQ(c()({"SET", "new", "v", "KEEPTTL"}), Status("OK"));
  EXPECT_EQ(Pttl("new"), -1);
}

TEST_F(StringTest, SetWithPastAbsoluteTimeExpiresTheKey) {
  EXPECT_EQ(c()({"SET", "k", "v", "EXAT", "1"}), Status("OK"));
  EXPECT_EQ(c()({"GET", "k"}), Nil());
  EXPECT_EQ(c()({"SET", "k", "v", "PXAT", std::to_string(ServerNowMs() - 1000)}), Status("OK"));
  EXPECT_EQ(c()({"GET", "k"}), Nil());
  EXPECT_EQ(c()({"DBSIZE"}), Int(0));
}

TEST_F(StringTest, ExpiryElapses) {
  ASSERT_EQ(c()({"SET", "a", "v", "PX", "30"}), Status("OK"));
  ASSERT_EQ(c()({"PSETEX", "b", "30", "v"}), Status("OK"));
  ASSERT_EQ(c()({"SET", "c", "v", "PXAT", std::to_string(ServerNowMs() + 30)}), Status("OK"));
  EXPECT_TRUE(Eventually([&] {
    return c()({"MGET", "a", "b", "c"}) == Array({Nil(), Nil(), Nil()});
  }));
}

TEST_F(StringTest, SetGet) {
  EXPECT_EQ(c()({"SET", "k", "1", "GET"}), Nil());
  EXPECT_EQ(c()({"GET", "k"}), Bulk("1"));
  EXPECT_EQ(c()({"SET", "k", "2", "get"}), Bulk("1"));
  EXPECT_EQ(c()({"SET", "k", "3", "GET", "GET"}), Bulk("2"));
  // NX and GET together (allowed since 7.0): the old value, and nothing set.
  EXPECT_EQ(c()({"SET", "k", "4", "NX", "GET"}), Bulk("3"));
  EXPECT_EQ(c()({"GET", "k"}), Bulk("3"));
  EXPECT_EQ(c()({"SET", "n", "1", "GET", "NX"}), Nil());
  EXPECT_EQ(c()({"GET", "n"}), Bulk("1"));
  EXPECT_EQ(c()({"SET", "x", "1", "XX", "GET"}), Nil());
  EXPECT_EQ(c()({"GET", "x"}), Nil());
  EXPECT_EQ(c()({"SET", "k", "5", "XX", "GET"}), Bulk("3"));
  EXPECT_EQ(c()({"GET", "k"}), Bulk("5"));
  // The value may read "get" itself.
  EXPECT_EQ(c()({"SET", "k", "get", "GET"}), Bulk("5"));
  EXPECT_EQ(c()({"GET", "k"}), Bulk("get"));
}

TEST_F(StringTest, SetGetOnAnotherType) {
  MakeHash("h");
  EXPECT_EQ(c()({"SET", "h", "v", "GET"}), Error(kWrongType));
  EXPECT_EQ(c()({"SET", "h", "v", "EX", "10", "GET"}), Error(kWrongType));
  EXPECT_EQ(c()({"TYPE", "h"}), Status("hash"));
  // The expiry is checked before the type.
  EXPECT_EQ(c()({"SET", "h", "v", "EX", "0", "GET"}),
            Error("ERR invalid expire time in 'set' command"));
}

TEST_F(StringTest, SetNx) {
  EXPECT_EQ(c()({"SETNX", "k", "1"}), Int(1));
  EXPECT_EQ(c()({"SETNX", "k", "2"}), Int(0));
  EXPECT_EQ(c()({"GET", "k"}), Bulk("1"));
  EXPECT_EQ(c()({"SETNX", "k"}), Error("ERR wrong number of arguments for 'setnx' command"));
}

TEST_F(StringTest, SetNxOnAnotherTypeIsZero) {
  MakeHash("h");
  EXPECT_EQ(c()({"SETNX", "h", "v"}), Int(0));
}

TEST_F(StringTest, SetExAndPSetEx) {
  EXPECT_EQ(c()({"SETEX", "k", "100", "v"}), Status("OK"));
  EXPECT_EQ(c()({"GET", "k"}), Bulk("v"));
  EXPECT_GT(Pttl("k"), 98000);
  EXPECT_LE(Pttl("k"), 100000);
  EXPECT_EQ(c()({"PSETEX", "k", "5000", "w"}), Status("OK"));
  EXPECT_EQ(c()({"GET", "k"}), Bulk("w"));
  EXPECT_GT(Pttl("k"), 3000);
  EXPECT_LE(Pttl("k"), 5000);
  MakeHash("h");
  EXPECT_EQ(c()({"SETEX", "h", "100", "v"}), Status("OK"));  // replaces any type
  EXPECT_EQ(c()({"GET", "h"}), Bulk("v"));
}

TEST_F(StringTest, SetExErrors) {
  for (std::string cmd : {"SETEX", "PSETEX"}) {
    std::string lower = cmd == "SETEX" ? "setex" : "psetex";
    const Reply invalid = Error("ERR invalid expire time in '" + lower + "' command");
    EXPECT_EQ(c()({cmd, "k", "0", "v"}), invalid);
    EXPECT_EQ(c()({cmd, "k", "-5", "v"}), invalid);
    EXPECT_EQ(c()({cmd, "k", "9223372036854775807", "v"}), invalid);
    EXPECT_EQ(c()({cmd, "k", "abc", "v"}), Error("ERR value is not an integer or out of range"));
    EXPECT_EQ(c()({cmd, "k", "10"}),
              Error("ERR wrong number of arguments for '" + lower + "' command"));
  }
  EXPECT_EQ(c()({"SETEX", "k", "9223372036854776", "v"}),
            Error("ERR invalid expire time in 'setex' command"));
  EXPECT_EQ(c()({"DBSIZE"}), Int(0));
}

TEST_F(StringTest, GetSet) {
  EXPECT_EQ(c()({"GETSET", "k", "1"}), Nil());
  EXPECT_EQ(c()({"GET", "k"}), Bulk("1"));
  EXPECT_EQ(c()({"GETSET", "k", ""}), Bulk("1"));
  EXPECT_EQ(c()({"GET", "k"}), Bulk(""));
}

TEST_F(StringTest, GetSetDropsTheTtlAndChecksTheType) {
  ASSERT_EQ(c()({"SET", "k", "v", "EX", "100"}), Status("OK"));
  EXPECT_EQ(c()({"GETSET", "k", "w"}), Bulk("v"));
  EXPECT_EQ(Pttl("k"), -1);
  MakeHash("h");
  EXPECT_EQ(c()({"GETSET", "h", "w"}), Error(kWrongType));
}

TEST_F(StringTest, GetDel) {
  EXPECT_EQ(c()({"GETDEL", "k"}), Nil());
  ASSERT_EQ(c()({"SET", "k", "v"}), Status("OK"));
  EXPECT_EQ(c()({"GETDEL", "k"}), Bulk("v"));
  EXPECT_EQ(c()({"GET", "k"}), Nil());
  EXPECT_EQ(c()({"DBSIZE"}), Int(0));
}

TEST_F(StringTest, GetDelWrongTypeKeepsTheKey) {
  MakeHash("h");
  EXPECT_EQ(c()({"GETDEL", "h"}), Error(kWrongType));
  EXPECT_EQ(c()({"DBSIZE"}), Int(1));
}

TEST_F(StringTest, GetExSetsAndRemovesTtl) {
  ASSERT_EQ(c()({"SET", "k", "v"}), Status("OK"));
  EXPECT_EQ(c()({"GETEX", "k"}), Bulk("v"));
  EXPECT_EQ(Pttl("k"), -1);
  EXPECT_EQ(c()({"GETEX", "k", "EX", "100"}), Bulk("v"));
  EXPECT_GT(Pttl("k"), 98000);
  EXPECT_EQ(c()({"GETEX", "k"}), Bulk("v"));  // no option: the TTL stays
  EXPECT_GT(Pttl("k"), 98000);
  EXPECT_EQ(c()({"GETEX", "k", "px", "5000"}), Bulk("v"));
  EXPECT_LE(Pttl("k"), 5000);
  int64_t now = ServerNowMs();
  EXPECT_EQ(c()({"GETEX", "k", "EXAT", std::to_string(now / 1000 + 200)}), Bulk("v"));
  EXPECT_GT(Pttl("k"), 197000);
  EXPECT_EQ(c()({"GETEX", "k", "PXAT", std::to_string(now + 300000)}), Bulk("v"));
  EXPECT_GT(Pttl("k"), 298000);
  EXPECT_EQ(c()({"GETEX", "k", "PERSIST"}), Bulk("v"));
  EXPECT_EQ(Pttl("k"), -1);
  EXPECT_EQ(c()({"GETEX", "k", "persist"}), Bulk("v"));
  EXPECT_EQ(c()({"GETEX", "k", "EX", "10", "EX", "1000"}), Bulk("v"));
  EXPECT_GT(Pttl("k"), 998000);
}

TEST_F(StringTest, GetExPastAbsoluteTimeDeletesTheKey) {
  ASSERT_EQ(c()({"SET", "k", "v"}), Status("OK"));
  EXPECT_EQ(c()({"GETEX", "k", "EXAT", "1"}), Bulk("v"));
  EXPECT_EQ(c()({"DBSIZE"}), Int(0));
  ASSERT_EQ(c()({"SET", "k", "v"}), Status("OK"));
  EXPECT_EQ(c()({"GETEX", "k", "PXAT", std::to_string(ServerNowMs() - 10)}), Bulk("v"));
  EXPECT_EQ(c()({"DBSIZE"}), Int(0));
}

TEST_F(StringTest, GetExShortTtlElapses) {
  ASSERT_EQ(c()({"SET", "k", "v"}), Status("OK"));
  EXPECT_EQ(c()({"GETEX", "k", "PX", "30"}), Bulk("v"));
  EXPECT_TRUE(Eventually([&] { return c()({"GET", "k"}) == Nil(); }));
}

TEST_F(StringTest, GetExErrors) {
  const Reply syntax = Error("ERR syntax error");
  // Options are checked first, even for a missing key...
  EXPECT_EQ(c()({"GETEX", "nokey", "foo"}), syntax);
  EXPECT_EQ(c()({"GETEX", "nokey", "EX", "10", "PX", "10"}), syntax);
  EXPECT_EQ(c()({"GETEX", "nokey", "EX", "10", "PERSIST"}), syntax);
  EXPECT_EQ(c()({"GETEX", "nokey", "PERSIST", "EX", "10"}), syntax);
  EXPECT_EQ(c()({"GETEX", "nokey", "EX"}), syntax);
  for (std::string word : {"KEEPTTL", "NX", "XX", "GET"}) {
    EXPECT_EQ(c()({"GETEX", "nokey", word}), syntax) << word;
  }
  // ...but the expiry value only for a key that exists.
  EXPECT_EQ(c()({"GETEX", "nokey", "EX", "0"}), Nil());
  EXPECT_EQ(c()({"GETEX", "nokey", "EX", "abc"}), Nil());
  ASSERT_EQ(c()({"SET", "k", "v"}), Status("OK"));
  const Reply invalid = Error("ERR invalid expire time in 'getex' command");
  EXPECT_EQ(c()({"GETEX", "k", "EX", "0"}), invalid);
  EXPECT_EQ(c()({"GETEX", "k", "PXAT", "-1"}), invalid);
  EXPECT_EQ(c()({"GETEX", "k", "EX", "9223372036854776"}), invalid);
  EXPECT_EQ(c()({"GETEX", "k", "PX", "9223372036854775000"}), invalid);
  EXPECT_EQ(c()({"GETEX", "k", "EX", "abc"}), Error("ERR value is not an integer or out of range"));
  EXPECT_EQ(c()({"GETEX", "k", "EXAT", "9223372036854775"}), Bulk("v"));
  EXPECT_EQ(c()({"GETEX"}), Error("ERR wrong number of arguments for 'getex' command"));
}

TEST_F(StringTest, GetExWrongType) {
  MakeHash("h");
  EXPECT_EQ(c()({"GETEX", "h"}), Error(kWrongType));
  EXPECT_EQ(c()({"GETEX", "h", "EX", "0"}), Error(kWrongType));  // the type comes first
  EXPECT_EQ(c()({"GETEX", "h", "PERSIST"}), Error(kWrongType));
  EXPECT_EQ(c()({"GETEX", "h", "KEEPTTL"}), Error("ERR syntax error"));
}

TEST_F(StringTest, MGet) {
  ASSERT_EQ(c()({"SET", "a", "1"}), Status("OK"));
  ASSERT_EQ(c()({"SET", "b", ""}), Status("OK"));
  EXPECT_EQ(c().Raw({"MGET", "a", "missing", "b", "a"}),
            "*4\r\n$1\r\n1\r\n$-1\r\n$0\r\n\r\n$1\r\n1\r\n");
  EXPECT_EQ(c()({"MGET", "missing"}), Array({Nil()}));
  EXPECT_EQ(c()({"MGET"}), Error("ERR wrong number of arguments for 'mget' command"));
}

TEST_F(StringTest, MGetReadsOtherTypesAsNil) {
  MakeHash("h");
  ASSERT_EQ(c()({"SET", "s", "v"}), Status("OK"));
  EXPECT_EQ(c()({"MGET", "h", "s"}), Array({Nil(), Bulk("v")}));
}

TEST_F(StringTest, MSet) {
  EXPECT_EQ(c()({"MSET", "a", "1", "b", "2"}), Status("OK"));
  EXPECT_EQ(c()({"MGET", "a", "b"}), Array({Bulk("1"), Bulk("2")}));
  EXPECT_EQ(c()({"MSET", "a", "x", "a", "y"}), Status("OK"));  // the last one wins
  EXPECT_EQ(c()({"GET", "a"}), Bulk("y"));
  const Reply arity = Error("ERR wrong number of arguments for 'mset' command");
  EXPECT_EQ(c()({"MSET", "a", "1", "b"}), arity);
  EXPECT_EQ(c()({"MSET", "a"}), arity);
  EXPECT_EQ(c()({"GET", "a"}), Bulk("y"));
}

TEST_F(StringTest, MSetReplacesAnyTypeAndDropsTtl) {
  MakeHash("h");
  ASSERT_EQ(c()({"SET", "t", "v", "EX", "100"}), Status("OK"));
  EXPECT_EQ(c()({"MSET", "h", "1", "t", "2"}), Status("OK"));
  EXPECT_EQ(c()({"MGET", "h", "t"}), Array({Bulk("1"), Bulk("2")}));
  EXPECT_EQ(Pttl("t"), -1);
}

TEST_F(StringTest, MSetNx) {
  EXPECT_EQ(c()({"MSETNX", "a", "1", "b", "2"}), Int(1));
  EXPECT_EQ(c()({"MSETNX", "b", "x", "c", "3"}), Int(0));  // b exists: nothing is set
  EXPECT_EQ(c()({"MGET", "a", "b", "c"}), Array({Bulk("1"), Bulk("2"), Nil()}));
  EXPECT_EQ(c()({"MSETNX", "d", "1", "d", "2"}), Int(1));
  EXPECT_EQ(c()({"GET", "d"}), Bulk("2"));
  EXPECT_EQ(c()({"MSETNX", "e", "1", "f"}),
            Error("ERR wrong number of arguments for 'msetnx' command"));
  EXPECT_EQ(c()({"DBSIZE"}), Int(3));
}

TEST_F(StringTest, MSetNxCountsOtherTypesAsExisting) {
  MakeHash("h");
  EXPECT_EQ(c()({"MSETNX", "h", "1", "q", "1"}), Int(0));
  EXPECT_EQ(c()({"GET", "q"}), Nil());
}

// INFO's rdb_changes_since_last_save and keyspace_hits/misses move as Redis's server.dirty and
// lookup statistics do.
TEST_F(StringTest, ChangesAndHitsAreCountedAsRedisCounts) {
  auto stat = [&](const std::string& name) {
    std::string info = c()({"INFO"}).str;
    size_t at = info.find(name + ":");
    return at == std::string::npos ? -1 : std::stoll(info.substr(at + name.size() + 1));
  };
  auto delta = [&](std::vector<std::string> cmd) {
    int64_t dirty = stat("rdb_changes_since_last_save");
    int64_t hits = stat("keyspace_hits");
    int64_t misses = stat("keyspace_misses");
    c().Call(cmd);
    return std::vector<int64_t>{stat("rdb_changes_since_last_save") - dirty,
                                stat("keyspace_hits") - hits, stat("keyspace_misses") - misses};
  };
  using V = std::vector<int64_t>;
  EXPECT_EQ(delta({"SET", "k", "v"}), (V{1, 0, 0}));
  EXPECT_EQ(delta({"SET", "k", "v", "NX"}), (V{0, 0, 0}));
  EXPECT_EQ(delta({"SET", "k", "v", "GET"}), (V{1, 1, 0}));
  EXPECT_EQ(delta({"SET", "nokey", "v", "XX", "GET"}), (V{0, 0, 1}));
  EXPECT_EQ(delta({"MGET", "k", "nokey", "k"}), (V{0, 2, 1}));
  EXPECT_EQ(delta({"MSET", "a", "1", "b", "2", "c", "3"}), (V{3, 0, 0}));
  EXPECT_EQ(delta({"MSETNX", "a", "1", "d", "2"}), (V{0, 0, 0}));
  EXPECT_EQ(delta({"MSETNX", "e", "1", "f", "2"}), (V{2, 0, 0}));
  EXPECT_EQ(delta({"INCR", "n"}), (V{1, 0, 0}));
  EXPECT_EQ(delta({"APPEND", "n", ""}), (V{1, 0, 0}));
  EXPECT_EQ(delta({"SETRANGE", "n", "0", ""}), (V{0, 0, 0}));
  EXPECT_EQ(delta({"SETRANGE", "n", "0", "y"}), (V{1, 0, 0}));
  EXPECT_EQ(delta({"GETSET", "k", "w"}), (V{1, 1, 0}));
  EXPECT_EQ(delta({"GETDEL", "k"}), (V{1, 1, 0}));
  EXPECT_EQ(delta({"GETDEL", "k"}), (V{0, 0, 1}));
  EXPECT_EQ(delta({"GETEX", "a"}), (V{0, 1, 0}));
  EXPECT_EQ(delta({"GETEX", "a", "EX", "100"}), (V{1, 1, 0}));
  EXPECT_EQ(delta({"GETEX", "a", "PERSIST"}), (V{1, 1, 0}));
  EXPECT_EQ(delta({"GETEX", "a", "PERSIST"}), (V{0, 1, 0}));
  EXPECT_EQ(delta({"GETEX", "a", "EXAT", "1"}), (V{1, 1, 0}));
  EXPECT_EQ(delta({"LCS", "b", "c"}), (V{0, 2, 0}));
  EXPECT_EQ(delta({"SETNX", "b", "1"}), (V{0, 0, 0}));
}

TEST_F(StringTest, Resp3Nulls) {
  ASSERT_EQ(c()({"HELLO", "3"}).type, Reply::Type::kMap);
  EXPECT_EQ(c().Raw({"GET", "missing"}), "_\r\n");
  EXPECT_EQ(c().Raw({"GETEX", "missing"}), "_\r\n");
  EXPECT_EQ(c().Raw({"GETDEL", "missing"}), "_\r\n");
  EXPECT_EQ(c().Raw({"SET", "k", "v", "XX"}), "_\r\n");
  EXPECT_EQ(c().Raw({"SET", "k", "v", "GET"}), "_\r\n");
  EXPECT_EQ(c().Raw({"MGET", "k", "missing"}), "*2\r\n$1\r\nv\r\n_\r\n");
}

}  // namespace
}  // namespace redlab::conformance
