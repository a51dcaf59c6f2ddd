// A node's configuration: every parameter of redis-server 7.0.15, under Redis's names and with
// Redis's defaults, bounds and CONFIG SET error texts. Each is described once in config_params.cc.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace redlab::server {
class CommandTable;
}

namespace redlab::server::engine {

struct ServerConfig {
  // The commands this node serves: null for a Redis server's (RegisterCommands); a sentinel
  // passes its own table's registrar (server/sentinel/).
  void (*command_registrar)(CommandTable& table) = nullptr;
  bool sentinel_mode = false;  // a sentinel: HELLO says mode "sentinel" and no role
  // The absolute path of the file the node was started with (INFO's config_file), which
  // CONFIG REWRITE rewrites; empty without one. Not a CONFIG parameter.
  std::string config_file;
  std::string bind = "* -::*";  // Redis's default (every interface); see NodeOptions::bind
  int64_t port = 6379;
  std::string requirepass;  // empty: no password (the default user's password; see acl/acl.h)
  std::string aclfile;      // ACL LOAD/SAVE's file, relative to `dir`; empty: none (immutable)
  int64_t acllog_max_len = 128;
  // Whether new users may use every channel ("allchannels") or none ("resetchannels").
  std::string acl_pubsub_default = "resetchannels";
  // `user` directives given at startup, each "<name> <rule> ..." as a redis.conf line; not a
  // CONFIG parameter.
  std::vector<std::string> users;
  // `rename-command` directives, each "<command> <new name>" as a redis.conf line (an empty new
  // name removes the command); applied once at startup, not a CONFIG parameter.
  std::vector<std::string> renamed_commands;
  int64_t maxclients = 10000;
  int64_t timeout = 0;  // idle seconds before closing; 0 = never
  int64_t databases = 16;
  int64_t hz = 10;  // background task frequency
  std::string loglevel = "notice";
  int64_t maxmemory = 0;  // bytes; 0 = no limit
  std::string maxmemory_policy = "noeviction";
  int64_t proto_max_bulk_len = 512LL * 1024 * 1024;
  int64_t client_query_buffer_limit = 1024LL * 1024 * 1024;
  int64_t busy_reply_threshold = 5000;  // ms; alias lua-time-limit
  // Debian's redis-server 7.0.15 (a backported security fix): scripts keep getfenv, setfenv and
  // newproxy. Hidden, startup only.
  bool lua_enable_deprecated_api = false;
  int64_t hash_max_listpack_entries = 512;
  int64_t hash_max_listpack_value = 64;
  int64_t set_max_intset_entries = 512;
  int64_t zset_max_listpack_entries = 128;
  int64_t zset_max_listpack_value = 64;
  int64_t list_max_listpack_size = -2;
  int64_t list_compress_depth = 0;
  int64_t min_replicas_to_write = 0;
  int64_t min_replicas_max_lag = 10;
  bool replica_read_only = true;
  bool replica_serve_stale_data = true;
  int64_t repl_backlog_size = 1024 * 1024;
  int64_t repl_timeout = 60;              // seconds
  int64_t repl_ping_replica_period = 10;  // seconds
  std::string masterauth;                 // AUTH sent to the master, if any
  std::string masteruser;
  int64_t repl_diskless_sync_delay = 5;  // accepted; redlab sends at once
  bool repl_diskless_sync = true;        // accepted; redlab sends "$<len>" framing
  uint32_t notify_keyspace_events = 0;   // NotifyClass flags (notify.h); 0: no notifications
  int64_t tcp_keepalive = 300;
  int64_t tcp_backlog = 511;
  int64_t active_expire_effort = 1;
  bool lazyfree_lazy_user_del = false;
  bool lazyfree_lazy_user_flush = false;
  bool appendonly = false;  // accepted for harnesses; redlab keeps no append-only file
  // Save points ("<seconds> <changes>"...). Empty by default: a test server writes snapshots
  // only when told (SAVE, BGSAVE, DEBUG RELOAD).
  std::string save;
  std::string dir = ".";  // where snapshots go (redlab does not chdir: nodes share a process)
  std::string dbfilename = "dump.rdb";
  bool rdbcompression = true;  // LZF for strings longer than 20 bytes in snapshots and DUMP
  bool rdbchecksum = true;     // the CRC64 at the end of snapshots
  std::string sanitize_dump_payload = "no";
  int64_t lfu_log_factor = 10;
  int64_t lfu_decay_time = 1;      // minutes per decrement of an LFU counter
  int64_t rdb_key_save_delay = 0;  // accepted; a snapshot is serialised at once
  std::string appendfilename = "appendonly.aof";
  std::string appenddirname = "appendonlydir";
  bool aof_use_rdb_preamble = true;
  int64_t slowlog_log_slower_than = 10000;
  int64_t slowlog_max_len = 128;
  int64_t latency_monitor_threshold = 0;
  bool latency_tracking = true;               // per-command latency histograms (LATENCY HISTOGRAM)
  int64_t tracking_table_max_keys = 1000000;  // client-side caching's key table; 0 = no limit
  // Who may run DEBUG: "no" (nobody, Redis's default), "yes", or "local" (loopback clients).
  // Settable at startup only in Redis; redlab also takes it from CONFIG SET, which is how
  // embedded nodes receive their settings.
  std::string enable_debug_command = "no";
  // Who may change protected parameters (dir, dbfilename) at runtime: "no", "yes" or "local".
  std::string enable_protected_configs = "no";
  // client-output-buffer-limit, by client class: a client whose pending replies pass `hard`
  // bytes, or stay above `soft` for `soft_seconds`, is disconnected (0 = no limit).
  struct OutputLimit {
    int64_t hard = 0;
    int64_t soft = 0;
    int64_t soft_seconds = 0;
  };
  enum OutputClass { kNormalClass = 0, kReplicaClass = 1, kPubsubClass = 2 };
  OutputLimit output_limits[3] = {{0, 0, 0},
                                  {256LL * 1024 * 1024, 64LL * 1024 * 1024, 60},
                                  {32LL * 1024 * 1024, 8LL * 1024 * 1024, 60}};
  // The master this node follows, "host port", or empty: Redis's replicaof. The replication
  // layer keeps it current (REPLICAOF, FAILOVER); CONFIG SET cannot change it (immutable).
  std::string replicaof;
  int64_t replica_priority = 100;        // INFO replication's slave_priority
  bool replica_announced = true;         // INFO replication's replica_announced
  std::string replica_announce_ip;       // sent as REPLCONF ip-address when not empty
  int64_t replica_announce_port = 0;     // REPLCONF listening-port; 0: the port bound
  int64_t maxmemory_samples = 5;         // keys sampled per eviction (LRU, LFU, TTL)
  bool replica_ignore_maxmemory = true;  // a replica evicts nothing unless this is "no"
  std::vector<double> latency_tracking_info_percentiles = {50, 99, 99.9};

