// Running one request as Redis's processCommand and call() do: lookup, arity, the refusals
// (protected, auth, ACL, maxmemory, replication, subscribed state, stale data, busy script),
// pauses and transactions, then the call with its statistics, propagation and side effects.
#include <algorithm>

#include "server/base/monotonic.h"
#include "server/engine/core/context.h"
#include "server/engine/core/engine.h"
#include "server/engine/core/errors.h"
#include "server/engine/core/script_runner.h"

namespace redlab::server::engine {
namespace {

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
// master still has (logically expired ones included); while another client's runs, the TTLs it
// sets on a writable replica are remembered. Restored afterwards, as calls nest.
class MasterViewScope {
 public:
  MasterViewScope(Keyspace& ks, const Client& client)
      : ks_(ks), saved_(ks.master_view()), saved_client_(ks.client_command()) {
    bool master = client.repl_role() == Client::ReplRole::kMaster;
    ks_.set_master_view(master);
    ks_.set_client_command(!master);
  }
  ~MasterViewScope() {
    ks_.set_master_view(saved_);
    ks_.set_client_command(saved_client_);
  }

 private:
  Keyspace& ks_;
  bool saved_;
  bool saved_client_;
};

// Whether the command (with this invocation's `flags`), or for EXEC the queued commands, have
// `flag` (Redis's cmd_flags for EXEC are those of its queue).
bool CommandOrQueueHas(const Client& client, const Command& cmd, uint32_t flags, uint32_t flag) {
  if (flags & flag) return true;
  if (!cmd.has(kCmdRunsQueue)) return false;
  return std::any_of(client.multi().commands.begin(), client.multi().commands.end(),
                     [&](const Client::QueuedCommand& q) { return (q.flags & flag) != 0; });
}

// islocalClient: a unix socket client or a loopback peer. Clients without a connection
// (scripts, internal callers) count as local.
bool IsLocalClient(const Client& client) {
  if (client.io() == nullptr || client.io()->UnixSocket()) return true;
  std::string_view peer = client.io()->PeerAddress();
  std::string_view ip = peer.substr(0, peer.rfind(':'));
  return ip == "127.0.0.1" || ip == "::1";
}

}  // namespace

std::optional<std::string> Engine::ProtectedRefusal(const Command& cmd,
                                                    const Client& client) const {
  bool debug = cmd.name() == "debug";  // otherwise one of MODULE's subcommands
  const std::string& setting = debug ? config_.enable_debug_command : config_.enable_module_command;
  if (setting == "yes" || (setting == "local" && IsLocalClient(client))) return std::nullopt;
  std::string option = debug ? "enable-debug-command" : "enable-module-command";
  return std::string(debug ? "DEBUG" : "MODULE") + " command not allowed. If the " + option +
         " option is set to \"local\", you can run it from a local connection, otherwise you "
         "need to set this option in the configuration file, and then restart the server.";
}

bool Engine::AllowProtectedConfig(const Client& client) const {
  const std::string& setting = config_.enable_protected_configs;
  return setting == "yes" || (setting == "local" && IsLocalClient(client));
}

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
        (cmd.has(kCmdRunsQueue) &&
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

void Engine::Reject(Client& client, const Command* cmd, std::span<std::string> args,
                    resp::ReplyWriter& reply, std::string_view error) {
  if (cmd != nullptr) stats_.CountRejectedCall(*cmd);
  if (client.in_multi()) client.multi().aborted = true;
  if (cmd != nullptr && cmd->has(kCmdRunsQueue)) {
    // A refused EXEC discards the transaction and says why (execCommandAbort).
    client.multi() = Client::MultiState{};
    client.clear_dirty_cas();
    signals_.UnwatchAll(&client);
    if (!error.empty() && error[0] == '-') error.remove_prefix(1);
    reply.Error("-EXECABORT Transaction discarded because of: " + std::string(error));
    // MONITOR saw MULTI; it sees this EXEC too, so that the transaction visibly ends.
    if (diagnostics_.has_monitors()) diagnostics_.FeedMonitors(client, client.db(), args);
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
  if (cmd != nullptr && cmd->parent != nullptr && cmd->parent->has(kCmdKeepsCaching)) return;
  client.tracking().caching = false;
}

void ApplyReplyControl(Client& client, size_t reply_start) {
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
  reply.set_error_listener(&stats_);
  MasterViewScope master_view(keyspace_, client);

  const Command* cmd = commands_.Resolve(args);
  if (cmd == nullptr && host_ != nullptr && host_->ServesNodeCommands()) [[unlikely]]
    cmd = commands_.ResolveHidden(args);
  // CLIENT LIST's cmd=: the command last looked up, refused or not (Redis's c->lastcmd; EXEC
  // while the transaction runs).
  client.set_last_command(cmd);
  if (cmd == nullptr) {
    Reject(client, nullptr, args, reply, UnknownCommandError(commands_, args));
    return;
  }
  // (Reject also marks an open transaction as failed, as Redis's flagTransaction.)
  if (!cmd->ArityAccepts(args.size())) {
    Reject(client, cmd, args, reply, err::WrongArity(cmd->full_name));
    return;
  }
  const uint32_t flags = CommandFlags(*cmd, args);
  // Protected commands are refused unless configured, before authentication is even checked.
  if (cmd->has(kCmdProtected)) {
    if (std::optional<std::string> refusal = ProtectedRefusal(*cmd, client)) {
      Reject(client, cmd, args, reply, *refusal);
      return;
    }
  }
  if (!client.authenticated() && auth_.required() && !cmd->has(kCmdNoAuth)) {
    Reject(client, cmd, args, reply, err::kNoAuth);
    return;
  }
  if (client.in_multi() && cmd->has(kCmdNoMulti)) {
    Reject(client, cmd, args, reply, err::kNotInMulti);
    return;
  }
  // ACLs. A user allowed everything (the default user, usually) costs one test here.
  if (const acl::User* user = client.user(); user != nullptr && !user->unrestricted())
      [[unlikely]] {
    // FAULT and TOPOLOGY belong to no ACL category: only a user allowed every command, key
    // and channel may break the node.
    if (cmd->has(kCmdNodeControl)) {
      Reject(client, cmd, args, reply,
             "-NOPERM this user has no permissions to run the '" + cmd->full_name + "' command");
      return;
    }
    if (auto refusal = auth_.CommandRefusal(client, *cmd, args)) {
      Reject(client, cmd, args, reply, *refusal);
      return;
    }
  }
  // Over maxmemory, commands that may grow memory are refused once eviction cannot help (inside
  // MULTI every queued command is, as queueing grows memory too).
  if (config_.maxmemory > 0 && !script_busy()) {
    // (An EXEC is refused when it holds a command that may grow memory.)
    bool reject_on_oom = CommandOrQueueHas(client, *cmd, flags, kCmdDenyOom) ||
                         (client.in_multi() && !cmd->has(kCmdEndsMulti));
    if (!memory_.EnforceMaxmemory() && reject_on_oom) {
      Reject(client, cmd, args, reply, err::kOom);
      return;
    }
  }
  // Keep the memory of client-side caching within tracking-table-max-keys.
  messaging_.LimitTrackingTable();
  // NOREPLICAS, READONLY (processCommand's order: after the memory check).
  if (std::string_view refusal = ReplicationRefusal(client, *cmd, flags); !refusal.empty()) {
    Reject(client, cmd, args, reply, refusal);
    return;
  }
  // A RESP2 client with subscriptions may only manage them (RESP3 has no such limit).
  if (client.subscribed() && client.protocol() == 2) {
    if (!cmd->has(kCmdSubscribedContext)) {
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
  // While the AOF loads (a busy script in it lets clients in), only the AOF's own client runs
  // commands that may not run while loading.
  if (loading_ && client.repl_role() != Client::ReplRole::kMaster && !cmd->has(kCmdLoading))
      [[unlikely]] {
    Reject(client, cmd, args, reply, "-LOADING Redis is loading the dataset in memory");
    return;
  }
  if (script_busy() && !cmd->has(kCmdAllowBusy)) {
    Reject(client, cmd, args, reply, scripts_->BusyError());
    return;
  }
  // During CLIENT PAUSE the command waits (with its arguments) until the pause ends.
  // Replicas are never paused: their acks must keep flowing.
  if (!cmd->has(kCmdNodeControl) && blocking_.PauseHolds(client, *cmd, flags) &&
      client.repl_role() != Client::ReplRole::kReplica) {
    client.block().args.assign(args.begin(), args.end());
    blocking_.BlockClient(client, Client::BlockKind::kPostponed, 0);
    return;
  }
  if (client.in_multi()) {
    // Everything but the transaction's own commands is queued until EXEC.
    if (!cmd->has(kCmdNotQueued)) {
      client.multi().commands.push_back(
          {cmd, std::vector<std::string>(args.begin(), args.end()), flags});
      reply.Status("QUEUED");
      return;
    }
  }
  Call(client, *cmd, args, reply);
  // Keys the command created may serve blocked clients (a top-level command only: EXEC and EVAL
  // serve them once all of theirs ran).
  if (blocking_.has_ready_keys() && call_depth_ == 0) blocking_.HandleClientsBlockedOnKeys();
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
      if (auto refusal = auth_.QueuedRefusal(client, queued)) {
        reply.Error(*refusal);
        continue;
      }
    }
    Call(client, *queued.cmd, queued.args, reply);
  }
  client.set_deny_blocking(deny_blocking);
}

void Engine::Call(Client& client, const Command& cmd, std::span<std::string> args,
                  resp::ReplyWriter& reply, bool propagate) {
  stats_.BeginCall();
  uint64_t dirty_before = stats_.dirty();
  int64_t offset_before = replication_->master_repl_offset();
  int db = client.db();
  int64_t start = MonotonicUs();
  CommandContext ctx(*this, client, args, cmd, reply);
  ++call_depth_;
  cmd.spec->proc(ctx);
  --call_depth_;
  // A tracking client is remembered as holding what it read (scripts are handled by
  // CallFromScript: their reads track the keys they declared).
  if (client.tracking().on && cmd.has(kCmdReadonly)) [[unlikely]] {
    // The read-only script commands track through the commands their scripts run.
    if (!cmd.has(kCmdRunsScript)) messaging_.RememberTrackedKeys(client, cmd, args);
  }
  int64_t duration = MonotonicUs() - start;
  // As Redis's call(): a command that changed the dataset is propagated, as called or as it
  // rewrote itself.
  // (SAVE and DEBUG RELOAD reset the counter: a decrease is no change.)
  bool changed = stats_.dirty() > dirty_before || ctx.propagation_forced();
  if (propagate && propagation_.active() && changed && !ctx.propagation_prevented()) {
    if (ctx.rewritten_for_propagation()) {
      Propagate(db, std::move(*ctx.rewritten_for_propagation()));
    } else {
      Propagate(db, std::vector<std::string>(args.begin(), args.end()));
    }
  }
  if (call_depth_ == 0) {
    // A command's effects leave together, as a transaction; not those of a command that may
    // lazily expire any key, as Redis's propagatePendingCommands.
    propagation_.Flush(cmd.has(kCmdTouchesArbitraryKeys) ? EffectGrouping::kEach
                                                         : EffectGrouping::kTransaction);
    // WAIT waits for the stream up to this client's last write (Redis's c->woff).
    int64_t offset_after = replication_->master_repl_offset();
    if (offset_after != offset_before) client.set_write_offset(offset_after);
    // The client's own invalidations follow its reply, and a transaction's whole reply.
    messaging_.SendPendingInvalidations();
  }
  // A blocked command's latency is recorded when it is unblocked (updateStatsOnUnblock).
  const bool blocked = client.blocked();
  if (blocked) client.block().call_us = duration;
  stats_.RecordCall(cmd, duration, !blocked && config_.latency_tracking);
  // The slow log considers every command it may log (to trim itself), unless slowlog-log-
  // slower-than is negative; a blocked command is considered once it is unblocked.
  if (diagnostics_.SlowLogConsiders(duration) && !cmd.has(kCmdSkipSlowlog) && !blocked)
      [[unlikely]] {
    diagnostics_.LogSlowCommand(client, args, ctx.redacted(), duration);
  }
  diagnostics_.RecordLatency(cmd.has(kCmdFast) ? "fast-command" : "command", duration / 1000);
  // Administrative commands are too sensitive to be shown (and EVAL showed itself first).
  if (diagnostics_.has_monitors() && !cmd.has(kCmdSkipMonitor | kCmdAdmin)) [[unlikely]] {
    diagnostics_.FeedMonitors(client, client.db(), args, ctx.redacted());
  }
}

}  // namespace redlab::server::engine
