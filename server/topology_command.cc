// TOPOLOGY NODES and TOPOLOGY RESTART (redlab's own; not in Redis's command table).
#include "server/topology_command.h"

#include <cstdint>
#include <vector>

#include "server/base/numbers.h"
#include "server/base/text.h"
#include "server/engine/core/errors.h"
#include "server/topology.h"

namespace redlab::server {

void TopologyCommand(NodeRegistry& registry, int own_port, std::span<std::string> args,
                     resp::ReplyWriter& reply) {
  if (args.size() == 2 && EqualsIgnoreCase(args[1], "nodes")) {
    std::vector<NodeRegistry::Entry> nodes = registry.Snapshot();
    reply.ArrayHeader(nodes.size());
    for (const NodeRegistry::Entry& e : nodes) {
      reply.ArrayHeader(4);
      reply.Integer(e.port);
      reply.Bulk(e.role);
      reply.Bulk(e.state);
      reply.Bulk(e.master);
    }
    return;
  }
  if ((args.size() == 3 || args.size() == 4) && EqualsIgnoreCase(args[1], "restart")) {
    int64_t port = 0;
    if (!ParseInt64(args[2], &port)) {
      reply.Error(engine::err::kNotInteger);
      return;
    }
    bool keep = false;
    if (args.size() == 4) {
      if (EqualsIgnoreCase(args[3], "keep")) {
        keep = true;
      } else if (!EqualsIgnoreCase(args[3], "empty")) {
        reply.Error(engine::err::kSyntax);
        return;
      }
    }
    if (port == own_port) {
      reply.Error("the node on port " + std::to_string(port) + " is running");
      return;
    }
    // The other node restarts on its own thread; it never waits on this one.
    std::string error = registry.Restart(static_cast<int>(port), keep);
    if (!error.empty()) {
      reply.Error(error);
      return;
    }
    reply.Status("OK");
    return;
  }
  if (args.size() < 2) {  // as FAULT and Redis's container commands (CONFIG, CLIENT) say it
    reply.Error(engine::err::WrongArity("topology"));
    return;
  }
  reply.Error("Unknown subcommand or wrong number of arguments for '" + args[1] +
              "'. Try TOPOLOGY NODES or RESTART.");
}

}  // namespace redlab::server
