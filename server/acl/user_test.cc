// A user's own rules (ACLSetUser): flags, passwords, selectors, reset; and its description.
#include "server/acl/user.h"

#include <gtest/gtest.h>

#include "server/engine/commands/families.h"

namespace redlab::server::acl {
namespace {

class UserTest : public ::testing::Test {
 protected:
  User Make(std::initializer_list<std::string_view> rules, bool all_channels = false) {
    User u("u", table_, all_channels);
    for (std::string_view rule : rules) {
      auto error = u.Apply(rule, all_channels);
      EXPECT_FALSE(error.has_value()) << rule;
    }
    return u;
  }

  server::CommandTable table_{engine::RegisterCommands};
};

TEST_F(UserTest, HashesPasswordsWithSha256) {
  EXPECT_EQ(HashPassword("foo"),
            "2c26b46b68ffc68ff99b453c1d30413413422d706483bfa0f98a5e886266e7ae");
  EXPECT_EQ(HashPassword(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

TEST_F(UserTest, Passwords) {
  User u = Make({"on", ">a", ">b", ">a"});
  EXPECT_EQ(u.passwords(), (std::vector<std::string>{HashPassword("a"), HashPassword("b")}));
  EXPECT_TRUE(u.CheckPassword("a"));
  EXPECT_FALSE(u.CheckPassword("c"));
  EXPECT_EQ(u.Apply("<c", false), RuleError::kNoSuchPassword);
  EXPECT_EQ(u.Apply("#" + HashPassword("c").substr(1), false), RuleError::kBadHash);
  EXPECT_EQ(u.Apply("!" + HashPassword("a"), false), std::nullopt);
  EXPECT_FALSE(u.CheckPassword("a"));
  // Binary passwords count whole.
  EXPECT_EQ(u.Apply(std::string_view(">x\0y", 4), false), std::nullopt);
  EXPECT_TRUE(u.CheckPassword(std::string_view("x\0y", 3)));
  EXPECT_FALSE(u.CheckPassword("x"));
  // Off users never authenticate; nopass users with anything.
  EXPECT_EQ(u.Apply("off", false), std::nullopt);
  EXPECT_FALSE(u.CheckPassword("b"));
  User any = Make({"on", "nopass"});
  EXPECT_TRUE(any.CheckPassword("whatever"));
  EXPECT_EQ(any.Apply(">p", false), std::nullopt);  // a password ends nopass
  EXPECT_FALSE(any.nopass());
}

TEST_F(UserTest, FlagsAndDescription) {
  User u("u", table_, false);
  EXPECT_EQ(u.Describe(), "off resetchannels -@all");
  EXPECT_EQ(u.Apply("ON", false), std::nullopt);
  EXPECT_EQ(u.Apply("skip-sanitize-payload", false), std::nullopt);
  EXPECT_EQ(u.FlagNames(), (std::vector<std::string_view>{"on", "skip-sanitize-payload"}));
  EXPECT_EQ(u.Apply("reset", false), std::nullopt);
  EXPECT_EQ(u.Describe(), "off sanitize-payload resetchannels -@all");
  EXPECT_EQ(u.Apply("reset", /*all_channels=*/true), std::nullopt);
  EXPECT_EQ(u.Describe(), "off sanitize-payload &* -@all");
  EXPECT_EQ(Make({"on", ">pw", "~k", "&c", "+get", "(~a +set)"}).Describe(),
            "on #" + HashPassword("pw") +
                " ~k resetchannels &c -@all +get (~a resetchannels -@all +set)");
}

TEST_F(UserTest, SelectorsAndUnrestricted) {
  User u = Make({"(~a +get)", "()"});
  ASSERT_EQ(u.selectors().size(), 3u);
  EXPECT_TRUE(u.selectors()[0].root());
  EXPECT_FALSE(u.selectors()[1].root());
  EXPECT_EQ(u.Apply("(+get", false), RuleError::kSyntax);  // unclosed: a root rule, not valid
  EXPECT_EQ(u.Apply("(+nosuch)", false), RuleError::kUnknownName);
  EXPECT_EQ(u.selectors().size(), 3u);
  EXPECT_EQ(u.Apply("clearselectors", false), std::nullopt);
  EXPECT_EQ(u.selectors().size(), 1u);
  // Unrestricted: one selector allows every command, key and channel.
  EXPECT_FALSE(u.unrestricted());
  EXPECT_EQ(u.Apply("(+@all ~* &*)", false), std::nullopt);
  EXPECT_TRUE(u.unrestricted());
  EXPECT_EQ(u.Apply("clearselectors", false), std::nullopt);
  EXPECT_FALSE(u.unrestricted());
  EXPECT_TRUE(Make({"+@all", "allkeys", "allchannels"}).unrestricted());
  EXPECT_FALSE(Make({"+@all", "allkeys", "allchannels", "-get"}).unrestricted());
  EXPECT_FALSE(Make({"+@all", "allkeys"}).unrestricted());
  EXPECT_TRUE(Make({"+@all", "allkeys"}, /*all_channels=*/true).unrestricted());
}

TEST_F(UserTest, CopyRulesKeepsTheName) {
  User a = Make({"on", ">pw", "+@all"});
  User b("b", table_, false);
  b.CopyRulesFrom(a);
  EXPECT_EQ(b.name(), "b");
  EXPECT_EQ(b.Describe(), a.Describe());
  EXPECT_TRUE(b.CheckPassword("pw"));
}

}  // namespace
}  // namespace redlab::server::acl
