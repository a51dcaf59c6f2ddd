// The engine of one node: configuration, clock, keyspace, command table, clients and
// statistics, and Execute(), which runs one request the way Redis's processCommand and call()
// do (lookup, arity, auth, dispatch, stats). It never touches the network.
#pragma once

#include <cstdint>
#include <list>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "server/base/clock.h"
#include "server/command/command_table.h"
#include "server/data/keyspace.h"
#include "server/engine/commands/families.h"
#include "server/engine/config/config.h"
#include "server/engine/core/auth.h"
#include "server/engine/core/blocking.h"
#include "server/engine/core/client.h"
#include "server/engine/core/client_registry.h"
#include "server/engine/core/context.h"
#include "server/engine/core/debug_settings.h"
#include "server/engine/core/effects.h"
#include "server/engine/core/keyspace_signals.h"
#include "server/engine/core/memory.h"
#include "server/engine/core/migrate_sockets.h"
#include "server/engine/core/replication_role.h"
#include "server/engine/core/sync_link.h"
#include "server/engine/pubsub/messaging.h"
#include "server/engine/stats/diagnostics.h"
#include "server/engine/stats/server_stats.h"
#include "server/rdb/snapshot.h"
#include "server/rdb/value.h"
#include "server/resp/writer.h"

namespace redlab::server::engine {

// What the engine needs from the node hosting it.
class EngineHost {
 public:
  virtual ~EngineHost() = default;
  // SHUTDOWN: stop the node once the current request is done.
  virtual void RequestShutdown() = 0;
  // The port the node listens on (INFO tcp_port).
  virtual int TcpPort() const = 0;
  // CONFIG SET bind/port: listen on `bind` and `port` instead (connections stay). Returns false
  // when that fails, and then nothing listens until the next successful call.
  virtual bool Rebind(const std::string& /*bind*/, int /*port*/) { return true; }
  // Asks for Engine::OnTimer to be called once `delay_ms` milliseconds of the node's clock have
  // passed (blocked clients' timeouts, the end of a CLIENT PAUSE): the host converts them to
  // real time by the clock's rate. Later requests replace earlier ones.
  virtual void ScheduleTimer(int64_t delay_ms) = 0;
  // Serves other clients' pending input while a long command (a busy script) holds the event
  // loop, as Redis's processEventsWhileBlocked: their requests reach Execute as usual, and the
  // engine answers BUSY to those that cannot run now. Returns quickly when nothing is pending.
  virtual void ProcessEventsWhileBlocked() = 0;
  // Writes a line to the node's log at warning level (DEBUG LOG).
  virtual void LogWarning(std::string_view /*message*/) {}
  // A line for the node's log at Redis's level (0 debug, 1 verbose, 2 notice, 3 warning):
  // redis.log and slow scripts. The engine has already applied loglevel where Redis does.
  virtual void Log(int level, std::string_view message) {
    if (level >= 3) LogWarning(message);
  }
  // Asks for Engine::BeforeSleep to be called once the events being served are done, before
  // the loop waits again (Redis's beforeSleep).
  virtual void ScheduleBeforeSleep() {}
  // Runs FAULT or TOPOLOGY, the commands the node provides beyond Redis's (hidden entries of
  // the command table, kCmdNodeControl), once the engine has checked them as any command. Only
  // a host that overrides it makes them known: elsewhere they are unknown commands.
  virtual bool ServesNodeCommands() const { return false; }
  virtual void RunNodeCommand(Client& /*client*/, std::span<std::string> /*args*/,
                              resp::ReplyWriter& /*reply*/) {}
  // MIGRATE: a blocking connection to host:port made within timeout_ms, or nullptr (a host
  // without network, such as a unit test's, never connects).
  virtual std::unique_ptr<SyncLink> ConnectSync(const std::string& /*host*/, int /*port*/,
                                                int64_t /*timeout_ms*/) {
    return nullptr;
  }
};

// How a command called by a script (redis.call) is checked and run; see Engine::CallFromScript.
struct ScriptCall {
  // The client that ran the script, and its EVAL: a read by the script makes a tracking caller
  // remember the keys the script declared; the ACL log names it.
  Client* caller = nullptr;
  const Command* caller_cmd = nullptr;
  std::span<const std::string> caller_args;
  bool read_only = false;    // EVAL_RO, EVALSHA_RO or a no-writes script: writes are refused
  bool deny_oom = false;     // over maxmemory when the script started, and not allow-oom
  bool propagate = true;     // redis.set_repl: whether the script's writes reach replicas
  bool wrote = false;        // set once a write command was called (SCRIPT KILL refuses then)
  bool from_master = false;  // run by the master link: it may write on a read-only replica
};

class ScriptRunner;
class Persistence;
class Aof;

class CommandContext;

class Engine {
 public:
  // Makes the node's replication (server/replication/'s MakeReplication), once the engine it
  // serves is built.
  using ReplicationFactory = std::unique_ptr<ReplicationRole> (*)(Engine& engine);
  Engine(ServerConfig config, EngineHost* host, ReplicationFactory make_replication);
  ~Engine();
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  // Clients. The transport creates one per connection and destroys it when the connection ends.
  Client* CreateClient(ClientIo* io);
  void DestroyClient(Client* client);
  // The transport is closing `client`'s connection (CLIENT KILL, a disconnect): it stops waiting
  // at once, so nothing is served to it meanwhile, as Redis frees a client at once. Destroyed
  // later, when the connection is closed.
  void ClientClosing(Client& client);
  // Every client by id.
  const ClientRegistry& clients() const { return clients_; }
  // Whether another client would exceed maxclients (the transport refuses it then).
  bool AtClientLimit() const;

