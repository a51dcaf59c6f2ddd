// COMMAND and its subcommands, CONFIG GET *, and the protocol limits set by configuration
// (proto-max-bulk-len, client-query-buffer-limit).
#include <algorithm>
#include <map>

#include "conformance/harness/fixture.h"
#include "conformance/harness/script.h"

namespace redlab::conformance {
namespace {

class IntrospectionTest : public ConformanceTest {
 protected:
  void TearDown() override {
    c()({"CONFIG", "SET", "proto-max-bulk-len", "512mb"});
    c()({"CONFIG", "SET", "client-query-buffer-limit", "1gb"});
  }
};

TEST_F(IntrospectionTest, CommandCountMatchesCommandList) {
  Reply count = c()({"COMMAND", "COUNT"});
  ASSERT_EQ(count.type, Reply::Type::kInteger);
  Reply all = c()({"COMMAND"});
  EXPECT_EQ(static_cast<int64_t>(all.elements.size()), count.integer);
  Reply list = c()({"COMMAND", "LIST"});
  // LIST names subcommands too ("config|get"), so it is longer than COUNT.
  EXPECT_GT(static_cast<int64_t>(list.elements.size()), count.integer);
}

// Every command is listed once (LASTSAVE was once registered by two families and listed twice).
TEST_F(IntrospectionTest, CommandListNamesEachCommandOnce) {
  Reply list = c()({"COMMAND", "LIST"});
  ASSERT_EQ(list.type, Reply::Type::kArray);
  std::map<std::string, int> seen;
  for (const Reply& name : list.elements) ++seen[name.str];
  for (const auto& [name, times] : seen) EXPECT_EQ(times, 1) << name;
  EXPECT_EQ(seen.count("lastsave"), 1u);
  EXPECT_EQ(seen.size(), list.elements.size());
}

TEST_F(IntrospectionTest, CommandInfo) {
  EXPECT_EQ(
      c().Raw({"COMMAND", "INFO", "get"}),
      "*1\r\n*10\r\n$3\r\nget\r\n:2\r\n*2\r\n+readonly\r\n+fast\r\n:1\r\n:1\r\n:1\r\n*3\r\n"
      "+@read\r\n+@string\r\n+@fast\r\n*0\r\n*1\r\n*6\r\n$5\r\nflags\r\n*2\r\n+RO\r\n"
      "+access\r\n$12\r\nbegin_search\r\n*4\r\n$4\r\ntype\r\n$5\r\nindex\r\n$4\r\nspec\r\n"
      "*2\r\n$5\r\nindex\r\n:1\r\n$9\r\nfind_keys\r\n*4\r\n$4\r\ntype\r\n$5\r\nrange\r\n"
      "$4\r\nspec\r\n*6\r\n$7\r\nlastkey\r\n:0\r\n$7\r\nkeystep\r\n:1\r\n$5\r\nlimit\r\n:0\r\n"
      "*0\r\n");
  EXPECT_EQ(c()({"COMMAND", "INFO", "nosuchcommand"}), Array({Nil()}));
  EXPECT_EQ(c().Raw({"COMMAND", "INFO", "nosuchcommand"}), "*1\r\n$-1\r\n");
  Reply sub = c()({"COMMAND", "INFO", "config|get"});
  ASSERT_EQ(sub.elements.size(), 1u);
  EXPECT_EQ(sub.elements[0].elements[0], Bulk("config|get"));
  EXPECT_EQ(sub.elements[0].elements[1], Int(-3));
}

// In RESP3 the types show: key specs are a set, subcommands an array, or an empty set.
TEST_F(IntrospectionTest, CommandInfoInResp3) {
  c()({"HELLO", "3"});
  std::string get = c().Raw({"COMMAND", "INFO", "get"});
  EXPECT_NE(get.find("+@fast\r\n~0\r\n~1\r\n%3\r\n$5\r\nflags\r\n"), std::string::npos) << get;
  EXPECT_EQ(get.substr(get.size() - 4), "~0\r\n");
  std::string config = c().Raw({"COMMAND", "INFO", "config"});
  EXPECT_NE(config.find("~0\r\n~0\r\n*"), std::string::npos) << config;
  EXPECT_EQ(c().Raw({"COMMAND", "INFO", "nosuchcommand"}), "*1\r\n_\r\n");
}

TEST_F(IntrospectionTest, CommandGetKeys) {
  ExpectReplies(
      c(),
      {
          {{"COMMAND", "GETKEYS", "SET", "a", "b"}, Array({Bulk("a")})},
          {{"COMMAND", "GETKEYS", "MSET", "a", "1", "b", "2"}, Array({Bulk("a"), Bulk("b")})},
          {{"COMMAND", "GETKEYS", "DEL", "x", "y", "z"}, Array({Bulk("x"), Bulk("y"), Bulk("z")})},
          {{"COMMAND", "GETKEYS", "NOSUCH", "x"}, Error("ERR Invalid command specified")},
          {{"COMMAND", "GETKEYS", "PING", "x"}, Error("ERR The command has no key arguments")},
          {{"COMMAND", "GETKEYS", "SET", "a"},
           Error("ERR Invalid number of arguments specified for command")},
          {{"COMMAND", "GETKEYS", "GET"},
           Error("ERR wrong number of arguments for 'command|getkeys' command")},
          // Keyless commands are told so before their arity is checked.
          {{"COMMAND", "GETKEYS", "PING", "a", "b", "c"},
           Error("ERR The command has no key arguments")},
          // EVAL's keys are optional: none is an empty list, not an error.
          {{"COMMAND", "GETKEYS", "EVAL", "return 1", "0"}, Array({})},
          {{"COMMAND", "GETKEYS", "EVAL", "return 1", "2", "k1", "k2", "a"},
           Array({Bulk("k1"), Bulk("k2")})},
          {{"COMMAND", "GETKEYS", "EVAL", "return 1", "3", "k1"}, Array({})},
          // Key positions beyond the arguments make the whole request a syntax error: no keys.
          {{"COMMAND", "GETKEYS", "ZUNIONSTORE", "dest", "2", "a"},
           Error("ERR Invalid arguments specified for command")},
          {{"COMMAND", "GETKEYS", "ZUNIONSTORE", "dest", "2", "a", "b"},
           Array({Bulk("dest"), Bulk("a"), Bulk("b")})},
      });
}

TEST_F(IntrospectionTest, CommandListFilters) {
  Reply config = c()({"COMMAND", "LIST", "FILTERBY", "PATTERN", "config*"});
  std::vector<std::string> names;
  for (const auto& r : config.elements) names.push_back(r.str);
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names, (std::vector<std::string>{"config", "config|get", "config|help",
                                             "config|resetstat", "config|rewrite", "config|set"}));
  Reply hash = c()({"COMMAND", "LIST", "FILTERBY", "ACLCAT", "hash"});
  bool has_hget = false;
  for (const auto& r : hash.elements) has_hget |= r.str == "hget";
  EXPECT_TRUE(has_hget);
  EXPECT_EQ(c()({"COMMAND", "LIST", "FILTERBY", "MODULE", "nosuch"}), Array({}));
  EXPECT_EQ(c()({"COMMAND", "LIST", "FILTERBY", "FOO", "bar"}), Error("ERR syntax error"));
}

TEST_F(IntrospectionTest, CommandDocs) {
  Reply docs = c()({"COMMAND", "DOCS", "get"});
  ASSERT_EQ(docs.elements.size(), 2u);
  EXPECT_EQ(docs.elements[0], Bulk("get"));
  const auto& kv = docs.elements[1].elements;
  ASSERT_GE(kv.size(), 8u);
  EXPECT_EQ(kv[0], Bulk("summary"));
  EXPECT_EQ(kv[1], Bulk("Get the value of a key"));
  EXPECT_EQ(c()({"COMMAND", "DOCS", "nosuch"}), Array({}));
}

TEST_F(IntrospectionTest, ConfigGetEverything) {
  Reply all = c()({"CONFIG", "GET", "*"});
  ASSERT_EQ(all.type, Reply::Type::kArray);
  ASSERT_EQ(all.elements.size() % 2, 0u);
  std::map<std::string, std::string> params;
  for (size_t i = 0; i + 1 < all.elements.size(); i += 2) {
    params[all.elements[i].str] = all.elements[i + 1].str;
  }
  for (const char* name :
       {"maxclients", "timeout", "requirepass", "busy-reply-threshold", "lua-time-limit",
        "proto-max-bulk-len", "client-query-buffer-limit", "maxmemory", "maxmemory-policy",
        "databases", "port", "bind", "hz", "appendonly", "save", "client-output-buffer-limit"}) {
    EXPECT_TRUE(params.count(name)) << "CONFIG GET * lacks " << name;
  }
  EXPECT_EQ(params["maxclients"], "10000");
  EXPECT_EQ(params["proto-max-bulk-len"], "536870912");
  EXPECT_EQ(params["client-query-buffer-limit"], "1073741824");
  EXPECT_EQ(params["busy-reply-threshold"], "5000");
}

TEST_F(IntrospectionTest, ProtoMaxBulkLen) {
  EXPECT_EQ(c()({"CONFIG", "SET", "proto-max-bulk-len", "1mb"}), Status("OK"));
  EXPECT_EQ(c()({"CONFIG", "SET", "proto-max-bulk-len", "100"}),
            Error("ERR CONFIG SET failed (possibly related to argument 'proto-max-bulk-len') - "
                  "argument must be between 1048576 and 9223372036854775807 inclusive"));
  Client big = Connect();
  big.Send("*1\r\n$1048577\r\n");
  EXPECT_EQ(big.ReadUntilClosed(), "-ERR Protocol error: invalid bulk length\r\n");
  EXPECT_EQ(c()({"ECHO", std::string(1048576, 'x')}), Bulk(std::string(1048576, 'x')));
}

TEST_F(IntrospectionTest, QueryBufferLimitClosesWithoutReply) {
  EXPECT_EQ(c()({"CONFIG", "SET", "client-query-buffer-limit", "1mb"}), Status("OK"));
  Client big = Connect();
  // An argument larger than the limit never completes: the server closes the connection.
  big.Send("*2\r\n$4\r\nECHO\r\n$3000000\r\n" + std::string(1500000, 'x'));
  EXPECT_EQ(big.ReadUntilClosed(), "");
  EXPECT_EQ(c()({"PING"}), Status("PONG"));
}

}  // namespace
}  // namespace redlab::conformance
