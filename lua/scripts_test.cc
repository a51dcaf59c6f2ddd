// The embedded scripts of lua/ (no Redis counterpart: Redisson sends its scripts inline): every
// `--@include` directive is replaced by its fragment's text at build time.
#include "lua/scripts.h"

#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>
#include <string>

namespace redlab::lua {
namespace {

const ScriptSource* Fragment(std::string_view name) {
  for (const ScriptSource& f : AllFragments()) {
    if (f.name == name) return &f;
  }
  return nullptr;
}

TEST(LuaScriptsTest, NoDirectiveIsLeft) {
  for (const ScriptSource& s : AllScripts()) {
    EXPECT_EQ(s.text.find("--@include"), std::string_view::npos) << s.name;
  }
  for (const ScriptSource& f : AllFragments()) {
    EXPECT_EQ(f.text.find("--@include"), std::string_view::npos) << f.name;
  }
}

TEST(LuaScriptsTest, EachIncludedFragmentStandsWholeInItsIncluder) {
  std::set<std::string_view> used;
  auto check = [&](const ScriptSource& includer) {
    for (std::string_view name : includer.fragments) {
      const ScriptSource* f = Fragment(name);
      ASSERT_NE(f, nullptr) << includer.name << " includes " << name;
      EXPECT_NE(includer.text.find(f->text), std::string_view::npos)
          << includer.name << " lacks " << name;
      used.insert(name);
    }
  };
  for (const ScriptSource& s : AllScripts()) check(s);
  for (const ScriptSource& f : AllFragments()) check(f);
  // Every fragment serves a script; none is a script itself.
  for (const ScriptSource& f : AllFragments()) {
    EXPECT_EQ(used.count(f.name), 1u) << f.name << " is included nowhere";
    for (const ScriptSource& s : AllScripts()) EXPECT_NE(s.name, f.name);
  }
}

TEST(LuaScriptsTest, TheSharedBlocksAreIncludedWhereTheyServe) {
  // The permit-expirable semaphore's "expired permits go back first" prologue.
  for (const char* name :
       {"permit_semaphore_acquired_permits", "permit_semaphore_available_permits",
        "permit_semaphore_lease_time", "permit_semaphore_permits",
        "permit_semaphore_release_many", "permit_semaphore_try_acquire",
        "permit_semaphore_update_lease_time"}) {
    EXPECT_NE(ScriptText(name).find("local function return_expired_permits("),
              std::string_view::npos)
        << name;
  }
  // A nested include: the reentrant release brings the one-hold step with it.
  const ScriptSource* reentrant = Fragment("lock_release_reentrant");
  ASSERT_NE(reentrant, nullptr);
  EXPECT_EQ(reentrant->fragments, std::vector<std::string_view>{"lock_release_hold"});
  for (const char* name : {"lock_release", "spin_lock_release", "fair_lock_release"}) {
    std::string_view text = ScriptText(name);
    EXPECT_NE(text.find("local function release_one_hold("), std::string_view::npos) << name;
    EXPECT_LT(text.find("local function release_one_hold("),
              text.find("local function release_reentrant("))
        << name;
  }
  // A script without a directive is embedded as its file stands.
  for (const ScriptSource& s : AllScripts()) {
    if (s.name == "lock_acquire") {
      EXPECT_TRUE(s.fragments.empty());
    }
  }
  EXPECT_EQ(ScriptText("lock_acquire").find("local function"), std::string_view::npos);
}

// build/lua/whole/NAME.lua holds what the client sends, for tools that load a script file.
TEST(LuaScriptsTest, EachScriptIsWrittenWholeForToolsThatLoadAFile) {
  for (const ScriptSource& s : AllScripts()) {
    std::ifstream in(std::string(REDLAB_LUA_WHOLE_DIR) + "/" + std::string(s.name) + ".lua");
    ASSERT_TRUE(in.good()) << s.name;
    std::ostringstream text;
    text << in.rdbuf();
    EXPECT_EQ(text.str(), s.text) << s.name;
  }
}

}  // namespace
}  // namespace redlab::lua
