#include "server/config_file.h"

#include <gtest/gtest.h>

#include <map>

namespace redlab::server {
namespace {

std::map<std::string, std::string>& Files() {
  static std::map<std::string, std::string> files;
  return files;
}

bool ReadFromMap(const std::string& path, std::string* out) {
  auto it = Files().find(path);
  if (it == Files().end()) return false;
  *out = it->second;
  return true;
}

std::vector<ConfigDirective> Directives(std::string_view text) {
  ConfigFileResult r = ParseConfigText(text, ReadFromMap);
  EXPECT_TRUE(std::holds_alternative<std::vector<ConfigDirective>>(r))
      << std::get<ConfigFileError>(r).Report();
  return std::holds_alternative<std::vector<ConfigDirective>>(r)
             ? std::get<std::vector<ConfigDirective>>(r)
             : std::vector<ConfigDirective>{};
}

ConfigFileError Error(std::string_view text) {
  ConfigFileResult r = ParseConfigText(text, ReadFromMap);
  EXPECT_TRUE(std::holds_alternative<ConfigFileError>(r));
  return std::holds_alternative<ConfigFileError>(r) ? std::get<ConfigFileError>(r)
                                                    : ConfigFileError{};
}

TEST(ConfigFileTest, DirectivesWordsCommentsAndQuotes) {
  auto d = Directives(
      "# a comment\n"
      "\n"
      "  PORT 7000  \r\n"
      "save 900 1 300 10\n"
      "save \"\"\n"
      "user alice on \">p w\" ~app:*\n"
      "notify-keyspace-events 'KEA'");
  ASSERT_EQ(d.size(), 5u);
  EXPECT_EQ(d[0].name, "port");
  EXPECT_EQ(d[0].words, std::vector<std::string>{"7000"});
  EXPECT_EQ(d[1].words, (std::vector<std::string>{"900", "1", "300", "10"}));
  EXPECT_EQ(d[2].words, std::vector<std::string>{""});
  EXPECT_EQ(d[3].words, (std::vector<std::string>{"alice", "on", ">p w", "~app:*"}));
  EXPECT_EQ(d[4].name, "notify-keyspace-events");
  EXPECT_EQ(d[4].words, std::vector<std::string>{"KEA"});
}

TEST(ConfigFileTest, IncludePullsAFileInAtItsPlace) {
  Files()["/etc/common.conf"] = "maxclients 10\ninclude /etc/inner.conf\n";
  Files()["/etc/inner.conf"] = "hz 50\n";
  auto d = Directives("port 1\ninclude /etc/common.conf\ntimeout 3\n");
  ASSERT_EQ(d.size(), 4u);
  EXPECT_EQ(d[0].name, "port");
  EXPECT_EQ(d[1].name, "maxclients");
  EXPECT_EQ(d[2].name, "hz");
  EXPECT_EQ(d[3].name, "timeout");
}

TEST(ConfigFileTest, ErrorsAreRedisFatalReports) {
  ConfigFileError quotes = Error("port 1\nsave \"a\n");
  EXPECT_EQ(quotes.Report(),
            "\n*** FATAL CONFIG FILE ERROR (Redis 7.0.15) ***\n"
            "Reading the configuration file, at line 2\n"
            ">>> 'save \"a'\n"
            "Unbalanced quotes in configuration line\n");
  EXPECT_EQ(Error("port\n").reason, "wrong number of arguments");
  // Only a multi-argument parameter may stand alone (`save` then has no points).
  EXPECT_EQ(Directives("save \n")[0].words, std::vector<std::string>{});
  EXPECT_EQ(Directives("client-output-buffer-limit\n")[0].name, "client-output-buffer-limit");
  EXPECT_EQ(Error("replicaof\n").reason, "wrong number of arguments");
  EXPECT_EQ(Error("bind\n").reason, "wrong number of arguments");
  EXPECT_EQ(Error("include /nowhere.conf\n").Report(),
            "Fatal error, can't open config file '/nowhere.conf': No such file or directory\n");
  // An include cycle ends instead of recursing forever.
  Files()["/etc/loop.conf"] = "include /etc/loop.conf\n";
  EXPECT_EQ(Error("include /etc/loop.conf\n").line, 0);
}

}  // namespace
}  // namespace redlab::server
