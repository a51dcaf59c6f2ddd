#include "server/engine/core/engine.h"

#include <algorithm>

#include "server/base/hex.h"
#include "server/base/monotonic.h"
#include "server/engine/core/aof.h"
#include "server/engine/core/context.h"
#include "server/engine/core/errors.h"
#include "server/engine/core/help.h"
#include "server/engine/core/persistence.h"
#include "server/engine/core/script_runner.h"
#include "server/resp/arg_list.h"
#include "server/resp/parser.h"

namespace redlab::server::engine {

Engine::Engine(ServerConfig config, EngineHost* host, ReplicationFactory make_replication)
    : config_(std::move(config)),
      config_registry_(&config_),
      host_(host),
      keyspace_(&clock_, static_cast<int>(config_.databases)),
      commands_(config_.command_registrar ? config_.command_registrar : RegisterCommands),
      stats_(commands_.total_ids()),
      run_id_(RandomHex(40)),
      start_time_ms_(clock_.NowMs()) {
  // requirepass is the default user's password (the `user` directives and aclfile, applied by
  // LoadAclAtStartup, come after it, as in Redis).
  auth_.acl().SetDefaultPassword(config_.requirepass);
  keyspace_.set_expiry_listener(&signals_);
  keyspace_.set_key_event_listener(&signals_);
  replication_ = make_replication(*this);
  persistence_ = std::make_unique<Persistence>(*this);
  aof_ = std::make_unique<Aof>(*this);
  ConfigChanged();
}

std::optional<std::string> Engine::RenameCommandsAtStartup() {
  for (const std::string& line : config_.renamed_commands) {
    resp::ArgList args;
    std::optional<std::string> error;
    if (!resp::SplitInlineArgs(line, &args) || args.size() != 2) {
      error = "Bad directive or wrong number of arguments";
    } else {
      error = commands_.Rename(args[0], args[1]);
    }
    if (error) {
      return "*** FATAL CONFIG FILE ERROR (Redis " + std::string(kRedisVersion) +
             ") ***\n>>> 'rename-command " + line + "'\n" + *error;
    }
  }
  return std::nullopt;
}

void Engine::ConfigChanged() {
  AccessTracking tracking;
  tracking.lfu = config_.maxmemory_policy.find("lfu") != std::string::npos;
  tracking.lfu_log_factor = config_.lfu_log_factor;
  tracking.lfu_decay_time = config_.lfu_decay_time;
  keyspace_.set_access_tracking(tracking);
  keyspace_.set_replica_writable(!config_.replica_read_only);
  signals_.ConfigureKeyEvents(config_.notify_keyspace_events);
}

rdb::ValueOptions Engine::value_options() const {
  rdb::ValueOptions o;
  o.hash = hash_limits();
  o.zset = {static_cast<size_t>(config_.zset_max_listpack_entries),
            static_cast<size_t>(config_.zset_max_listpack_value)};
  o.set_max_intset_entries = static_cast<size_t>(config_.set_max_intset_entries);
  o.list_fill = rdb::ClampListFill(config_.list_max_listpack_size);
  o.list_packed_threshold = debug_settings_.quicklist_packed_threshold();
  o.compress = config_.rdbcompression;
  return o;
}

rdb::RdbWriteOptions Engine::rdb_write_options() const {
  rdb::RdbWriteOptions options;
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
  Client* client = clients_.Add(io, clock_.NowMs());
  // As in Redis, a client starts as the default user, authenticated when that user needs no
  // password; it stays so if a password is configured later.
  client->set_user(&auth_.acl().default_user());
  client->set_authenticated(!auth_.required());
  stats_.CountConnection();
  return client;
}

int64_t Engine::ReplicasAcked(int64_t offset) const { return replication_->CountAcks(offset); }

int64_t Engine::ClientWriteOffset(const Client& client) const { return client.write_offset(); }

void Engine::DestroyClient(Client* client) {
  blocking_.Forget(*client);
  signals_.UnwatchAll(client);
  messaging_.ForgetClient(*client);
  diagnostics_.RemoveMonitor(*client);
  replication_->OnClientDestroyed(*client);
  clients_.Remove(client->id());
}

bool Engine::AtClientLimit() const {
  return clients_.size() >= static_cast<size_t>(config_.maxclients);
}

void Engine::ClientClosing(Client& client) { blocking_.Forget(client); }

void Engine::BeforeSleep() {
  messaging_.BroadcastInvalidations();
  memory_.RunPendingEviction();
}

int64_t Engine::CronIntervalMs() const {
  int64_t hz = config_.hz < 1 ? 1 : config_.hz;
  return 1000 / hz;
}

void Engine::Cron() {
  if (debug_settings_.pause_cron()) return;  // DEBUG PAUSE-CRON 1, as Redis's serverCron
  // Redis's slow expire cycle takes up to 25% of each cron period.
  int64_t budget_us = CronIntervalMs() * 1000 * 25 / 100;
  int64_t expire_start = MonotonicUs();
  // databasesCron: a master's active expiry, or a replica's of its own clients' keys.
  if (keyspace_.replica()) {
    keyspace_.ExpireReplicaOwnKeys();
  } else {
    keyspace_.ActiveExpireCycle(budget_us);
  }
  diagnostics_.RecordLatency("expire-cycle", (MonotonicUs() - expire_start) / 1000);
  propagation_.Flush(EffectGrouping::kEach);
  // Keys made ready outside any command (a replica loading a snapshot) are served here, as in
  // Redis's beforeSleep.
  if (blocking_.has_ready_keys() && call_depth_ == 0) blocking_.HandleClientsBlockedOnKeys();
  replication_->Cron();
  persistence_->Cron();
  aof_->Cron();
  migrate_sockets_.CloseTimedOut(clock_.NowMs() / 1000);
  // Even when idle, get under a tracking-table-max-keys lowered by CONFIG SET.
  messaging_.LimitTrackingTable();
  CloseIdleClients();
  memory_.TrackExpensiveClients();
  SampleOps();
}

void Engine::CloseIdleClients() {
  if (config_.timeout <= 0) return;
  int64_t now = clock_.NowMs();
  for (const auto& [id, client] : clients_) {
    // A blocked client is waiting on purpose (BLPOP's own timeout is what ends it).
    if (client->io() == nullptr || client->blocked()) continue;
    if (now - client->last_interaction_ms() > config_.timeout * 1000) client->io()->CloseAsap();
  }
}

void Engine::SampleOps() {
  int64_t now = clock_.NowMs();
  const ReplicationStats& repl = replication_->stats();
  stats_.Sample(now, repl.net_repl_input_bytes, repl.net_repl_output_bytes);
}

void Engine::ResetStats() {
  stats_.Reset();
  keyspace_.stats() = KeyspaceStats{};
}

void Engine::set_aof_feeding(bool on) { propagation_.set_log(on ? aof_.get() : nullptr); }

}  // namespace redlab::server::engine
