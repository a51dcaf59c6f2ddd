#include "server/engine/config.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <set>

#include "server/engine/glob.h"
#include "server/engine/notify.h"
#include "server/engine/numbers.h"
#include "server/engine/text.h"

namespace redlab::server::engine {
namespace {

enum class Kind { kBool, kInt, kMemory, kEnum, kString, kCustom };

// One parameter: Redis's name (and alias), its kind and bounds, and the field it lives in.
struct Param {
  std::string_view name;
  std::string_view alias;
  Kind kind;
  bool ServerConfig::*bool_field = nullptr;
  int64_t ServerConfig::*int_field = nullptr;
  std::string ServerConfig::*string_field = nullptr;
  int64_t min = 0;
  int64_t max = std::numeric_limits<int64_t>::max();
  std::vector<std::string_view> choices;  // kEnum
  bool immutable = false;                 // set at startup only ("can't set immutable config")
  // Settable at runtime only as enable-protected-configs allows ("can't set protected config").
  bool protected_config = false;
  // kCustom: its own text form and parser (which returns Redis's error text on failure).
  std::string (*render)(const ServerConfig&) = nullptr;
  std::optional<std::string> (*parse)(std::string_view, ServerConfig*) = nullptr;
  // hz: values outside [clamp_min, clamp_max] are silently brought inside (unused when 0).
  int64_t clamp_min = 0;
  int64_t clamp_max = 0;
  bool sensitive = false;  // a secret: redacted from SLOWLOG and MONITOR
};

constexpr int64_t kUint32Max = 4294967295LL;
constexpr int64_t kIntMax = 2147483647LL;
constexpr int64_t kLongMax = std::numeric_limits<int64_t>::max();

Param Bool(std::string_view name, bool ServerConfig::*field, std::string_view alias = {}) {
  Param p{name, alias, Kind::kBool};
  p.bool_field = field;
  return p;
}
Param Int(std::string_view name, int64_t ServerConfig::*field, int64_t min, int64_t max,
          std::string_view alias = {}) {
  Param p{name, alias, Kind::kInt};
  p.int_field = field;
  p.min = min;
  p.max = max;
  return p;
}
Param Memory(std::string_view name, int64_t ServerConfig::*field, int64_t min, int64_t max) {
  Param p{name, {}, Kind::kMemory};
  p.int_field = field;
  p.min = min;
  p.max = max;
  return p;
}
Param Str(std::string_view name, std::string ServerConfig::*field) {
  Param p{name, {}, Kind::kString};
  p.string_field = field;
  return p;
}
Param Enum(std::string_view name, std::string ServerConfig::*field,
           std::vector<std::string_view> choices) {
  Param p{name, {}, Kind::kEnum};
  p.string_field = field;
  p.choices = std::move(choices);
  return p;
}
Param Custom(std::string_view name, std::string (*render)(const ServerConfig&),
             std::optional<std::string> (*parse)(std::string_view, ServerConfig*)) {
  Param p{name, {}, Kind::kCustom};
  p.render = render;
  p.parse = parse;
  return p;
}
Param Immutable(Param p) {
  p.immutable = true;
  return p;
}
Param Sensitive(Param p) {
  p.sensitive = true;
  return p;
}

Param Protected(Param p) {
  p.protected_config = true;
  return p;
}

// dir: Redis chdirs into it (and reports the working directory); nodes of one process cannot
// each chdir, so redlab keeps the directory's absolute path, refusing what chdir would refuse.
std::string RenderDir(const ServerConfig& c) {
  if (c.dir != ".") return c.dir;
  char buf[4096];
  return getcwd(buf, sizeof(buf)) != nullptr ? std::string(buf) : std::string();
}
std::optional<std::string> ParseDir(std::string_view value, ServerConfig* c) {
  std::string path(value);
  struct stat st {};
  if (stat(path.c_str(), &st) != 0) return std::string(std::strerror(errno));
  if (!S_ISDIR(st.st_mode)) return std::string(std::strerror(ENOTDIR));
  char resolved[PATH_MAX];
  if (realpath(path.c_str(), resolved) == nullptr) return std::string(std::strerror(errno));
  c->dir = resolved;
  return std::nullopt;
}
std::string RenderDbfilename(const ServerConfig& c) { return c.dbfilename; }
std::optional<std::string> ParseDbfilename(std::string_view value, ServerConfig* c) {
  if (value.find('/') != std::string_view::npos) {
    return std::string("dbfilename can't be a path, just a filename");
  }
  c->dbfilename = std::string(value);
  return std::nullopt;
}

std::string RenderOutputLimits(const ServerConfig& c) {
  static constexpr const char* kNames[] = {"normal", "slave", "pubsub"};
  std::string out;
  for (int i = 0; i < 3; ++i) {
    const auto& l = c.output_limits[i];
    if (i > 0) out += ' ';
    out += std::string(kNames[i]) + " " + Int64ToString(l.hard) + " " + Int64ToString(l.soft) +
           " " + Int64ToString(l.soft_seconds);
  }
  return out;
}

// Redis's client-output-buffer-limit syntax: groups of <class> <hard> <soft> <soft seconds>;
// only the classes named change.
std::optional<std::string> ParseOutputLimits(std::string_view text, ServerConfig* c) {
  std::vector<std::string_view> words;
  for (size_t pos = 0; pos < text.size();) {
    size_t end = text.find(' ', pos);
    if (end == std::string_view::npos) end = text.size();
    if (end > pos) words.push_back(text.substr(pos, end - pos));
    pos = end + 1;
  }
  if (words.size() % 4 != 0) return "Wrong number of arguments in buffer limit configuration.";
  ServerConfig::OutputLimit limits[3] = {c->output_limits[0], c->output_limits[1],
                                         c->output_limits[2]};
  for (size_t i = 0; i < words.size(); i += 4) {
    int cls = -1;
    if (EqualsIgnoreCase(words[i], "normal"))
      cls = ServerConfig::kNormalClass;
    else if (EqualsIgnoreCase(words[i], "slave") || EqualsIgnoreCase(words[i], "replica"))
      cls = ServerConfig::kReplicaClass;
    else if (EqualsIgnoreCase(words[i], "pubsub"))
      cls = ServerConfig::kPubsubClass;
    if (cls < 0) return "Invalid client class specified in buffer limit configuration.";
    int64_t hard = 0, soft = 0, seconds = 0;
    if (!ParseMemory(words[i + 1], &hard) || !ParseMemory(words[i + 2], &soft) ||
        !ParseInt64(words[i + 3], &seconds) || seconds < 0) {
      return "Error in hard, soft or soft_seconds setting in buffer limit configuration.";
    }
    limits[cls] = {hard, soft, seconds};
  }
  for (int i = 0; i < 3; ++i) c->output_limits[i] = limits[i];
  return std::nullopt;
}

// notify-keyspace-events: class letters, shown in Redis's normal form.
std::string RenderNotifyKeyspaceEvents(const ServerConfig& c) {
  return KeyspaceEventsToString(c.notify_keyspace_events);
}
std::optional<std::string> ParseNotifyKeyspaceEvents(std::string_view value, ServerConfig* c) {
  std::optional<uint32_t> flags = KeyspaceEventsFromString(value);
  if (!flags) return std::string("Invalid event class character. Use 'Ag$lshzxeKEtmdn'.");
  c->notify_keyspace_events = *flags;
  return std::nullopt;
}

// bind: up to 16 addresses, each after one space, as CONFIG SET splits a multi-argument value
// (so two spaces make an empty address, which no socket binds: Redis's behaviour).
std::string RenderBind(const ServerConfig& c) { return c.bind; }
std::optional<std::string> ParseBind(std::string_view value, ServerConfig* c) {
  if (std::count(value.begin(), value.end(), ' ') + 1 > 16) {
    return std::string("Too many bind addresses specified.");
  }
  c->bind = std::string(value);
  return std::nullopt;
}

const std::vector<Param>& Params() {
  static const std::vector<Param> params = [] {
    std::vector<Param> v;
    v.push_back(Custom("bind", RenderBind, ParseBind));
    v.push_back(Int("port", &ServerConfig::port, 0, 65535));
    v.push_back(Immutable(Int("databases", &ServerConfig::databases, 1, kIntMax)));
    v.push_back(Sensitive(Str("requirepass", &ServerConfig::requirepass)));
    v.push_back(Immutable(Str("aclfile", &ServerConfig::aclfile)));
    v.push_back(Int("acllog-max-len", &ServerConfig::acllog_max_len, 0, kLongMax));
    v.push_back(Enum("acl-pubsub-default", &ServerConfig::acl_pubsub_default,
                     {"allchannels", "resetchannels"}));
    v.push_back(Int("maxclients", &ServerConfig::maxclients, 1, kUint32Max));
    v.push_back(Int("timeout", &ServerConfig::timeout, 0, kIntMax));
    Param hz = Int("hz", &ServerConfig::hz, 0, kIntMax);
    hz.clamp_min = 1;    // Redis's CONFIG_MIN_HZ
    hz.clamp_max = 500;  // Redis's CONFIG_MAX_HZ
    v.push_back(hz);
    v.push_back(
        Enum("loglevel", &ServerConfig::loglevel, {"debug", "verbose", "notice", "warning"}));
    v.push_back(Memory("maxmemory", &ServerConfig::maxmemory, 0, kLongMax));
    v.push_back(Enum("maxmemory-policy", &ServerConfig::maxmemory_policy,
                     {"volatile-lru", "volatile-lfu", "volatile-random", "volatile-ttl",
                      "allkeys-lru", "allkeys-lfu", "allkeys-random", "noeviction"}));
    v.push_back(
        Memory("proto-max-bulk-len", &ServerConfig::proto_max_bulk_len, 1024 * 1024, kLongMax));
    v.push_back(Memory("client-query-buffer-limit", &ServerConfig::client_query_buffer_limit,
                       1024 * 1024, kLongMax));
    v.push_back(Int("busy-reply-threshold", &ServerConfig::busy_reply_threshold, 0, kLongMax,
                    "lua-time-limit"));
    v.push_back(Int("hash-max-listpack-entries", &ServerConfig::hash_max_listpack_entries, 0,
                    kLongMax, "hash-max-ziplist-entries"));
    v.push_back(
        Memory("hash-max-listpack-value", &ServerConfig::hash_max_listpack_value, 0, kLongMax));
    v.back().alias = "hash-max-ziplist-value";
    v.push_back(Int("set-max-intset-entries", &ServerConfig::set_max_intset_entries, 0, kLongMax));
    v.push_back(Int("zset-max-listpack-entries", &ServerConfig::zset_max_listpack_entries, 0,
                    kLongMax, "zset-max-ziplist-entries"));
    v.push_back(
        Memory("zset-max-listpack-value", &ServerConfig::zset_max_listpack_value, 0, kLongMax));
    v.back().alias = "zset-max-ziplist-value";
    v.push_back(Int("list-max-listpack-size", &ServerConfig::list_max_listpack_size,
                    kIntMax * -1 - 1, kIntMax, "list-max-ziplist-size"));
    v.push_back(Int("list-compress-depth", &ServerConfig::list_compress_depth, 0, kIntMax));
    v.push_back(Int("min-replicas-to-write", &ServerConfig::min_replicas_to_write, 0, kIntMax,
                    "min-slaves-to-write"));
    v.push_back(Int("min-replicas-max-lag", &ServerConfig::min_replicas_max_lag, 0, kIntMax,
                    "min-slaves-max-lag"));
    v.push_back(Bool("replica-read-only", &ServerConfig::replica_read_only, "slave-read-only"));
    v.push_back(Bool("replica-serve-stale-data", &ServerConfig::replica_serve_stale_data,
                     "slave-serve-stale-data"));
    v.push_back(Memory("repl-backlog-size", &ServerConfig::repl_backlog_size, 1, kLongMax));
    v.push_back(Int("repl-timeout", &ServerConfig::repl_timeout, 1, kIntMax));
    v.push_back(Int("repl-ping-replica-period", &ServerConfig::repl_ping_replica_period, 1, kIntMax,
                    "repl-ping-slave-period"));
    v.push_back(Sensitive(Str("masterauth", &ServerConfig::masterauth)));
    v.push_back(Sensitive(Str("masteruser", &ServerConfig::masteruser)));
    v.push_back(
        Int("repl-diskless-sync-delay", &ServerConfig::repl_diskless_sync_delay, 0, kIntMax));
    v.push_back(Bool("repl-diskless-sync", &ServerConfig::repl_diskless_sync));
    v.push_back(Int("tcp-keepalive", &ServerConfig::tcp_keepalive, 0, kIntMax));
    v.push_back(Immutable(Int("tcp-backlog", &ServerConfig::tcp_backlog, 0, kIntMax)));
    v.push_back(Int("active-expire-effort", &ServerConfig::active_expire_effort, 1, 10));
    v.push_back(Bool("lazyfree-lazy-user-del", &ServerConfig::lazyfree_lazy_user_del));
    v.push_back(Bool("lazyfree-lazy-user-flush", &ServerConfig::lazyfree_lazy_user_flush));
    v.push_back(Bool("appendonly", &ServerConfig::appendonly));
    v.push_back(Str("save", &ServerConfig::save));
    Param dir{"dir", {}, Kind::kCustom};
    dir.render = RenderDir;
    dir.parse = ParseDir;
    v.push_back(Protected(dir));
    Param dbfilename{"dbfilename", {}, Kind::kCustom};
    dbfilename.render = RenderDbfilename;
    dbfilename.parse = ParseDbfilename;
    v.push_back(Protected(dbfilename));
    v.push_back(Immutable(Enum("enable-protected-configs", &ServerConfig::enable_protected_configs,
                               {"no", "yes", "local"})));
    v.push_back(Bool("rdbcompression", &ServerConfig::rdbcompression));
    v.push_back(Bool("rdbchecksum", &ServerConfig::rdbchecksum));
    v.push_back(Enum("sanitize-dump-payload", &ServerConfig::sanitize_dump_payload,
                     {"no", "yes", "clients"}));
    v.push_back(Int("lfu-log-factor", &ServerConfig::lfu_log_factor, 0, kIntMax));
    v.push_back(Int("lfu-decay-time", &ServerConfig::lfu_decay_time, 0, kIntMax));
    v.push_back(Int("rdb-key-save-delay", &ServerConfig::rdb_key_save_delay, INT32_MIN, kIntMax));
    v.push_back(Immutable(Str("appendfilename", &ServerConfig::appendfilename)));
    v.push_back(Immutable(Str("appenddirname", &ServerConfig::appenddirname)));
    v.push_back(Bool("aof-use-rdb-preamble", &ServerConfig::aof_use_rdb_preamble));
    v.push_back(
        Int("slowlog-log-slower-than", &ServerConfig::slowlog_log_slower_than, -1, kLongMax));
    v.push_back(Int("slowlog-max-len", &ServerConfig::slowlog_max_len, 0, kLongMax));
    v.push_back(
        Int("latency-monitor-threshold", &ServerConfig::latency_monitor_threshold, 0, kLongMax));
    v.push_back(Bool("latency-tracking", &ServerConfig::latency_tracking));
    v.push_back(
        Int("tracking-table-max-keys", &ServerConfig::tracking_table_max_keys, 0, kLongMax));
    Param notify{"notify-keyspace-events", {}, Kind::kCustom};
    notify.render = RenderNotifyKeyspaceEvents;
    notify.parse = ParseNotifyKeyspaceEvents;
    v.push_back(notify);
    v.push_back(Immutable(
        Enum("enable-debug-command", &ServerConfig::enable_debug_command, {"no", "yes", "local"})));
    Param limits{"client-output-buffer-limit", {}, Kind::kCustom};
    limits.render = RenderOutputLimits;
    limits.parse = ParseOutputLimits;
    v.push_back(limits);
    return v;
  }();
  return params;
}

const Param* FindParam(std::string_view name) {
  for (const Param& p : Params()) {
    if (EqualsIgnoreCase(p.name, name) || (!p.alias.empty() && EqualsIgnoreCase(p.alias, name))) {
      return &p;
    }
  }
  return nullptr;
}

std::string Render(const Param& p, const ServerConfig& c) {
  switch (p.kind) {
    case Kind::kBool:
      return c.*p.bool_field ? "yes" : "no";
    case Kind::kInt:
    case Kind::kMemory:
      return Int64ToString(c.*p.int_field);
    case Kind::kEnum:
    case Kind::kString:
      return c.*p.string_field;
    case Kind::kCustom:
      return p.render(c);
  }
  return {};
}

// Validates and converts `value` for `p`; on error returns Redis's reason text.
std::optional<std::string> Apply(const Param& p, std::string_view value, ServerConfig* c) {
  switch (p.kind) {
    case Kind::kBool:
      if (EqualsIgnoreCase(value, "yes")) {
        c->*p.bool_field = true;
      } else if (EqualsIgnoreCase(value, "no")) {
        c->*p.bool_field = false;
      } else {
        return "argument must be 'yes' or 'no'";
      }
      return std::nullopt;
    case Kind::kInt:
    case Kind::kMemory: {
      int64_t v = 0;
      if (p.kind == Kind::kMemory) {
        if (!ParseMemory(value, &v)) return "argument must be a memory value";
      } else if (!ParseInt64(value, &v)) {
        return "argument couldn't be parsed into an integer";
      }
      if (v < p.min || v > p.max) {
        return "argument must be between " + Int64ToString(p.min) + " and " + Int64ToString(p.max) +
               " inclusive";
      }
      if (p.clamp_max > 0 && v > p.clamp_max) v = p.clamp_max;
      if (p.clamp_min > 0 && v < p.clamp_min) v = p.clamp_min;
      c->*p.int_field = v;
      return std::nullopt;
    }
    case Kind::kEnum: {
      for (std::string_view choice : p.choices) {
        if (EqualsIgnoreCase(choice, value)) {
          c->*p.string_field = std::string(choice);
          return std::nullopt;
        }
      }
      std::string msg = "argument(s) must be one of the following: ";
      for (size_t i = 0; i < p.choices.size(); ++i) {
        if (i > 0) msg += ", ";
        msg += p.choices[i];
      }
      return msg;
    }
    case Kind::kString:
      c->*p.string_field = std::string(value);
      return std::nullopt;
    case Kind::kCustom:
      return p.parse(value, c);
  }
  return std::nullopt;
}

}  // namespace

bool ParseMemory(std::string_view s, int64_t* out) {
  // memtoull: digits followed by an optional unit b, k, kb, m, mb, g, gb (any case).
  size_t digits = 0;
  while (digits < s.size() && std::isdigit(static_cast<unsigned char>(s[digits]))) ++digits;
  std::string_view unit = s.substr(digits);
  int64_t mul = 1;
  if (unit.empty() || EqualsIgnoreCase(unit, "b")) {
    mul = 1;
  } else if (EqualsIgnoreCase(unit, "k")) {
    mul = 1000;
  } else if (EqualsIgnoreCase(unit, "kb")) {
    mul = 1024;
  } else if (EqualsIgnoreCase(unit, "m")) {
    mul = 1000 * 1000;
  } else if (EqualsIgnoreCase(unit, "mb")) {
    mul = 1024 * 1024;
  } else if (EqualsIgnoreCase(unit, "g")) {
    mul = 1000LL * 1000 * 1000;
  } else if (EqualsIgnoreCase(unit, "gb")) {
    mul = 1024LL * 1024 * 1024;
  } else {
    return false;
  }
  if (digits == 0 || digits > 19) return false;
  uint64_t v = 0;
  for (size_t i = 0; i < digits; ++i) v = v * 10 + static_cast<uint64_t>(s[i] - '0');
  if (v > static_cast<uint64_t>(kLongMax) / static_cast<uint64_t>(mul)) return false;
  *out = static_cast<int64_t>(v) * mul;
  return true;
}

bool ConfigRegistry::IsSensitive(std::string_view name) {
  const Param* p = FindParam(name);
  return p != nullptr && p->sensitive;
}

std::vector<std::pair<std::string, std::string>> ConfigRegistry::Get(
    const std::vector<std::string_view>& patterns) const {
  std::vector<std::pair<std::string, std::string>> out;
  std::set<std::string_view> seen;
  for (std::string_view pattern : patterns) {
    // A name without glob characters is looked up directly and answered under the name given,
    // as Redis's configGetCommand does.
    if (pattern.find_first_of("[*?") == std::string_view::npos) {
      const Param* p = FindParam(pattern);
      if (p != nullptr && !seen.count(pattern)) {
        seen.insert(pattern);
        out.emplace_back(std::string(pattern), Render(*p, *config_));
      }
      continue;
    }
    for (const Param& p : Params()) {
      for (std::string_view name : {p.name, p.alias}) {
        if (name.empty() || seen.count(name)) continue;
        if (GlobMatch(pattern, name, /*nocase=*/true)) {
          seen.insert(name);
          out.emplace_back(std::string(name), Render(p, *config_));
        }
      }
    }
  }
  return out;
}

std::optional<std::string> ConfigRegistry::Set(
    const std::vector<std::pair<std::string_view, std::string_view>>& pairs, bool startup,
    bool allow_protected) {
  std::vector<const Param*> params;
  // Redis registers an alias as a config of its own: a parameter named twice is a duplicate,
  // but named once and once by its alias it is simply set twice (the last value wins).
  std::vector<std::pair<const Param*, bool>> named;  // parameter, named by its alias
  for (const auto& [name, value] : pairs) {
    const Param* p = FindParam(name);
    if (p == nullptr) {
      return "Unknown option or number of arguments for CONFIG SET - '" + std::string(name) + "'";
    }
    if (p->immutable && !startup) {
      return "CONFIG SET failed (possibly related to argument '" + std::string(name) +
             "') - can't set immutable config";
    }
    if (p->protected_config && !startup && !allow_protected) {
      return "CONFIG SET failed (possibly related to argument '" + std::string(name) +
             "') - can't set protected config";
    }
    std::pair<const Param*, bool> key{p, !EqualsIgnoreCase(p->name, name)};
    if (std::find(named.begin(), named.end(), key) != named.end()) {
      return "CONFIG SET failed (possibly related to argument '" + std::string(name) +
             "') - duplicate parameter";
    }
    named.push_back(key);
    params.push_back(p);
  }
  ServerConfig updated = *config_;
  for (size_t i = 0; i < pairs.size(); ++i) {
    if (auto err = Apply(*params[i], pairs[i].second, &updated)) {
      return "CONFIG SET failed (possibly related to argument '" + std::string(pairs[i].first) +
             "') - " + *err;
    }
  }
  *config_ = std::move(updated);
  return std::nullopt;
}

}  // namespace redlab::server::engine
