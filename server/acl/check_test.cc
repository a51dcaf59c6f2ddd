// Whether a user may run a command (ACLCheckAllUserCommandPerm): commands, keys by their key
// specs and flags, channels, and which refusal is reported when selectors disagree.
#include "server/acl/check.h"

#include <gtest/gtest.h>

#include "server/engine/commands/families.h"

namespace redlab::server::acl {
namespace {

using Args = std::vector<std::string>;

class CheckTest : public ::testing::Test {
 protected:
  User Make(std::initializer_list<std::string_view> rules) {
    User u("u", table_, false);
    for (std::string_view rule : rules) EXPECT_FALSE(u.Apply(rule, false).has_value()) << rule;
    return u;
  }
  CheckResult Check(const User& u, Args args) {
    const server::Command* cmd = table_.Resolve(args);
    EXPECT_NE(cmd, nullptr) << args[0];
    return CheckCommand(u, *cmd, args);
  }
  static std::pair<Verdict, size_t> V(const CheckResult& r) { return {r.verdict, r.arg_index}; }

  server::CommandTable table_{engine::RegisterCommands};
};

TEST_F(CheckTest, CommandsKeysChannels) {
  User u = Make(
      {"+get", "+set", "+publish", "+subscribe", "+psubscribe", "+unsubscribe", "~k*", "&ch*"});
  EXPECT_TRUE(Check(u, {"GET", "k1"}).allowed());
  EXPECT_EQ(V(Check(u, {"GET", "x"})), std::make_pair(Verdict::kKey, size_t{1}));
  EXPECT_EQ(V(Check(u, {"DEL", "k1"})), std::make_pair(Verdict::kCommand, size_t{0}));
  EXPECT_TRUE(Check(u, {"PUBLISH", "ch1", "m"}).allowed());
  EXPECT_EQ(V(Check(u, {"PUBLISH", "x", "m"})), std::make_pair(Verdict::kChannel, size_t{1}));
  EXPECT_EQ(V(Check(u, {"SUBSCRIBE", "ch1", "x"})), std::make_pair(Verdict::kChannel, size_t{2}));
  EXPECT_EQ(V(Check(u, {"PSUBSCRIBE", "ch1*"})), std::make_pair(Verdict::kChannel, size_t{1}));
  EXPECT_TRUE(Check(u, {"PSUBSCRIBE", "ch*"}).allowed());
  EXPECT_TRUE(Check(u, {"UNSUBSCRIBE", "x"}).allowed());
}

TEST_F(CheckTest, KeyFlagsFromSpecsAndProcedures) {
  User u = Make({"+@all", "%R~r*", "%W~w*"});
  EXPECT_TRUE(Check(u, {"SET", "w", "v"}).allowed());
  EXPECT_EQ(V(Check(u, {"SET", "w", "v", "GET"})), std::make_pair(Verdict::kKey, size_t{1}));
  EXPECT_TRUE(Check(u, {"BITFIELD", "r", "GET", "u8", "0"}).allowed());
  EXPECT_FALSE(Check(u, {"BITFIELD", "r", "GET", "u8", "0", "OVERFLOW"}).allowed());
  EXPECT_TRUE(Check(u, {"SUNIONSTORE", "w", "r1", "r2"}).allowed());
  EXPECT_EQ(V(Check(u, {"SUNIONSTORE", "w", "r1", "w2"})),
            std::make_pair(Verdict::kKey, size_t{3}));
  // Keys the specs cannot find (a bad numkeys) are not checked: the command will refuse itself.
  EXPECT_TRUE(Check(u, {"EVAL", "", "5", "x"}).allowed());
  EXPECT_EQ(V(Check(u, {"EVAL", "", "1", "x"})), std::make_pair(Verdict::kKey, size_t{3}));
}

TEST_F(CheckTest, MostRelevantRefusal) {
  // No selector runs GET: the command is reported.
  User u = Make({"+mget", "~key", "(+mget ~key ~otherkey)"});
  EXPECT_EQ(V(Check(u, {"GET", "key"})), std::make_pair(Verdict::kCommand, size_t{0}));
  // Both selectors fail on a key: the later argument is reported.
  EXPECT_EQ(V(Check(u, {"MGET", "otherkey", "someotherkey"})),
            std::make_pair(Verdict::kKey, size_t{2}));
  EXPECT_EQ(V(Check(u, {"MGET", "key", "otherkey", "x"})),
            std::make_pair(Verdict::kKey, size_t{3}));
  EXPECT_TRUE(Check(u, {"MGET", "key", "otherkey"}).allowed());
  // A key refusal outranks a command refusal, whichever selector gave it.
  User v = Make({"+set", "~b", "(+get ~a)"});
  EXPECT_EQ(V(Check(v, {"GET", "b"})), std::make_pair(Verdict::kKey, size_t{1}));
  EXPECT_TRUE(Check(v, {"GET", "a"}).allowed());
  EXPECT_TRUE(Check(v, {"SET", "b", "1"}).allowed());
}

TEST_F(CheckTest, ChannelsOfCommands) {
  auto channels = [&](std::string_view name) { return CheckedChannels(*table_.Find(name)); };
  EXPECT_EQ(channels("publish").first, 1u);
  EXPECT_EQ(channels("publish").count, 1u);
  EXPECT_EQ(channels("ssubscribe").count, 0u);
  EXPECT_TRUE(channels("psubscribe").patterns);
  EXPECT_EQ(channels("punsubscribe").first, 0u);
  EXPECT_EQ(channels("get").first, 0u);
}

}  // namespace
}  // namespace redlab::server::acl
