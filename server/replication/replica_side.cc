// The replica side of replication: connecting to the master, Redis's handshake (PING, AUTH,
// REPLCONF listening-port and capa, PSYNC), receiving and loading the snapshot of a full resync
// ("$<len>" or "$EOF:<mark>" framed), then applying the stream through the master client,
// acknowledging it (REPLCONF ACK) and passing it on to our own replicas and backlog.
#include <fmt/format.h>

#include "server/base/monotonic.h"
#include "server/base/text.h"
#include "server/engine/core/script_runner.h"
#include "server/rdb/snapshot.h"
#include "server/replication/replication.h"

namespace redlab::server::replication {
namespace {

// Steps of the handshake: which reply we wait for.
enum HandshakeStep { kPingReply = 1, kAuthReply, kPortReply, kIpReply, kCapaReply, kPsyncReply };

// The engine's view of the connection to our master. Replies to the master's stream go nowhere
// (Redis never answers its master, except the REPLCONF ACKs it sends on its own).
class MasterClientIo : public engine::ClientIo {
 public:
  MasterClientIo(Replication* repl, std::string peer) : repl_(repl), peer_(std::move(peer)) {}
  std::string_view PeerAddress() const override { return peer_; }
  std::string_view LocalAddress() const override { return {}; }
  int Fd() const override { return -1; }
  void RequestFlush() override {
    if (engine::Client* c = repl_->master_client()) c->reply_buffer().clear();
  }
  void CloseAsap() override { repl_->KillMasterClient(); }
  void ResumeInput() override { repl_->ResumeMasterStream(); }
  size_t QueryBufferLength() const override { return 0; }
  size_t QueryBufferFree() const override { return 0; }
  size_t PendingOutputBytes() const override { return 0; }

