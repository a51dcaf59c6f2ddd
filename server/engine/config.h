// A node's configuration: the parameters redlab honours, under Redis's names and with Redis's
// defaults, bounds and CONFIG SET error texts. Each parameter is described once in config.cc.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace redlab::server::engine {

struct ServerConfig {
  std::string bind = "127.0.0.1";
  int64_t port = 6379;
  std::string requirepass;  // empty: no password (the default user's password; see acl/acl.h)
  std::string aclfile;      // ACL LOAD/SAVE's file, relative to `dir`; empty: none (immutable)
  int64_t acllog_max_len = 128;
  // Whether new users may use every channel ("allchannels") or none ("resetchannels").
  std::string acl_pubsub_default = "resetchannels";
  // `user` directives given at startup, each "<name> <rule> ..." as a redis.conf line; not a
  // CONFIG parameter.
  std::vector<std::string> users;
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

 private:
  ServerConfig* config_;
};

// Parses a Redis memory value ("100", "1kb", "5M", "1gb"...), as memtoull.
bool ParseMemory(std::string_view s, int64_t* out);

}  // namespace redlab::server::engine
