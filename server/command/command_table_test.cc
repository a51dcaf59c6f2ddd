// The command table's own rules: lookups ignore case, subcommands resolve through their parent,
// and a second command of one name is refused.
#include "server/command/command_table.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace redlab::server {
namespace {

void Noop(engine::CommandContext&) {}

void TwoCommands(CommandTable& table) {
  table.Add({.name = "get", .arity = 2, .flags = kCmdReadonly | kCmdFast, .proc = Noop});
  table.Add(
      {.name = "config", .arity = -2, .subcommands = {{.name = "get", .arity = -3, .proc = Noop}}});
}

void SameNameTwice(CommandTable& table) {
  table.Add({.name = "lastsave", .arity = 1, .proc = Noop});
  table.Add({.name = "LASTSAVE", .arity = 1, .proc = Noop});
}

TEST(CommandTableTest, FindsCommandsAndSubcommandsInAnyCase) {
  CommandTable table(TwoCommands);
  EXPECT_EQ(table.size(), 2u);
  ASSERT_NE(table.Find("GeT"), nullptr);
  EXPECT_EQ(table.Find("GeT")->full_name, "get");
  EXPECT_EQ(table.Find("set"), nullptr);
  std::vector<std::string> args = {"CONFIG", "Get", "maxmemory"};
  const Command* sub = table.Resolve(args);
  ASSERT_NE(sub, nullptr);
  EXPECT_EQ(sub->full_name, "config|get");
}

void ManyCommands(CommandTable& table) {
  // CommandSpec names are views: the strings must outlive the table.
  static const std::vector<std::string> names = [] {
    std::vector<std::string> v;
    for (int i = 0; i < 300; ++i) v.push_back("cmd" + std::to_string(i));
    return v;
  }();
  for (const std::string& name : names) table.Add({.name = name, .arity = 1, .proc = Noop});
}

// The index grows as commands are added: every one stays found, in any case, and names that
// share a prefix or differ only in length are told apart.
TEST(CommandTableTest, EveryCommandOfALargeTableIsFound) {
  CommandTable table(ManyCommands);
  EXPECT_EQ(table.size(), 300u);
  for (int i = 0; i < 300; ++i) {
    std::string name = "CMD" + std::to_string(i);
    const Command* cmd = table.Find(name);
    ASSERT_NE(cmd, nullptr) << name;
    EXPECT_EQ(cmd->full_name, "cmd" + std::to_string(i));
  }
  EXPECT_EQ(table.Find("cmd300"), nullptr);
  EXPECT_EQ(table.Find("cmd"), nullptr);
  EXPECT_EQ(table.Find("cmd10 "), nullptr);
  EXPECT_EQ(table.Find(""), nullptr);
}

TEST(CommandTableDeathTest, ASecondCommandOfOneNameAborts) {
  EXPECT_DEATH(CommandTable table(SameNameTwice), "command 'LASTSAVE' is registered twice");
}

}  // namespace
}  // namespace redlab::server