 private:
  Replication* repl_;
  std::string peer_;
};

// Takes one line ending in "\n" (a "\r" before it is dropped) from `buf` at *pos.
bool TakeLine(const std::string& buf, size_t* pos, std::string* line) {
  size_t nl = buf.find('\n', *pos);
  if (nl == std::string::npos) return false;
  size_t end = nl;
  if (end > *pos && buf[end - 1] == '\r') --end;
  line->assign(buf, *pos, end - *pos);
  *pos = nl + 1;
  return true;
}

std::vector<std::string> SplitWords(const std::string& line) {
  std::vector<std::string> out;
  size_t i = 0;
  while (i < line.size()) {
    size_t j = line.find(' ', i);
    if (j == std::string::npos) j = line.size();
    if (j > i) out.push_back(line.substr(i, j - i));
    i = j + 1;
  }
  return out;
}

std::string Encode(std::initializer_list<std::string_view> args) {
  std::string out;
  StreamEncoder::AppendCommand(args, &out);
  return out;
}

}  // namespace

void Replication::Connect() {
  if (crashed_ || !is_replica() || host_ == nullptr || link_ != nullptr) return;
  last_connect_ms_ = MonotonicMs();
  if (faults_.Cut(engine_.config().port)) {  // the master cannot be reached
    state_ = LinkState::kConnect;
    return;
  }
  link_in_.clear();
  link_pos_ = feed_pos_ = 0;
  inbound_.Clear();
  outbound_.Clear();
  handshake_step_ = 0;
  payload_started_ = false;
  payload_.clear();
  eof_mark_.clear();
  state_ = LinkState::kConnecting;
  last_io_s_ = NowS();
  Log(false, fmt::format("Connecting to MASTER {}:{}", master_host_, master_port_));
  link_ = host_->ConnectToMaster(master_host_, master_port_, this);
  if (link_ == nullptr) state_ = LinkState::kConnect;
}

void Replication::DropLink(bool reconnect_later) {
  if (link_ != nullptr) {
    link_->Close();
    link_ = nullptr;
  }
  FreeMasterClient();
  inbound_.Clear();
  outbound_.Clear();
  link_in_.clear();
  link_pos_ = feed_pos_ = 0;
  pending_applied_ = postponed_bytes_ = 0;  // a postponed command dies with its master client
  payload_.clear();
  payload_started_ = false;
  bool was_up = state_ == LinkState::kConnected;
  if (was_up) {
    down_since_s_ = NowS();
    // A link that worked is tried again at the next cron tick; failed attempts once a second.
    last_connect_ms_ = 0;
  }
  state_ = is_replica() ? LinkState::kConnect : LinkState::kNone;
  if (was_up) StateChanged();  // published once the link is down
  (void)reconnect_later;       // LinkCron reconnects a replica once a second
}

void Replication::KillMasterClient() {
  // Called from inside the master client's own command (CLIENT KILL): dropped on the next timer.
  drop_link_pending_ = true;
  if (host_ != nullptr) host_->ScheduleReplicationTimer(0);
}

void Replication::OnLinkConnected() {
  state_ = LinkState::kHandshake;
  handshake_step_ = kPingReply;
  last_io_s_ = NowS();
  SendToMaster(Encode({"PING"}));
}

void Replication::OnLinkClosed() {
  link_ = nullptr;  // the transport frees it
  if (state_ == LinkState::kConnected) {
    Log(true, "Connection with master lost.");
  } else if (state_ == LinkState::kConnecting) {
    Log(true, "Error condition on socket for SYNC: Connection refused");
  }
  DropLink(/*reconnect_later=*/true);
  if (failover_state_ == FailoverState::kInProgress) {
    AbortFailover("Failover target rejected psync request");
  }
}

void Replication::OnLinkData(std::string_view bytes) {
  stats_.net_repl_input_bytes += bytes.size();
  const LinkFaults& in_faults = OwnLinkFaults(LinkDirection::kToReplica);
  if (inbound_.PassThrough(in_faults)) {
    // Only what gets through counts as heard from the master: a link held longer than
    // repl-timeout times out, as a real stalled one does.
    last_io_s_ = NowS();
    link_in_.append(bytes);
    ProcessLinkInput();
  } else {
    inbound_.Push(MonotonicMs(), in_faults, bytes);
    RescheduleTimer();
  }
}

void Replication::ProcessLinkInput() {
  while (link_ != nullptr) {
    if (state_ == LinkState::kHandshake) {
      if (!HandshakeStep()) return;
    } else if (state_ == LinkState::kTransfer) {
      if (!ReadPayload()) return;
    } else if (state_ == LinkState::kConnected) {
      ApplyStream();
      return;
    } else {
      return;
    }
  }
}

bool Replication::HandshakeStep() {
  std::string line;
  if (!TakeLine(link_in_, &link_pos_, &line)) return false;
  const engine::ServerConfig& c = engine_.config();
  switch (handshake_step_) {
    case kPingReply:
      // An auth error is fine here: AUTH comes next.
      if (!line.empty() && line[0] == '-' && line.rfind("-NOAUTH", 0) != 0 &&
          line.rfind("-NOPERM", 0) != 0 && line.rfind("-ERR operation not permitted", 0) != 0) {
        Log(true, "Error reply to PING from master: '" + line + "'");
        DropLink(true);
        return false;
      }
      {
        // Redis sends these together and then reads the replies in order.
        std::string out;
        if (!c.masterauth.empty()) {
          if (c.masteruser.empty()) {
            StreamEncoder::AppendCommand({"AUTH", c.masterauth}, &out);
          } else {
            StreamEncoder::AppendCommand({"AUTH", c.masteruser, c.masterauth}, &out);
          }
        }
        // replica-announce-port and -ip stand for this node's own address when set.
        int64_t port = c.replica_announce_port != 0 ? c.replica_announce_port
                       : engine_.host()             ? engine_.host()->TcpPort()
                                                    : 0;
        StreamEncoder::AppendCommand({"REPLCONF", "listening-port", std::to_string(port)}, &out);
        announced_ip_ = !c.replica_announce_ip.empty();
        if (announced_ip_) {
          StreamEncoder::AppendCommand({"REPLCONF", "ip-address", c.replica_announce_ip}, &out);
        }
        StreamEncoder::AppendCommand({"REPLCONF", "capa", "eof", "capa", "psync2"}, &out);
        SendToMaster(out);
        handshake_step_ = c.masterauth.empty() ? kPortReply : kAuthReply;
      }
      return true;
    case kAuthReply:
      if (!line.empty() && line[0] == '-') {
        Log(true, "Unable to AUTH to MASTER: " + line);
        DropLink(true);
        return false;
      }
      handshake_step_ = kPortReply;
      return true;
    case kPortReply:  // errors here and to ip-address are only logged, as Redis does
      handshake_step_ = announced_ip_ ? kIpReply : kCapaReply;
      return true;
    case kIpReply:
      handshake_step_ = kCapaReply;
      return true;
    case kCapaReply: {
      handshake_step_ = kPsyncReply;
      if (fresh_sync_) {
        psync_replid_ = "?";
        psync_offset_ = -1;
      } else {
        psync_replid_ = replid_;
        psync_offset_ = reploff_ + 1;
      }
      std::string offset = std::to_string(psync_offset_);
      if (failover_state_ == FailoverState::kInProgress) {
        SendToMaster(Encode({"PSYNC", psync_replid_, offset, "FAILOVER"}));
      } else {
        SendToMaster(Encode({"PSYNC", psync_replid_, offset}));
      }
      return true;
    }
    case kPsyncReply:
      break;
    default:
      return false;
  }
  // The reply to PSYNC. Empty lines are the master's keepalives while it prepares.
  if (line.empty()) return true;
  if (line.rfind("+FULLRESYNC", 0) == 0) {
    auto parts = SplitWords(line);
    if (parts.size() < 3) {
      DropLink(true);
      return false;
    }
    full_sync_replid_ = parts[1];
    full_sync_offset_ = std::atoll(parts[2].c_str());
    Log(false, fmt::format("Full resync from master: {}:{}", full_sync_replid_, full_sync_offset_));
    state_ = LinkState::kTransfer;
    payload_started_ = false;
    payload_.clear();
    eof_mark_.clear();
    if (failover_state_ == FailoverState::kInProgress) ClearFailoverState();
    return true;
  }
  if (line.rfind("+CONTINUE", 0) == 0) {
    std::string new_id = line.size() > 10 ? line.substr(10) : std::string();
    if (!new_id.empty() && !server::EqualsIgnoreCase(new_id, replid_)) {
      // The master has a new history that continues ours: keep ours as ID2.
      replid2_ = replid_;
      second_repl_offset_ = master_repl_offset_ + 1;
      replid_ = new_id;
      DisconnectReplicas();
    }
    Log(false, "Successful partial resynchronization with master.");
    fresh_sync_ = false;
    if (failover_state_ == FailoverState::kInProgress) ClearFailoverState();
    EnsureBacklog();
    StartStreaming();
    return true;
  }
  Log(true, "Unexpected reply to PSYNC from master: " + line);
  DropLink(true);
  if (failover_state_ == FailoverState::kInProgress) {
    AbortFailover("Failover target rejected psync request");
  }
  return false;
}

bool Replication::ReadPayload() {
  if (!payload_started_) {
    std::string line;
    if (!TakeLine(link_in_, &link_pos_, &line)) return false;
    if (line.empty()) return true;  // keepalive newline
    if (line[0] == '-') {
      Log(true, "MASTER aborted replication with an error: " + line.substr(1));
      DropLink(true);
      return false;
    }
    if (line[0] != '$') {
      Log(true, "Bad protocol from MASTER, the first byte is not '$' (we received '" + line + "')");
      DropLink(true);
      return false;
    }
    if (line.rfind("$EOF:", 0) == 0 && line.size() == 5 + 40) {
      eof_mark_ = line.substr(5);
    } else {
      payload_left_ = std::atoll(line.c_str() + 1);
    }
    payload_started_ = true;
  }
  std::string_view avail(link_in_.data() + link_pos_, link_in_.size() - link_pos_);
  if (eof_mark_.empty()) {
    size_t n = std::min<size_t>(avail.size(), static_cast<size_t>(payload_left_));
    payload_.append(avail.substr(0, n));
    link_pos_ += n;
    payload_left_ -= static_cast<int64_t>(n);
    if (payload_left_ > 0) return false;
  } else {
    payload_.append(avail);
    link_pos_ += avail.size();
    if (payload_.size() < eof_mark_.size() ||
        payload_.compare(payload_.size() - eof_mark_.size(), eof_mark_.size(), eof_mark_) != 0) {
      return false;
    }
    payload_.resize(payload_.size() - eof_mark_.size());
  }
  std::string rdb = std::move(payload_);
  payload_.clear();
  FinishFullSync(rdb);
  return link_ != nullptr;
}

std::optional<std::string> ReplaceDataset(engine::Engine& engine, std::string_view rdb,
                                          const rdb::RdbReadOptions& options, rdb::RdbAux* aux,
                                          bool drop_expired) {
  engine.signals().Flushed(-1);
  server::Keyspace& ks = engine.keyspace();
  ks.FlushAll();
  scripting::FunctionLibraries& functions = engine.scripts().functions();
  functions.Clear();
  int64_t now = ks.clock().NowMs();
  return rdb::ReadRdb(
      rdb, options, aux,
      [&](rdb::RdbKey&& k) {
        if (k.db < 0 || k.db >= ks.num_dbs()) return;
        if (drop_expired && k.expire_ms != server::kNoExpire && k.expire_ms < now) return;
        server::Db& db = ks.db(k.db);
        server::Db::Node* node = db.SetLoaded(k.key, std::move(k.value));
        if (k.expire_ms != server::kNoExpire) db.SetExpire(node, k.expire_ms);
        if (k.idle_seconds >= 0) ks.SetIdle(node->value, k.idle_seconds);
        if (k.freq >= 0) ks.SetFreq(node->value, static_cast<uint8_t>(k.freq));
      },
      [&](std::string&& code) -> std::optional<std::string> {
        std::string error;
        if (!functions.Create(code, /*replace=*/false, /*timeout_ms=*/0, &error)) return error;
        return std::nullopt;
      });
}

void Replication::FinishFullSync(std::string_view rdb) {
  // Our replicas and backlog belong to the old history.
  DisconnectReplicas();
  backlog_.reset();
  // The master's keys and function libraries replace ours.
  rdb::RdbAux aux;
  rdb::RdbReadOptions options{engine_.value_options(),
                              !engine_.debug_settings().skip_checksum_validation()};
  auto error = ReplaceDataset(engine_, rdb, options, &aux, /*drop_expired=*/false);
  if (error) {
    Log(true, "Failed trying to load the MASTER synchronization DB from socket: " + *error);
    DropLink(true);
    return;
  }
  // After a full resync we are on the master's history; the secondary ID is gone.
  replid_ = full_sync_replid_;
  ClearReplicationId2();
  master_repl_offset_ = full_sync_offset_;
  reploff_ = read_reploff_ = full_sync_offset_;
  fresh_sync_ = false;
  EnsureBacklog();
  StartStreaming();
  if (master_client_ != nullptr) master_client_->set_db(aux.repl_stream_db);
  Log(false, "MASTER <-> REPLICA sync: Finished with success");
  // Tell the master at once that we are in sync (Redis does this after a diskless load).
  SendAck();
}

void Replication::StartStreaming() {
  state_ = LinkState::kConnected;
  down_since_s_ = 0;
  StateChanged();
  CreateMasterClient();
  // Whatever followed the PSYNC reply or the snapshot is stream.
  link_in_.erase(0, link_pos_);
  link_pos_ = feed_pos_ = 0;
  pending_applied_ = postponed_bytes_ = 0;
}

void Replication::CreateMasterClient() {
  FreeMasterClient();
  master_client_io_ =
      std::make_unique<MasterClientIo>(this, master_host_ + ":" + std::to_string(master_port_));
  master_client_ = engine_.CreateClient(master_client_io_.get());
  master_client_->set_repl_role(engine::Client::ReplRole::kMaster);
  master_client_->set_authenticated(true);
  master_client_->set_user(nullptr);  // the master's stream runs whatever the ACLs say

  parser_.Reset();
  args_.Clear();
  command_bytes_ = 0;
}

void Replication::FreeMasterClient() {
  if (master_client_ != nullptr) {
    engine::Client* c = master_client_;
    master_client_ = nullptr;
    engine_.DestroyClient(c);
  }
  master_client_io_.reset();
}

void Replication::ResumeMasterStream() {
  if (!applying_ && state_ == LinkState::kConnected) ApplyStream();
}

void Replication::ApplyStream() {
  if (applying_ || master_client_ == nullptr) return;
  applying_ = true;
  if (postponed_bytes_ > 0 && !master_client_->blocked()) {
    CommandApplied(postponed_bytes_);
    postponed_bytes_ = 0;
  }
  resp::ParseLimits limits;
  limits.proto_max_bulk_len = engine_.config().proto_max_bulk_len;
  while (master_client_ != nullptr && !master_client_->blocked() && link_pos_ < link_in_.size()) {
    size_t consumed = 0;
    std::string_view input(link_in_.data() + link_pos_, link_in_.size() - link_pos_);
    resp::ParseStatus status = parser_.Parse(input, limits, &consumed, &args_);
    link_pos_ += consumed;
    command_bytes_ += static_cast<int64_t>(consumed);
    if (status == resp::ParseStatus::kNeedMore) break;
    if (status == resp::ParseStatus::kError) {
      Log(true, "Protocol error from MASTER: " + parser_.error());
      applying_ = false;
      DropLink(true);
      return;
    }
    int64_t bytes = command_bytes_;
    command_bytes_ = 0;
    if (!args_.empty()) {
      engine_.Execute(*master_client_, args_.span());
      if (master_client_ == nullptr) break;
      master_client_->reply_buffer().clear();
      if (master_client_->blocked()) {  // postponed by a pause: it has not run yet
        postponed_bytes_ = bytes;
        break;
      }
    }
    CommandApplied(bytes);
  }
  read_reploff_ = reploff_ + static_cast<int64_t>(link_in_.size() - feed_pos_);
  if (feed_pos_ > 64 * 1024 || feed_pos_ == link_in_.size()) {
    link_in_.erase(0, feed_pos_);
    link_pos_ -= feed_pos_;
    feed_pos_ = 0;
  }
  applying_ = false;
}

void Replication::CommandApplied(int64_t bytes) {
  // Redis's commandProcessed: the offset moves once a command is fully applied; a
  // transaction's commands count at EXEC.
  pending_applied_ += bytes;
  if (master_client_->in_multi()) return;
  reploff_ += pending_applied_;
  pending_applied_ = 0;
  // Everything parsed up to the command's end (the transaction's, at EXEC) goes on.
  FeedReplicas(std::string_view(link_in_.data() + feed_pos_, link_pos_ - feed_pos_));
  feed_pos_ = link_pos_;
}

void Replication::OnGetAck(engine::Client& client) {
  if (&client == master_client_) SendAck();
}

void Replication::SendToMaster(std::string_view bytes) {
  if (link_ == nullptr) return;
  const LinkFaults& out_faults = OwnLinkFaults(LinkDirection::kToMaster);
  if (outbound_.PassThrough(out_faults)) {
    link_->Write(bytes);
    return;
  }
  // Our replication faults act on both directions of the link: the acks a WAIT or
  // min-replicas-max-lag waits for are held or late like the stream.
  outbound_.Push(MonotonicMs(), out_faults, bytes);
  RescheduleTimer();
}

void Replication::SendAck() {
  if (link_ == nullptr || state_ != LinkState::kConnected) return;
  last_ack_ms_ = MonotonicMs();
  SendToMaster(Encode({"REPLCONF", "ACK", std::to_string(reploff_)}));
}

void Replication::LinkCron(int64_t now_s) {
  if (drop_link_pending_) {
    drop_link_pending_ = false;
    DropLink(true);
  }
  int64_t timeout = engine_.config().repl_timeout;
  switch (state_) {
    case LinkState::kConnect:
      if (MonotonicMs() - last_connect_ms_ >= 1000) Connect();
      break;
    case LinkState::kConnecting:
    case LinkState::kHandshake:
    case LinkState::kTransfer:
      if (now_s - last_io_s_ > timeout) {
        Log(true, "Timeout connecting to the MASTER...");
        DropLink(true);
      }
      break;
    case LinkState::kConnected:
      if (now_s - last_io_s_ > timeout) {
        Log(true, "MASTER timeout: no data nor PING received...");
        DropLink(true);
      } else if (MonotonicMs() - last_ack_ms_ >= 1000) {
        SendAck();
      }
      break;
    case LinkState::kNone:
      break;
  }
}

}  // namespace redlab::server::replication
