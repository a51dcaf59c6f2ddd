// ConfigureNode: which settings become CONFIG parameters and which are set apart, what wins,
// and what is refused.
#include "server/node_config.h"

#include <gtest/gtest.h>

#include <stdexcept>

namespace redlab::server {
namespace {

TEST(NodeConfigTest, DirectivesThatAreNoParameterAreSetApart) {
  NodeOptions o;
  o.port = 7001;
  o.settings = {{"maxmemory", "1mb"},
                {"user", "alice on >pw +@all"},
                {"rename-command", "config \"\""},
                {"user", "bob off"},
                {"replicaof", "10.0.0.1 6380"},
                {"port", "9999"}};  // the option wins over the setting
  NodeConfig c = ConfigureNode(o);
  EXPECT_EQ(c.config.maxmemory, 1024 * 1024);
  EXPECT_EQ(c.config.users, (std::vector<std::string>{"alice on >pw +@all", "bob off"}));
  EXPECT_EQ(c.config.renamed_commands, (std::vector<std::string>{"config \"\""}));
  EXPECT_EQ(c.replicaof_host, "10.0.0.1");
  EXPECT_EQ(c.replicaof_port, 6380);
  EXPECT_EQ(c.config.port, 7001);
  EXPECT_EQ(c.config.bind, "127.0.0.1");
  EXPECT_FALSE(c.config.sentinel_mode);
}

TEST(NodeConfigTest, ASentinelKeepsItsDirectivesAndIsReachable) {
  NodeOptions o;
  o.sentinel = true;
  o.settings = {{"sentinel", "monitor mymaster 127.0.0.1 6379 2"}};
  NodeConfig c = ConfigureNode(o);
  ASSERT_EQ(c.sentinel_directives.size(), 1u);
  EXPECT_EQ(c.sentinel_directives[0],
            (std::vector<std::string>{"monitor", "mymaster", "127.0.0.1", "6379", "2"}));
  EXPECT_TRUE(c.config.sentinel_mode);
  EXPECT_FALSE(c.config.protected_mode);
  EXPECT_NE(c.config.command_registrar, nullptr);
}

TEST(NodeConfigTest, BadSettingsAndReplicaofAreRefused) {
  NodeOptions bad_value;
  bad_value.settings = {{"maxmemory-policy", "bogus"}};
  EXPECT_THROW(ConfigureNode(bad_value), std::runtime_error);
  for (const char* replicaof : {"10.0.0.1", "10.0.0.1 port", "10.0.0.1 70000"}) {
    NodeOptions o;
    o.replicaof = replicaof;
    EXPECT_THROW(ConfigureNode(o), std::runtime_error) << replicaof;
  }
}

}  // namespace
}  // namespace redlab::server
