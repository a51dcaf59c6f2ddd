// The rule language of a selector (ACLSetSelector) and how a selector describes itself back.
#include "server/acl/selector.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "server/engine/commands/families.h"

namespace redlab::server::acl {
namespace {

using Args = std::vector<std::string>;

class SelectorTest : public ::testing::Test {
 protected:
  Selector Make(std::initializer_list<std::string_view> rules) {
    Selector s(table_, /*root=*/true, /*all_channels=*/false);
    for (std::string_view rule : rules) {
      auto error = s.Apply(rule);
      EXPECT_FALSE(error.has_value()) << rule;
    }
    return s;
  }
  bool Allows(const Selector& s, Args args) {
    const server::Command* cmd = table_.Resolve(args);
    EXPECT_NE(cmd, nullptr);
    return s.AllowsCommand(*cmd, args);
  }

  server::CommandTable table_{engine::RegisterCommands};
};

TEST_F(SelectorTest, LookupForRules) {
  EXPECT_EQ(LookupCommandForRule(table_, "GET"), table_.Find("get"));
  EXPECT_EQ(LookupCommandForRule(table_, "config|GET"),
            table_.Find("config")->FindSubcommand("get"));
  EXPECT_EQ(LookupCommandForRule(table_, ""), nullptr);
  EXPECT_EQ(LookupCommandForRule(table_, "get|x"), nullptr);
  EXPECT_EQ(LookupCommandForRule(table_, "config|get|x"), nullptr);
  EXPECT_EQ(LookupCommandForRule(table_, "config|"), nullptr);
}

TEST_F(SelectorTest, ErrorsByKind) {
  Selector s(table_, true, false);
  EXPECT_EQ(s.Apply("+nosuch"), RuleError::kUnknownName);
  EXPECT_EQ(s.Apply("-@nosuch"), RuleError::kUnknownName);
  EXPECT_EQ(s.Apply("+config|get|x"), RuleError::kFirstArgOfSubcommand);
  EXPECT_EQ(s.Apply("+get|"), RuleError::kSyntax);
  EXPECT_EQ(s.Apply("%Q~x"), RuleError::kSyntax);
  EXPECT_EQ(s.Apply("~a b"), RuleError::kSyntax);
  EXPECT_EQ(s.Apply(std::string_view("&a\0b", 4)), RuleError::kSyntax);
  EXPECT_EQ(s.Apply("whatever"), RuleError::kSyntax);
  EXPECT_EQ(s.Apply("allkeys"), std::nullopt);
  EXPECT_EQ(s.Apply("~x"), RuleError::kPatternAfterAllKeys);
  EXPECT_EQ(s.Apply("allchannels"), std::nullopt);
  EXPECT_EQ(s.Apply("&x"), RuleError::kChannelAfterAll);
}

TEST_F(SelectorTest, CommandBitsAndFirstArgs) {
  Selector s = Make({"+get", "+client|id", "+select|0"});
  EXPECT_TRUE(Allows(s, {"GET", "k"}));
  EXPECT_FALSE(Allows(s, {"SET", "k", "v"}));
  EXPECT_TRUE(Allows(s, {"CLIENT", "ID"}));
  EXPECT_FALSE(Allows(s, {"CLIENT", "INFO"}));
  EXPECT_TRUE(Allows(s, {"SELECT", "0"}));
  EXPECT_FALSE(Allows(s, {"SELECT", "1"}));
  EXPECT_TRUE(Allows(s, {"AUTH", "x"}));  // no-auth commands are always allowed
  // -cmd takes a container and its subcommands away, and any first argument.
  s.Apply("-client");
  s.Apply("-select");
  EXPECT_FALSE(Allows(s, {"CLIENT", "ID"}));
  EXPECT_FALSE(Allows(s, {"SELECT", "0"}));
  EXPECT_FALSE(s.all_commands());
  s.Apply("+@all");
  EXPECT_TRUE(s.all_commands());
  s.Apply("+get");  // adding keeps +@all
  EXPECT_TRUE(s.all_commands());
  s.Apply("-get");  // taking away does not
  EXPECT_FALSE(s.all_commands());
  EXPECT_TRUE(Allows(s, {"SET", "k", "v"}));
}

TEST_F(SelectorTest, KeyPermissions) {
  Selector s = Make({"%R~r*", "%W~w*", "~rw*"});
  uint32_t read = server::kKeyRO | server::kKeyAccess;
  uint32_t write = server::kKeyOW | server::kKeyUpdate;
  uint32_t both = server::kKeyRW | server::kKeyAccess | server::kKeyUpdate;
  EXPECT_TRUE(s.AllowsKey("r1", read));
  EXPECT_FALSE(s.AllowsKey("r1", write));
  EXPECT_TRUE(s.AllowsKey("w1", write));
  EXPECT_FALSE(s.AllowsKey("w1", both));
  EXPECT_TRUE(s.AllowsKey("rw1", both));  // "rw1" matches r* for reading only, but rw* for both
  EXPECT_TRUE(s.AllowsKey("w1", server::kKeyRO));  // no access flag: any pattern will do
  EXPECT_FALSE(s.AllowsKey("x", server::kKeyRO));
  EXPECT_EQ(s.DescribeKeys(), "%R~r* %W~w* ~rw*");
  EXPECT_TRUE(Make({"allkeys"}).AllowsKey("anything", both));
}

TEST_F(SelectorTest, Channels) {
  Selector s = Make({"&news.*", "&exact"});
  EXPECT_EQ(s.DescribeChannels(), "&news.* &exact");
  std::vector<std::string> patterns = s.channels();
  EXPECT_TRUE(ChannelListAllows(patterns, "news.sport", false));
  EXPECT_FALSE(ChannelListAllows(patterns, "news.sport", true));  // patterns match literally
  EXPECT_TRUE(ChannelListAllows(patterns, "news.*", true));
  EXPECT_FALSE(ChannelListAllows(patterns, "other", false));
}

TEST_F(SelectorTest, DescribesCommandsLikeRedis) {
  EXPECT_EQ(Make({}).DescribeCommands(), "-@all");
  EXPECT_EQ(Make({"+@all"}).DescribeCommands(), "+@all");
  EXPECT_EQ(Make({"+@all", "-@string"}).DescribeCommands(), "+@all -@string");
  EXPECT_EQ(Make({"-@all", "+@hash"}).DescribeCommands(), "-@all +@hash");
  EXPECT_EQ(Make({"+@all", "-client|kill"}).DescribeCommands(), "+@all -client|kill");
  EXPECT_EQ(Make({"+memory|doctor", "+memory"}).DescribeCommands(), "-@all +memory");
  EXPECT_EQ(Make({"+select|0"}).DescribeCommands(), "-@all +select|0");
  // A category and a few exceptions.
  EXPECT_EQ(Make({"+@hash", "-hset"}).DescribeCommands(), "-@all +@hash -hset");
  // Described rules rebuild the same bits.
  Selector original = Make({"+@all", "-@string", "+get", "-client|kill", "-@pubsub"});
  Selector rebuilt(table_, true, false);
  std::string rules = original.DescribeCommands();
  for (size_t start = 0; start < rules.size();) {
    size_t end = rules.find(' ', start);
    if (end == std::string::npos) end = rules.size();
    EXPECT_EQ(rebuilt.Apply(rules.substr(start, end - start)), std::nullopt);
    start = end + 1;
  }
  EXPECT_EQ(rebuilt.DescribeCommands(), rules);
  for (const auto& cmd : table_.all()) {
    Args args = {std::string(cmd->name()), "x", "y", "z"};
    EXPECT_EQ(original.AllowsCommand(*cmd, args), rebuilt.AllowsCommand(*cmd, args))
        << cmd->full_name;
  }
}

TEST_F(SelectorTest, DescribesItselfForAclList) {
  EXPECT_EQ(Make({}).Describe(), "resetchannels -@all");
  EXPECT_EQ(Make({"allkeys", "allchannels", "+@all"}).Describe(), "~* &* +@all");
  EXPECT_EQ(Make({"%R~a", "&c", "+get"}).Describe(), "%R~a resetchannels &c -@all +get");
}

}  // namespace
}  // namespace redlab::server::acl
