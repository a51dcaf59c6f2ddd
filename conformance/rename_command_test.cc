// rename-command, the directive production configurations use to hide CONFIG, FLUSHALL or DEBUG
// (config.c's loadServerConfigFromString), on redlab-server and redis-server started from a file
// and from the command line: the command answers to its new name only, or to none; COMMAND
// and INFO commandstats follow the table, replies keep the original name, ACL rules keep the
// original names (orig_commands), scripts call by the new one; a bad directive stops the start
// with Redis's words.
#include <unistd.h>

#include <fstream>

#include "conformance/harness/child_process.h"
#include "conformance/harness/fixture.h"

namespace redlab::conformance {
namespace {

const std::vector<std::string> kPrograms = {REDLAB_SERVER_PATH, "redis-server"};

std::string TempConf(const std::string& tag) {
  return ::testing::TempDir() + "redlab_rename_" + tag + "." + std::to_string(getpid()) + ".conf";
}

void Shutdown(Client& c, ChildProcess& server) {
  try {
    c({"SHUTDOWN", "NOSAVE"});
  } catch (const std::runtime_error&) {
    // No reply: the server closes the connection as it exits.
  }
  EXPECT_EQ(server.Wait(), 0);
}

bool Lists(const Reply& names, const std::string& name) {
  for (const Reply& r : names.elements) {
    if (r == Bulk(name)) return true;
  }
  return false;
}

TEST(RenameCommandTest, ACommandAnswersToItsNewNameOrToNone) {
  std::string path = TempConf("file");
  for (const std::string& program : kPrograms) {
    int port = FreePort();
    {
      std::ofstream conf(path);
      conf << "port " << port << "\nsave \"\"\nrename-command CONFIG c2\n"
           << "rename-command flushall \"\"\nrename-command get \"my get\"\n";
    }
    // The command line's directive adds to the file's, as on redis-server.
    ChildProcess server(program, {path, "--rename-command", "debug", ""});
    std::optional<Client> c = ConnectWhenUp(port);
    ASSERT_TRUE(c.has_value()) << program << ": " << server.Stderr();
    Client& r = *c;

    EXPECT_EQ(r({"C2", "GET", "port"}), Array({Bulk("port"), Bulk(std::to_string(port))}))
        << program;
    EXPECT_EQ(r({"CONFIG", "GET", "port"}),
              Error("ERR unknown command 'CONFIG', with args beginning with: 'GET' 'port' "))
        << program;
    EXPECT_EQ(r({"FLUSHALL"}), Error("ERR unknown command 'FLUSHALL', with args beginning with: "))
        << program;
    EXPECT_EQ(r({"DEBUG", "SLEEP", "0"}),
              Error("ERR unknown command 'DEBUG', with args beginning with: 'SLEEP' '0' "))
        << program;
    EXPECT_EQ(r({"SET", "k", "v"}), Status("OK"));
    EXPECT_EQ(r({"MY GET", "k"}), Bulk("v")) << program;
    EXPECT_EQ(r({"GET", "k"}), Error("ERR unknown command 'GET', with args beginning with: 'k' "))
        << program;
    // Replies and statistics keep the command's own name.
    EXPECT_EQ(r({"c2"}), Error("ERR wrong number of arguments for 'config' command")) << program;
    EXPECT_EQ(r({"c2", "foo"}), Error("ERR unknown subcommand 'foo'. Try C2 HELP.")) << program;
    EXPECT_NE(InfoField(r, "commandstats", "cmdstat_config|get"), "") << program;

    // COMMAND follows the table: the removed commands are gone, the renamed listed by their
    // own names and found by their new ones.
    Reply list = r({"COMMAND", "LIST"});
    EXPECT_TRUE(Lists(list, "config")) << program;
    EXPECT_FALSE(Lists(list, "flushall")) << program;
    EXPECT_FALSE(Lists(list, "debug")) << program;
    EXPECT_EQ(r({"COMMAND", "INFO", "config"}), Array({Nil()})) << program;
    EXPECT_EQ(r({"COMMAND", "INFO", "c2"}).elements.at(0).elements.at(0), Bulk("config"))
        << program;
    EXPECT_EQ(r({"COMMAND", "GETKEYS", "my get", "k"}), Array({Bulk("k")})) << program;
    EXPECT_EQ(r({"COMMAND", "DOCS", "flushall"}), Array({})) << program;

    // ACL rules name commands by their original names.
    EXPECT_EQ(r({"ACL", "SETUSER", "u", "+config|get", "+get"}), Status("OK")) << program;
    EXPECT_EQ(r({"ACL", "SETUSER", "u", "+c2"}),
              Error("ERR Error in ACL SETUSER modifier '+c2': Unknown command or category name "
                    "in ACL"))
        << program;
    EXPECT_TRUE(Lists(r({"ACL", "CAT", "dangerous"}), "flushall")) << program;

    // Scripts call by the new names.
    EXPECT_EQ(r({"EVAL", "return redis.call('my get', 'k')", "0"}), Bulk("v")) << program;
    Reply old_name = r({"EVAL", "return redis.call('get', 'k')", "0"});
    EXPECT_EQ(old_name.str.rfind("ERR Unknown Redis command called from script", 0), 0u)
        << program << ": " << old_name.str;
    Shutdown(r, server);
  }
  unlink(path.c_str());
}

TEST(RenameCommandTest, RemovingCommandsShrinksCommandCountByAsMany) {
  for (const std::string& program : kPrograms) {
    int64_t counts[2] = {0, 0};
    for (int renamed = 0; renamed < 2; ++renamed) {
      int port = FreePort();
      std::vector<std::string> args = {"--port", std::to_string(port), "--save", ""};
      if (renamed) {
        for (const char* name : {"flushall", "flushdb", "keys"}) {
          args.insert(args.end(), {"--rename-command", name, ""});
        }
        args.insert(args.end(), {"--rename-command", "config", "config-9f2a"});
      }
      ChildProcess server(program, args);
      std::optional<Client> c = ConnectWhenUp(port);
      ASSERT_TRUE(c.has_value()) << program << ": " << server.Stderr();
      counts[renamed] = (*c)({"COMMAND", "COUNT"}).integer;
      Shutdown(*c, server);
    }
    EXPECT_EQ(counts[1], counts[0] - 3) << program;
  }
}

TEST(RenameCommandTest, ABadDirectiveStopsTheStartWithRedissWords) {
  struct Case {
    std::vector<std::string> rename;
    std::string message;
  };
  for (const std::string& program : kPrograms) {
    for (const Case& k : std::vector<Case>{
             {{"nosuch", "x"}, "No such command in rename-command"},
             {{"get", "set"}, "Target command name already exists"},
             {{"get"}, "Bad directive or wrong number of arguments"},
         }) {
      std::vector<std::string> args = {"--port", std::to_string(FreePort()), "--save", "",
                                       "--rename-command"};
      args.insert(args.end(), k.rename.begin(), k.rename.end());
      ChildProcess server(program, args);
      EXPECT_EQ(server.Wait(), 1) << program << " " << k.rename[0];
      EXPECT_NE(server.Stderr().find(k.message), std::string::npos)
          << program << ": " << server.Stderr();
    }
  }
}

}  // namespace
}  // namespace redlab::conformance
