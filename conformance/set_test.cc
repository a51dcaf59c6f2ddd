// Set commands: SADD, SREM, SMEMBERS, SISMEMBER, SMISMEMBER, SCARD, SPOP, SRANDMEMBER, SINTER,
// SUNION, SDIFF and their STORE forms, SINTERCARD, SMOVE, SSCAN.
//
// Order: a set of at most set-max-intset-entries integers is an intset in Redis and iterates in
// ascending order, so those replies are compared exactly; any other set is a hash table whose
// order is Redis's own, and those replies are compared sorted.
#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "conformance/harness/fixture.h"
#include "conformance/harness/script.h"

namespace redlab::conformance {
namespace {

constexpr const char* kWrongType =
    "WRONGTYPE Operation against a key holding the wrong kind of value";

Reply Bulks(std::vector<std::string> items) {
  std::vector<Reply> out;
  for (auto& s : items) out.push_back(Bulk(std::move(s)));
  return Array(std::move(out));
}

// The bulk strings of an array reply, sorted.
std::vector<std::string> Sorted(const Reply& r) {
  std::vector<std::string> out;
  for (const Reply& e : r.elements) out.push_back(e.str);
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::string> Strings(const Reply& r) {
  std::vector<std::string> out;
  for (const Reply& e : r.elements) out.push_back(e.str);
  return out;
}

// "1".."n" as strings, and the ascending order of their values.
std::vector<std::string> Numbers(int from, int to) {
  std::vector<std::string> out;
  for (int i = from; i <= to; ++i) out.push_back(std::to_string(i));
  return out;
}

class SetTest : public ConformanceTest {
 protected:
  void Sadd(const std::string& key, const std::vector<std::string>& members) {
    std::vector<std::string> cmd = {"SADD", key};
    cmd.insert(cmd.end(), members.begin(), members.end());
    ASSERT_EQ(c().Call(cmd).type, Reply::Type::kInteger);
  }

  bool Touches(std::string_view key, const std::vector<std::string>& command) {
    EXPECT_EQ(c()({"WATCH", key}), Status("OK"));
    Client other = Connect();
    other.Call(command);
    c()({"MULTI"});
    c()({"PING"});
    return c()({"EXEC"}).type == Reply::Type::kNil;
  }
};

// Sets set-max-intset-entries for one test and restores Redis's default after it.
class IntsetLimit {
 public:
  IntsetLimit(Client& c, const std::string& value) : c_(c) {
    EXPECT_EQ(c_.Call({"CONFIG", "SET", "set-max-intset-entries", value}), Status("OK"));
  }
  ~IntsetLimit() { c_.Call({"CONFIG", "SET", "set-max-intset-entries", "512"}); }

 private:
  Client& c_;
};

TEST_F(SetTest, AddRemoveAndMembership) {
  EXPECT_EQ(c()({"SADD", "s", "a", "b", "a"}), Int(2));
  EXPECT_EQ(c()({"SADD", "s", "b", "c"}), Int(1));
  EXPECT_EQ(c()({"SADD", "s", "a"}), Int(0));
  EXPECT_EQ(c()({"SCARD", "s"}), Int(3));
  EXPECT_EQ(c()({"SCARD", "missing"}), Int(0));
  EXPECT_EQ(c()({"SISMEMBER", "s", "a"}), Int(1));
  EXPECT_EQ(c()({"SISMEMBER", "s", "z"}), Int(0));
  EXPECT_EQ(c()({"SISMEMBER", "missing", "a"}), Int(0));
  EXPECT_EQ(c()({"SMISMEMBER", "s", "a", "z", "c", "a"}), Array({Int(1), Int(0), Int(1), Int(1)}));
  EXPECT_EQ(c()({"SMISMEMBER", "missing", "a", "b"}), Array({Int(0), Int(0)}));
  EXPECT_EQ(Sorted(c()({"SMEMBERS", "s"})), (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_EQ(c()({"SREM", "s", "a", "z", "a"}), Int(1));
  EXPECT_EQ(c()({"SREM", "s", "z"}), Int(0));
  EXPECT_EQ(c()({"SREM", "missing", "a"}), Int(0));
  EXPECT_EQ(c()({"SREM", "s", "b", "c", "never"}), Int(2));
  EXPECT_EQ(c()({"DBSIZE"}), Int(0));  // emptied: the key is gone
  EXPECT_EQ(c().Raw({"SMEMBERS", "s"}), "*0\r\n");
}

TEST_F(SetTest, MembersAreBinarySafe) {
  std::string binary("a\0b\r\n", 5);
  EXPECT_EQ(c().Call({"SADD", "s", binary, ""}), Int(2));
  EXPECT_EQ(c().Call({"SISMEMBER", "s", binary}), Int(1));
  EXPECT_EQ(c().Call({"SISMEMBER", "s", std::string("a")}), Int(0));
  EXPECT_EQ(Sorted(c()({"SMEMBERS", "s"})), (std::vector<std::string>{"", binary}));
}

TEST_F(SetTest, IntegerSetsIterateInAscendingOrder) {
  Sadd("s", {"3", "-5", "100", "0", "9223372036854775807", "-9223372036854775808", "3"});
  EXPECT_EQ(c()({"SMEMBERS", "s"}),
            Bulks({"-9223372036854775808", "-5", "0", "3", "100", "9223372036854775807"}));
  EXPECT_EQ(c()({"SISMEMBER", "s", "100"}), Int(1));
  EXPECT_EQ(c()({"SISMEMBER", "s", "0100"}), Int(0));  // not the same string
  EXPECT_EQ(c()({"SISMEMBER", "s", "x"}), Int(0));
  // 512 integers (set-max-intset-entries) still come back sorted.
  std::vector<std::string> many = Numbers(1, 512);
  std::vector<std::string> shuffled = many;
  std::reverse(shuffled.begin(), shuffled.end());
  Sadd("big", shuffled);
  EXPECT_EQ(c()({"SMEMBERS", "big"}), Bulks(many));
  EXPECT_EQ(c()({"SSCAN", "big", "0"}), Array({Bulk("0"), Bulks(many)}));
}

TEST_F(SetTest, NonIntegerSetsAreHashTables) {
  // Past 512 integers, or with one non-integer member (non-canonical forms such as "01" or "+1"
  // included), the set is a hash table: same members, no longer in ascending order.
  std::vector<std::string> many = Numbers(1, 513);
  Sadd("big", many);
  Reply members = c()({"SMEMBERS", "big"});
  EXPECT_EQ(members.elements.size(), 513u);
  EXPECT_NE(Strings(members), many);
  Sadd("odd", Numbers(1, 100));
  Sadd("odd", {"01"});
  Reply odd = c()({"SMEMBERS", "odd"});
  EXPECT_EQ(odd.elements.size(), 101u);
  EXPECT_NE(Strings(odd), Numbers(1, 100));
  // The conversion is one way: removing the odd member does not make it sorted again.
  EXPECT_EQ(c()({"SREM", "odd", "01"}), Int(1));
  EXPECT_NE(Strings(c()({"SMEMBERS", "odd"})), Numbers(1, 100));
}

TEST_F(SetTest, IntsetLimitIsConfigurable) {
  IntsetLimit limit(c(), "3");
  Sadd("s", {"30", "10", "20"});
  EXPECT_EQ(c()({"SMEMBERS", "s"}), Bulks({"10", "20", "30"}));
  std::vector<std::string> many = Numbers(1, 60);
  Sadd("t", many);
  Reply t = c()({"SMEMBERS", "t"});
  EXPECT_EQ(Sorted(t).size(), 60u);
  EXPECT_NE(Strings(t), many);
}

TEST_F(SetTest, WrongTypeIsRefusedByEveryCommand) {
  c()({"SET", "str", "x"});
  c()({"SADD", "s", "a"});
  const std::vector<std::vector<std::string>> commands = {
      {"SADD", "str", "a"},
      {"SREM", "str", "a"},
      {"SMEMBERS", "str"},
      {"SISMEMBER", "str", "a"},
      {"SMISMEMBER", "str", "a"},
      {"SCARD", "str"},
      {"SPOP", "str"},
      {"SPOP", "str", "1"},
      {"SRANDMEMBER", "str"},
      {"SRANDMEMBER", "str", "1"},
      {"SINTER", "s", "str"},
      {"SUNION", "str", "s"},
      {"SDIFF", "s", "str"},
      {"SINTERSTORE", "d", "s", "str"},
      {"SUNIONSTORE", "d", "str"},
      {"SDIFFSTORE", "d", "s", "str"},
      {"SINTERCARD", "2", "s", "str"},
      {"SMOVE", "str", "s", "a"},
      {"SMOVE", "s", "str", "a"},
      {"SSCAN", "str", "0"},
  };
  for (const auto& cmd : commands) {
    EXPECT_EQ(c().Call(cmd), Error(kWrongType)) << cmd[0] << " " << cmd[1];
  }
  // A missing key before the wrong one does not hide it.
  EXPECT_EQ(c()({"SINTER", "missing", "str"}), Error(kWrongType));
  EXPECT_EQ(c()({"SDIFF", "missing", "str"}), Error(kWrongType));
  EXPECT_EQ(c()({"SINTERCARD", "2", "missing", "str"}), Error(kWrongType));
  EXPECT_EQ(c()({"SCARD", "s"}), Int(1));
  EXPECT_EQ(c()({"GET", "str"}), Bulk("x"));
  EXPECT_EQ(c()({"DBSIZE"}), Int(2));
}

TEST_F(SetTest, ArityErrors) {
  const std::vector<std::vector<std::string>> commands = {
      {"SADD", "s"},        {"SREM", "s"},        {"SMEMBERS"},        {"SMEMBERS", "a", "b"},
      {"SISMEMBER", "s"},   {"SMISMEMBER", "s"},  {"SCARD"},           {"SPOP"},
      {"SRANDMEMBER"},      {"SINTER"},           {"SUNION"},          {"SDIFF"},
      {"SINTERSTORE", "d"}, {"SUNIONSTORE", "d"}, {"SDIFFSTORE", "d"}, {"SINTERCARD", "1"},
      {"SMOVE", "a", "b"},  {"SSCAN", "s"},
  };
  for (const auto& cmd : commands) {
    std::string name = cmd[0];
    for (char& ch : name) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    EXPECT_EQ(c().Call(cmd), Error("ERR wrong number of arguments for '" + name + "' command"))
        << cmd[0];
  }
  // SPOP and SRANDMEMBER take at most a count; more is a syntax error.
  EXPECT_EQ(c()({"SPOP", "s", "1", "2"}), Error("ERR syntax error"));
  EXPECT_EQ(c()({"SRANDMEMBER", "s", "1", "2"}), Error("ERR syntax error"));
}

TEST_F(SetTest, SpopOne) {
  Sadd("s", {"a", "b", "c"});
  std::set<std::string> popped;
  for (int i = 0; i < 3; ++i) {
    Reply r = c()({"SPOP", "s"});
    ASSERT_EQ(r.type, Reply::Type::kBulk);
    popped.insert(r.str);
  }
  EXPECT_EQ(popped, (std::set<std::string>{"a", "b", "c"}));
  EXPECT_EQ(c()({"DBSIZE"}), Int(0));
  EXPECT_EQ(c().Raw({"SPOP", "s"}), "$-1\r\n");
}

TEST_F(SetTest, SpopWithCount) {
  Sadd("s", Numbers(1, 10));
  Reply two = c()({"SPOP", "s", "2"});
  ASSERT_EQ(two.elements.size(), 2u);
  Reply seven = c()({"SPOP", "s", "7"});  // most of what is left: Redis's other strategy
  ASSERT_EQ(seven.elements.size(), 7u);
  EXPECT_EQ(c()({"SCARD", "s"}), Int(1));
  std::vector<std::string> all = Sorted(two);
  for (const auto& m : Sorted(seven)) all.push_back(m);
  for (const auto& m : Sorted(c()({"SMEMBERS", "s"}))) all.push_back(m);
  std::sort(all.begin(), all.end());
  std::vector<std::string> expected = Numbers(1, 10);
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(all, expected);  // each member went exactly one way
  EXPECT_EQ(c().Raw({"SPOP", "s", "0"}), "*0\r\n");
  EXPECT_EQ(c()({"SCARD", "s"}), Int(1));
  // Asking for at least the whole set returns it and deletes the key.
  EXPECT_EQ(c()({"SPOP", "s", "9223372036854775807"}).elements.size(), 1u);
  EXPECT_EQ(c()({"DBSIZE"}), Int(0));
  EXPECT_EQ(c().Raw({"SPOP", "s", "3"}), "*0\r\n");
  Sadd("t", {"5", "1", "3"});
  EXPECT_EQ(c()({"SPOP", "t", "3"}), Bulks({"1", "3", "5"}));
}

TEST_F(SetTest, SpopOfMostOfASetRebuildsWhatRemains) {
  // Taking most of a set, Redis builds a new set of the members left: a hash table of integers
  // becomes an intset again, and answers in ascending order.
  Sadd("s", {"a"});
  Sadd("s", Numbers(1, 100));
  c()({"SREM", "s", "a"});
  EXPECT_EQ(c()({"SPOP", "s", "89"}).elements.size(), 89u);
  std::vector<std::string> left = Strings(c()({"SMEMBERS", "s"}));
  ASSERT_EQ(left.size(), 11u);
  EXPECT_TRUE(std::is_sorted(
      left.begin(), left.end(),
      [](const std::string& a, const std::string& b) { return std::stoll(a) < std::stoll(b); }));
}

TEST_F(SetTest, SpopCountErrors) {
  Sadd("s", {"a"});
  for (const char* bad : {"-1", "x", "9223372036854775808"}) {
    EXPECT_EQ(c()({"SPOP", "s", bad}), Error("ERR value is out of range, must be positive"));
    EXPECT_EQ(c()({"SPOP", "missing", bad}), Error("ERR value is out of range, must be positive"));
  }
  EXPECT_EQ(c()({"SCARD", "s"}), Int(1));
}

TEST_F(SetTest, Srandmember) {
  EXPECT_EQ(c().Raw({"SRANDMEMBER", "missing"}), "$-1\r\n");
  EXPECT_EQ(c().Raw({"SRANDMEMBER", "missing", "3"}), "*0\r\n");
  EXPECT_EQ(c().Raw({"SRANDMEMBER", "missing", "-3"}), "*0\r\n");
  Sadd("s", {"a", "b", "c", "d", "e", "f", "g", "h", "i", "j"});
  std::set<std::string> members = {"a", "b", "c", "d", "e", "f", "g", "h", "i", "j"};
  Reply one = c()({"SRANDMEMBER", "s"});
  ASSERT_EQ(one.type, Reply::Type::kBulk);
  EXPECT_TRUE(members.count(one.str));
  // A positive count: distinct members (for both of Redis's strategies: few, and most).
  for (const char* n : {"1", "2", "4", "9"}) {
    Reply r = c()({"SRANDMEMBER", "s", n});
    std::vector<std::string> got = Sorted(r);
    EXPECT_EQ(got.size(), static_cast<size_t>(std::stoi(n)));
    EXPECT_EQ(std::set<std::string>(got.begin(), got.end()).size(), got.size());
    for (const auto& m : got) EXPECT_TRUE(members.count(m));
  }
  // At least the whole set: all of it.
  EXPECT_EQ(Sorted(c()({"SRANDMEMBER", "s", "10"})).size(), 10u);
  EXPECT_EQ(Sorted(c()({"SRANDMEMBER", "s", "9223372036854775807"})).size(), 10u);
  // A negative count: that many draws, repeats allowed.
  Reply draws = c()({"SRANDMEMBER", "s", "-25"});
  EXPECT_EQ(draws.elements.size(), 25u);
  for (const auto& m : Strings(draws)) EXPECT_TRUE(members.count(m));
  EXPECT_EQ(c().Raw({"SRANDMEMBER", "s", "0"}), "*0\r\n");
  EXPECT_EQ(c()({"SCARD", "s"}), Int(10));  // nothing removed
  // An intset asked for all of itself answers in order.
  Sadd("i", {"3", "1", "2"});
  EXPECT_EQ(c()({"SRANDMEMBER", "i", "5"}), Bulks({"1", "2", "3"}));
  EXPECT_EQ(c()({"SRANDMEMBER", "i", "-4"}).elements.size(), 4u);
}

TEST_F(SetTest, SrandmemberCountErrors) {
  Sadd("s", {"a"});
  EXPECT_EQ(c()({"SRANDMEMBER", "s", "x"}), Error("ERR value is not an integer or out of range"));
  EXPECT_EQ(c()({"SRANDMEMBER", "missing", "x"}),
            Error("ERR value is not an integer or out of range"));
  EXPECT_EQ(c()({"SRANDMEMBER", "s", "-9223372036854775808"}),
            Error("ERR value is out of range, value must between -9223372036854775807 and "
                  "9223372036854775807"));
}

TEST_F(SetTest, Resp3Shapes) {
  c()({"HELLO", "3"});
  Sadd("i", {"2", "1"});
  EXPECT_EQ(c().Raw({"SMEMBERS", "i"}), "~2\r\n$1\r\n1\r\n$1\r\n2\r\n");
  EXPECT_EQ(c().Raw({"SMEMBERS", "missing"}), "~0\r\n");
  EXPECT_EQ(c().Raw({"SINTER", "i", "missing"}), "~0\r\n");
  EXPECT_EQ(c().Raw({"SINTER", "i", "i"}), "~2\r\n$1\r\n1\r\n$1\r\n2\r\n");
  EXPECT_EQ(c().Raw({"SUNION", "missing", "i"}), "~2\r\n$1\r\n1\r\n$1\r\n2\r\n");
  EXPECT_EQ(c().Raw({"SDIFF", "missing", "i"}), "~0\r\n");
  EXPECT_EQ(c().Raw({"SPOP", "missing"}), "_\r\n");
  EXPECT_EQ(c().Raw({"SPOP", "missing", "1"}), "~0\r\n");
  EXPECT_EQ(c().Raw({"SPOP", "i", "0"}), "~0\r\n");
  EXPECT_EQ(c().Raw({"SRANDMEMBER", "missing"}), "_\r\n");
  EXPECT_EQ(c().Raw({"SRANDMEMBER", "missing", "1"}), "*0\r\n");
  EXPECT_EQ(c().Raw({"SRANDMEMBER", "i", "0"}), "*0\r\n");
  EXPECT_EQ(c().Raw({"SRANDMEMBER", "i", "2"}), "*2\r\n$1\r\n1\r\n$1\r\n2\r\n");
  EXPECT_EQ(c().Raw({"SMISMEMBER", "i", "1", "3"}), "*2\r\n:1\r\n:0\r\n");
  EXPECT_EQ(c().Raw({"SINTERCARD", "1", "i"}), ":2\r\n");
  EXPECT_EQ(c().Raw({"SSCAN", "i", "0"}), "*2\r\n$1\r\n0\r\n*2\r\n$1\r\n1\r\n$1\r\n2\r\n");
  Sadd("j", {"5", "6", "7", "8", "9", "10"});
  std::string pop = c().Raw({"SPOP", "j", "2"});
  EXPECT_EQ(pop.substr(0, 4), "~2\r\n");
  EXPECT_EQ(c().Raw({"SPOP", "i", "2"}), "~2\r\n$1\r\n1\r\n$1\r\n2\r\n");
}

TEST_F(SetTest, SinterSunionSdiff) {
  Sadd("a", {"1", "2", "3", "4"});
  Sadd("b", {"6", "4", "5", "3"});
  Sadd("c", {"3", "x"});
  EXPECT_EQ(c()({"SINTER", "a", "b"}), Bulks({"3", "4"}));
  EXPECT_EQ(c()({"SUNION", "a", "b"}), Bulks({"1", "2", "3", "4", "5", "6"}));
  EXPECT_EQ(c()({"SDIFF", "a", "b"}), Bulks({"1", "2"}));
  EXPECT_EQ(c()({"SDIFF", "b", "a"}), Bulks({"5", "6"}));
  EXPECT_EQ(c()({"SINTER", "a", "b", "c"}), Bulks({"3"}));
  EXPECT_EQ(Sorted(c()({"SUNION", "a", "c"})), (std::vector<std::string>{"1", "2", "3", "4", "x"}));
  EXPECT_EQ(c()({"SDIFF", "a", "c", "b"}), Bulks({"1", "2"}));
  EXPECT_EQ(Sorted(c()({"SDIFF", "c", "a"})), (std::vector<std::string>{"x"}));
  EXPECT_EQ(c()({"SINTER", "a"}), Bulks({"1", "2", "3", "4"}));
  // Missing keys are empty sets.
  EXPECT_EQ(c().Raw({"SINTER", "a", "missing"}), "*0\r\n");
  EXPECT_EQ(c()({"SUNION", "missing", "a"}), Bulks({"1", "2", "3", "4"}));
  EXPECT_EQ(c()({"SDIFF", "a", "missing"}), Bulks({"1", "2", "3", "4"}));
  EXPECT_EQ(c().Raw({"SDIFF", "missing", "a"}), "*0\r\n");
  // A set minus itself is empty, wherever it repeats.
  EXPECT_EQ(c().Raw({"SDIFF", "a", "a"}), "*0\r\n");
  EXPECT_EQ(c().Raw({"SDIFF", "a", "missing", "a"}), "*0\r\n");
  EXPECT_EQ(c()({"SINTER", "a", "a"}), Bulks({"1", "2", "3", "4"}));
  // Both of Redis's SDIFF strategies: a large first set against small ones, and the reverse.
  Sadd("big", Numbers(1, 200));
  Sadd("small", {"2", "3"});
  Reply diff = c()({"SDIFF", "big", "small"});
  EXPECT_EQ(diff.elements.size(), 198u);
  EXPECT_EQ(c()({"SDIFF", "small", "big", "a"}).elements.size(), 0u);
  EXPECT_EQ(c()({"SDIFF", "small", "a"}).elements.size(), 0u);
  EXPECT_EQ(c()({"SDIFF", "big", "a", "b", "small"}).elements.size(), 194u);
}

TEST_F(SetTest, StoreForms) {
  Sadd("a", {"1", "2", "3"});
  Sadd("b", {"2", "3", "4"});
  EXPECT_EQ(c()({"SINTERSTORE", "d", "a", "b"}), Int(2));
  EXPECT_EQ(c()({"SMEMBERS", "d"}), Bulks({"2", "3"}));
  EXPECT_EQ(c()({"SUNIONSTORE", "d", "a", "b"}), Int(4));
  EXPECT_EQ(c()({"SMEMBERS", "d"}), Bulks({"1", "2", "3", "4"}));
  EXPECT_EQ(c()({"SDIFFSTORE", "d", "a", "b"}), Int(1));
  EXPECT_EQ(c()({"SMEMBERS", "d"}), Bulks({"1"}));
  // The destination may be a source, and any type is replaced.
  EXPECT_EQ(c()({"SUNIONSTORE", "a", "a", "b"}), Int(4));
  EXPECT_EQ(c()({"SMEMBERS", "a"}), Bulks({"1", "2", "3", "4"}));
  c()({"SET", "str", "x"});
  EXPECT_EQ(c()({"SINTERSTORE", "str", "a", "b"}), Int(3));
  EXPECT_EQ(c()({"SMEMBERS", "str"}), Bulks({"2", "3", "4"}));
  // An empty result deletes the destination, whatever it held.
  c()({"SET", "str2", "x"});
  EXPECT_EQ(c()({"SINTERSTORE", "str2", "a", "missing"}), Int(0));
  EXPECT_EQ(c()({"GET", "str2"}), Nil());
  c()({"SET", "str2", "x"});
  EXPECT_EQ(c()({"SDIFFSTORE", "str2", "a", "a"}), Int(0));
  EXPECT_EQ(c()({"GET", "str2"}), Nil());
  c()({"SET", "str2", "x"});
  EXPECT_EQ(c()({"SUNIONSTORE", "str2", "missing"}), Int(0));
  EXPECT_EQ(c()({"GET", "str2"}), Nil());
  EXPECT_EQ(c()({"SINTERSTORE", "nothing", "a", "missing"}), Int(0));
  // A result with a non-integer member is a hash table.
  Sadd("c", {"x", "2"});
  EXPECT_EQ(c()({"SUNIONSTORE", "d", "a", "c"}), Int(5));
  EXPECT_EQ(Sorted(c()({"SMEMBERS", "d"})), (std::vector<std::string>{"1", "2", "3", "4", "x"}));
  // A wrong-typed source stores nothing.
  c()({"SET", "plain", "x"});
  EXPECT_EQ(c()({"SINTERSTORE", "d", "plain", "a"}), Error(kWrongType));
  EXPECT_EQ(c()({"SCARD", "d"}), Int(5));
}

TEST_F(SetTest, Sintercard) {
  Sadd("a", {"1", "2", "3", "4"});
  Sadd("b", {"2", "3", "4", "5"});
  EXPECT_EQ(c()({"SINTERCARD", "2", "a", "b"}), Int(3));
  EXPECT_EQ(c()({"SINTERCARD", "1", "a"}), Int(4));
  EXPECT_EQ(c()({"SINTERCARD", "2", "a", "b", "LIMIT", "2"}), Int(2));
  EXPECT_EQ(c()({"SINTERCARD", "2", "a", "b", "limit", "0"}), Int(3));  // 0: no limit
  EXPECT_EQ(c()({"SINTERCARD", "2", "a", "b", "LIMIT", "10"}), Int(3));
  EXPECT_EQ(c()({"SINTERCARD", "2", "a", "b", "LIMIT", "1", "LIMIT", "5"}), Int(3));
  EXPECT_EQ(c()({"SINTERCARD", "2", "a", "missing"}), Int(0));
  for (const char* bad : {"0", "-1", "x", "9223372036854775808"}) {
    EXPECT_EQ(c()({"SINTERCARD", bad, "a"}), Error("ERR numkeys should be greater than 0")) << bad;
  }
  EXPECT_EQ(c()({"SINTERCARD", "3", "a", "b"}),
            Error("ERR Number of keys can't be greater than number of args"));
  EXPECT_EQ(c()({"SINTERCARD", "9223372036854775807", "a"}),
            Error("ERR Number of keys can't be greater than number of args"));
  EXPECT_EQ(c()({"SINTERCARD", "2", "a", "b", "LIMIT", "-1"}),
            Error("ERR LIMIT can't be negative"));
  EXPECT_EQ(c()({"SINTERCARD", "2", "a", "b", "LIMIT", "x"}), Error("ERR LIMIT can't be negative"));
  EXPECT_EQ(c()({"SINTERCARD", "2", "a", "b", "LIMIT"}), Error("ERR syntax error"));
  EXPECT_EQ(c()({"SINTERCARD", "1", "a", "b"}), Error("ERR syntax error"));
}

TEST_F(SetTest, Smove) {
  Sadd("src", {"a", "b"});
  Sadd("dst", {"b"});
  EXPECT_EQ(c()({"SMOVE", "src", "dst", "a"}), Int(1));
  EXPECT_EQ(Sorted(c()({"SMEMBERS", "dst"})), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(c()({"SMOVE", "src", "dst", "zz"}), Int(0));
  EXPECT_EQ(c()({"SMOVE", "src", "dst", "b"}), Int(1));  // already there: still moved
  EXPECT_EQ(c()({"DBSIZE"}), Int(1));                    // the emptied source is gone
  c()({"SADD", "dst", "5"});
  EXPECT_EQ(c()({"SMOVE", "dst", "new", "5"}), Int(1));  // a missing destination is created
  EXPECT_EQ(c()({"SMEMBERS", "new"}), Bulks({"5"}));
  EXPECT_EQ(c()({"SMOVE", "dst", "dst", "a"}), Int(1));  // onto itself: a membership test
  EXPECT_EQ(c()({"SMOVE", "dst", "dst", "zz"}), Int(0));
  EXPECT_EQ(c()({"SCARD", "dst"}), Int(2));
  // A missing source answers 0 before any type is checked.
  c()({"SET", "str", "x"});
  EXPECT_EQ(c()({"SMOVE", "missing", "str", "a"}), Int(0));
  EXPECT_EQ(c()({"SMOVE", "dst", "str", "a"}), Error(kWrongType));
  EXPECT_EQ(c()({"SCARD", "dst"}), Int(2));
}

TEST_F(SetTest, SscanIntsetComesWhole) {
  Sadd("i", {"30", "10", "20", "11"});
  EXPECT_EQ(c()({"SSCAN", "i", "0"}), Array({Bulk("0"), Bulks({"10", "11", "20", "30"})}));
  EXPECT_EQ(c()({"SSCAN", "i", "0", "COUNT", "1"}),
            Array({Bulk("0"), Bulks({"10", "11", "20", "30"})}));
  EXPECT_EQ(c()({"SSCAN", "i", "77"}), Array({Bulk("0"), Bulks({"10", "11", "20", "30"})}));
  EXPECT_EQ(c()({"SSCAN", "i", "0", "MATCH", "1*"}), Array({Bulk("0"), Bulks({"10", "11"})}));
  EXPECT_EQ(c()({"SSCAN", "i", "0", "MATCH", "*", "COUNT", "100"}),
            Array({Bulk("0"), Bulks({"10", "11", "20", "30"})}));
}

TEST_F(SetTest, SscanHashTableVisitsEverything) {
  std::vector<std::string> members;
  for (int i = 0; i < 300; ++i) members.push_back("m" + std::to_string(i));
  Sadd("h", members);
  ScanSteps steps = ScanAll(c(), {"SSCAN", "h"}, {"COUNT", "20"});
  EXPECT_EQ(Members(steps).size(), 300u);
  EXPECT_GT(steps.calls, 1);
  EXPECT_LT(steps.calls, 1000);
  // MATCH filters what each step found.
  EXPECT_EQ(Members(ScanAll(c(), {"SSCAN", "h"}, {"MATCH", "m1?"})).size(), 10u);
}

TEST_F(SetTest, SscanErrors) {
  Sadd("i", {"1"});
  EXPECT_EQ(c()({"SSCAN", "i", "x"}), Error("ERR invalid cursor"));
  EXPECT_EQ(c()({"SSCAN", "missing", "x"}), Error("ERR invalid cursor"));
  EXPECT_EQ(c()({"SSCAN", "i", " 1"}), Error("ERR invalid cursor"));
  EXPECT_EQ(c()({"SSCAN", "i", "0", "COUNT", "0"}), Error("ERR syntax error"));
  EXPECT_EQ(c()({"SSCAN", "i", "0", "COUNT", "x"}),
            Error("ERR value is not an integer or out of range"));
  EXPECT_EQ(c()({"SSCAN", "i", "0", "COUNT"}), Error("ERR syntax error"));
  EXPECT_EQ(c()({"SSCAN", "i", "0", "TYPE", "set"}), Error("ERR syntax error"));
  EXPECT_EQ(c()({"SSCAN", "i", "0", "FOO", "bar"}), Error("ERR syntax error"));
  // A missing key answers an empty scan before its options are read.
  EXPECT_EQ(c().Raw({"SSCAN", "missing", "0", "COUNT", "0"}), "*2\r\n$1\r\n0\r\n*0\r\n");
}

TEST_F(SetTest, WritesSignalWatchers) {
  Sadd("s", {"a", "b"});
  Sadd("d", {"a"});
  EXPECT_TRUE(Touches("s", {"SADD", "s", "c"}));
  EXPECT_FALSE(Touches("s", {"SADD", "s", "a"}));
  EXPECT_TRUE(Touches("s", {"SREM", "s", "c"}));
  EXPECT_FALSE(Touches("s", {"SREM", "s", "zz"}));
  // SMOVE changes the destination only if the member is new there.
  EXPECT_TRUE(Touches("s", {"SMOVE", "s", "d", "a"}));
  EXPECT_FALSE(Touches("d", {"SMOVE", "s", "d", "missing-member"}));
  c()({"SADD", "s", "a"});
  EXPECT_FALSE(Touches("d", {"SMOVE", "s", "d", "a"}));
  EXPECT_TRUE(Touches("d", {"SMOVE", "s", "d", "b"}));
  EXPECT_FALSE(Touches("d", {"SMOVE", "d", "d", "b"}));
  EXPECT_FALSE(Touches("d", {"SPOP", "d", "0"}));
  EXPECT_TRUE(Touches("d", {"SPOP", "d", "1"}));
  // STORE forms: a stored result, or a deleted destination; nothing when nothing changes.
  Sadd("x", {"1"});
  EXPECT_TRUE(Touches("dst", {"SUNIONSTORE", "dst", "x"}));
  EXPECT_TRUE(Touches("dst", {"SINTERSTORE", "dst", "x", "missing"}));
  EXPECT_FALSE(Touches("dst", {"SINTERSTORE", "dst", "x", "missing"}));
  EXPECT_FALSE(Touches("dst", {"SDIFFSTORE", "dst", "x", "x"}));
}

TEST_F(SetTest, KeyPositions) {
  EXPECT_EQ(c()({"COMMAND", "GETKEYS", "SINTERCARD", "2", "a", "b", "LIMIT", "1"}),
            Bulks({"a", "b"}));
  EXPECT_EQ(c()({"COMMAND", "GETKEYS", "SINTERCARD", "0", "a"}),
            Error("ERR Invalid arguments specified for command"));
  EXPECT_EQ(c()({"COMMAND", "GETKEYS", "SINTERSTORE", "d", "a", "b"}), Bulks({"d", "a", "b"}));
  EXPECT_EQ(c()({"COMMAND", "GETKEYSANDFLAGS", "SUNIONSTORE", "d", "a"}),
            Array({Array({Bulk("d"), Array({Status("OW"), Status("update")})}),
                   Array({Bulk("a"), Array({Status("RO"), Status("access")})})}));
  EXPECT_EQ(c()({"COMMAND", "GETKEYSANDFLAGS", "SMOVE", "s", "d", "m"}),
            Array({Array({Bulk("s"), Array({Status("RW"), Status("access"), Status("delete")})}),
                   Array({Bulk("d"), Array({Status("RW"), Status("insert")})})}));
}

}  // namespace
}  // namespace redlab::conformance
