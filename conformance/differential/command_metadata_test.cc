// Differential checks: redlab and a real redis-server side by side, for answers whose expected
// value is "whatever Redis says" and too large to write out by hand — the metadata of every
// command redlab implements (COMMAND INFO, COMMAND DOCS).
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "conformance/differential/side_by_side.h"

namespace redlab::conformance {
namespace {

class CommandMetadataTest : public SideBySideTest {
 protected:
  // Every command and subcommand redlab lists, by full name ("get", "config|get").
  static std::vector<std::string> RedlabCommands() {
    Client c(redlab_->port());
    Reply list = c({"COMMAND", "LIST"});
    std::vector<std::string> names;
    for (const Reply& r : list.elements) names.push_back(r.str);
    return names;
  }
};

// COMMAND INFO lists a container's subcommands in hash-table order; compare them by name, and
// only those redlab implements (each is compared on its own as well).
Reply Normalize(Reply info, const std::set<std::string>& keep_subcommands) {
  if (info.type != Reply::Type::kArray || info.elements.size() < 10) return info;
  auto& subs = info.elements[9].elements;
  subs.erase(std::remove_if(subs.begin(), subs.end(),
                            [&](const Reply& s) {
                              return !s.elements.empty() && !keep_subcommands.count(s.elements[0].str);
                            }),
             subs.end());
  std::sort(subs.begin(), subs.end(), [](const Reply& a, const Reply& b) {
    return a.elements[0].str < b.elements[0].str;
  });
  return info;
}

TEST_F(CommandMetadataTest, CommandInfoMatchesRedis) {
  std::vector<std::string> names = RedlabCommands();
  ASSERT_FALSE(names.empty());
  std::set<std::string> ours(names.begin(), names.end());
  Client mine(redlab_->port());
  Client theirs(redis_->port());
  for (const std::string& name : names) {
    Reply a = mine({"COMMAND", "INFO", name});
    Reply b = theirs({"COMMAND", "INFO", name});
    EXPECT_EQ(Normalize(a.elements.at(0), ours), Normalize(b.elements.at(0), ours))
        << "COMMAND INFO " << name;
  }
}

TEST_F(CommandMetadataTest, CommandDocsSummariesMatchRedis) {
  Client mine(redlab_->port());
  Client theirs(redis_->port());
  for (const std::string& name : RedlabCommands()) {
    Reply a = mine({"COMMAND", "DOCS", name});
    Reply b = theirs({"COMMAND", "DOCS", name});
    ASSERT_EQ(a.elements.size(), 2u) << name;
    ASSERT_EQ(b.elements.size(), 2u) << name;
    // Compare the fields redlab describes: summary, since, group, complexity.
    auto field = [](const Reply& docs, const std::string& key) -> std::string {
      const auto& kv = docs.elements[1].elements;
      for (size_t i = 0; i + 1 < kv.size(); i += 2) {
        if (kv[i].str == key) return kv[i + 1].Describe();
      }
      return "(absent)";
    };
    for (const char* key : {"summary", "since", "group", "complexity"}) {
      EXPECT_EQ(field(a, key), field(b, key)) << "COMMAND DOCS " << name << " " << key;
    }
  }
}

}  // namespace
}  // namespace redlab::conformance
