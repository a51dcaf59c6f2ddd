// A node's replication, as Redis 7.0 does it: its role (master, or replica of host:port), its
// replication IDs and offsets, the backlog, the replicas attached to it (master side: PSYNC,
// +FULLRESYNC with an RDB snapshot or +CONTINUE from the backlog, REPLCONF ACK, WAIT counts),
// and its link to its master (replica side: the handshake, loading the snapshot, applying the
// stream, acknowledging it). It reaches the network only through ReplicationHost and LinkIo, so
// it stays free of libuv like the engine it belongs to.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "server/engine/core/engine.h"
#include "server/rdb/snapshot.h"
#include "server/replication/backlog.h"
#include "server/replication/link_shaper.h"
#include "server/replication/stream_encoder.h"
#include "server/resp/arg_list.h"
#include "server/resp/parser.h"

namespace redlab::server::replication {

// An outgoing TCP connection (a replica's link to its master), provided and owned by the
// transport: it lives until Close() is called or its handler's OnLinkClosed() returns.
class LinkIo {
 public:
  virtual void Write(std::string_view bytes) = 0;
  // Closes the connection; its handler is called no more.
  virtual void Close() = 0;

 protected:
  virtual ~LinkIo() = default;
};

// What happens on that connection, reported on the node's loop.
class LinkHandler {
 public:
  virtual ~LinkHandler() = default;
  virtual void OnLinkConnected() = 0;
  virtual void OnLinkData(std::string_view bytes) = 0;
  // The connection could not be made, or broke.
  virtual void OnLinkClosed() = 0;
};

// What replication needs from the node hosting it.
class ReplicationHost {
 public:
  virtual ~ReplicationHost() = default;
  // Starts connecting to host:port; nullptr when that is impossible right away (the handler then
  // hears nothing).
  virtual LinkIo* ConnectToMaster(const std::string& host, int port, LinkHandler* handler) = 0;
  // Asks for Replication::OnTimer in about `delay_ms` real ms; a later call replaces this one.
  virtual void ScheduleReplicationTimer(int64_t delay_ms) = 0;
  // A line for the node's log, at notice (false) or warning (true) level.
  virtual void LogReplication(bool warning, std::string_view message) {}
  // The role or the state of the link to the master changed (the node republishes its state).
  virtual void OnReplicationStateChanged() {}
};

// The replica side's state, Redis's repl_state.
enum class LinkState { kNone, kConnect, kConnecting, kHandshake, kTransfer, kConnected };

using engine::FailoverState;
using engine::ReplicationStats;

class Replication : public engine::ReplicationRole, private LinkHandler {
 public:
  explicit Replication(engine::Engine& engine);
  ~Replication() override;
  Replication(const Replication&) = delete;
  Replication& operator=(const Replication&) = delete;

  void set_host(ReplicationHost* host) { host_ = host; }

  // ---- Role ----
  bool is_replica() const override { return !master_host_.empty(); }
  const std::string& master_host() const override { return master_host_; }
  int master_port() const override { return master_port_; }
  LinkState link_state() const { return state_; }
  bool link_up() const override { return state_ == LinkState::kConnected; }
  // REPLICAOF host port: follow that master (connects now). `fresh` (a node started with
  // --replicaof) asks for a full sync with "PSYNC ? -1" instead of offering its own history.
  void ReplicaOf(const std::string& host, int port, bool fresh = false) override;
  // REPLICAOF NO ONE: become a master, keeping the data and starting a new history.
  void ReplicaOfNoOne() override;

  // ---- IDs and offsets ----
  const std::string& replid() const override { return replid_; }
  int64_t master_repl_offset() const override { return master_repl_offset_; }
  // DEBUG CHANGE-REPL-ID: a new replication ID and no secondary one (replicas must resync).
  void ResetReplicationIds() override {
    ChangeReplicationId();
    ClearReplicationId2();
  }