  // Runs one request from `client`; the reply is appended to its reply buffer.
  void Execute(Client& client, std::span<std::string> args);
  // The flags of this invocation of `cmd`: its description's, or what its flags_proc makes of
  // the arguments.
  uint32_t CommandFlags(const Command& cmd, std::span<const std::string> args);

  // Blocked clients, their timeouts, the keys they wait on, and CLIENT PAUSE.
  Blocking& blocking() { return blocking_; }
  const Blocking& blocking() const { return blocking_; }
  // Times out blocked clients whose deadline has passed and ends an expired pause; called by
  // the host's timer and after the node's clock moves.
  void OnTimer() { blocking_.OnTimer(); }

  // How many replicas have acknowledged the replication stream up to `offset` (WAIT).
  int64_t ReplicasAcked(int64_t offset) const;
  // Why a write must be refused now, from a client or a script (NOREPLICAS: fewer good replicas
  // than min-replicas-to-write; READONLY: a read-only replica, unless the write comes from its
  // master); empty when it may run.
  std::string_view WriteRefusal(bool from_master) const;
  static constexpr std::string_view kNoReplicas = "-NOREPLICAS Not enough good replicas to write.";
  // The replication offset after this client's last write (Redis's c->woff).
  int64_t ClientWriteOffset(const Client& client) const;
  // The node's replication: role, offsets, replicas, link to its master.
  ReplicationRole& replication() { return *replication_; }
  const ReplicationRole& replication() const { return *replication_; }

  // Background work, called every 1000/hz ms: active expiry, idle timeouts, statistics.
  void Cron();
  int64_t CronIntervalMs() const;

  Clock& clock() { return clock_; }
  Keyspace& keyspace() { return keyspace_; }
  // The configuration as CONFIG GET reads it; everything that changes it (CONFIG SET, the port
  // bound, REPLICAOF) goes through config_registry().
  const ServerConfig& config() const { return config_; }
  ConfigRegistry& config_registry() { return config_registry_; }
  const CommandTable& commands() const { return commands_; }
  // Applies the configuration's rename-command directives once, before the ACL users load (so
  // they name commands as Redis's ACL does, by their original names); a startup error otherwise.
  std::optional<std::string> RenameCommandsAtStartup();
  // The counters of INFO stats, commandstats and errorstats (read const; written by methods).
  Stats& stats() { return stats_; }
  const Stats& stats() const { return stats_; }
  EngineHost* host() { return host_; }

