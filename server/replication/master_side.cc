// The master side of replication: REPLCONF from would-be replicas, PSYNC and SYNC (a partial
// resync from the backlog, or a full one with an RDB snapshot), feeding the stream to the
// attached replicas through their fault shapers, their acks, and what WAIT and
// min-replicas-to-write count.
#include <fmt/format.h>

#include <algorithm>

#include "server/base/monotonic.h"
#include "server/base/numbers.h"
#include "server/base/text.h"
#include "server/engine/core/script_runner.h"
#include "server/rdb/snapshot.h"
#include "server/replication/replication.h"

namespace redlab::server::replication {
namespace {

// "127.0.0.1:6380" -> "127.0.0.1" (IPv6 peers keep their colons).
std::string PeerIp(const engine::Client& client) {
  if (client.io() == nullptr) return {};
  std::string_view peer = client.io()->PeerAddress();
  size_t colon = peer.rfind(':');
  return std::string(colon == std::string_view::npos ? peer : peer.substr(0, colon));
}

}  // namespace

Replication::Replica* Replication::FindReplica(const engine::Client& client) const {
  for (const auto& r : replicas_) {
    if (r->client == &client) return r.get();
  }
  return nullptr;
}

void Replication::SetListeningPort(engine::Client& client, int64_t port) {
  if (Replica* r = FindReplica(client)) {
    r->listening_port = port;
  } else {
    replconf_[client.id()].listening_port = port;
  }
}

void Replication::SetReplicaAddress(engine::Client& client, std::string address) {
  if (Replica* r = FindReplica(client)) {
    r->address = std::move(address);
  } else {
    replconf_[client.id()].address = std::move(address);
  }
}

void Replication::AddCapability(engine::Client& client, std::string_view capa) {
  bool eof = server::EqualsIgnoreCase(capa, "eof");
  bool psync2 = server::EqualsIgnoreCase(capa, "psync2");
  if (!eof && !psync2) return;  // capabilities this master does not know are ignored
  if (Replica* r = FindReplica(client)) {
    r->capa_eof |= eof;
    r->capa_psync2 |= psync2;
  } else {
    PendingReplconf& p = replconf_[client.id()];
    p.capa_eof |= eof;
    p.capa_psync2 |= psync2;
  }
}

void Replication::SetRdbFilter(engine::Client& client, bool include_functions) {
  PendingReplconf& p = replconf_[client.id()];
  p.exclude_data = true;
  p.exclude_functions = !include_functions;
}

void Replication::OnAck(engine::Client& client, int64_t offset) {
  Replica* r = FindReplica(client);
  if (r == nullptr) return;  // only replicas ack (Redis ignores it from anyone else, silently)
  const LinkFaults& ack_faults = faults_.For(LinkDirection::kToMaster, r->listening_port);
  if (r->acks.PassThrough(ack_faults)) {
    ApplyAck(*r, offset);
    CheckWaitingClients();
    FailoverCron();
    return;
  }
  // The ack arrives when the bytes it rode on would: held while paused, late under a delay. Until
  // then the replica's lag grows, as on a real stalled link (min-replicas-max-lag sees it).
  r->acks.Push(MonotonicMs(), ack_faults, fmt::format("{}\n", offset));
  RescheduleTimer();
}

void Replication::ApplyAck(Replica& replica, int64_t offset) {
  if (offset > replica.ack_offset) replica.ack_offset = offset;
  replica.ack_time_s = NowS();
}

int64_t Replication::CountAcks(int64_t offset) const {
  int64_t n = 0;
  for (const auto& r : replicas_) {
    if (r->state == Replica::State::kOnline && r->ack_offset >= offset) ++n;
  }
  return n;
}

int64_t Replication::GoodReplicas() const {
  int64_t now_s = NowS();
  int64_t n = 0;
  for (const auto& r : replicas_) {
    if (r->state == Replica::State::kOnline &&
        now_s - r->ack_time_s <= engine_.config().min_replicas_max_lag) {
      ++n;
    }
  }
  return n;
}

void Replication::RequestAcks() {
  // Sent once before the loop waits again, however many WAITs block meanwhile.
  getack_pending_ = true;
  RescheduleTimer();
}

void Replication::CheckWaitingClients() { engine_.blocking().ServeWaitingReplicas(); }

Replication::Replica& Replication::AttachReplica(engine::Client& client) {
  auto replica = std::make_unique<Replica>(&client);
  auto it = replconf_.find(client.id());
  if (it != replconf_.end()) {
    replica->listening_port = it->second.listening_port;
    replica->address = it->second.address;
    replica->capa_eof = it->second.capa_eof;
    replica->capa_psync2 = it->second.capa_psync2;
    replconf_.erase(it);
  }
  if (replica->address.empty()) replica->address = PeerIp(client);
  replica->ack_time_s = NowS();
  client.set_repl_role(engine::Client::ReplRole::kReplica);
  replicas_.push_back(std::move(replica));
  return *replicas_.back();
}

void Replication::OnSync(engine::Client& client, std::span<const std::string> args,
                         resp::ReplyWriter& reply) {
  if (FindReplica(client) != nullptr) return;  // already a replica: ignored
  bool psync = server::EqualsIgnoreCase(args[0], "psync");
  // A master handing over to us (FAILOVER): we become a master, then serve it as a replica.
  if (psync && args.size() > 3 && server::EqualsIgnoreCase(args[3], "failover")) {
    if (server::EqualsIgnoreCase(args[1], replid_)) {
      ReplicaOfNoOne();
      Log(false, "MASTER MODE enabled (failover request)");
    } else {
      reply.Error("PSYNC FAILOVER replid must match my replid.");
      return;
    }
  }
  if (failover_state_ != FailoverState::kNone) {
    reply.Error("-NOMASTERLINK Can't SYNC while failing over");
    return;
  }
  if (is_replica() && state_ != LinkState::kConnected) {
    reply.Error("-NOMASTERLINK Can't SYNC while not connected with my master");
    return;
  }
  if (!client.reply_buffer().empty() ||
      (client.io() != nullptr && client.io()->PendingOutputBytes() > 0)) {
    reply.Error("SYNC and PSYNC are invalid with pending output");
    return;
  }
  auto pending = replconf_.find(client.id());
  if (pending != replconf_.end() && pending->second.exclude_data && !pending->second.capa_eof) {
    reply.Error("Filtered replica requires EOF capability");
    return;
  }
  int64_t pending_port = 0;
  if (auto p = replconf_.find(client.id()); p != replconf_.end()) {
    pending_port = p->second.listening_port;
  }
  if (faults_.Cut(pending_port)) {
    // The network between us is down: the connection breaks before anything arrives.
    if (client.io() != nullptr) client.io()->CloseAsap();
    return;
  }
  if (psync) {
    int64_t offset = 0;
    if (!server::ParseInt64(args[2], &offset)) {
      reply.Error("value is not an integer or out of range");
      return;
    }
    if (TryPartialResync(client, args[1], offset)) {
      ++stats_.sync_partial_ok;
      return;
    }
    if (args[1] != "?") ++stats_.sync_partial_err;
  }
  FullResync(client, /*pre_psync=*/!psync);
}

bool Replication::TryPartialResync(engine::Client& client, std::string_view replid,
                                   int64_t offset) {
  // Our own history, or the one we inherited up to the point we took over (replid2).
  bool known = server::EqualsIgnoreCase(replid, replid_) ||
               (server::EqualsIgnoreCase(replid, replid2_) && offset <= second_repl_offset_);
  if (!known) {
    if (replid != "?") {
      Log(false,
          fmt::format(
              "Partial resynchronization not accepted: Replication ID mismatch (Replica asked for "
              "'{}', my replication IDs are '{}' and '{}')",
              replid, replid_, replid2_));
    }
    return false;
  }
  if (backlog_ == nullptr || !backlog_->Covers(offset)) return false;
  Replica& r = AttachReplica(client);
  std::string out = r.capa_psync2 ? "+CONTINUE " + replid_ + "\r\n" : "+CONTINUE\r\n";
  out += backlog_->CopyFrom(offset);
  SendToReplica(r, out);
  return true;
}

void Replication::FullResync(engine::Client& client, bool pre_psync) {
  ++stats_.sync_full;
  bool exclude_data = false;
  bool exclude_functions = false;
  if (auto it = replconf_.find(client.id()); it != replconf_.end()) {
    exclude_data = it->second.exclude_data;
    exclude_functions = it->second.exclude_functions;
  }
  Replica& r = AttachReplica(client);
  r.pre_psync = pre_psync;
  if (backlog_ == nullptr && replicas_.size() == 1) {
    // A backlog made from scratch starts a new history (no valid past to continue from).
    ChangeReplicationId();
    ClearReplicationId2();
    EnsureBacklog();
  }
  // The stream after the snapshot starts with a SELECT for every replica.
  encoder_.ForgetSelectedDb();
  rdb::RdbAux aux;
  aux.replid = replid_;
  aux.repl_offset = master_repl_offset_;
  aux.ctime_s = engine_.clock().NowMs() / 1000;
  aux.used_mem = static_cast<int64_t>(engine_.memory().Used());
  rdb::RdbWriteOptions options = engine_.rdb_write_options();
  options.include_functions = !exclude_functions;
  options.include_data = !exclude_data;
  std::string rdb = rdb::WriteRdb(engine_.keyspace(), aux, options);
  std::string out;
  if (!pre_psync) out = fmt::format("+FULLRESYNC {} {}\r\n", replid_, master_repl_offset_);
  out += fmt::format("${}\r\n", rdb.size());
  out += rdb;
  SendToReplica(r, out);
}

void Replication::SendToReplica(Replica& replica, std::string_view bytes) {
  if (replica.client->io() == nullptr) return;
  const LinkFaults& faults = faults_.For(LinkDirection::kToReplica, replica.listening_port);
  if (replica.shaper.PassThrough(faults)) {
    // Sent at the end of this loop iteration, with whatever else joins it (a REPLCONF GETACK
    // for a WAIT right after the write): one write, one wake-up of the replica, as Redis's
    // beforeSleep does.
    replica.client->reply_buffer().append(bytes);
    stats_.net_repl_output_bytes += bytes.size();
    replica.flush_pending = true;
    if (!flush_scheduled_) {
      flush_scheduled_ = true;
      RescheduleTimer();
    }
    return;
  }
  replica.shaper.Push(MonotonicMs(), faults, bytes);
  RescheduleTimer();
}

void Replication::FeedReplicas(std::string_view bytes) {
  if (backlog_ == nullptr || bytes.empty()) return;
  master_repl_offset_ += static_cast<int64_t>(bytes.size());
  backlog_->Append(bytes);
  for (auto& r : replicas_) SendToReplica(*r, bytes);
}

int64_t Replication::NextReplicaDueMs() const {
  int64_t next = -1;
  for (const auto& r : replicas_) {
    for (int64_t due :
         {r->shaper.NextDueMs(faults_.For(LinkDirection::kToReplica, r->listening_port)),
          r->acks.NextDueMs(faults_.For(LinkDirection::kToMaster, r->listening_port))}) {
      if (due >= 0 && (next < 0 || due < next)) next = due;
    }
  }
  return next;
}

void Replication::ReleaseReplicaStreams(int64_t now_ms) {
  bool acked = false;
  for (auto& r : replicas_) {
    std::string due;
    r->shaper.TakeDue(now_ms, faults_.For(LinkDirection::kToReplica, r->listening_port), &due);
    if (!due.empty()) {
      r->client->reply_buffer().append(due);
      stats_.net_repl_output_bytes += due.size();
      r->flush_pending = true;
    }
    std::string acks;
    r->acks.TakeDue(now_ms, faults_.For(LinkDirection::kToMaster, r->listening_port), &acks);
    if (!acks.empty()) {
      // Offsets only grow: the last ack that came in says it all.
      size_t start = acks.rfind('\n', acks.size() - 2);
      start = start == std::string::npos ? 0 : start + 1;
      int64_t offset = 0;
      if (server::ParseInt64(std::string_view(acks).substr(start, acks.size() - 1 - start),
                             &offset)) {
        ApplyAck(*r, offset);
        acked = true;
      }
    }
  }
  if (acked) {
    CheckWaitingClients();
    FailoverCron();
  }
}

void Replication::FlushReplicas() {
  flush_scheduled_ = false;
  for (auto& r : replicas_) {
    if (!r->flush_pending) continue;
    r->flush_pending = false;
    if (r->client->io() != nullptr) r->client->io()->RequestFlush();
  }
}

void Replication::DisconnectReplica(engine::Client& client) {
  auto it = std::find_if(replicas_.begin(), replicas_.end(),
                         [&](const auto& r) { return r->client == &client; });
  if (it == replicas_.end()) return;
  std::unique_ptr<Replica> gone = std::move(*it);
  replicas_.erase(it);
  gone->client->set_repl_role(engine::Client::ReplRole::kNone);
  if (gone->client->io() != nullptr) gone->client->io()->CloseAsap();
}

void Replication::DisconnectReplicas() {
  std::vector<std::unique_ptr<Replica>> gone = std::move(replicas_);
  replicas_.clear();
  for (auto& r : gone) {
    r->client->set_repl_role(engine::Client::ReplRole::kNone);
    if (r->client->io() != nullptr) r->client->io()->CloseAsap();
  }
}

void Replication::OnClientDestroyed(engine::Client& client) {
  replconf_.erase(client.id());
  if (&client == master_client_) {
    master_client_ = nullptr;
    return;
  }
  auto it = std::find_if(replicas_.begin(), replicas_.end(),
                         [&](const auto& r) { return r->client == &client; });
  if (it == replicas_.end()) return;
  // Bytes held for it by a fault are lost with the connection.
  replicas_.erase(it);
  if (failover_state_ == FailoverState::kWaitingForSync && replicas_.empty()) {
    AbortFailover("Replica disconnected");
  }
}

void Replication::ReplicaCron(int64_t now_s) {
  // Redis's replicationCron runs once a second and counts its runs; it pings when the count is a
  // multiple of repl-ping-replica-period (so a period raised to 3600 means no ping for an hour,
  // however recently a replica attached).
  bool new_second = now_s != last_cron_s_;
  last_cron_s_ = now_s;
  if (!new_second) return;
  int64_t loop = cron_loops_++;
  if (replicas_.empty()) return;
  const engine::ServerConfig& c = engine_.config();
  // A PING keeps replicas' timeouts from firing on an idle master (it moves the offset, as in
  // Redis). None while a FAILOVER waits for the offsets to match.
  if (!is_replica() && failover_state_ == FailoverState::kNone && c.repl_ping_replica_period > 0 &&
      loop % c.repl_ping_replica_period == 0) {
    static const std::vector<std::string> kPing = {"ping"};
    FeedCommand(kPing);
  }
  // Replicas silent for repl-timeout are dropped (those attached with SYNC never ack).
  std::vector<engine::Client*> timed_out;
  for (const auto& r : replicas_) {
    if (!r->pre_psync && now_s - r->ack_time_s > c.repl_timeout) timed_out.push_back(r->client);
  }
  for (engine::Client* client : timed_out) {
    Log(true, "Disconnecting timedout replica (streaming sync)");
    if (client->io() != nullptr) client->io()->CloseAsap();
  }
}

void Replication::AppendReplicaLines(int64_t now_s, std::string* out) const {
  int i = 0;
  for (const auto& r : replicas_) {
    std::string_view state = r->state == Replica::State::kOnline     ? "online"
                             : r->state == Replica::State::kSendBulk ? "send_bulk"
                                                                     : "wait_bgsave";
    *out += fmt::format("slave{}:ip={},port={},state={},offset={},lag={}\r\n", i++, r->address,
                        r->listening_port, state, r->ack_offset, now_s - r->ack_time_s);
  }
}

void Replication::AppendRoleReplicas(resp::ReplyWriter& reply) const {
  size_t online = 0;
  for (const auto& r : replicas_) online += r->state == Replica::State::kOnline;
  reply.ArrayHeader(online);
  for (const auto& r : replicas_) {
    if (r->state != Replica::State::kOnline) continue;
    reply.ArrayHeader(3);
    reply.Bulk(r->address);
    reply.Bulk(std::to_string(r->listening_port));
    reply.Bulk(std::to_string(r->ack_offset));
  }
}

}  // namespace redlab::server::replication
