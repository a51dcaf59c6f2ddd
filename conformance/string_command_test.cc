// The string family's descriptions: COMMAND INFO exactly as Redis 7.0.15 prints it (arity,
// flags, legacy key positions, ACL categories, tips, key specs) and the COMMAND DOCS fields
// redlab's table carries (summary, since, group, complexity).
#include <map>
#include <string>

#include "conformance/string_fixture.h"

namespace redlab::conformance {
namespace {

// COMMAND INFO <name>, as the suite's client renders a RESP2 reply.
const std::map<std::string, std::string> kCommandInfo = {
    {"get", R"([["get", (integer) 2, [readonly, fast], (integer) 1, (integer) 1, (integer) 1, )"
            R"([@read, @string, @fast], [], [["flags", [RO, access], "begin_search", ["type", )"
            R"("index", "spec", ["index", (integer) 1]], "find_keys", ["type", "range", "spec", )"
            R"(["lastkey", (integer) 0, "keystep", (integer) 1, "limit", (integer) 0]]]], []]])"},
    {"set",
     R"([["set", (integer) -3, [write, denyoom], (integer) 1, (integer) 1, (integer) 1, )"
     R"([@write, @string, @slow], [], [["notes", )"
     R"("RW and ACCESS due to the optional `GET` argument", "flags", [RW, access, update, )"
     R"(variable_flags], "begin_search", ["type", "index", "spec", ["index", (integer) 1]], )"
     R"("find_keys", ["type", "range", "spec", ["lastkey", (integer) 0, "keystep", )"
     R"((integer) 1, "limit", (integer) 0]]]], []]])"},
    {"setnx",
     R"([["setnx", (integer) 3, [write, denyoom, fast], (integer) 1, (integer) 1, )"
     R"((integer) 1, [@write, @string, @fast], [], [["flags", [OW, insert], "begin_search", )"
     R"(["type", "index", "spec", ["index", (integer) 1]], "find_keys", ["type", "range", )"
     R"("spec", ["lastkey", (integer) 0, "keystep", (integer) 1, "limit", (integer) 0]]]], )"
     R"([]]])"},
    {"setex", R"([["setex", (integer) 4, [write, denyoom], (integer) 1, (integer) 1, (integer) 1, )"
              R"([@write, @string, @slow], [], [["flags", [OW, update], "begin_search", ["type", )"
              R"("index", "spec", ["index", (integer) 1]], "find_keys", ["type", "range", "spec", )"
              R"(["lastkey", (integer) 0, "keystep", (integer) 1, "limit", (integer) 0]]]], []]])"},
    {"psetex",
     R"([["psetex", (integer) 4, [write, denyoom], (integer) 1, (integer) 1, (integer) 1, )"
     R"([@write, @string, @slow], [], [["flags", [OW, update], "begin_search", ["type", )"
     R"("index", "spec", ["index", (integer) 1]], "find_keys", ["type", "range", "spec", )"
     R"(["lastkey", (integer) 0, "keystep", (integer) 1, "limit", (integer) 0]]]], []]])"},
    {"getset",
     R"([["getset", (integer) 3, [write, denyoom, fast], (integer) 1, (integer) 1, )"
     R"((integer) 1, [@write, @string, @fast], [], [["flags", [RW, access, update], )"
     R"("begin_search", ["type", "index", "spec", ["index", (integer) 1]], "find_keys", )"
     R"(["type", "range", "spec", ["lastkey", (integer) 0, "keystep", (integer) 1, "limit", )"
     R"((integer) 0]]]], []]])"},
    {"getdel",
     R"([["getdel", (integer) 2, [write, fast], (integer) 1, (integer) 1, (integer) 1, )"
     R"([@write, @string, @fast], [], [["flags", [RW, access, delete], "begin_search", )"
     R"(["type", "index", "spec", ["index", (integer) 1]], "find_keys", ["type", "range", )"
     R"("spec", ["lastkey", (integer) 0, "keystep", (integer) 1, "limit", (integer) 0]]]], )"
     R"([]]])"},
    {"getex",
     R"([["getex", (integer) -2, [write, fast], (integer) 1, (integer) 1, (integer) 1, )"
     R"([@write, @string, @fast], [], [["notes", )"
     R"("RW and UPDATE because it changes the TTL", "flags", [RW, access, update], )"
     R"("begin_search", ["type", "index", "spec", ["index", (integer) 1]], "find_keys", )"
     R"(["type", "range", "spec", ["lastkey", (integer) 0, "keystep", (integer) 1, "limit", )"
     R"((integer) 0]]]], []]])"},
    {"mget", R"([["mget", (integer) -2, [readonly, fast], (integer) 1, (integer) -1, (integer) 1, )"
             R"([@read, @string, @fast], ["request_policy:multi_shard"], [["flags", [RO, access], )"
             R"("begin_search", ["type", "index", "spec", ["index", (integer) 1]], "find_keys", )"
             R"(["type", "range", "spec", ["lastkey", (integer) -1, "keystep", (integer) 1, )"
             R"("limit", (integer) 0]]]], []]])"},
    {"mset",
     R"([["mset", (integer) -3, [write, denyoom], (integer) 1, (integer) -1, (integer) 2, )"
     R"([@write, @string, @slow], ["request_policy:multi_shard", )"
     R"("response_policy:all_succeeded"], [["flags", [OW, update], "begin_search", ["type", )"
     R"("index", "spec", ["index", (integer) 1]], "find_keys", ["type", "range", "spec", )"
     R"(["lastkey", (integer) -1, "keystep", (integer) 2, "limit", (integer) 0]]]], []]])"},
    {"msetnx",
     R"([["msetnx", (integer) -3, [write, denyoom], (integer) 1, (integer) -1, (integer) 2, )"
     R"([@write, @string, @slow], ["request_policy:multi_shard", )"
     R"("response_policy:agg_min"], [["flags", [OW, insert], "begin_search", ["type", )"
     R"("index", "spec", ["index", (integer) 1]], "find_keys", ["type", "range", "spec", )"
     R"(["lastkey", (integer) -1, "keystep", (integer) 2, "limit", (integer) 0]]]], []]])"},
    {"incr",
     R"([["incr", (integer) 2, [write, denyoom, fast], (integer) 1, (integer) 1, )"
     R"((integer) 1, [@write, @string, @fast], [], [["flags", [RW, access, update], )"
     R"("begin_search", ["type", "index", "spec", ["index", (integer) 1]], "find_keys", )"
     R"(["type", "range", "spec", ["lastkey", (integer) 0, "keystep", (integer) 1, "limit", )"
     R"((integer) 0]]]], []]])"},
    {"incrby",
     R"([["incrby", (integer) 3, [write, denyoom, fast], (integer) 1, (integer) 1, )"
     R"((integer) 1, [@write, @string, @fast], [], [["flags", [RW, access, update], )"
     R"("begin_search", ["type", "index", "spec", ["index", (integer) 1]], "find_keys", )"
     R"(["type", "range", "spec", ["lastkey", (integer) 0, "keystep", (integer) 1, "limit", )"
     R"((integer) 0]]]], []]])"},
    {"decr",
     R"([["decr", (integer) 2, [write, denyoom, fast], (integer) 1, (integer) 1, )"
     R"((integer) 1, [@write, @string, @fast], [], [["flags", [RW, access, update], )"
     R"("begin_search", ["type", "index", "spec", ["index", (integer) 1]], "find_keys", )"
     R"(["type", "range", "spec", ["lastkey", (integer) 0, "keystep", (integer) 1, "limit", )"
     R"((integer) 0]]]], []]])"},
    {"decrby",
     R"([["decrby", (integer) 3, [write, denyoom, fast], (integer) 1, (integer) 1, )"
     R"((integer) 1, [@write, @string, @fast], [], [["flags", [RW, access, update], )"
     R"("begin_search", ["type", "index", "spec", ["index", (integer) 1]], "find_keys", )"
     R"(["type", "range", "spec", ["lastkey", (integer) 0, "keystep", (integer) 1, "limit", )"
     R"((integer) 0]]]], []]])"},
    {"incrbyfloat",
     R"([["incrbyfloat", (integer) 3, [write, denyoom, fast], (integer) 1, (integer) 1, )"
     R"((integer) 1, [@write, @string, @fast], [], [["flags", [RW, access, update], )"
     R"("begin_search", ["type", "index", "spec", ["index", (integer) 1]], "find_keys", )"
     R"(["type", "range", "spec", ["lastkey", (integer) 0, "keystep", (integer) 1, "limit", )"
     R"((integer) 0]]]], []]])"},
    {"append",
     R"([["append", (integer) 3, [write, denyoom, fast], (integer) 1, (integer) 1, )"
     R"((integer) 1, [@write, @string, @fast], [], [["flags", [RW, insert], "begin_search", )"
     R"(["type", "index", "spec", ["index", (integer) 1]], "find_keys", ["type", "range", )"
     R"("spec", ["lastkey", (integer) 0, "keystep", (integer) 1, "limit", (integer) 0]]]], )"
     R"([]]])"},
    {"strlen",
     R"([["strlen", (integer) 2, [readonly, fast], (integer) 1, (integer) 1, (integer) 1, )"
     R"([@read, @string, @fast], [], [["flags", [RO], "begin_search", ["type", "index", )"
     R"("spec", ["index", (integer) 1]], "find_keys", ["type", "range", "spec", ["lastkey", )"
     R"((integer) 0, "keystep", (integer) 1, "limit", (integer) 0]]]], []]])"},
    {"getrange",
     R"([["getrange", (integer) 4, [readonly], (integer) 1, (integer) 1, (integer) 1, )"
     R"([@read, @string, @slow], [], [["flags", [RO, access], "begin_search", ["type", )"
     R"("index", "spec", ["index", (integer) 1]], "find_keys", ["type", "range", "spec", )"
     R"(["lastkey", (integer) 0, "keystep", (integer) 1, "limit", (integer) 0]]]], []]])"},
    {"substr",
     R"([["substr", (integer) 4, [readonly], (integer) 1, (integer) 1, (integer) 1, [@read, )"
     R"(@string, @slow], [], [["flags", [RO, access], "begin_search", ["type", "index", )"
     R"("spec", ["index", (integer) 1]], "find_keys", ["type", "range", "spec", ["lastkey", )"
     R"((integer) 0, "keystep", (integer) 1, "limit", (integer) 0]]]], []]])"},
    {"setrange",
     R"([["setrange", (integer) 4, [write, denyoom], (integer) 1, (integer) 1, (integer) 1, )"
     R"([@write, @string, @slow], [], [["flags", [RW, update], "begin_search", ["type", )"
     R"("index", "spec", ["index", (integer) 1]], "find_keys", ["type", "range", "spec", )"
     R"(["lastkey", (integer) 0, "keystep", (integer) 1, "limit", (integer) 0]]]], []]])"},
    {"lcs",
     R"([["lcs", (integer) -3, [readonly], (integer) 1, (integer) 2, (integer) 1, [@read, )"
     R"(@string, @slow], [], [["flags", [RO, access], "begin_search", ["type", "index", )"
     R"("spec", ["index", (integer) 1]], "find_keys", ["type", "range", "spec", ["lastkey", )"
     R"((integer) 1, "keystep", (integer) 1, "limit", (integer) 0]]]], []]])"},
};

TEST_F(StringTest, CommandInfo) {
  for (const auto& [name, expected] : kCommandInfo) {
    EXPECT_EQ(c()({"COMMAND", "INFO", name}).Describe(), expected) << name;
  }
}

// The value of `field` in one COMMAND DOCS entry (a flat list of names and values in RESP2).
std::string DocField(const Reply& docs, std::string_view field) {
  if (docs.elements.size() != 2) return "(no entry)";
  const auto& fields = docs.elements[1].elements;
  for (size_t i = 0; i + 1 < fields.size(); i += 2) {
    if (fields[i].str == field) return fields[i + 1].str;
  }
  return "(missing)";
}

TEST_F(StringTest, CommandDocs) {
  struct Doc {
    std::string name, summary, since, complexity;
  };
  const std::string range =
      "O(N) where N is the length of the returned string. The complexity is ultimately "
      "determined by the returned length, but because creating a substring from an existing "
      "string is very cheap, it can be considered O(1) for small strings.";
  const std::vector<Doc> docs = {
      {"get", "Get the value of a key", "1.0.0", "O(1)"},
      {"set", "Set the string value of a key", "1.0.0", "O(1)"},
      {"setnx", "Set the value of a key, only if the key does not exist", "1.0.0", "O(1)"},
      {"setex", "Set the value and expiration of a key", "2.0.0", "O(1)"},
      {"psetex", "Set the value and expiration in milliseconds of a key", "2.6.0", "O(1)"},
      {"getset", "Set the string value of a key and return its old value", "1.0.0", "O(1)"},
      {"getdel", "Get the value of a key and delete the key", "6.2.0", "O(1)"},
      {"getex", "Get the value of a key and optionally set its expiration", "6.2.0", "O(1)"},
      {"mget", "Get the values of all the given keys", "1.0.0",
       "O(N) where N is the number of keys to retrieve."},
      {"mset", "Set multiple keys to multiple values", "1.0.1",
       "O(N) where N is the number of keys to set."},
      {"msetnx", "Set multiple keys to multiple values, only if none of the keys exist", "1.0.1",
       "O(N) where N is the number of keys to set."},
      {"incr", "Increment the integer value of a key by one", "1.0.0", "O(1)"},
      {"incrby", "Increment the integer value of a key by the given amount", "1.0.0", "O(1)"},
      {"decr", "Decrement the integer value of a key by one", "1.0.0", "O(1)"},
      {"decrby", "Decrement the integer value of a key by the given number", "1.0.0", "O(1)"},
      {"incrbyfloat", "Increment the float value of a key by the given amount", "2.6.0", "O(1)"},
      {"append", "Append a value to a key", "2.0.0",
       "O(1). The amortized time complexity is O(1) assuming the appended value is small and the "
       "already present value is of any size, since the dynamic string library used by Redis "
       "will double the free space available on every reallocation."},
      {"strlen", "Get the length of the value stored in a key", "2.2.0", "O(1)"},
      {"getrange", "Get a substring of the string stored at a key", "2.4.0", range},
      {"substr", "Get a substring of the string stored at a key", "1.0.0", range},
      {"setrange", "Overwrite part of a string at key starting at the specified offset", "2.2.0",
       "O(1), not counting the time taken to copy the new string in place. Usually, this string "
       "is very small so the amortized complexity is O(1). Otherwise, complexity is O(M) with M "
       "being the length of the value argument."},
      {"lcs", "Find longest common substring", "7.0.0",
       "O(N*M) where N and M are the lengths of s1 and s2, respectively"},
  };
  for (const Doc& d : docs) {
    Reply reply = c()({"COMMAND", "DOCS", d.name});
    ASSERT_EQ(reply.type, Reply::Type::kArray) << d.name;
    EXPECT_EQ(DocField(reply, "summary"), d.summary) << d.name;
    EXPECT_EQ(DocField(reply, "since"), d.since) << d.name;
    EXPECT_EQ(DocField(reply, "group"), "string") << d.name;
    EXPECT_EQ(DocField(reply, "complexity"), d.complexity) << d.name;
  }
}

TEST_F(StringTest, ArityErrors) {
  const std::vector<std::vector<std::string>> calls = {{"get"},
                                                       {"get", "a", "b"},
                                                       {"set", "k"},
                                                       {"setnx", "k", "v", "x"},
                                                       {"setex", "k", "1"},
                                                       {"psetex", "k", "1", "v", "x"},
                                                       {"getset", "k"},
                                                       {"getdel"},
                                                       {"getdel", "a", "b"},
                                                       {"getex"},
                                                       {"mget"},
                                                       {"mset", "k"},
                                                       {"msetnx"},
                                                       {"incr"},
                                                       {"incr", "a", "b"},
                                                       {"incrby", "k"},
                                                       {"decr"},
                                                       {"decrby", "k", "1", "2"},
                                                       {"incrbyfloat", "k"},
                                                       {"append", "k"},
                                                       {"strlen"},
                                                       {"getrange", "k", "0"},
                                                       {"substr", "k"},
                                                       {"setrange", "k", "0"},
                                                       {"lcs", "a"}};
  for (const auto& call : calls) {
    EXPECT_EQ(c().Call(call), Error("ERR wrong number of arguments for '" + call[0] + "' command"))
        << call.size();
  }
}

}  // namespace
}  // namespace redlab::conformance