  const std::string& run_id() const { return run_id_; }
  int64_t start_time_ms() const { return start_time_ms_; }
  int64_t uptime_seconds() { return (clock_.NowMs() - start_time_ms_) / 1000; }

  // ACLs: the users, authentication, the ACL log and file.
  Auth& auth() { return auth_; }
  const Auth& auth() const { return auth_; }
  ListpackLimits hash_limits() const {
    return {static_cast<size_t>(config_.hash_max_listpack_entries),
            static_cast<size_t>(config_.hash_max_listpack_value)};
  }

  // Propagation of writes (see EffectSink); none is set when nothing replicates.
  Propagation& propagation() { return propagation_; }
  bool propagating() const { return propagation_.active(); }
  // The AOF takes the effects while it is on (aof.cc).
  void set_aof_feeding(bool on);
  // While the AOF loads: nothing propagates and no key expires (Redis's server.loading).
  void set_loading(bool on) {
    loading_ = on;
    keyspace_.set_loading(on);
    propagation_.set_suspended(on);
  }
  bool loading() const { return loading_; }
  // Adds an effect to those of the command running now (flushed to the sink when it ends).
  void Propagate(int db, std::vector<std::string> args) { propagation_.Add(db, std::move(args)); }

  // What happens when keys change, a database is flushed or two are swapped: WATCHes break,
  // caches are invalidated, blocked clients are served (keyspace_signals.h).
  KeyspaceSignals& signals() { return signals_; }
  // Pub/sub, client-side tracking and keyspace notifications (messaging.h).
  Messaging& messaging() { return messaging_; }
  const Messaging& messaging() const { return messaging_; }
  // The client whose request is being executed (Redis's server.current_client), if any, and
  // whether a command is running (inside call()).
  Client* current_client() const { return current_client_; }
  bool in_call() const { return call_depth_ > 0; }
  // Work left for the end of the loop iteration (see EngineHost::ScheduleBeforeSleep): the
  // BCAST invalidation messages, the eviction a lowered maxmemory asked for.
  void BeforeSleep();

  // Runs `serve` as a command of `client` (Blocking serving a ready key): `client` is the current
  // client meanwhile, inside call(), and what it propagates leaves as one unit afterwards.
  template <typename Serve>
  void RunAsCommand(Client& client, Serve&& serve) {
    Client* previous_client = current_client_;
    current_client_ = &client;
    ++call_depth_;
    serve();
    --call_depth_;
    current_client_ = previous_client;
    propagation_.Flush();
  }

  // Runs the queued commands of a transaction (EXEC); their effects leave as one unit.
  void ExecQueued(Client& client, resp::ReplyWriter& reply);

  // Runs a command a script called (redis.call), on the script's client, as Redis's scriptCall:
  // the command must exist with the right arity, be allowed in scripts, not write from a
  // read-only script, not grow memory over maxmemory before the script's first write. A refused
  // command returns Redis's error text (and counts as rejected); otherwise its reply, in the
  // client's protocol, is appended to *reply. Its effects join those of the script.
  std::optional<std::string> CallFromScript(Client& client, ScriptCall& call,
                                            std::span<std::string> args, std::string* reply);

  // EVAL scripting: the interpreter, the script cache and the running script (made on first use).
  // (These and CallFromScript are defined in script_runner.cc.)
  ScriptRunner& scripts();
  // A script runs past busy-reply-threshold: commands without allow-busy get BUSY.
  bool script_busy() const;

  // The slow log, the latency monitor and MONITOR clients.
  Diagnostics& diagnostics() { return diagnostics_; }

  // CONFIG RESETSTAT: zeroes command, error and keyspace statistics.
  void ResetStats();
  // Applies configuration that lives outside ServerConfig's readers (the keyspace's access
  // tracking); called at startup and after every CONFIG SET.
  void ConfigChanged();

