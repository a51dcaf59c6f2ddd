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

TEST(CommandTableDeathTest, ASecondCommandOfOneNameAborts) {
  EXPECT_DEATH(CommandTable table(SameNameTwice), "command 'LASTSAVE' is registered twice");
}

}  // namespace
}  // namespace redlab::server
