#include "server/engine/engine.h"

#include <algorithm>
#include <chrono>
#include <random>

#include "server/engine/context.h"
#include "server/engine/errors.h"
#include "server/engine/memory.h"
#include "server/engine/persistence.h"
#include "server/engine/script_runner.h"
#include "server/replication/replication.h"

namespace redlab::server::engine {
namespace {

int64_t SteadyUs() {
  return std::chrono::duration_cast<std::chrono::microseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

std::string RandomHex(size_t length) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::random_device rd;
  std::mt19937_64 gen((static_cast<uint64_t>(rd()) << 32) ^ rd());
  std::string out(length, '0');
  for (char& c : out) c = kHex[gen() & 0xf];
  return out;
}

// Redis's printf("%.128s") stops at a NUL byte as well as at the precision.
std::string_view CString(std::string_view s, size_t precision) {
  size_t nul = s.find('\0');
  if (nul != std::string_view::npos) s = s.substr(0, nul);
  return s.substr(0, precision);
}

// commandCheckExistence's text for an unknown command or subcommand.
std::string UnknownCommandError(const CommandTable& table, std::span<const std::string> args) {
  const Command* container = table.Find(args[0]);
  if (container != nullptr && !container->subcommands.empty()) {
    std::string upper(args[0]);
    for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return "unknown subcommand '" + std::string(CString(args[1], 128)) + "'. Try " +
           std::string(CString(upper, std::string::npos)) + " HELP.";
  }
  std::string list;
  for (size_t i = 1; i < args.size() && list.size() < 128; ++i) {
    std::string_view arg = CString(args[i], 128 - list.size());
    list += '\'';
    list += arg;
    list += "' ";
  }
  return "unknown command '" + std::string(CString(args[0], 128)) +
         "', with args beginning with: " + list;
}

// While the master client of a replica runs a command, the keyspace shows it the keys the
// master still has (logically expired ones included); restored afterwards, as calls nest.
class MasterViewScope {
 public:
  MasterViewScope(Keyspace& ks, const Client& client) : ks_(ks), saved_(ks.master_view()) {
    ks_.set_master_view(client.repl_role() == Client::ReplRole::kMaster);
  }
  ~MasterViewScope() { ks_.set_master_view(saved_); }

