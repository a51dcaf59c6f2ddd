// FAILOVER: a coordinated hand-over from a master to one of its replicas, as Redis 6.2+ does it.
// Writes are paused, the master waits until the chosen replica (or any, without TO) has
// acknowledged its whole stream, then becomes a replica of it with "PSYNC ... FAILOVER", which
// makes the replica a master; TIMEOUT aborts (or, with FORCE, hands over anyway).
#include <fmt/format.h>

#include <limits>

#include "server/base/numbers.h"
#include "server/base/text.h"
#include "server/replication/replication.h"

namespace redlab::server::replication {

void Replication::Failover(std::span<const std::string> args, engine::Client& client,
                           resp::ReplyWriter& reply) {
  using server::EqualsIgnoreCase;
  if (args.size() == 2 && EqualsIgnoreCase(args[1], "abort")) {
    if (failover_state_ == FailoverState::kNone) {
      reply.Error("No failover in progress.");
      return;
    }
    AbortFailover("Failover manually aborted");
    reply.Status("OK");
    return;
  }
  int64_t timeout_ms = 0;
  bool force = false;
  int64_t port = 0;
  std::string host;
  bool have_host = false;
  for (size_t j = 1; j < args.size(); ++j) {
    if (EqualsIgnoreCase(args[j], "timeout") && j + 1 < args.size() && timeout_ms == 0) {
      if (!server::ParseInt64(args[j + 1], &timeout_ms)) {
        reply.Error("value is not an integer or out of range");
        return;
      }
      if (timeout_ms <= 0) {
        reply.Error("FAILOVER timeout must be greater than 0");
        return;
      }
      ++j;
    } else if (EqualsIgnoreCase(args[j], "to") && j + 2 < args.size() && !have_host) {
      if (!server::ParseInt64(args[j + 2], &port)) {
        reply.Error("value is not an integer or out of range");
        return;
      }
      host = args[j + 1];
      have_host = true;
      j += 2;
    } else if (EqualsIgnoreCase(args[j], "force") && !force) {
      force = true;
    } else {
      reply.Error("syntax error");
      return;
    }
  }
  if (failover_state_ != FailoverState::kNone) {
    reply.Error("FAILOVER already in progress.");
    return;
  }
  if (is_replica()) {
    reply.Error("FAILOVER is not valid when server is a replica.");
    return;
  }
  if (replicas_.empty()) {
    reply.Error("FAILOVER requires connected replicas.");
    return;
  }
  if (force && (timeout_ms == 0 || !have_host)) {
    reply.Error("FAILOVER with force option requires both a timeout and target HOST and IP.");
    return;
  }
  if (have_host) {
    Replica* target = nullptr;
    for (auto& r : replicas_) {
      if (EqualsIgnoreCase(r->address, host) && r->listening_port == port) target = r.get();
    }
    if (target == nullptr) {
      reply.Error("FAILOVER target HOST and PORT is not a replica.");
      return;
    }
    if (target->state != Replica::State::kOnline) {
      reply.Error("FAILOVER target replica is not online.");
      return;
    }
    failover_host_ = host;
    failover_port_ = static_cast<int>(port);
    Log(false, fmt::format("FAILOVER requested to {}:{}.", host, port));
  } else {
    failover_host_.clear();
    failover_port_ = 0;
    Log(false, "FAILOVER requested to any replica.");
  }
  failover_end_ms_ = timeout_ms > 0 ? engine_.keyspace().now_ms() + timeout_ms : 0;
  failover_force_ = force;
  failover_state_ = FailoverState::kWaitingForSync;
  // Writes wait (as CLIENT PAUSE WRITE) until the failover ends one way or the other.
  engine_.blocking().Pause(std::numeric_limits<int64_t>::max() / 2, /*writes_only=*/true);
  reply.Status("OK");
  (void)client;
  FailoverCron();
}

void Replication::FailoverCron() {
  if (failover_state_ != FailoverState::kWaitingForSync) return;
  int64_t now = engine_.clock().NowMs();
  if (failover_end_ms_ != 0 && failover_end_ms_ <= now) {
    if (failover_force_) {
      Log(false, fmt::format("FAILOVER to {}:{} time out exceeded, failing over.", failover_host_,
                             failover_port_));
      failover_state_ = FailoverState::kInProgress;
      ReplicaOf(failover_host_, failover_port_);
    } else {
      AbortFailover("Replica never caught up before timeout");
    }
    return;
  }
  Replica* ready = nullptr;
  for (auto& r : replicas_) {
    bool is_target =
        failover_host_.empty() || (server::EqualsIgnoreCase(r->address, failover_host_) &&
                                   r->listening_port == failover_port_);
    if (is_target && r->ack_offset == master_repl_offset_) {
      ready = r.get();
      break;
    }
  }
  if (ready == nullptr) return;
  failover_host_ = ready->address;
  failover_port_ = static_cast<int>(ready->listening_port);
  failover_state_ = FailoverState::kInProgress;
  Log(false, fmt::format("Failover target {}:{} is synced, failing over.", failover_host_,
                         failover_port_));
  ReplicaOf(failover_host_, failover_port_);
}

void Replication::AbortFailover(std::string_view reason) {
  if (failover_state_ == FailoverState::kNone) return;
  if (failover_host_.empty()) {
    Log(false, fmt::format("FAILOVER to any replica aborted: {}", reason));
  } else {
    Log(false,
        fmt::format("FAILOVER to {}:{} aborted: {}", failover_host_, failover_port_, reason));
  }
  if (failover_state_ == FailoverState::kInProgress) ReplicaOfNoOne();
  ClearFailoverState();
}

void Replication::ClearFailoverState() {
  failover_state_ = FailoverState::kNone;
  failover_end_ms_ = 0;
  failover_force_ = false;
  failover_host_.clear();
  failover_port_ = 0;
  engine_.blocking().Unpause();
}

}  // namespace redlab::server::replication
