// How a node's options (NodeOptions) become its configuration, before the node runs: the
// settings applied as redis.conf lines would be, with the directives that are no CONFIG
// parameter set apart (`user` and `rename-command` lines kept whole, `replicaof`, a sentinel's
// `sentinel` lines), then the options that win over them (bind, port, requirepass, loglevel).
#pragma once

#include <string>
#include <vector>

#include "server/engine/config/config.h"
#include "server/node.h"

namespace redlab::server {

struct NodeConfig {
  engine::ServerConfig config;
  std::string replicaof_host;  // empty: the node starts as a master
  int replicaof_port = 0;
  // A sentinel's `sentinel ...` directives, word by word, for its Sentinel once it exists.
  std::vector<std::vector<std::string>> sentinel_directives;
};

// Throws std::runtime_error with Redis's text when a setting is refused, or with what a
// `replicaof` lacks.
NodeConfig ConfigureNode(const NodeOptions& options);

}  // namespace redlab::server
