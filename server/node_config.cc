#include "server/node_config.h"

#include <sstream>
#include <stdexcept>
#include <string_view>
#include <utility>

#include "server/base/numbers.h"
#include "server/base/text.h"
#include "server/sentinel/sentinel.h"

namespace redlab::server {

NodeConfig ConfigureNode(const NodeOptions& options) {
  NodeConfig out;
  engine::ServerConfig& config = out.config;
  std::string replicaof = options.replicaof;
  std::vector<std::pair<std::string_view, std::string_view>> settings;
  for (const auto& [name, value] : options.settings) {
    // replicaof is not a plain setting: it makes the node a replica at startup.
    if (EqualsIgnoreCase(name, "replicaof") || EqualsIgnoreCase(name, "slaveof")) {
      replicaof = value;
      continue;
    }
    // `user` directives may repeat; each is a whole redis.conf line after "user".
    if (EqualsIgnoreCase(name, "user")) {
      config.users.push_back(value);
      continue;
    }
    if (EqualsIgnoreCase(name, "rename-command")) {
      config.renamed_commands.push_back(value);
      continue;
    }
    // A sentinel's own directives go to the Sentinel once it exists.
    if (options.sentinel && EqualsIgnoreCase(name, "sentinel")) {
      std::vector<std::string> words;
      std::istringstream split(value);
      for (std::string w; split >> w;) words.push_back(w);
      out.sentinel_directives.push_back(std::move(words));
      continue;
    }
    settings.emplace_back(name, value);
  }
  // A Sentinel must be reachable: protected mode is off unless its configuration turns it on
  // (initSentinelConfig).
  if (options.sentinel) config.protected_mode = false;
  if (auto error = engine::ConfigRegistry(&config).Set(settings, /*startup=*/true)) {
    throw std::runtime_error(*error);
  }
  config.bind = options.bind;
  config.port = options.port;
  config.requirepass = options.requirepass;
  config.loglevel = options.loglevel;
  if (!replicaof.empty()) {
    size_t space = replicaof.find(' ');
    int64_t port = 0;
    if (space == std::string::npos || !ParseInt64(replicaof.substr(space + 1), &port) ||
        port < 0 || port > 65535) {
      throw std::runtime_error("Invalid replicaof: expected \"host port\", got \"" + replicaof +
                               "\"");
    }
    out.replicaof_host = replicaof.substr(0, space);
    out.replicaof_port = static_cast<int>(port);
  }
  if (options.sentinel) {
    config.command_registrar = sentinel::RegisterSentinelCommands;
    config.sentinel_mode = true;
  } else {
    config.config_file = options.config_file;  // a sentinel's file is its Sentinel's
  }
  return out;
}

}  // namespace redlab::server
