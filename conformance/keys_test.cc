// Generic key commands: DEL, UNLINK, EXISTS, TYPE, TOUCH, KEYS, SCAN, RANDOMKEY, RENAME,
// RENAMENX, their COMMAND INFO, and DEBUG's protection in the default configuration.
// (Expiry and DEBUG's subcommands are in expire_test.cc.)
#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "conformance/harness/fixture.h"
#include "conformance/harness/script.h"

namespace redlab::conformance {
namespace {

class KeysTest : public ConformanceTest {
 protected:
  void SetKeys(std::initializer_list<std::string_view> keys) {
    for (std::string_view k : keys) ASSERT_EQ(c()({"SET", k, "v"}), Status("OK"));
  }
  // Strings "<prefix>0" .. "<prefix><n-1>" set to "v"; returns their names.
  std::set<std::string> SetNumberedKeys(const std::string& prefix, int n) {
    std::set<std::string> names;
    for (int i = 0; i < n; ++i) {
      std::string k = prefix + std::to_string(i);
      EXPECT_EQ(c()({"SET", k, "v"}), Status("OK"));
      names.insert(k);
    }
    return names;
  }
  // The bulk strings of an array reply, sorted (KEYS and SCAN have no defined order).
  static std::vector<std::string> Sorted(const Reply& r) {
    std::vector<std::string> out;
    EXPECT_EQ(r.type, Reply::Type::kArray) << r;
    for (const Reply& e : r.elements) {
      EXPECT_EQ(e.type, Reply::Type::kBulk) << r;
      out.push_back(e.str);
    }
    std::sort(out.begin(), out.end());
    return out;
  }
  // A complete SCAN iteration with the given options: the distinct keys seen (SCAN may return a
  // key twice).
  std::set<std::string> ScanKeys(const std::vector<std::string>& options, int* calls = nullptr) {
    ScanSteps steps = ScanAll(c(), {"SCAN"}, options);
    if (calls) *calls = steps.calls;
    return Members(steps);
  }
};

using Strings = std::vector<std::string>;

TEST_F(KeysTest, DelCountsDeletedKeys) {
  SetKeys({"a", "b"});
  EXPECT_EQ(c()({"DEL", "a", "b", "c", "a"}), Int(2));
  EXPECT_EQ(c()({"GET", "a"}), Nil());
  EXPECT_EQ(c()({"EXISTS", "b"}), Int(0));
  EXPECT_EQ(c()({"DEL", "a"}), Int(0));
  EXPECT_EQ(c()({"DEL"}), Error("ERR wrong number of arguments for 'del' command"));
}

TEST_F(KeysTest, UnlinkDeletesLikeDel) {
  SetKeys({"a", "b", "c"});
  EXPECT_EQ(c()({"UNLINK", "a", "b", "x", "b"}), Int(2));
  EXPECT_EQ(c()({"DBSIZE"}), Int(1));
  EXPECT_EQ(c()({"GET", "c"}), Bulk("v"));
  EXPECT_EQ(c()({"UNLINK"}), Error("ERR wrong number of arguments for 'unlink' command"));
}

TEST_F(KeysTest, DelOnlyTouchesTheSelectedDatabase) {
  SetKeys({"k"});
  EXPECT_EQ(c()({"SELECT", "1"}), Status("OK"));
  EXPECT_EQ(c()({"DEL", "k"}), Int(0));
  EXPECT_EQ(c()({"SELECT", "0"}), Status("OK"));
  EXPECT_EQ(c()({"GET", "k"}), Bulk("v"));
}

TEST_F(KeysTest, ExistsCountsRepeats) {
  SetKeys({"a", "b"});
  EXPECT_EQ(c()({"EXISTS", "a"}), Int(1));
  EXPECT_EQ(c()({"EXISTS", "a", "a", "b", "nope"}), Int(3));
  EXPECT_EQ(c()({"EXISTS", "nope"}), Int(0));
  EXPECT_EQ(c()({"EXISTS"}), Error("ERR wrong number of arguments for 'exists' command"));
}

TEST_F(KeysTest, TouchCountsExistingKeys) {
  SetKeys({"a", "b"});
  EXPECT_EQ(c()({"TOUCH", "a", "b", "c", "a"}), Int(3));
  EXPECT_EQ(c()({"TOUCH", "c"}), Int(0));
  EXPECT_EQ(c()({"TOUCH"}), Error("ERR wrong number of arguments for 'touch' command"));
}

TEST_F(KeysTest, Type) {
  SetKeys({"s"});
  EXPECT_EQ(c().Raw({"TYPE", "s"}), "+string\r\n");
  EXPECT_EQ(c().Raw({"TYPE", "missing"}), "+none\r\n");
  EXPECT_EQ(c()({"TYPE"}), Error("ERR wrong number of arguments for 'type' command"));
  EXPECT_EQ(c()({"TYPE", "a", "b"}), Error("ERR wrong number of arguments for 'type' command"));
}

TEST_F(KeysTest, KeysMatchesGlobPatterns) {
  SetKeys({"foo", "foobar", "bar", "hello", "hallo", "hxllo", "h*llo", "a[b"});
  EXPECT_EQ(Sorted(c()({"KEYS", "*"})),
            (Strings{"a[b", "bar", "foo", "foobar", "h*llo", "hallo", "hello", "hxllo"}));
  EXPECT_EQ(Sorted(c()({"KEYS", "foo*"})), (Strings{"foo", "foobar"}));
  EXPECT_EQ(Sorted(c()({"KEYS", "h?llo"})), (Strings{"h*llo", "hallo", "hello", "hxllo"}));
  EXPECT_EQ(Sorted(c()({"KEYS", "h[ae]llo"})), (Strings{"hallo", "hello"}));
  EXPECT_EQ(Sorted(c()({"KEYS", "h[^e]llo"})), (Strings{"h*llo", "hallo", "hxllo"}));
  EXPECT_EQ(Sorted(c()({"KEYS", "h[a-f]llo"})), (Strings{"hallo", "hello"}));
  EXPECT_EQ(Sorted(c()({"KEYS", "h\\*llo"})), (Strings{"h*llo"}));
  EXPECT_EQ(Sorted(c()({"KEYS", "a\\[b"})), (Strings{"a[b"}));
  EXPECT_EQ(Sorted(c()({"KEYS", "*bar"})), (Strings{"bar", "foobar"}));
  EXPECT_EQ(Sorted(c()({"KEYS", "bar"})), (Strings{"bar"}));
  EXPECT_EQ(c().Raw({"KEYS", "nomatch*"}), "*0\r\n");
  EXPECT_EQ(c()({"KEYS"}), Error("ERR wrong number of arguments for 'keys' command"));
  EXPECT_EQ(c()({"KEYS", "a", "b"}), Error("ERR wrong number of arguments for 'keys' command"));
}

TEST_F(KeysTest, KeysOnEmptyDatabase) { EXPECT_EQ(c().Raw({"KEYS", "*"}), "*0\r\n"); }

TEST_F(KeysTest, ScanOnEmptyDatabase) {
  EXPECT_EQ(c().Raw({"SCAN", "0"}), "*2\r\n$1\r\n0\r\n*0\r\n");
  EXPECT_EQ(c().Raw({"SCAN", "0", "COUNT", "100", "MATCH", "x*", "TYPE", "string"}),
            "*2\r\n$1\r\n0\r\n*0\r\n");
}

TEST_F(KeysTest, ScanVisitsEveryKey) {
  std::set<std::string> all = SetNumberedKeys("key:", 200);
  int calls = 0;
  EXPECT_EQ(ScanKeys({}, &calls), all);
  EXPECT_GT(calls, 1);  // 200 keys at the default COUNT of 10 take several calls
  EXPECT_EQ(ScanKeys({"COUNT", "3"}), all);
  EXPECT_EQ(ScanKeys({"COUNT", "1000"}, &calls), all);
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(ScanKeys({"count", "7", "match", "*"}), all);
}

TEST_F(KeysTest, ScanMatchFiltersKeys) {
  std::set<std::string> wanted = SetNumberedKeys("user:", 50);
  SetNumberedKeys("order:", 50);
  EXPECT_EQ(ScanKeys({"MATCH", "user:*"}), wanted);
  EXPECT_EQ(ScanKeys({"MATCH", "user:1?", "COUNT", "5"}),
            (std::set<std::string>{"user:10", "user:11", "user:12", "user:13", "user:14", "user:15",
                                   "user:16", "user:17", "user:18", "user:19"}));
  EXPECT_EQ(ScanKeys({"MATCH", "nothing*"}), std::set<std::string>());
  // The last MATCH wins.
  EXPECT_EQ(ScanKeys({"MATCH", "nothing*", "MATCH", "user:7"}), std::set<std::string>{"user:7"});
}

TEST_F(KeysTest, ScanTypeFiltersKeys) {
  std::set<std::string> all = SetNumberedKeys("k", 30);
  EXPECT_EQ(ScanKeys({"TYPE", "string"}), all);
  EXPECT_EQ(ScanKeys({"TYPE", "STRING", "COUNT", "4"}), all);
  EXPECT_EQ(ScanKeys({"TYPE", "hash"}), std::set<std::string>());
  EXPECT_EQ(ScanKeys({"TYPE", "nosuchtype"}), std::set<std::string>());
  EXPECT_EQ(ScanKeys({"TYPE", "string", "MATCH", "k1*"}),
            (std::set<std::string>{"k1", "k10", "k11", "k12", "k13", "k14", "k15", "k16", "k17",
                                   "k18", "k19"}));
}

TEST_F(KeysTest, ScanErrors) {
  EXPECT_EQ(c()({"SCAN"}), Error("ERR wrong number of arguments for 'scan' command"));
  EXPECT_EQ(c()({"SCAN", "abc"}), Error("ERR invalid cursor"));
  EXPECT_EQ(c()({"SCAN", "1x"}), Error("ERR invalid cursor"));
  EXPECT_EQ(c()({"SCAN", "18446744073709551616"}), Error("ERR invalid cursor"));
  EXPECT_EQ(c()({"SCAN", "0", "COUNT", "0"}), Error("ERR syntax error"));
  EXPECT_EQ(c()({"SCAN", "0", "COUNT", "-1"}), Error("ERR syntax error"));
  EXPECT_EQ(c()({"SCAN", "0", "COUNT", "abc"}),
            Error("ERR value is not an integer or out of range"));
  EXPECT_EQ(c()({"SCAN", "0", "COUNT"}), Error("ERR syntax error"));
  EXPECT_EQ(c()({"SCAN", "0", "MATCH"}), Error("ERR syntax error"));
  EXPECT_EQ(c()({"SCAN", "0", "TYPE"}), Error("ERR syntax error"));
  EXPECT_EQ(c()({"SCAN", "0", "FOO", "bar"}), Error("ERR syntax error"));
  // The cursor is checked before the options.
  EXPECT_EQ(c()({"SCAN", "x", "FOO"}), Error("ERR invalid cursor"));
}

TEST_F(KeysTest, ScanCursorEdgeCases) {
  // strtoul accepts a sign and wraps; the largest value is still a cursor.
  EXPECT_EQ(c()({"SCAN", "18446744073709551615"}), Array({Bulk("0"), Array({})}));
  EXPECT_EQ(c()({"SCAN", "-1"}), Array({Bulk("0"), Array({})}));
}

TEST_F(KeysTest, RandomKey) {
  EXPECT_EQ(c().Raw({"RANDOMKEY"}), "$-1\r\n");
  SetKeys({"only"});
  EXPECT_EQ(c()({"RANDOMKEY"}), Bulk("only"));
  SetKeys({"a", "b", "c"});
  std::set<std::string> seen;
  for (int i = 0; i < 200 && seen.size() < 4; ++i) {
    Reply r = c()({"RANDOMKEY"});
    ASSERT_EQ(r.type, Reply::Type::kBulk) << r;
    seen.insert(r.str);
  }
  EXPECT_EQ(seen, (std::set<std::string>{"a", "b", "c", "only"}));
  EXPECT_EQ(c()({"RANDOMKEY", "x"}),
            Error("ERR wrong number of arguments for 'randomkey' command"));
  // Another database is empty.
  EXPECT_EQ(c()({"SELECT", "3"}), Status("OK"));
  EXPECT_EQ(c()({"RANDOMKEY"}), Nil());
}

TEST_F(KeysTest, Rename) {
  EXPECT_EQ(c()({"RENAME", "a", "b"}), Error("ERR no such key"));
  SetKeys({"a"});
  EXPECT_EQ(c()({"RENAME", "a", "b"}), Status("OK"));
  EXPECT_EQ(c()({"EXISTS", "a"}), Int(0));
  EXPECT_EQ(c()({"GET", "b"}), Bulk("v"));
  // Overwrites the destination, value and all.
  ASSERT_EQ(c()({"SET", "c", "other"}), Status("OK"));
  EXPECT_EQ(c()({"RENAME", "c", "b"}), Status("OK"));
  EXPECT_EQ(c()({"GET", "b"}), Bulk("other"));
  EXPECT_EQ(c()({"DBSIZE"}), Int(1));
  EXPECT_EQ(c()({"RENAME", "a"}), Error("ERR wrong number of arguments for 'rename' command"));
}

TEST_F(KeysTest, RenameToItself) {
  SetKeys({"a"});
  EXPECT_EQ(c()({"RENAME", "a", "a"}), Status("OK"));
  EXPECT_EQ(c()({"GET", "a"}), Bulk("v"));
  EXPECT_EQ(c()({"RENAMENX", "a", "a"}), Int(0));
  // A missing key is an error even when renamed to itself.
  EXPECT_EQ(c()({"RENAME", "nokey", "nokey"}), Error("ERR no such key"));
  EXPECT_EQ(c()({"RENAMENX", "nokey", "nokey"}), Error("ERR no such key"));
}

TEST_F(KeysTest, RenameNx) {
  EXPECT_EQ(c()({"RENAMENX", "a", "b"}), Error("ERR no such key"));
  SetKeys({"a"});
  ASSERT_EQ(c()({"SET", "taken", "t"}), Status("OK"));
  EXPECT_EQ(c()({"RENAMENX", "a", "taken"}), Int(0));
  EXPECT_EQ(c()({"GET", "a"}), Bulk("v"));
  EXPECT_EQ(c()({"GET", "taken"}), Bulk("t"));
  EXPECT_EQ(c()({"RENAMENX", "a", "free"}), Int(1));
  EXPECT_EQ(c()({"EXISTS", "a"}), Int(0));
  EXPECT_EQ(c()({"GET", "free"}), Bulk("v"));
  EXPECT_EQ(c()({"RENAMENX", "a", "b", "c"}),
            Error("ERR wrong number of arguments for 'renamenx' command"));
}

TEST_F(KeysTest, RenameMovesTheTtl) {
  SetKeys({"a", "dst"});
  EXPECT_EQ(c()({"EXPIRE", "a", "1000"}), Int(1));
  EXPECT_EQ(c()({"RENAME", "a", "dst"}), Status("OK"));
  Reply ttl = c()({"TTL", "dst"});
  EXPECT_TRUE(ttl.integer > 990 && ttl.integer <= 1000) << ttl;
  // A key without TTL renamed over one with a TTL leaves none.
  SetKeys({"plain"});
  EXPECT_EQ(c()({"RENAME", "plain", "dst"}), Status("OK"));
  EXPECT_EQ(c()({"TTL", "dst"}), Int(-1));
  EXPECT_EQ(c()({"PEXPIRE", "dst", "50000"}), Int(1));
  EXPECT_EQ(c()({"RENAMENX", "dst", "fresh"}), Int(1));
  Reply pttl = c()({"PTTL", "fresh"});
  EXPECT_TRUE(pttl.integer > 40000 && pttl.integer <= 50000) << pttl;
}

TEST_F(KeysTest, DebugIsRefusedByDefault) {
  const Reply refused = Error(
      "ERR DEBUG command not allowed. If the enable-debug-command option is set to \"local\", you "
      "can run it from a local connection, otherwise you need to set this option in the "
      "configuration file, and then restart the server.");
  EXPECT_EQ(c()({"DEBUG", "SLEEP", "0"}), refused);
  EXPECT_EQ(c()({"DEBUG", "HELP"}), refused);
  EXPECT_EQ(c()({"DEBUG", "nosuch"}), refused);
  // Arity is checked first.
  EXPECT_EQ(c()({"DEBUG"}), Error("ERR wrong number of arguments for 'debug' command"));
  EXPECT_EQ(c()({"CONFIG", "GET", "enable-debug-command"}),
            Array({Bulk("enable-debug-command"), Bulk("no")}));
}

// COMMAND INFO's fixed part (name, arity, flags, first/last/step, ACL categories), as Redis 7.0.
TEST_F(KeysTest, CommandInfo) {
  struct Expected {
    std::string name;
    int64_t arity;
    Strings flags;
    int64_t first, last, step;
    Strings acl;
  };
  const std::vector<Expected> expected = {
      {"del", -2, {"write"}, 1, -1, 1, {"@keyspace", "@write", "@slow"}},
      {"unlink", -2, {"write", "fast"}, 1, -1, 1, {"@keyspace", "@write", "@fast"}},
      {"exists", -2, {"readonly", "fast"}, 1, -1, 1, {"@keyspace", "@read", "@fast"}},
      {"touch", -2, {"readonly", "fast"}, 1, -1, 1, {"@keyspace", "@read", "@fast"}},
      {"type", 2, {"readonly", "fast"}, 1, 1, 1, {"@keyspace", "@read", "@fast"}},
      {"keys", 2, {"readonly"}, 0, 0, 0, {"@keyspace", "@read", "@slow", "@dangerous"}},
      {"scan", -2, {"readonly"}, 0, 0, 0, {"@keyspace", "@read", "@slow"}},
      {"randomkey", 1, {"readonly"}, 0, 0, 0, {"@keyspace", "@read", "@slow"}},
      {"rename", 3, {"write"}, 1, 2, 1, {"@keyspace", "@write", "@slow"}},
      {"renamenx", 3, {"write", "fast"}, 1, 2, 1, {"@keyspace", "@write", "@fast"}},
      {"expire", -3, {"write", "fast"}, 1, 1, 1, {"@keyspace", "@write", "@fast"}},
      {"pexpire", -3, {"write", "fast"}, 1, 1, 1, {"@keyspace", "@write", "@fast"}},
      {"expireat", -3, {"write", "fast"}, 1, 1, 1, {"@keyspace", "@write", "@fast"}},
      {"pexpireat", -3, {"write", "fast"}, 1, 1, 1, {"@keyspace", "@write", "@fast"}},
      {"ttl", 2, {"readonly", "fast"}, 1, 1, 1, {"@keyspace", "@read", "@fast"}},
      {"pttl", 2, {"readonly", "fast"}, 1, 1, 1, {"@keyspace", "@read", "@fast"}},
      {"expiretime", 2, {"readonly", "fast"}, 1, 1, 1, {"@keyspace", "@read", "@fast"}},
      {"pexpiretime", 2, {"readonly", "fast"}, 1, 1, 1, {"@keyspace", "@read", "@fast"}},
      {"persist", 2, {"write", "fast"}, 1, 1, 1, {"@keyspace", "@write", "@fast"}},
      {"debug",
       -2,
       {"admin", "noscript", "loading", "stale"},
       0,
       0,
       0,
       {"@admin", "@slow", "@dangerous"}},
  };
  for (const Expected& e : expected) {
    SCOPED_TRACE(e.name);
    Reply info = c()({"COMMAND", "INFO", e.name});
    ASSERT_EQ(info.type, Reply::Type::kArray);
    ASSERT_EQ(info.elements.size(), 1u);
    const Reply& cmd = info.elements[0];
    ASSERT_GE(cmd.elements.size(), 7u) << cmd;
    EXPECT_EQ(cmd.elements[0], Bulk(e.name));
    EXPECT_EQ(cmd.elements[1], Int(e.arity));
    std::vector<Reply> flags;
    for (const auto& f : e.flags) flags.push_back(Status(f));
    EXPECT_EQ(cmd.elements[2], Array(flags));
    EXPECT_EQ(cmd.elements[3], Int(e.first));
    EXPECT_EQ(cmd.elements[4], Int(e.last));
    EXPECT_EQ(cmd.elements[5], Int(e.step));
    std::vector<Reply> acl;
    for (const auto& a : e.acl) acl.push_back(Status(a));
    EXPECT_EQ(cmd.elements[6], Array(acl));
  }
}

}  // namespace
}  // namespace redlab::conformance
