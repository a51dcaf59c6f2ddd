// Node::Command: one command run in process as a client of the node's own would send it, as
// Redis's server.c runs commands for a fake client (the Lua client, the AOF loader's).
#include <future>
#include <stdexcept>

#include "server/engine/core/client.h"
#include "server/engine/core/engine.h"
#include "server/node.h"

namespace redlab::server {

std::string Node::Command(std::vector<std::string> args) {
  if (args.empty()) throw std::invalid_argument("Node::Command needs a command");
  if (crashed())
    throw std::runtime_error("the node on port " + std::to_string(port()) + " has crashed");
  try {
    return Call([&args](engine::Engine& engine) {
      engine::Client* client = engine.CreateClient(nullptr);
      client->set_authenticated(true);  // the node's own client, as Redis's fake clients
      engine.Execute(*client, args);
      std::string reply = client->blocked()
                              ? "-ERR the command blocked: Node::Command runs only commands that "
                                "answer at once\r\n"
                              : client->reply_buffer();
      engine.DestroyClient(client);  // a blocked client stops waiting, as on a disconnect
      return reply;
    });
  } catch (const std::future_error&) {
    throw std::runtime_error("the node has stopped");
  }
}

}  // namespace redlab::server
