// TOPOLOGY, the command every node of a process answers about its neighbours: NODES lists them,
// RESTART brings a crashed one back (empty or with its data).
#pragma once

#include <span>
#include <string>

#include "server/resp/writer.h"

namespace redlab::server {

class NodeRegistry;

// Runs TOPOLOGY `args` for the node listening on `own_port` (which cannot restart itself).
void TopologyCommand(NodeRegistry& registry, int own_port, std::span<std::string> args,
                     resp::ReplyWriter& reply);

}  // namespace redlab::server
