// MODULE (module.c's moduleCommand) on a server with no modules loaded: LIST, HELP, and LOAD,
// LOADEX and UNLOAD failing with Redis's replies, which enable-module-command guards.
#include <string>
#include <vector>

#include "conformance/harness/fixture.h"
#include "conformance/help_reply.h"

namespace redlab::conformance {
namespace {

constexpr char kNotLoaded[] = "ERR Error loading the extension. Please check the server logs.";

class ModuleTest : public ConformanceTest {
 protected:
  static void SetUpTestSuite() {
    if (!server_) server_ = StartServer({.config = {{"enable-module-command", "yes"}}});
  }
};

TEST_F(ModuleTest, NoModuleIsLoaded) {
  EXPECT_EQ(c()({"MODULE", "LIST"}), Array({}));
  EXPECT_EQ(c()({"MODULE", "UNLOAD", "nosuch"}),
            Error("ERR Error unloading module: no such module with that name"));
  EXPECT_EQ(c()({"MODULE", "LIST", "x"}),
            Error("ERR wrong number of arguments for 'module|list' command"));
  EXPECT_EQ(c()({"MODULE", "NOSUCH"}), Error("ERR unknown subcommand 'NOSUCH'. Try MODULE HELP."));
  EXPECT_EQ(c()({"MODULE"}), Error("ERR wrong number of arguments for 'module' command"));
}

TEST_F(ModuleTest, LoadFailsWithTheReplyThatPointsAtTheLog) {
  for (std::vector<std::string> cmd : std::vector<std::vector<std::string>>{
           {"MODULE", "LOAD", "/nonexistent/module.so"},
           {"MODULE", "LOAD", "/nonexistent/module.so", "arg1", "arg2"},
           {"MODULE", "LOAD", "/etc/hostname"},  // there, but not executable
           {"MODULE", "LOADEX", "/nonexistent/module.so"},
           {"MODULE", "LOADEX", "/nonexistent/module.so", "CONFIG", "a", "1", "ARGS", "x"},
           {"MODULE", "LOADEX", "/nonexistent/module.so", "CONFIG", "a"},   // no value
           {"MODULE", "LOADEX", "/nonexistent/module.so", "BOGUS", "a"}}) {  // syntax
    EXPECT_EQ(c().Call(cmd), Error(kNotLoaded)) << cmd.back();
  }
  EXPECT_EQ(c()({"MODULE", "LIST"}), Array({}));
}

TEST_F(ModuleTest, HelpListsTheSubcommands) {
  ExpectHelp(c()({"MODULE", "HELP"}), 11,
             {{0, HelpHeader("MODULE")},
              {1, "LIST"},
              {5, "LOADEX <path> [[CONFIG NAME VALUE] [CONFIG NAME VALUE]] [ARGS ...]"},
              {6,
               "    Load a module library from <path>, while passing it module configurations "
               "and optional arguments."},
              {8, "    Unload a module."},
              {10, "    Prints this help."}});
}

// Without enable-module-command (its default is "no"), LOAD, LOADEX and UNLOAD are refused
// before they run; LIST and HELP are not guarded.
class ModuleDisabledTest : public ConformanceTest {};

TEST_F(ModuleDisabledTest, LoadLoadexAndUnloadNeedEnableModuleCommand) {
  const std::string refused =
      "ERR MODULE command not allowed. If the enable-module-command option is set to \"local\", "
      "you can run it from a local connection, otherwise you need to set this option in the "
      "configuration file, and then restart the server.";
  EXPECT_EQ(c()({"CONFIG", "GET", "enable-module-command"}),
            Array({Bulk("enable-module-command"), Bulk("no")}));
  EXPECT_EQ(c()({"MODULE", "LOAD", "/nonexistent/module.so"}), Error(refused));
  EXPECT_EQ(c()({"MODULE", "LOADEX", "/nonexistent/module.so"}), Error(refused));
  EXPECT_EQ(c()({"MODULE", "UNLOAD", "x"}), Error(refused));
  EXPECT_EQ(c()({"MODULE", "LIST"}), Array({}));
  // The subcommands are admin commands of the server group, as COMMAND INFO shows.
  Reply info = c()({"COMMAND", "INFO", "module|load"});
  ASSERT_EQ(info.elements.size(), 1u);
  EXPECT_EQ(info.elements[0].elements.at(0), Bulk("module|load"));
  EXPECT_EQ(info.elements[0].elements.at(1), Int(-3));
}

}  // namespace
}  // namespace redlab::conformance