  // ---- Master side ----
  // REPLCONF from a client (before PSYNC) or from an attached replica. Returns false when it
  // replied an error (and stops processing the options).
  void SetListeningPort(engine::Client& client, int64_t port) override;
  void SetReplicaAddress(engine::Client& client, std::string address) override;
  void AddCapability(engine::Client& client, std::string_view capa) override;
  // REPLCONF rdb-filter-only: the snapshot for this replica carries no keys, and function
  // libraries only when asked for.
  void SetRdbFilter(engine::Client& client, bool include_functions) override;
  // REPLCONF ACK <offset> from an attached replica (ignored from anyone else). Our replication
  // faults hold or delay it as they do the stream we send: a stalled link stalls both ways.
  void OnAck(engine::Client& client, int64_t offset) override;
  // REPLCONF GETACK from our master: answer with our offset now.
  void OnGetAck(engine::Client& client) override;
  // PSYNC replid offset [FAILOVER] / SYNC. Writes the reply itself.
  void OnSync(engine::Client& client, std::span<const std::string> args,
              resp::ReplyWriter& reply) override;
  // How many online replicas acknowledged at least `offset` (WAIT).
  int64_t CountAcks(int64_t offset) const override;
  // A WAIT is blocked: ask every replica for an ACK (once per loop iteration, as Redis does).
  void RequestAcks() override;
  // Replicas considered good for min-replicas-to-write (online, lag <= min-replicas-max-lag).
  int64_t GoodReplicas() const override;
  size_t connected_replicas() const override { return replicas_.size(); }
  // The engine is forgetting this client (its connection closed).
  void OnClientDestroyed(engine::Client& client) override;

  // ---- Replica side ----
  // The client executing our master's stream (nullptr when not connected).
  engine::Client* master_client() const { return master_client_; }
  // The master client was unblocked (end of CLIENT PAUSE): go on with its pending stream.
  void ResumeMasterStream();
  // CLIENT KILL of the master client: the link drops (soon: the kill may come from the master
  // client's own stream) and is made again.
  void KillMasterClient();

  // ---- EffectSink: the master's writes ----
  void OnEffects(std::span<const engine::Effect> effects) override;

  // ---- Periodic work and faults ----
  // Every engine cron tick: acks to our master, pings to replicas, timeouts, reconnection.
  void Cron() override;
  void OnTimer();
  void SetFaults(const LinkFaultTable& faults);
  const LinkFaultTable& faults() const { return faults_; }
  // The node crashed: links drop, held (unreplicated) bytes are lost, nothing reconnects until
  // Restart.
  void Crash();
  // The node comes back. With `keep_data` the replication ID and offset survive (as after a
  // restart from a persisted RDB); without, the node starts a new history at offset 0. A replica
  // reconnects to its master either way.
  void Restart(bool keep_data);

  // ---- FAILOVER ----
  // FAILOVER [TO host port [FORCE]] [ABORT] [TIMEOUT ms]: replies itself.
  void Failover(std::span<const std::string> args, engine::Client& client,
                resp::ReplyWriter& reply) override;
  FailoverState failover_state() const override { return failover_state_; }

  // ---- Introspection ----
  // INFO replication, Redis's fields in Redis's order.
  void AppendInfo(std::string* out) const override;
  // ROLE.
  void ReplyRole(resp::ReplyWriter& reply) const override;
  const ReplicationStats& stats() const override { return stats_; }
  // Bytes the backlog holds (INFO mem_replication_backlog); 0 without one.
  size_t backlog_memory() const override { return backlog_ != nullptr ? backlog_->size() : 0; }

