// Replication state shared by both roles: IDs and offsets, role changes (REPLICAOF), the
// backlog, the periodic work, faults and crashes, and INFO / ROLE.
#include "server/replication/replication.h"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>

#include "server/base/hex.h"
#include "server/base/monotonic.h"
#include "server/base/text.h"

namespace redlab::server::replication {
namespace {

constexpr std::string_view kNullReplid = "0000000000000000000000000000000000000000";

}  // namespace

Replication::Replication(engine::Engine& engine)
    : engine_(engine), replid_(RandomHex(40)), replid2_(kNullReplid) {}

Replication::~Replication() {
  if (link_) link_->Close();
}

int64_t Replication::NowS() const { return engine_.clock().NowMs() / 1000; }

void Replication::ChangeReplicationId() { replid_ = RandomHex(40); }

void Replication::ClearReplicationId2() {
  replid2_ = std::string(kNullReplid);
  second_repl_offset_ = -1;
}

void Replication::ShiftReplicationId() {
  // The old history stays valid up to the current offset: replicas of the old master can
  // continue with us (PSYNC with replid2).
  replid2_ = replid_;
  second_repl_offset_ = master_repl_offset_ + 1;
  ChangeReplicationId();
}

void Replication::EnsureBacklog() {
  if (backlog_) return;
  backlog_ = std::make_unique<Backlog>(static_cast<size_t>(engine_.config().repl_backlog_size),
                                       master_repl_offset_ + 1);
  UpdateSink();
}

void Replication::UpdateSink() {
  // Effects are only encoded when someone can use them: a master with a backlog (Redis feeds
  // nothing before the first replica attaches). A replica passes its master's stream on as is.
  bool want = backlog_ != nullptr && !is_replica() && !crashed_;
  engine_.propagation().set_sink(want ? this : nullptr);
}

std::unique_ptr<engine::ReplicationRole> MakeReplication(engine::Engine& engine) {
  return std::make_unique<Replication>(engine);
}

void Replication::ReplicaOf(const std::string& host, int port, bool fresh) {
  bool was_master = !is_replica();
  FreeMasterClient();
  DropLink(/*reconnect_later=*/false);
  // Clients blocked on this node as a master (WAIT) cannot be served by a replica.
  engine_.blocking().DisconnectBlockedClients(
      "UNBLOCKED force unblock from blocking operation, instance state changed (master -> "
      "replica?)");
  master_host_ = host;
  master_port_ = port;
  engine_.config_registry().SetReplicaOf(host + " " +
                                         std::to_string(port));  // CONFIG GET replicaof
  // A former master offers its own history to the new master (replicationCacheMasterUsingMyself)
  // so a promoted replica of it can continue; a fresh node asks for everything.
  fresh_sync_ = fresh;
  if (was_master) {
    reploff_ = master_repl_offset_;
    read_reploff_ = master_repl_offset_;
  }
  engine_.keyspace().set_replica(true);
  UpdateSink();
  state_ = LinkState::kConnect;
  down_since_s_ = 0;
  StateChanged();
  Connect();
}

void Replication::ReplicaOfNoOne() {
  if (!is_replica()) return;
  master_host_.clear();
  master_port_ = 0;
  engine_.config_registry().SetReplicaOf("");
  FreeMasterClient();
  DropLink(/*reconnect_later=*/false);
  ShiftReplicationId();
  // Replicas must learn the new ID; they can continue partially with it.
  DisconnectReplicas();
  state_ = LinkState::kNone;
  encoder_.ForgetSelectedDb();
  down_since_s_ = 0;
  engine_.keyspace().set_replica(false);
  UpdateSink();
  StateChanged();
}

void Replication::OnEffects(std::span<const engine::Effect> effects) {
  if (backlog_ == nullptr || is_replica()) return;
  std::string bytes;
  encoder_.Encode(effects, &bytes);
  FeedReplicas(bytes);
}

void Replication::FeedCommand(std::span<const std::string> args) {
  if (backlog_ == nullptr || is_replica()) return;
  std::string bytes;
  encoder_.EncodeCommand(-1, args, &bytes);
  FeedReplicas(bytes);
}

void Replication::Cron() {
  if (crashed_) return;
  int64_t now_s = NowS();
  if (is_replica()) {
    LinkCron(now_s);
  }
  ReplicaCron(now_s);
  FailoverCron();
}

const LinkFaults& Replication::OwnLinkFaults(LinkDirection dir) const {
  return faults_.For(dir, engine_.config().port);
}

void Replication::SetFaults(const LinkFaultTable& faults) {
  bool own_was_cut = faults_.Cut(engine_.config().port);
  std::vector<engine::Client*> newly_cut;
  for (const auto& r : replicas_) {
    if (!faults_.Cut(r->listening_port) && faults.Cut(r->listening_port)) {
      newly_cut.push_back(r->client);
    }
  }
  faults_ = faults;
  // The network breaks: both ends see the connection drop; held bytes are lost with it.
  for (engine::Client* c : newly_cut) {
    DisconnectReplica(*c);
  }
  bool own_cut = faults_.Cut(engine_.config().port);
  if (own_cut && !own_was_cut && link_) DropLink(/*reconnect_later=*/true);
  if (!own_cut && own_was_cut && is_replica() && state_ == LinkState::kConnect) Connect();
  OnTimer();  // releases what a resumed or shortened delay lets through
}

void Replication::Crash() {
  crashed_ = true;
  FreeMasterClient();
  DropLink(/*reconnect_later=*/false);
  inbound_.Clear();
  outbound_.Clear();
  replconf_.clear();
  // Attached replicas go with the connections the node closes; their held bytes are lost.
  replicas_.clear();
  UpdateSink();
}

void Replication::Restart(bool keep_data) {
  crashed_ = false;
  flush_scheduled_ = false;
  getack_pending_ = false;
  faults_ = LinkFaultTable{};
  failover_state_ = FailoverState::kNone;
  // A fresh process has no backlog; its history survives only with its data.
  backlog_.reset();
  if (!keep_data) {
    ChangeReplicationId();
    ClearReplicationId2();
    master_repl_offset_ = 0;
    reploff_ = read_reploff_ = 0;
  }
  encoder_.ForgetSelectedDb();
  UpdateSink();
  if (is_replica()) {
    fresh_sync_ = !keep_data;
    state_ = LinkState::kConnect;
    Connect();
  }
}

void Replication::RescheduleTimer() {
  if (host_ == nullptr || crashed_) return;
  int64_t next = -1;
  auto consider = [&](int64_t due) {
    if (due >= 0 && (next < 0 || due < next)) next = due;
  };
  consider(NextReplicaDueMs());
  consider(inbound_.NextDueMs(OwnLinkFaults(LinkDirection::kToReplica)));
  consider(outbound_.NextDueMs(OwnLinkFaults(LinkDirection::kToMaster)));
  if (getack_pending_ || flush_scheduled_) consider(MonotonicMs());
  if (next < 0) return;
  host_->ScheduleReplicationTimer(std::max<int64_t>(0, next - MonotonicMs()));
}

void Replication::OnTimer() {
  if (crashed_) return;
  if (drop_link_pending_) {
    drop_link_pending_ = false;
    DropLink(/*reconnect_later=*/true);
  }
  int64_t now = MonotonicMs();
  ReleaseReplicaStreams(now);
  if (getack_pending_) {
    getack_pending_ = false;
    if (!replicas_.empty() && !is_replica()) {
      static const std::vector<std::string> kGetAck = {"REPLCONF", "GETACK", "*"};
      FeedCommand(kGetAck);
    }
  }
  FlushReplicas();
  // What the replica side holds back goes out and comes in now.
  std::string out;
  outbound_.TakeDue(now, OwnLinkFaults(LinkDirection::kToMaster), &out);
  if (!out.empty() && link_ != nullptr) link_->Write(out);
  std::string due;
  inbound_.TakeDue(now, OwnLinkFaults(LinkDirection::kToReplica), &due);
  if (!due.empty()) {
    last_io_s_ = NowS();
    link_in_.append(due);
    ProcessLinkInput();
  }
  RescheduleTimer();
}

void Replication::AppendInfo(std::string* out) const {
  std::string& s = *out;
  int64_t now_s = NowS();
  s += "# Replication\r\n";
  if (!is_replica()) {
    s += "role:master\r\n";
  } else {
    s += "role:slave\r\n";
    s += fmt::format("master_host:{}\r\nmaster_port:{}\r\n", master_host_, master_port_);
    s += fmt::format("master_link_status:{}\r\n", link_up() ? "up" : "down");
    s += fmt::format("master_last_io_seconds_ago:{}\r\n",
                     master_client_ != nullptr ? now_s - last_io_s_ : -1);
    s += fmt::format("master_sync_in_progress:{}\r\n", state_ == LinkState::kTransfer ? 1 : 0);
    s += fmt::format("slave_read_repl_offset:{}\r\nslave_repl_offset:{}\r\n", read_reploff_,
                     reploff_);
    if (state_ == LinkState::kTransfer) {
      int64_t total = eof_mark_.empty() ? static_cast<int64_t>(payload_.size()) + payload_left_ : 0;
      int64_t read = static_cast<int64_t>(payload_.size());
      s += fmt::format("master_sync_total_bytes:{}\r\nmaster_sync_read_bytes:{}\r\n", total, read);
      s += fmt::format("master_sync_left_bytes:{}\r\n", total - read);
      s += fmt::format(
          "master_sync_perc:{:.2f}\r\n",
          total > 0 ? static_cast<double>(read) * 100 / static_cast<double>(total) : 0.0);
      s += fmt::format("master_sync_last_io_seconds_ago:{}\r\n", now_s - last_io_s_);
    }
    if (!link_up()) {
      s += fmt::format("master_link_down_since_seconds:{}\r\n",
                       down_since_s_ != 0 ? now_s - down_since_s_ : -1);
    }
    const engine::ServerConfig& c = engine_.config();
    s += fmt::format("slave_priority:{}\r\n", c.replica_priority);
    s += fmt::format("slave_read_only:{}\r\n", c.replica_read_only ? 1 : 0);
    s += fmt::format("replica_announced:{}\r\n", c.replica_announced ? 1 : 0);
  }
  s += fmt::format("connected_slaves:{}\r\n", replicas_.size());
  const engine::ServerConfig& c = engine_.config();
  if (c.min_replicas_to_write > 0 && c.min_replicas_max_lag > 0) {
    s += fmt::format("min_slaves_good_slaves:{}\r\n", GoodReplicas());
  }
  AppendReplicaLines(now_s, &s);
  static constexpr std::string_view kFailoverNames[] = {"no-failover", "waiting-for-sync",
                                                        "failover-in-progress"};
  s += fmt::format("master_failover_state:{}\r\n",
                   kFailoverNames[static_cast<int>(failover_state_)]);
  s += fmt::format("master_replid:{}\r\nmaster_replid2:{}\r\n", replid_, replid2_);
  s += fmt::format("master_repl_offset:{}\r\nsecond_repl_offset:{}\r\n", master_repl_offset_,
                   second_repl_offset_);
  s += fmt::format("repl_backlog_active:{}\r\n", backlog_ ? 1 : 0);
  s += fmt::format("repl_backlog_size:{}\r\n", c.repl_backlog_size);
  s +=
      fmt::format("repl_backlog_first_byte_offset:{}\r\n", backlog_ ? backlog_->first_offset() : 0);
  s += fmt::format("repl_backlog_histlen:{}\r\n", backlog_ ? backlog_->histlen() : 0);
}

void Replication::ReplyRole(resp::ReplyWriter& reply) const {
  if (!is_replica()) {
    reply.ArrayHeader(3);
    reply.Bulk("master");
    reply.Integer(master_repl_offset_);
    AppendRoleReplicas(reply);
    return;
  }
  reply.ArrayHeader(5);
  reply.Bulk("slave");
  reply.Bulk(master_host_);
  reply.Integer(master_port_);
  static constexpr std::string_view kStates[] = {"none",      "connect", "connecting",
                                                 "handshake", "sync",    "connected"};
  static_assert(std::size(kStates) == static_cast<size_t>(LinkState::kConnected) + 1);
  reply.Bulk(EnumName(kStates, state_, std::string_view()));
  reply.Integer(master_client_ != nullptr ? reploff_ : -1);
}

}  // namespace redlab::server::replication