  // Parameters redlab stores and reports with Redis's defaults and validation but which change
  // nothing here: the process (daemonize, logging, affinity), cluster, TLS, AOF, active defrag,
  // lazy freeing, memory internals and the encodings of types redlab lacks (streams, HLL).
  bool daemonize = false;
  bool io_threads_do_reads = false;
  bool always_show_logo = false;
  bool protected_mode = true;
  bool rdb_del_sync_files = false;
  bool activerehashing = true;
  bool stop_writes_on_bgsave_error = true;
  bool set_proc_title = true;
  bool dynamic_hz = true;
  bool lazyfree_lazy_eviction = false;
  bool lazyfree_lazy_expire = false;
  bool lazyfree_lazy_server_del = false;
  bool repl_disable_tcp_nodelay = false;
  bool aof_rewrite_incremental_fsync = true;
  bool no_appendfsync_on_rewrite = false;
  bool cluster_require_full_coverage = true;
  bool rdb_save_incremental_fsync = true;
  bool aof_load_truncated = true;
  bool aof_timestamp_enabled = false;
  bool cluster_replica_no_failover = false;
  bool replica_lazy_flush = false;
  bool jemalloc_bg_thread = true;
  bool activedefrag = false;
  bool syslog_enabled = false;
  bool cluster_enabled = false;
  bool cluster_allow_reads_when_down = false;
  bool cluster_allow_pubsubshard_when_down = true;
  bool crash_log_enabled = true;
  bool crash_memcheck_enabled = true;
  bool use_exit_on_panic = false;
  bool disable_thp = true;
  bool cluster_allow_replica_migration = true;
  bool aof_disable_auto_gc = false;
  bool replica_ignore_disk_write_errors = false;
  bool tls_cluster = false;
  bool tls_replication = false;
  bool tls_prefer_server_ciphers = false;
  bool tls_session_caching = true;
  std::string unixsocket;
  std::string pidfile;
  std::string cluster_announce_ip;
  std::string cluster_config_file = "nodes.conf";
  std::string cluster_announce_hostname;
  std::string syslog_ident = "redis";
  std::string server_cpulist;
  std::string bio_cpulist;
  std::string aof_rewrite_cpulist;
  std::string bgsave_cpulist;
  std::string ignore_warnings;
  std::string proc_title_template = "{title} {listen-addr} {server-mode}";
  std::string bind_source_addr;
  std::string logfile;  // empty: the log goes to stdout
  std::string tls_cert_file;
  std::string tls_key_file;
  std::string tls_key_file_pass;
  std::string tls_client_cert_file;
  std::string tls_client_key_file;
  std::string tls_client_key_file_pass;
  std::string tls_dh_params_file;
  std::string tls_ca_cert_file;
  std::string tls_ca_cert_dir;
  std::string tls_protocols;
  std::string tls_ciphers;
  std::string tls_ciphersuites;
  std::string supervised = "no";
  std::string syslog_facility = "local0";
  std::string repl_diskless_load = "disabled";
  std::string appendfsync = "everysec";
  std::string oom_score_adj = "no";
  std::string enable_module_command = "no";
  std::string cluster_preferred_endpoint_type = "ip";
  std::string propagation_error_behavior = "ignore";
  std::string tls_auth_clients = "yes";
  int64_t shutdown_on_sigint = 0;  // Redis's SHUTDOWN_* flags: save 1, nosave 2, now 4, force 8
  int64_t shutdown_on_sigterm = 0;
  int64_t io_threads = 1;
  int64_t auto_aof_rewrite_percentage = 100;
  int64_t cluster_replica_validity_factor = 10;
  int64_t cluster_migration_barrier = 1;
  int64_t active_defrag_cycle_min = 1;
  int64_t active_defrag_cycle_max = 25;
  int64_t active_defrag_threshold_lower = 10;
  int64_t active_defrag_threshold_upper = 100;
  int64_t maxmemory_eviction_tenacity = 10;
  int64_t cluster_port = 0;
  int64_t cluster_announce_bus_port = 0;
  int64_t cluster_announce_port = 0;
  int64_t cluster_announce_tls_port = 0;
  int64_t key_load_delay = 0;
  int64_t watchdog_period = 0;
  int64_t shutdown_timeout = 10;
  int64_t repl_diskless_sync_max_replicas = 0;
  int64_t unixsocketperm = 0;
  int64_t socket_mark_id = 0;
  int64_t active_defrag_max_scan_fields = 1000;
  int64_t cluster_node_timeout = 15000;
  int64_t stream_node_max_entries = 100;
  int64_t cluster_link_sendbuf_limit = 0;
  int64_t active_defrag_ignore_bytes = 100LL << 20;
  int64_t stream_node_max_bytes = 4096;
  int64_t hll_sparse_max_bytes = 3000;
  int64_t maxmemory_clients = 0;  // bytes, or a percentage of maxmemory stored negated (-10: 10%)
  int64_t repl_backlog_ttl = 3600;
  int64_t auto_aof_rewrite_min_size = 64LL * 1024 * 1024;
  int64_t loading_process_events_interval_bytes = 2LL * 1024 * 1024;
  int64_t tls_port = 0;
  int64_t tls_session_cache_size = 20 * 1024;
  int64_t tls_session_cache_timeout = 300;
  int64_t oom_score_adj_values[3] = {0, 200, 800};
};

class ConfigRegistry {
 public:
  explicit ConfigRegistry(ServerConfig* config) : config_(config) {}