 private:
  Keyspace& ks_;
  bool saved_;
};

// Whether the command (with this invocation's `flags`), or for EXEC the queued commands, have
// `flag` (Redis's cmd_flags for EXEC are those of its queue).
bool CommandOrQueueHas(const Client& client, const Command& cmd, uint32_t flags, uint32_t flag) {
  if (flags & flag) return true;
  if (cmd.name() != "exec") return false;
  return std::any_of(client.multi().commands.begin(), client.multi().commands.end(),
                     [&](const Client::QueuedCommand& q) { return (q.flags & flag) != 0; });
}

// islocalClient: a loopback peer (redlab has no unix sockets). Clients without a connection
// (scripts, internal callers) count as local.
bool IsLocalClient(const Client& client) {
  if (client.io() == nullptr) return true;
  std::string_view peer = client.io()->PeerAddress();
  std::string_view ip = peer.substr(0, peer.rfind(':'));
  return ip == "127.0.0.1" || ip == "::1";
}

}  // namespace

bool Engine::AllowProtected(const Client& client) const {
  // Only DEBUG is protected in redlab (Redis also protects MODULE, which redlab lacks).
  const std::string& setting = config_.enable_debug_command;
  return setting == "yes" || (setting == "local" && IsLocalClient(client));
}

bool Engine::AllowProtectedConfig(const Client& client) const {
  const std::string& setting = config_.enable_protected_configs;
  return setting == "yes" || (setting == "local" && IsLocalClient(client));
}

Engine::Engine(ServerConfig config, EngineHost* host)
    : config_(std::move(config)),
      config_registry_(&config_),
      host_(host),
      keyspace_(&clock_, static_cast<int>(config_.databases)),
      run_id_(RandomHex(40)),
      start_time_ms_(clock_.NowMs()) {
  command_stats_.resize(commands_.total_ids());
  // requirepass is the default user's password (the `user` directives and aclfile, applied by
  // LoadAclAtStartup, come after it, as in Redis).
  acl_.SetDefaultPassword(config_.requirepass);
  keyspace_.set_expiry_listener(this);
  keyspace_.set_key_event_listener(this);
  replication_ = std::make_unique<replication::Replication>(*this);
  persistence_ = std::make_unique<Persistence>(*this);
  ConfigChanged();
}

void Engine::ConfigChanged() {
  AccessTracking tracking;
  tracking.lfu = config_.maxmemory_policy.find("lfu") != std::string::npos;
  tracking.lfu_log_factor = config_.lfu_log_factor;
  tracking.lfu_decay_time = config_.lfu_decay_time;
  keyspace_.set_access_tracking(tracking);
  ConfigureKeyspaceEvents();
}

rdb::ValueOptions Engine::value_options() const {
  return rdb::OptionsFromConfig(config_, debug_settings_.quicklist_packed_threshold);
}

replication::RdbWriteOptions Engine::rdb_write_options() const {
  replication::RdbWriteOptions options;
  options.values = value_options();
  options.save_lru = config_.maxmemory_policy.find("lru") != std::string::npos;
  options.save_lfu = config_.maxmemory_policy.find("lfu") != std::string::npos;
  options.checksum = config_.rdbchecksum;
  if (scripts_ != nullptr) {
    for (const auto& [name, library] : scripts_->functions().libraries()) {
      options.libraries.push_back(library->code);
    }
  }
  return options;
}

Engine::~Engine() = default;

Client* Engine::CreateClient(ClientIo* io) {
  uint64_t id = next_client_id_++;
  auto client = std::make_unique<Client>(id, io, clock_.NowMs());
  // As in Redis, a client starts as the default user, authenticated when that user needs no
  // password; it stays so if a password is configured later.
  client->set_user(&acl_.default_user());
  client->set_authenticated(!auth_required());
  Client* raw = client.get();
  clients_.emplace(id, std::move(client));
  ++stats_.total_connections_received;
  return raw;
}

int64_t Engine::ReplicasAcked(int64_t offset) const { return replication_->CountAcks(offset); }

int64_t Engine::ClientWriteOffset(const Client& client) const { return client.write_offset(); }

uint32_t Engine::CommandFlags(const Command& cmd, std::span<const std::string> args) {
  const uint32_t flags = cmd.spec->flags;
  return cmd.spec->flags_proc == nullptr ? flags : cmd.spec->flags_proc(*this, args, flags);
}

std::string_view Engine::ReplicationRefusal(const Client& client, const Command& cmd,
                                            uint32_t flags) const {
  if (!CommandOrQueueHas(client, cmd, flags, kCmdWrite)) return {};
  return WriteRefusal(client.repl_role() == Client::ReplRole::kMaster);
}

std::string_view Engine::WriteRefusal(bool from_master) const {
  // checkGoodReplicasStatus: only a master with both settings non-zero counts its replicas.
  if (!replication_->is_replica() && config_.min_replicas_to_write > 0 &&
      config_.min_replicas_max_lag > 0 &&
      replication_->GoodReplicas() < config_.min_replicas_to_write) {
    return kNoReplicas;
  }
  if (replication_->is_replica() && config_.replica_read_only && !from_master) {
    return "-READONLY You can't write against a read only replica.";
  }
  return {};
}

std::string_view Engine::StaleRefusal(const Client& client, const Command& cmd,
                                      uint32_t flags) const {
  if (replication_->is_replica() && !replication_->link_up() && !config_.replica_serve_stale_data &&
      client.repl_role() != Client::ReplRole::kMaster) {
    bool deny_stale =
        !(flags & kCmdStale) ||
        (cmd.name() == "exec" &&
         std::any_of(client.multi().commands.begin(), client.multi().commands.end(),
                     [](const Client::QueuedCommand& q) { return !(q.flags & kCmdStale); }));
    if (deny_stale) {
      return "-MASTERDOWN Link with MASTER is down and replica-serve-stale-data is set to 'no'.";
    }
  }
  // A replica may not use its connection to read or write the keyspace (it is exempt from
  // CLIENT PAUSE, which this would let it abuse).
  if ((client.repl_role() == Client::ReplRole::kReplica || client.monitor()) &&
      CommandOrQueueHas(client, cmd, flags, kCmdWrite | kCmdReadonly | kCmdMayReplicate)) {
    return "Replica can't interact with the keyspace";
  }
  return {};
}

void Engine::DestroyClient(Client* client) {
  if (client->blocked()) ReleaseBlock(*client);
  watches_.UnwatchAll(client);
  pubsub_.UnsubscribeAll(client);
  if (client->tracking().on) tracking_.Disable(*client);
  if (client->monitor()) std::erase(monitors_, client);
  replication_->OnClientDestroyed(*client);
  clients_.erase(client->id());
}

Client* Engine::FindClient(uint64_t id) {
  auto it = clients_.find(id);
  return it == clients_.end() ? nullptr : it->second.get();
}

bool Engine::AtClientLimit() const {
  return clients_.size() >= static_cast<size_t>(config_.maxclients);
}

void Engine::OnErrorReply(std::string_view text) {
  ++stats_.total_error_replies;
  std::string_view code = text.substr(0, text.find(' '));
  auto it = stats_.errors.find(code);
  if (it == stats_.errors.end()) {
    // Redis stops tracking new error codes past 128 of them (ERROR_STATS_NUMBER).
    if (stats_.errors.size() >= 128) return;
    it = stats_.errors.emplace(std::string(code), 0).first;
  }
  ++it->second;
}

void Engine::OnKeyExpired(Db& db, std::string_view key) {
  // deleteExpiredKeyAndPropagate's order: the event, then the invalidations.
  NotifyKeyspaceEvent(kNotifyExpired, "expired", key, db.id());
  SignalModifiedKey(db.id(), key);
  Propagate(db.id(), {"DEL", std::string(key)});
  // Outside a command (the active expire cycle) each expired key's DEL leaves on its own, as in
  // Redis; within one it joins the command's effects.
  if (call_depth_ == 0) FlushEffects();
}

void Engine::SignalModifiedKey(int db, std::string_view key, const Client* by) {
  if (!watches_.empty()) {
    watches_.Touch(db, key, [&] { return keyspace_.db(db).LookupQuiet(key) != nullptr; });
  }
  if (!tracking_.idle()) [[unlikely]] {
    tracking_.InvalidateKey(by, key, /*bcast=*/true);
  }
}

void Engine::SignalFlushed(int db) {
  tracking_.InvalidateAll();
  if (watches_.empty()) return;
  for (int i = 0; i < keyspace_.num_dbs(); ++i) {
    if (db != -1 && i != db) continue;
    Db& d = keyspace_.db(i);
    watches_.ForEachKey(i, [&](std::string_view key) {
      if (d.LookupQuiet(key) != nullptr) watches_.Touch(i, key, [] { return true; });
    });
  }
}

void Engine::SwapDatabases(int a, int b) {
  if (a == b) return;
  Db& first = keyspace_.db(a);
  Db& second = keyspace_.db(b);
  // Judged on the raw contents (logically expired keys are still there), before the swap.
  auto touch = [&](Db& emptied, Db& replaced_with) {
    watches_.ForEachKey(emptied.id(), [&](std::string_view key) {
      bool before = false, after = false, after_expired = false;
      emptied.ForEachMatching(key, [&](const Db::Node*) { before = true; });
      replaced_with.ForEachMatching(key, [&](const Db::Node* n) {
        after = true;
        after_expired = replaced_with.IsExpired(n);
      });
      watches_.TouchSwapped(emptied.id(), key, before, after, after_expired);
    });
  };
  if (!watches_.empty()) {
    touch(first, second);
    touch(second, first);
  }
  first.SwapContents(second);
  // Clients blocked on keys of either database are served (after SWAPDB) when the keys they wait
  // for now hold a value.
  if (blocked_clients() > 0) {
    blocked_keys_.ScanDatabase(first);
    blocked_keys_.ScanDatabase(second);
  }
}

void Engine::BeforeSleep() {
  tracking_.BroadcastInvalidations();
  if (eviction_pending_) RunPendingEviction();
}

void Engine::Propagate(int db, std::vector<std::string> args) {
  if (effect_sink_ == nullptr) return;
  pending_effects_.push_back(Effect{db, std::move(args)});
}

void Engine::FlushEffects() {
  if (pending_effects_.empty()) return;
  if (effect_sink_ != nullptr) effect_sink_->OnEffects(pending_effects_);
  pending_effects_.clear();
}

void Engine::Reject(Client& client, const Command* cmd, std::span<std::string> args,
                    resp::ReplyWriter& reply, std::string_view error) {
  if (cmd != nullptr) ++command_stats_[cmd->id].rejected_calls;
  if (client.in_multi()) client.multi().aborted = true;
  if (cmd != nullptr && cmd->name() == "exec") {
    // A refused EXEC discards the transaction and says why (execCommandAbort).
    client.multi() = Client::MultiState{};
    client.clear_dirty_cas();
    watches_.UnwatchAll(&client);
    if (!error.empty() && error[0] == '-') error.remove_prefix(1);
    reply.Error("-EXECABORT Transaction discarded because of: " + std::string(error));
    // MONITOR saw MULTI; it sees this EXEC too, so that the transaction visibly ends.
    if (!monitors_.empty()) FeedMonitors(client, client.db(), args);
    return;
  }
  reply.Error(error);
}

void Engine::Execute(Client& client, std::span<std::string> args) {
  size_t reply_start = client.reply_buffer().size();
  bool controlled = client.reply_controlled();
  if (controlled) [[unlikely]]
    client.pushed_ranges().clear();
  // Requests nest while a busy script lets other clients in.
  Client* previous_client = current_client_;
  current_client_ = &client;
  ExecuteCommand(client, args);
  current_client_ = previous_client;
  if (controlled || client.reply_controlled()) [[unlikely]]
    ApplyReplyControl(client, reply_start);
  if (client.tracking().caching) [[unlikely]]
    EndTrackingCaching(client, args);
}

void Engine::EndTrackingCaching(Client& client, std::span<const std::string> args) {
  // CLIENT CACHING applies to the next command, or to the whole transaction it precedes
  // (resetClient): any CLIENT subcommand, MULTI's queue and a blocked command keep it.
  if (client.in_multi() || client.blocked()) return;
  const Command* cmd = commands_.Resolve(args);
  if (cmd != nullptr && cmd->parent != nullptr && cmd->parent->name() == "client") return;
  client.tracking().caching = false;
}

void Engine::ApplyReplyControl(Client& client, size_t reply_start) {
  std::string& out = client.reply_buffer();
  if (client.replies_suppressed() && out.size() > reply_start) {
    // Only the pushes written meanwhile survive.
    std::string pushed;
    for (auto [from, to] : client.pushed_ranges()) {
      if (from >= reply_start && to <= out.size()) pushed.append(out, from, to - from);
    }
    out.resize(reply_start);
    out += pushed;
  }
  client.pushed_ranges().clear();
  // A blocked command is not done yet: its reply comes when it is unblocked (Redis resets the
  // client, and so moves SKIP on, only then).
  if (!client.blocked()) client.AdvanceReplySkip();
}

void Engine::ExecuteCommand(Client& client, std::span<std::string> args) {
  // Commands served while a busy script runs keep the script's instant: Redis freezes time for
  // the whole script, and expires keys by it.
  if (scripts_ == nullptr || !scripts_->running()) keyspace_.SnapshotTime();
  client.set_last_interaction_ms(keyspace_.now_ms());
  resp::ReplyWriter reply(&client.reply_buffer(), client.protocol());
  reply.set_error_listener(this);
  MasterViewScope master_view(keyspace_, client);

  const Command* cmd = commands_.Resolve(args);
  // CLIENT LIST's cmd=: the command last looked up, refused or not (Redis's c->lastcmd; EXEC
  // while the transaction runs).
  client.set_last_command(cmd);
  if (cmd == nullptr && host_ != nullptr && host_->ExecuteNodeCommand(client, args, reply)) return;
  if (cmd == nullptr) {
    Reject(client, nullptr, args, reply, UnknownCommandError(commands_, args));
    return;
  }
  // (Reject also marks an open transaction as failed, as Redis's flagTransaction.)
  int arity = cmd->arity();
  int argc = static_cast<int>(args.size());
  if ((arity > 0 && arity != argc) || argc < -arity) {
    Reject(client, cmd, args, reply,
           "wrong number of arguments for '" + cmd->full_name + "' command");
    return;
  }
  const uint32_t flags = CommandFlags(*cmd, args);
  // Protected commands are refused unless configured, before authentication is even checked.
  if (cmd->has(kCmdProtected) && !AllowProtected(client)) {
    Reject(client, cmd, args, reply,
           "DEBUG command not allowed. If the enable-debug-command option is set to \"local\", "
           "you can run it from a local connection, otherwise you need to set this option in the "
           "configuration file, and then restart the server.");
    return;
  }
  if (!client.authenticated() && auth_required() && !cmd->has(kCmdNoAuth)) {
    Reject(client, cmd, args, reply, err::kNoAuth);
    return;
  }
  if (client.in_multi() && cmd->has(kCmdNoMulti)) {
    Reject(client, cmd, args, reply, "Command not allowed inside a transaction");
    return;
  }
  // ACLs. A user allowed everything (the default user, usually) costs one test here.
  if (const acl::User* user = client.user(); user != nullptr && !user->unrestricted())
      [[unlikely]] {
    if (!AclPermits(client, *cmd, args, reply)) return;
  }
  // Over maxmemory, commands that may grow memory are refused once eviction cannot help (inside
  // MULTI every queued command is, as queueing grows memory too).
  if (config_.maxmemory > 0 && !script_busy()) {
    std::string_view name = cmd->name();
    // (An EXEC is refused when it holds a command that may grow memory.)
    bool reject_on_oom = CommandOrQueueHas(client, *cmd, flags, kCmdDenyOom) ||
                         (client.in_multi() && name != "exec" && name != "discard" &&
                          name != "quit" && name != "reset");
    if (!EnforceMaxmemory() && reject_on_oom) {
      Reject(client, cmd, args, reply, err::kOom);
      return;
    }
  }
  // Keep the memory of client-side caching within tracking-table-max-keys.
  if (tracking_.clients() > 0) [[unlikely]]
    tracking_.LimitUsedSlots();
  // NOREPLICAS, READONLY (processCommand's order: after the memory check).
  if (std::string_view refusal = ReplicationRefusal(client, *cmd, flags); !refusal.empty()) {
    Reject(client, cmd, args, reply, refusal);
    return;
  }
  // A RESP2 client with subscriptions may only manage them (RESP3 has no such limit).
  if (client.subscribed() && client.protocol() == 2) {
    std::string_view name = cmd->name();
    if (name != "ping" && name != "subscribe" && name != "ssubscribe" && name != "unsubscribe" &&
        name != "sunsubscribe" && name != "psubscribe" && name != "punsubscribe" &&
        name != "quit" && name != "reset") {
      Reject(client, cmd, args, reply,
             "Can't execute '" + cmd->full_name +
                 "': only (P|S)SUBSCRIBE / (P|S)UNSUBSCRIBE / PING / QUIT / RESET are allowed in "
                 "this context");
      return;
    }
  }
  // MASTERDOWN on a replica cut from its master (replica-serve-stale-data no).
  if (std::string_view refusal = StaleRefusal(client, *cmd, flags); !refusal.empty()) {
    Reject(client, cmd, args, reply, refusal);
    return;
  }
  if (script_busy() && !cmd->has(kCmdAllowBusy)) {
    Reject(client, cmd, args, reply, scripts_->BusyError());
    return;
  }
  // During CLIENT PAUSE the command waits (with its arguments) until the pause ends.
  // Replicas are never paused: their acks must keep flowing.
  if (client.repl_role() != Client::ReplRole::kReplica &&
      (PauseApplies(flags) ||
       (pause_end_ms_ != 0 && cmd->name() == "exec" && pause_writes_only_ &&
        std::any_of(client.multi().commands.begin(), client.multi().commands.end(),
                    [](const Client::QueuedCommand& q) {
                      return (q.flags & (kCmdWrite | kCmdMayReplicate)) != 0;
                    })))) {
    client.block().args.assign(args.begin(), args.end());
    BlockClient(client, Client::BlockKind::kPostponed, 0);
    return;
  }
  if (client.in_multi()) {
    // Everything but the transaction's own commands is queued until EXEC.
    std::string_view name = cmd->name();
    if (name != "exec" && name != "discard" && name != "multi" && name != "watch" &&
        name != "quit" && name != "reset") {
      client.multi().commands.push_back(
          {cmd, std::vector<std::string>(args.begin(), args.end()), flags});
      reply.Status("QUEUED");
      return;
    }
  }
  Call(client, *cmd, args, reply);
  // Keys the command created may serve blocked clients (a top-level command only: EXEC and EVAL
  // serve them once all of theirs ran).
  if (blocked_keys_.has_ready() && call_depth_ == 0) HandleClientsBlockedOnKeys();
}

void Engine::ExecQueued(Client& client, resp::ReplyWriter& reply) {
  std::vector<Client::QueuedCommand> commands = std::move(client.multi().commands);
  reply.ArrayHeader(commands.size());
  // Commands inside EXEC must answer at once, never block (Redis's CLIENT_DENY_BLOCKING).
  const bool deny_blocking = client.deny_blocking();
  client.set_deny_blocking(true);
  // The whole transaction runs at one instant (Redis keeps the cached time within EXEC).
  for (auto& queued : commands) {
    // The rules may have changed since the command was queued: they are checked again.
    if (const acl::User* user = client.user(); user != nullptr && !user->unrestricted()) {
      if (!AclPermitsQueued(client, queued, reply)) continue;
    }
    Call(client, *queued.cmd, queued.args, reply);
  }
  client.set_deny_blocking(deny_blocking);
}

void Engine::Call(Client& client, const Command& cmd, std::span<std::string> args,
                  resp::ReplyWriter& reply, bool propagate) {
  uint64_t errors_before = stats_.total_error_replies;
  uint64_t dirty_before = stats_.dirty;
  int64_t offset_before = replication_->master_repl_offset();
  int db = client.db();
  int64_t start = SteadyUs();
  CommandContext ctx(*this, client, args, cmd, reply);
  ++call_depth_;
  cmd.spec->proc(ctx);
  --call_depth_;
  // A tracking client is remembered as holding what it read (scripts are handled by
  // CallFromScript: their reads track the keys they declared).
  if (client.tracking().on && cmd.has(kCmdReadonly)) [[unlikely]] {
    // The read-only script commands track through the commands their scripts run.
    std::string_view name = cmd.name();
    if (name != "eval_ro" && name != "evalsha_ro" && name != "fcall_ro") {
      RememberTrackedKeys(client, cmd, args);
    }
  }
  int64_t duration = SteadyUs() - start;
  // As Redis's call(): a command that changed the dataset is propagated, as called or as it
  // rewrote itself.
  // (SAVE and DEBUG RELOAD reset the counter: a decrease is no change.)
  bool changed = stats_.dirty > dirty_before || ctx.propagation_forced();
  if (propagate && effect_sink_ != nullptr && changed && !ctx.propagation_prevented()) {
    if (ctx.rewritten_for_propagation()) {
      Propagate(db, std::move(*ctx.rewritten_for_propagation()));
    } else {
      Propagate(db, std::vector<std::string>(args.begin(), args.end()));
    }
  }
  if (call_depth_ == 0) {
    FlushEffects();  // a transaction's effects leave together
    // WAIT waits for the stream up to this client's last write (Redis's c->woff).
    int64_t offset_after = replication_->master_repl_offset();
    if (offset_after != offset_before) client.set_write_offset(offset_after);
    // The client's own invalidations follow its reply, and a transaction's whole reply.
    if (tracking_.has_pending()) tracking_.SendPending();
  }
  CommandStats& cs = command_stats_[cmd.id];
  ++cs.calls;
  cs.usec += static_cast<uint64_t>(duration);
  if (config_.latency_tracking) cs.latency.Record(duration);
  if (stats_.total_error_replies != errors_before) ++cs.failed_calls;
  ++stats_.total_commands_processed;
  // The slow log considers every command it may log (to trim itself), unless slowlog-log-
  // slower-than is negative; a blocked command is considered once it is unblocked.
  int64_t slower_than = config_.slowlog_log_slower_than;
  if (slower_than >= 0 && !cmd.has(kCmdSkipSlowlog) &&
      (duration >= slower_than || slowlog_.size() > static_cast<size_t>(config_.slowlog_max_len)) &&
      !client.blocked()) [[unlikely]] {
    LogSlowCommand(client, args, ctx.redacted(), duration);
  }
  RecordLatency(cmd.has(kCmdFast) ? "fast-command" : "command", duration / 1000);
  // Administrative commands are too sensitive to be shown (and EVAL showed itself first).
  if (!monitors_.empty() && !cmd.has(kCmdSkipMonitor | kCmdAdmin)) [[unlikely]] {
    FeedMonitors(client, client.db(), args, ctx.redacted());
  }
}

void Engine::RememberTrackedKeys(Client& client, const Command& cmd,
                                 std::span<const std::string> args) {
  if (client.tracking().bcast) return;  // BCAST clients follow prefixes, not keys
  tracking_.RememberKeys(client, cmd, args);
}

int64_t Engine::CronIntervalMs() const {
  int64_t hz = config_.hz < 1 ? 1 : config_.hz;
  return 1000 / hz;
}

void Engine::Cron() {
  if (debug_settings_.pause_cron) return;  // DEBUG PAUSE-CRON 1, as Redis's serverCron
  // Redis's slow expire cycle takes up to 25% of each cron period.
  int64_t budget_us = CronIntervalMs() * 1000 * 25 / 100;
  int64_t expire_start = SteadyUs();
  keyspace_.ActiveExpireCycle(budget_us);
  RecordLatency("expire-cycle", (SteadyUs() - expire_start) / 1000);
  FlushEffects();
  // Keys made ready outside any command (a replica loading a snapshot) are served here, as in
  // Redis's beforeSleep.
  if (blocked_keys_.has_ready() && call_depth_ == 0) HandleClientsBlockedOnKeys();
  replication_->Cron();
  persistence_->Cron();
  // Even when idle, get under a tracking-table-max-keys lowered by CONFIG SET.
  if (tracking_.clients() > 0) tracking_.LimitUsedSlots();
  CloseIdleClients();
  SampleOps();
}

void Engine::CloseIdleClients() {
  if (config_.timeout <= 0) return;
  int64_t now = clock_.NowMs();
  for (auto& [id, client] : clients_) {
    // A blocked client is waiting on purpose (BLPOP's own timeout is what ends it).
    if (client->io() == nullptr || client->blocked()) continue;
    if (now - client->last_interaction_ms() > config_.timeout * 1000) client->io()->CloseAsap();
  }
}

void Engine::SampleOps() {
  int64_t now = clock_.NowMs();
  const replication::ReplicationStats& repl = replication_->stats();
  stats_.ops.Track(stats_.total_commands_processed, now);
  stats_.net_input.Track(stats_.total_net_input_bytes, now);
  stats_.net_output.Track(stats_.total_net_output_bytes, now);
  stats_.net_repl_input.Track(repl.net_repl_input_bytes, now);
  stats_.net_repl_output.Track(repl.net_repl_output_bytes, now);
}

bool Engine::OutputBufferLimitReached(Client& client, size_t pending) {
  const auto& limit = config_.output_limits[client.subscribed() ? ServerConfig::kPubsubClass
                                                                : ServerConfig::kNormalClass];
  int64_t bytes = static_cast<int64_t>(pending);
  if (limit.hard > 0 && bytes >= limit.hard) return true;
  if (limit.soft > 0 && bytes >= limit.soft) {
    int64_t now = clock_.NowMs();
    if (client.output_soft_limit_since_ms == 0) {
      client.output_soft_limit_since_ms = now;
      return false;
    }
    return now - client.output_soft_limit_since_ms > limit.soft_seconds * 1000;
  }
  client.output_soft_limit_since_ms = 0;
  return false;
}

void Engine::ResetStats() {
  for (CommandStats& cs : command_stats_) cs = CommandStats{};
  uint64_t dirty = stats_.dirty;
  stats_ = ServerStats{};
  stats_.dirty = dirty;
  keyspace_.stats() = KeyspaceStats{};
}

size_t Engine::UsedMemory() const {
  int64_t used = ThreadAllocatedBytes();
  size_t bytes = used > 0 ? static_cast<size_t>(used) : 0;
  if (bytes > peak_memory_) peak_memory_ = bytes;
  return bytes;
}

}  // namespace redlab::server::engine