 private:
  // An attached replica (master side): a client connection that sent PSYNC or SYNC.
  struct Replica {
    enum class State { kWaitBgsave, kSendBulk, kOnline };
    explicit Replica(engine::Client* c) : client(c) {}
    engine::Client* client;
    std::string address;         // REPLCONF ip-address, else the peer's IP
    int64_t listening_port = 0;  // REPLCONF listening-port
    bool capa_eof = false;
    bool capa_psync2 = false;
    bool pre_psync = false;  // attached with SYNC: sends no acks
    State state = State::kOnline;
    int64_t ack_offset = 0;
    int64_t ack_time_s = 0;      // node seconds of the last ack
    LinkShaper shaper;           // replication faults on what we send it
    LinkShaper acks;             // ...and on the acks it sends us ("<offset>\n" records)
    bool flush_pending = false;  // stream appended to its output, not yet handed to the socket
  };
  struct PendingReplconf {
    int64_t listening_port = 0;
    std::string address;
    bool capa_eof = false;
    bool capa_psync2 = false;
    bool exclude_data = false;
    bool exclude_functions = false;
  };

  // LinkHandler (replica side)
  void OnLinkConnected() override;
  void OnLinkData(std::string_view bytes) override;
  void OnLinkClosed() override;

  // master_side.cc
  Replica* FindReplica(const engine::Client& client) const;
  bool TryPartialResync(engine::Client& client, std::string_view replid, int64_t offset);
  void FullResync(engine::Client& client, bool pre_psync);
  Replica& AttachReplica(engine::Client& client);
  void SendToReplica(Replica& replica, std::string_view bytes);
  void ApplyAck(Replica& replica, int64_t offset);
  void FeedReplicas(std::string_view bytes);
  void FeedCommand(std::span<const std::string> args);
  void DisconnectReplicas();
  void DisconnectReplica(engine::Client& client);  // one, as DisconnectReplicas
  void CheckWaitingClients();
  void ReplicaCron(int64_t now_s);
  int64_t NextReplicaDueMs() const;
  void ReleaseReplicaStreams(int64_t now_ms);
  void FlushReplicas();
  void AppendReplicaLines(int64_t now_s, std::string* out) const;
  void AppendRoleReplicas(resp::ReplyWriter& reply) const;

  // replica_side.cc
  void Connect();
  void DropLink(bool reconnect_later);
  void ProcessLinkInput();
  bool HandshakeStep();
  bool ReadPayload();
  void FinishFullSync(std::string_view rdb);
  void StartStreaming();
  void ApplyStream();
  // A command of `bytes` of the stream has run: the applied offset moves (at EXEC for a
  // transaction's) and it is passed on to this replica's own replicas.
  void CommandApplied(int64_t bytes);
  void SendToMaster(std::string_view bytes);
  void SendAck();
  void CreateMasterClient();
  void FreeMasterClient();
  void LinkCron(int64_t now_s);

  // replication.cc
  void ChangeReplicationId();
  void ShiftReplicationId();
  void ClearReplicationId2();
  void EnsureBacklog();
  void UpdateSink();
  void RescheduleTimer();
  int64_t NowS() const;
  void Log(bool warning, std::string_view message) const {
    if (host_ != nullptr) host_->LogReplication(warning, message);
  }
  void StateChanged() const {
    if (host_ != nullptr) host_->OnReplicationStateChanged();
  }
  void FailoverCron();
  void AbortFailover(std::string_view reason);
  void ClearFailoverState();

  engine::Engine& engine_;
  ReplicationHost* host_ = nullptr;

  // IDs and offsets (shared by both roles).
  std::string replid_;
  std::string replid2_;
  int64_t master_repl_offset_ = 0;
  int64_t second_repl_offset_ = -1;
  std::unique_ptr<Backlog> backlog_;
  StreamEncoder encoder_;
  ReplicationStats stats_;

  // Master side.
  std::vector<std::unique_ptr<Replica>> replicas_;          // in attach order (slave0, slave1...)
  std::unordered_map<uint64_t, PendingReplconf> replconf_;  // by client id, before PSYNC
  bool getack_pending_ = false;
  bool flush_scheduled_ = false;  // replicas' output waits for the next timer
  int64_t last_cron_s_ = -1;      // the second ReplicaCron last ran in
  int64_t cron_loops_ = 0;        // seconds ReplicaCron has run in (Redis's replication_cron_loops)