  // What DEBUG changes, behind its named setters (debug_settings.h).
  DebugSettings& debug_settings() { return debug_settings_; }
  const DebugSettings& debug_settings() const { return debug_settings_; }
  // Whether enable-protected-configs lets `client` change protected parameters (dir...).
  bool AllowProtectedConfig(const Client& client) const;
  // How values are encoded and loaded (DUMP, RESTORE, snapshots), from the configuration.
  rdb::ValueOptions value_options() const;
  rdb::RdbWriteOptions rdb_write_options() const;
  // Snapshot files: SAVE, BGSAVE, DEBUG RELOAD, LASTSAVE, INFO persistence.
  Persistence& persistence() { return *persistence_; }
  // The append-only file (aof.h).
  Aof& aof() { return *aof_; }
  MigrateSockets& migrate_sockets() { return migrate_sockets_; }
  const MigrateSockets& migrate_sockets() const { return migrate_sockets_; }

  // Used, peak and startup memory, maxmemory and eviction, output-buffer limits (memory.h).
  Memory& memory() { return memory_; }
  const Memory& memory() const { return memory_; }

 private:
  // Why `client` may not run the protected command `cmd` (DEBUG, under enable-debug-command;
  // MODULE's LOAD, LOADEX and UNLOAD, under enable-module-command), or nullopt when it may.
  std::optional<std::string> ProtectedRefusal(const Command& cmd, const Client& client) const;
  void Reject(Client& client, const Command* cmd, std::span<std::string> args,
              resp::ReplyWriter& reply, std::string_view error);
  // Execute without CLIENT REPLY's handling of the reply.
  void ExecuteCommand(Client& client, std::span<std::string> args);
  // Redis's call(): runs the command and keeps statistics; its effects are propagated unless
  // `propagate` is false (a script under redis.set_repl(redis.REPL_NONE)).
  void Call(Client& client, const Command& cmd, std::span<std::string> args,
            resp::ReplyWriter& reply, bool propagate = true);
  void CloseIdleClients();
  void SampleOps();
  // Client-side caching around Call: the end of a CLIENT CACHING's reach.
  void EndTrackingCaching(Client& client, std::span<const std::string> args);

  ServerConfig config_;
  ConfigRegistry config_registry_;
  EngineHost* host_;
  Clock clock_;
  Keyspace keyspace_;
  CommandTable commands_;
  Auth auth_{*this, commands_};
  Stats stats_;
  Diagnostics diagnostics_{config_, clock_};
  ClientRegistry clients_;
  Messaging messaging_{*this, config_};
  Client* current_client_ = nullptr;
  Propagation propagation_;
  Blocking blocking_{*this};
  KeyspaceSignals signals_{*this};
  Memory memory_{*this, clients_};
  int call_depth_ = 0;  // > 0 while a command runs (EXEC and EVAL run others inside themselves)
  std::unique_ptr<ScriptRunner> scripts_;
  // Redis's processCommand checks that depend on replication; returns the error to reply, or
  // an empty view.
  std::string_view ReplicationRefusal(const Client& client, const Command& cmd,
                                      uint32_t flags) const;
  std::string_view StaleRefusal(const Client& client, const Command& cmd, uint32_t flags) const;
  std::unique_ptr<ReplicationRole> replication_;
  std::unique_ptr<Persistence> persistence_;
  std::unique_ptr<Aof> aof_;
  bool loading_ = false;
  MigrateSockets migrate_sockets_;
  DebugSettings debug_settings_;
  std::string run_id_;
  int64_t start_time_ms_;
};

// A client as one line of CLIENT LIST, without the newline (Redis's catClientInfoString; in
// cmd_client.cc).
std::string DescribeClient(Engine& engine, const Client& client);
inline void CommandContext::NotifyKeyspaceEvent(uint32_t type, std::string_view event,
                                                std::string_view key) {
  engine_.messaging().NotifyKeyspaceEvent(type, event, key, client_.db());
}

}  // namespace redlab::server::engine
