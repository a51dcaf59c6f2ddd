// Output-buffer limits and the clients' peak buffers, as Redis 7.0.15's networking.c
// (checkClientOutputBufferLimits, closeClientOnOutputBufferLimitReached) and server.c
// (clientsCron's clientsCronTrackExpansiveClients and closeClientOnOutputBufferLimitReached,
// getExpansiveClientsInfo).
#include <algorithm>
#include <vector>

#include "server/engine/core/engine.h"
#include "server/engine/core/memory.h"

namespace redlab::server::engine {

namespace {

// checkClientOutputBufferLimits: whether `client`, with `pending` bytes not yet sent, has passed
// its class's hard limit, or its soft limit for longer than the soft seconds.
bool LimitPassed(const ServerConfig& config, int64_t now_ms, Client& client, size_t pending) {
  // getClientType: a replica (not MONITOR) is of the replica class, a subscriber of the pubsub
  // class; a master and everyone else are normal clients.
  int cls = ServerConfig::kNormalClass;
  if (client.repl_role() == Client::ReplRole::kReplica && !client.monitor()) {
    cls = ServerConfig::kReplicaClass;
  } else if (client.subscribed()) {
    cls = ServerConfig::kPubsubClass;
  }
  const auto& limit = config.output_limits[cls];
  int64_t bytes = static_cast<int64_t>(pending);
  // A replica's hard limit below repl-backlog-size is taken as repl-backlog-size.
  int64_t hard = limit.hard;
  if (cls == ServerConfig::kReplicaClass && hard > 0 && hard < config.repl_backlog_size) {
    hard = config.repl_backlog_size;
  }
  bool reached = limit.hard > 0 && bytes >= hard;
  if (limit.soft > 0 && bytes >= limit.soft) {
    // The soft limit counts once passed for longer than its seconds, continuously (Redis counts
    // in whole seconds of its unixtime).
    int64_t now_s = now_ms / 1000;
    if (client.output_soft_limit_since_ms == 0) {
      client.output_soft_limit_since_ms = std::max<int64_t>(1, now_s * 1000);
    } else if (now_s - client.output_soft_limit_since_ms / 1000 > limit.soft_seconds) {
      reached = true;
    }
  } else {
    client.output_soft_limit_since_ms = 0;
  }
  return reached;
}

}  // namespace

bool Memory::OutputBufferLimitReached(Client& client, size_t pending) {
  bool reached = LimitPassed(engine_.config(), engine_.clock().NowMs(), client, pending);
  if (reached && engine_.host() != nullptr) {
    engine_.host()->LogWarning(
        "Client " + DescribeClient(engine_, client) +
        " scheduled to be closed ASAP for overcoming of output buffer limits.");
  }
  return reached;
}

void Memory::TrackExpensiveClients() {
  ClientRegistry& clients = clients_;
  const int64_t now_ms = engine_.clock().NowMs();
  clients.StartPeakSecond(now_ms / 1000);
  std::vector<Client*> past_limits;
  for (const auto& [id, client] : clients) {
    ClientIo* io = client->io();
    if (io == nullptr) continue;
    size_t pending = io->PendingOutputBytes();
    clients.NoteBuffers(io->QueryBufferLength(), pending);
    // clientsCron's closeClientOnOutputBufferLimitReached(c, 0): a soft limit runs out even when
    // no reply is added (a client with nothing pending is left alone, as in Redis).
    bool replica = client->repl_role() == Client::ReplRole::kReplica;
    if ((pending > 0 || replica) && LimitPassed(engine_.config(), now_ms, *client, pending)) {
      past_limits.push_back(client.get());
    }
  }
  for (Client* client : past_limits) {
    if (engine_.host() != nullptr) {
      engine_.host()->LogWarning("Client " + DescribeClient(engine_, *client) +
                                 " closed for overcoming of output buffer limits.");
    }
    client->io()->CloseAsap();
  }
}

}  // namespace redlab::server::engine
