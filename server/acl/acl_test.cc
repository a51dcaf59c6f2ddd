// A node's set of users: SETUSER's all-or-nothing staging, the ACL file's parser and
// installation, `user` directives, and the ACL log's grouping.
#include "server/acl/acl.h"

#include <gtest/gtest.h>

#include "server/engine/commands/families.h"

namespace redlab::server::acl {
namespace {

using Strings = std::vector<std::string>;

class AclRegistryTest : public ::testing::Test {
 protected:
  server::CommandTable table_{engine::RegisterCommands};
  Acl acl_{table_};
};

TEST(MergeSelectorRulesTest, JoinsSpreadSelectors) {
  Strings merged;
  size_t unmatched = 0;
  EXPECT_TRUE(
      MergeSelectorRules(Strings{"on", "(~a", "+get", "x)", "(+set)"}, &merged, &unmatched));
  EXPECT_EQ(merged, (Strings{"on", "(~a +get x)", "(+set)"}));
  // A new "(" restarts the selector, as in Redis.
  EXPECT_TRUE(MergeSelectorRules(Strings{"(a", "(b", "c)"}, &merged, &unmatched));
  EXPECT_EQ(merged, (Strings{"(b c)"}));
  EXPECT_FALSE(MergeSelectorRules(Strings{"on", "(~a", "+get"}, &merged, &unmatched));
  EXPECT_EQ(unmatched, 1u);
}

TEST_F(AclRegistryTest, DefaultUserAndPassword) {
  EXPECT_EQ(acl_.Serialize(), "user default on nopass ~* &* +@all\n");
  EXPECT_TRUE(acl_.default_user().unrestricted());
  acl_.SetDefaultPassword("foo");
  EXPECT_EQ(acl_.default_user().Describe(), "on #" + HashPassword("foo") + " ~* &* +@all");
  acl_.SetDefaultPassword("");
  EXPECT_TRUE(acl_.default_user().nopass());
}

TEST_F(AclRegistryTest, StageAndCommit) {
  std::string error;
  auto staged = acl_.Stage("u", Strings{"on", "+get"}, false, &error);
  ASSERT_TRUE(staged.has_value());
  EXPECT_EQ(acl_.Find("u"), nullptr);  // nothing changes before Commit
  acl_.Commit("u", *staged);
  ASSERT_NE(acl_.Find("u"), nullptr);
  EXPECT_FALSE(acl_.Stage("u", Strings{"off", "bogus"}, false, &error).has_value());
  EXPECT_EQ(error, "Error in ACL SETUSER modifier 'bogus': Syntax error");
  EXPECT_FALSE(acl_.Stage("u", Strings{"(~a"}, false, &error).has_value());
  EXPECT_EQ(error, "Unmatched parenthesis in acl selector starting at '(~a'.");
  EXPECT_TRUE(acl_.Find("u")->enabled());
  EXPECT_EQ(acl_.Remove("default"), nullptr);
  EXPECT_NE(acl_.Remove("u"), nullptr);
  EXPECT_EQ(acl_.Find("u"), nullptr);
}

TEST_F(AclRegistryTest, ParseAndInstallFile) {
  Acl::Users users;
  EXPECT_EQ(acl_.ParseFile("\r\nuser alice on >a +@all  \n\nuser default on nopass -@all\n",
                           "f.acl", false, &users),
            std::nullopt);
  User* old_default = &acl_.default_user();
  auto replaced = acl_.Install(std::move(users));
  EXPECT_TRUE(replaced.empty());  // only the default user was there, and it stays
  EXPECT_EQ(&acl_.default_user(), old_default);
  EXPECT_EQ(acl_.Serialize(),
            "user alice on #" + HashPassword("a") +
                " resetchannels +@all\nuser default on nopass resetchannels -@all\n");
  Acl::Users more;
  EXPECT_EQ(acl_.ParseFile("user bob on\n", "f.acl", false, &more), std::nullopt);
  replaced = acl_.Install(std::move(more));
  ASSERT_EQ(replaced.size(), 1u);
  EXPECT_EQ(replaced[0]->name(), "alice");
  EXPECT_EQ(acl_.default_user().Describe(), "on nopass ~* &* +@all");  // no default in the file
  Acl::Users bad;
  EXPECT_EQ(acl_.ParseFile("user a +nosuch\nuser a\nx y\nuser b #1 !2\n", "f.acl", false, &bad),
            "f.acl:1: Error in applying operation '+nosuch': Unknown command or category name in "
            "ACL. WARNING: Duplicate user 'a' found on line 2. f.acl:3 should start with user "
            "keyword followed by the username. f.acl:4: The password hash must be exactly 64 "
            "characters and contain only lowercase hexadecimal characters. WARNING: ACL errors "
            "detected, no change to the previously active ACL rules was performed");
}

TEST_F(AclRegistryTest, ConfiguredUsers) {
  EXPECT_EQ(
      acl_.LoadConfiguredUsers(Strings{"alice on \"> p w\" +@all", "default on -@all"}, false),
      std::nullopt);
  EXPECT_TRUE(acl_.Find("alice")->CheckPassword(" p w"));
  EXPECT_EQ(acl_.default_user().Describe(), "on sanitize-payload resetchannels -@all");
  Acl other(table_);
  EXPECT_EQ(other.LoadConfiguredUsers(Strings{"a on", "a off"}, false),
            "Error in user declaration 'a': Duplicate user found. A user can only be defined once "
            "in config files");
  EXPECT_EQ(other.LoadConfiguredUsers(Strings{"b #xyz"}, false),
            "Error in user declaration '#xyz': The password hash must be exactly 64 characters "
            "and contain only lowercase hexadecimal characters");
  EXPECT_EQ(other.LoadConfiguredUsers(Strings{"c +nosuch"}, false),
            "Error loading ACL rule '+nosuch' for the user named 'c': Unknown command or category "
            "name in ACL");
}

TEST(AclLogTest, GroupsSimilarEventsWithinAMinute) {
  AclLog log;
  auto event = [](std::string object, int64_t time_ms) {
    LogEntry e;
    e.reason = LogReason::kKey;
    e.context = LogContext::kToplevel;
    e.object = std::move(object);
    e.username = "u";
    e.time_ms = time_ms;
    e.client_info = "id=" + std::to_string(time_ms);
    return e;
  };
  log.Add(event("a", 0), 128);
  log.Add(event("b", 1000), 128);
  log.Add(event("a", 60000), 128);  // within a minute of the first: counted there, moved first
  ASSERT_EQ(log.entries().size(), 2u);
  EXPECT_EQ(log.entries()[0].object, "a");
  EXPECT_EQ(log.entries()[0].count, 2u);
  EXPECT_EQ(log.entries()[0].client_info, "id=60000");
  log.Add(event("a", 120001), 128);  // more than a minute after the last: a new entry
  EXPECT_EQ(log.entries().size(), 3u);
  log.Add(event("c", 120002), 2);
  EXPECT_EQ(log.entries().size(), 2u);
  EXPECT_EQ(log.entries()[1].object, "a");
  EXPECT_EQ(LogReasonName(LogReason::kChannel), "channel");
  EXPECT_EQ(LogContextName(LogContext::kLua), "lua");
}

}  // namespace
}  // namespace redlab::server::acl