  // Replica side.
  std::string master_host_;
  int master_port_ = 0;
  LinkState state_ = LinkState::kNone;
  LinkIo* link_ = nullptr;
  std::string link_in_;        // received from the master, not yet consumed
  LinkShaper inbound_;         // replication faults on what we receive
  LinkShaper outbound_;        // ...and on what we send (handshake, acks)
  int handshake_step_ = 0;     // which reply of the handshake we expect next
  bool announced_ip_ = false;  // the handshake sent REPLCONF ip-address (a reply to skip)
  bool fresh_sync_ = false;    // PSYNC ? -1 on the next handshake
  std::string psync_replid_;   // what we asked PSYNC for
  int64_t psync_offset_ = 0;
  // The snapshot in transfer: "$<len>" (payload_left_ bytes to go) or "$EOF:<mark>".
  bool payload_started_ = false;
  int64_t payload_left_ = 0;
  std::string eof_mark_;
  std::string payload_;
  std::string full_sync_replid_;
  int64_t full_sync_offset_ = 0;
  engine::Client* master_client_ = nullptr;
  std::unique_ptr<engine::ClientIo> master_client_io_;
  resp::RequestParser parser_;
  resp::ArgList args_;
  int64_t command_bytes_ = 0;    // bytes of the request being parsed
  int64_t reploff_ = 0;          // stream applied (Redis's master->reploff)
  int64_t read_reploff_ = 0;     // stream received
  int64_t last_io_s_ = 0;        // node seconds of the last byte from the master
  int64_t down_since_s_ = 0;     // when the link went down (0: never was up)
  int64_t last_connect_ms_ = 0;  // real ms of the last connection attempt
  int64_t last_ack_ms_ = 0;      // real ms of the last REPLCONF ACK we sent
  size_t link_pos_ = 0;          // link_in_ parsed up to here
  size_t feed_pos_ = 0;          // link_in_ applied and passed on up to here
  int64_t pending_applied_ = 0;  // bytes applied inside a MULTI not yet counted
  // The bytes of a command the master client was made to wait with (CLIENT PAUSE on this
  // replica): counted once it has run, when the stream resumes.
  int64_t postponed_bytes_ = 0;
  bool applying_ = false;
  bool drop_link_pending_ = false;  // CLIENT KILL of the master client: drop the link soon

  // Faults and crashes.
  LinkFaultTable faults_;
  // The faults on this replica's own link, going `dir` (replica side).
  const LinkFaults& OwnLinkFaults(LinkDirection dir) const;
  bool crashed_ = false;

  // FAILOVER.
  FailoverState failover_state_ = FailoverState::kNone;
  std::string failover_host_;
  int failover_port_ = 0;
  bool failover_force_ = false;
  int64_t failover_end_ms_ = 0;  // node ms; 0: no timeout
};

// What an engine is built with (Engine::ReplicationFactory) in every node.
std::unique_ptr<engine::ReplicationRole> MakeReplication(engine::Engine& engine);

// Empties every database and the function libraries and loads an RDB's keys and libraries in
// their place (a replica's full sync, FAULT HISTORY's restore); with `drop_expired`, keys whose
// expiry has passed stay out, as a master loading its file drops them. `aux` (may be null)
// receives the RDB's aux fields.
std::optional<std::string> ReplaceDataset(engine::Engine& engine, std::string_view rdb,
                                          const rdb::RdbReadOptions& options, rdb::RdbAux* aux,
                                          bool drop_expired);

// The replication of an engine built with MakeReplication, as this layer and the node see it
// (faults, crash and restart, the link to the master).
inline Replication& ReplicationOf(engine::Engine& engine) {
  return static_cast<Replication&>(engine.replication());
}

}  // namespace redlab::server::replication
