#include "client/script.h"

#include <gtest/gtest.h>

#include "client/lock_core.h"
#include "lua/scripts.h"

namespace redlab::client {
namespace {

TEST(ScriptTest, Sha1HexMatchesRedis) {
  // SCRIPT LOAD "return 1" on redis-server 7.0.15.
  EXPECT_EQ(Sha1Hex("return 1"), "e0e1f9fabfc9d4800c877a703b823ac0578ff8db");
  EXPECT_EQ(Sha1Hex(""), "da39a3ee5e6b4b0d3255bfef95601890afd80709");
}

TEST(ScriptTest, LockScriptsAreEmbedded) {
  LockScripts s;
  EXPECT_EQ(s.acquire.name, "lock_acquire");
  EXPECT_NE(s.acquire.text.find("hincrby"), std::string::npos);
  EXPECT_NE(s.release.text.find("redis.call(ARGV[4], KEYS[2], ARGV[1])"), std::string::npos);
  EXPECT_NE(s.renew.text.find("#KEYS"), std::string::npos);
  EXPECT_NE(s.force_release.text.find("del"), std::string::npos);
  EXPECT_EQ(s.acquire.sha, Sha1Hex(s.acquire.text));
  EXPECT_EQ(s.acquire.sha.size(), 40u);
  EXPECT_THROW(Script::Load("no_such_script"), std::out_of_range);
  // Sorted by name, one entry per file.
  const auto& all = lua::AllScripts();
  ASSERT_GE(all.size(), 4u);
  for (size_t i = 1; i < all.size(); ++i) EXPECT_LT(all[i - 1].name, all[i].name);
}

TEST(ScriptTest, PrefixNameAddsBracesOnlyWhenMissing) {
  EXPECT_EQ(PrefixName("redisson_lock__channel", "orders"), "redisson_lock__channel:{orders}");
  EXPECT_EQ(PrefixName("redisson_lock__channel", "{orders}:1"),
            "redisson_lock__channel:{orders}:1");
  EXPECT_EQ(PrefixName("redisson_unlock_latch", "a"), "redisson_unlock_latch:{a}");
}

}  // namespace
}  // namespace redlab::client
