// TOPOLOGY NODES and TOPOLOGY RESTART <port> [EMPTY | KEEP | LOSE <ms>] (redlab's own; not in
// Redis's command table).
#include "server/topology_command.h"

#include <cstdint>
#include <vector>

#include "server/base/numbers.h"
#include "server/base/text.h"
#include "server/engine/core/errors.h"
#include "server/fault/history.h"
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
  if (args.size() >= 3 && args.size() <= 5 && EqualsIgnoreCase(args[1], "restart")) {
    int64_t port = 0;
    if (!ParseInt64(args[2], &port)) {
      reply.Error(engine::err::kNotInteger);
      return;
    }
    // Checked before any narrowing: 4294974296 is not port 7000.
    if (port < 1 || port > 65535) {
      reply.Error("value is out of range, value must between 1 and 65535");
      return;
    }
    bool keep = false;
    int64_t lose_ms = -1;
    if (args.size() == 5 && EqualsIgnoreCase(args[3], "lose")) {
      // LOSE <ms>: the data as it was <ms> before the crash (fault/history.h).
      if (!ParseInt64(args[4], &lose_ms)) {
        reply.Error(engine::err::kNotInteger);
        return;
      }
      if (lose_ms < 0 || lose_ms > fault::DataHistory::kWindowMs) {
        reply.Error("value is out of range, value must between 0 and " +
                    std::to_string(fault::DataHistory::kWindowMs));
        return;
      }
    } else if (args.size() == 4 && EqualsIgnoreCase(args[3], "keep")) {
      keep = true;
    } else if (args.size() != 3 && !(args.size() == 4 && EqualsIgnoreCase(args[3], "empty"))) {
      reply.Error(engine::err::kSyntax);
      return;
    }
    if (port == own_port) {
      reply.Error("the node on port " + std::to_string(port) + " is running");
      return;
    }
    // The other node restarts on its own thread; it never waits on this one.
    std::string error = registry.Restart(static_cast<int>(port), keep, lose_ms);
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
