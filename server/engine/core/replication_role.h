// What the engine asks of the node's replication (Redis's replication.c as server.c sees it):
// role, offsets, the replicas' acknowledgements, and the replication commands' work. The
// replication layer (server/replication/) implements it; the engine never includes that layer.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "server/engine/core/effects.h"
#include "server/resp/writer.h"

namespace redlab::server::engine {

class Client;

// FAILOVER's state (master_failover_state).
enum class FailoverState { kNone, kWaitingForSync, kInProgress };

// Replication counters for INFO stats.
struct ReplicationStats {
  uint64_t sync_full = 0;
  uint64_t sync_partial_ok = 0;
  uint64_t sync_partial_err = 0;
  uint64_t net_repl_input_bytes = 0;
  uint64_t net_repl_output_bytes = 0;
};

// The master's writes reach the replication through EffectSink::OnEffects.
class ReplicationRole : public EffectSink {
 public:
  ~ReplicationRole() override = default;

  // ---- Role ----
  virtual bool is_replica() const = 0;
  virtual const std::string& master_host() const = 0;
  virtual int master_port() const = 0;
  // The link to our master is up and streaming.
  virtual bool link_up() const = 0;
  // REPLICAOF host port: follow that master (connects now). `fresh` (a node started with
  // --replicaof) asks for a full sync with "PSYNC ? -1" instead of offering its own history.
  virtual void ReplicaOf(const std::string& host, int port, bool fresh = false) = 0;
  // REPLICAOF NO ONE: become a master, keeping the data and starting a new history.
  virtual void ReplicaOfNoOne() = 0;

  // ---- IDs and offsets ----
  virtual const std::string& replid() const = 0;
  virtual int64_t master_repl_offset() const = 0;
  // DEBUG CHANGE-REPL-ID: a new replication ID and no secondary one (replicas must resync).
  virtual void ResetReplicationIds() = 0;

  // ---- Master side ----
  // REPLCONF from a client (before PSYNC) or from an attached replica.
  virtual void SetListeningPort(Client& client, int64_t port) = 0;
  virtual void SetReplicaAddress(Client& client, std::string address) = 0;
  virtual void AddCapability(Client& client, std::string_view capa) = 0;
  // REPLCONF rdb-filter-only: the snapshot for this replica carries no keys, and function
  // libraries only when asked for.
  virtual void SetRdbFilter(Client& client, bool include_functions) = 0;
  // REPLCONF ACK <offset> from an attached replica (ignored from anyone else). Replication
  // faults hold or delay it as they do the stream: a stalled link stalls both ways.
  virtual void OnAck(Client& client, int64_t offset) = 0;
  // REPLCONF GETACK from our master: answer with our offset now.
  virtual void OnGetAck(Client& client) = 0;
  // PSYNC replid offset [FAILOVER] / SYNC. Writes the reply itself.
  virtual void OnSync(Client& client, std::span<const std::string> args,
                      resp::ReplyWriter& reply) = 0;
  // How many online replicas acknowledged at least `offset` (WAIT).
  virtual int64_t CountAcks(int64_t offset) const = 0;
  // A WAIT is blocked: ask every replica for an ACK (once per loop iteration, as Redis does).
  virtual void RequestAcks() = 0;
  // Replicas considered good for min-replicas-to-write (online, lag <= min-replicas-max-lag).
  virtual int64_t GoodReplicas() const = 0;
  virtual size_t connected_replicas() const = 0;
  // The engine is forgetting this client (its connection closed).
  virtual void OnClientDestroyed(Client& client) = 0;

  // ---- Periodic work ----
  // Every engine cron tick: acks to our master, pings to replicas, timeouts, reconnection.
  virtual void Cron() = 0;

  // ---- FAILOVER ----
  // FAILOVER [TO host port [FORCE]] [ABORT] [TIMEOUT ms]: replies itself.
  virtual void Failover(std::span<const std::string> args, Client& client,
                        resp::ReplyWriter& reply) = 0;
  virtual FailoverState failover_state() const = 0;

  // ---- Introspection ----
  // INFO replication, Redis's fields in Redis's order.
  virtual void AppendInfo(std::string* out) const = 0;
  // ROLE.
  virtual void ReplyRole(resp::ReplyWriter& reply) const = 0;
  virtual const ReplicationStats& stats() const = 0;
  // Bytes the backlog holds (INFO mem_replication_backlog); 0 without one.
  virtual size_t backlog_memory() const = 0;
};

}  // namespace redlab::server::engine
