// The command table's own rules: lookups ignore case, subcommands resolve through their parent,
// rename-command renames or removes, and a second command of one name is refused.
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

// rename-command: the new name finds the command (and its subcommands), the old one nothing;
// an empty name removes it from all(); the original names stay for FindOriginal (ACL rules).
TEST(CommandTableTest, RenamedCommandsAnswerToTheirNewNamesOnly) {
  CommandTable table(TwoCommands);
  const Command* config = table.Find("config");
  ASSERT_EQ(table.Rename("CONFIG", "Cfg-9F"), std::nullopt);
  EXPECT_EQ(table.Find("config"), nullptr);
  EXPECT_EQ(table.Find("cfg-9f"), config);
  EXPECT_EQ(table.FindOriginal("config"), config);
  EXPECT_EQ(table.FindOriginal("cfg-9f"), nullptr);
  std::vector<std::string> args = {"cfg-9f", "get", "port"};
  ASSERT_NE(table.Resolve(args), nullptr);
  EXPECT_EQ(table.Resolve(args)->full_name, "config|get");
  // Renamed again from its new name; a command may keep its own name.
  ASSERT_EQ(table.Rename("cfg-9f", "c2"), std::nullopt);
  EXPECT_EQ(table.Find("cfg-9f"), nullptr);
  EXPECT_EQ(table.Find("c2"), config);
  ASSERT_EQ(table.Rename("get", "GET"), std::nullopt);
  EXPECT_EQ(table.size(), 2u);

  ASSERT_EQ(table.Rename("get", ""), std::nullopt);
  EXPECT_EQ(table.Find("get"), nullptr);
  EXPECT_NE(table.FindOriginal("get"), nullptr);
  ASSERT_EQ(table.all().size(), 1u);
  EXPECT_EQ(table.all()[0], config);
  EXPECT_EQ(table.size(), 1u);
  EXPECT_EQ(table.originals().size(), 2u);
}

TEST(CommandTableTest, RenameRefusesAMissingCommandOrATakenName) {
  CommandTable table(TwoCommands);
  EXPECT_EQ(table.Rename("set", "x"), "No such command in rename-command");
  EXPECT_EQ(table.Rename("get", "CONFIG"), "Target command name already exists");
  ASSERT_EQ(table.Rename("get", ""), std::nullopt);
  EXPECT_EQ(table.Rename("get", "get"), "No such command in rename-command");
  // The refused renames changed nothing.
  EXPECT_NE(table.Find("config"), nullptr);
  EXPECT_EQ(table.size(), 1u);
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