  // CONFIG GET: every (name, value) pair whose name or alias matches one of the glob patterns,
  // each parameter once, under the name that matched.
  std::vector<std::pair<std::string, std::string>> Get(
      const std::vector<std::string_view>& patterns) const;

  // CONFIG SET of name/value pairs, all or nothing. On failure returns Redis's error text
  // (without "ERR ") and changes nothing. At startup (`startup`), immutable parameters are
  // settable too, as in redis.conf or on redis-server's command line.
  // Protected parameters need `allow_protected` (enable-protected-configs) after startup.
  std::optional<std::string> Set(
      const std::vector<std::pair<std::string_view, std::string_view>>& pairs, bool startup = false,
      bool allow_protected = false);

  // Whether the parameter's values are secrets (requirepass, masterauth, masteruser): CONFIG SET
  // hides them from SLOWLOG and MONITOR.
  static bool IsSensitive(std::string_view name);

  // The writes that are not CONFIG SET's: the port the node bound (CONFIG GET port gives it when
  // 0 asked for any), REPLICAOF's "host port" (empty for a master) for CONFIG GET replicaof, and
  // CONFIG SET's rollback when the new listening address cannot be bound.
  void SetBoundPort(int64_t port) { config_->port = port; }
  void SetReplicaOf(std::string replicaof) { config_->replicaof = std::move(replicaof); }
  void Restore(const ServerConfig& before) { *config_ = before; }

 private:
  ServerConfig* config_;
};

// Parses a Redis memory value ("100", "1kb", "5M", "1gb"...), exactly as memtoull: "" is 0, and
// a value past 2^63 comes out negative (the unsigned result read as signed).
bool ParseMemory(std::string_view s, int64_t* out);

}  // namespace redlab::server::engine
