// Every parameter of redis-server 7.0.15 (src/config.c's static_configs[]): name, alias, type,
// bounds, flags and validation, with the text forms and parsers of the special ones. Defaults
// are the field initialisers of ServerConfig (config.h).
#include "server/engine/config/config_params.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "server/base/numbers.h"
#include "server/base/text.h"
#include "server/engine/pubsub/notify.h"

namespace redlab::server::engine::config_internal {
namespace {

using C = ServerConfig;

constexpr int64_t kIntMax = INT_MAX;
constexpr int64_t kIntMin = INT_MIN;
constexpr int64_t kUintMax = UINT_MAX;
constexpr int64_t kLongMax = LLONG_MAX;
constexpr int64_t kULongLongMax = -1;  // ULLONG_MAX, as an unsigned parameter reads it

Param Bool(std::string_view name, bool C::*field) {
  Param p{name, {}, Kind::kBool};
  p.bool_field = field;
  return p;
}
Param Numeric(Kind kind, std::string_view name, int64_t C::*field, int64_t min, int64_t max) {
  Param p{name, {}, kind};
  p.int_field = field;
  p.min = min;
  p.max = max;
  return p;
}
Param Int(std::string_view name, int64_t C::*field, int64_t min, int64_t max) {
  return Numeric(Kind::kInt, name, field, min, max);
}
Param Memory(std::string_view name, int64_t C::*field, int64_t min, int64_t max) {
  return Numeric(Kind::kMemory, name, field, min, max);
}
Param Str(std::string_view name, std::string C::*field) {
  Param p{name, {}, Kind::kString};
  p.string_field = field;
  return p;
}
// A string whose "" is Redis's NULL (EMPTY_STRING_IS_NULL).
Param NullableStr(std::string_view name, std::string C::*field) {
  Param p = Str(name, field);
  p.empty_is_null = true;
  return p;
}
Param Enum(std::string_view name, std::string C::*field, std::vector<std::string_view> choices) {
  Param p{name, {}, Kind::kEnum};
  p.string_field = field;
  p.choices = std::move(choices);
  return p;
}
Param Custom(std::string_view name, Render render, Parse parse) {
  Param p{name, {}, Kind::kCustom};
  p.render = render;
  p.parse = parse;
  return p;
}

// strtoll over a whole word, as Redis's checks `*eptr == '\0'` (leading spaces and '+' pass).
bool StrToLL(std::string_view word, int base, int64_t* out) {
  std::string s(word);
  char* end = nullptr;
  errno = 0;
  *out = std::strtoll(s.c_str(), &end, base);
  return *end == '\0';
}

// dir: Redis chdirs into it (and reports the working directory); nodes of one process cannot
// each chdir, so redlab keeps the directory's absolute path, refusing what chdir would refuse.
std::string RenderDir(const C& c) {
  if (c.dir != ".") return c.dir;
  char buf[4096];
  return getcwd(buf, sizeof(buf)) != nullptr ? std::string(buf) : std::string();
}
std::optional<std::string> ParseDir(std::string_view value, C* c) {
  std::string path(value);
  struct stat st {};
  if (stat(path.c_str(), &st) != 0) return std::string(std::strerror(errno));
  if (!S_ISDIR(st.st_mode)) return std::string(std::strerror(ENOTDIR));
  char resolved[PATH_MAX];
  if (realpath(path.c_str(), resolved) == nullptr) return std::string(std::strerror(errno));
  c->dir = resolved;
  return std::nullopt;
}

// save: pairs of <seconds> <changes>, shown as Redis re-prints them ("0100 1" is "100 1").
std::string RenderSave(const C& c) { return c.save; }
std::optional<std::string> ParseSave(std::string_view value, C* c) {
  std::vector<std::string_view> words = SplitArgs(value);
  if (words.size() % 2 != 0) return "Invalid save parameters";
  std::string normal;
  for (size_t j = 0; j < words.size(); ++j) {
    int64_t v = 0;
    if (!StrToLL(words[j], 10, &v) || (j % 2 == 0 && v < 1) || (j % 2 == 1 && v < 0)) {
      return "Invalid save parameters";
    }
    if (j > 0) normal += ' ';
    // The number of changes is a C int in Redis.
    normal += j % 2 == 0 ? Int64ToString(v) : std::to_string(static_cast<int32_t>(v));
  }
  c->save = std::move(normal);
  return std::nullopt;
}

std::string RenderOutputLimits(const C& c) {
  static constexpr const char* kNames[] = {"normal", "slave", "pubsub"};
  std::string out;
  for (int i = 0; i < 3; ++i) {
    const auto& l = c.output_limits[i];
    if (i > 0) out += ' ';
    // %llu, as Redis prints them (a limit past 2^63 is kept as its unsigned bits).
    out += std::string(kNames[i]) + " " + std::to_string(static_cast<uint64_t>(l.hard)) + " " +
           std::to_string(static_cast<uint64_t>(l.soft)) + " " + Int64ToString(l.soft_seconds);
  }
  return out;
}

// Redis's client-output-buffer-limit syntax: groups of <class> <hard> <soft> <soft seconds>;
// only the classes named change.
std::optional<std::string> ParseOutputLimits(std::string_view text, C* c) {
  std::vector<std::string_view> words = SplitArgs(text);
  if (words.size() % 4 != 0) return "Wrong number of arguments in buffer limit configuration.";
  C::OutputLimit limits[3] = {c->output_limits[0], c->output_limits[1], c->output_limits[2]};
  for (size_t i = 0; i < words.size(); i += 4) {
    int cls = -1;
    if (EqualsIgnoreCase(words[i], "normal"))
      cls = C::kNormalClass;
    else if (EqualsIgnoreCase(words[i], "slave") || EqualsIgnoreCase(words[i], "replica"))
      cls = C::kReplicaClass;
    else if (EqualsIgnoreCase(words[i], "pubsub"))
      cls = C::kPubsubClass;
    if (cls < 0) return "Invalid client class specified in buffer limit configuration.";
    int64_t hard = 0, soft = 0, seconds = 0;
    if (!ParseMemory(words[i + 1], &hard) || !ParseMemory(words[i + 2], &soft) ||
        !StrToLL(words[i + 3], 10, &seconds) || static_cast<int32_t>(seconds) < 0) {
      return "Error in hard, soft or soft_seconds setting in buffer limit configuration.";
    }
    limits[cls] = {hard, soft, static_cast<int32_t>(seconds)};  // a C int in Redis
  }
  for (int i = 0; i < 3; ++i) c->output_limits[i] = limits[i];
  return std::nullopt;
}

// notify-keyspace-events: class letters, shown in Redis's normal form.
std::string RenderNotifyKeyspaceEvents(const C& c) {
  return KeyspaceEventsToString(c.notify_keyspace_events);
}
std::optional<std::string> ParseNotifyKeyspaceEvents(std::string_view value, C* c) {
  std::optional<uint32_t> flags = KeyspaceEventsFromString(value);
  if (!flags) return std::string("Invalid event class character. Use 'Ag$lshzxeKEtmdn'.");
  c->notify_keyspace_events = *flags;
  return std::nullopt;
}

// bind: up to 16 addresses, each after one space, as CONFIG SET splits a multi-argument value
// (so two spaces make an empty address, which no socket binds: Redis's behaviour).
std::string RenderBind(const C& c) { return c.bind; }
std::optional<std::string> ParseBind(std::string_view value, C* c) {
  if (std::count(value.begin(), value.end(), ' ') + 1 > 16) {
    return std::string("Too many bind addresses specified.");
  }
  c->bind = std::string(value);
  return std::nullopt;
}

// replicaof "host port" or "no one" (startup only: the parameter is immutable).
std::string RenderReplicaOf(const C& c) { return c.replicaof; }
std::optional<std::string> ParseReplicaOf(std::string_view value, C* c) {
  std::vector<std::string_view> words = SplitArgs(value);
  if (words.size() != 2) return "wrong number of arguments";
  if (EqualsIgnoreCase(words[0], "no") && EqualsIgnoreCase(words[1], "one")) {
    c->replicaof.clear();
    return std::nullopt;
  }
  int64_t port = 0;
  if (!StrToLL(words[1], 10, &port) || port < 0 || port > 65535) return "Invalid master port";
  c->replicaof = std::string(words[0]) + " " + Int64ToString(port);
  return std::nullopt;
}

// latency-tracking-info-percentiles: doubles in [0, 100], shown as "%f" without trailing zeros.
std::string RenderPercentiles(const C& c) {
  std::string out;
  for (double p : c.latency_tracking_info_percentiles) {
    char buf[128];
    std::snprintf(buf, sizeof(buf), "%f", p);
    std::string text(buf);
    if (text.find('.') != std::string::npos) {
      while (text.back() == '0') text.pop_back();
      if (text.back() == '.') text.pop_back();
    }
    if (!out.empty()) out += ' ';
    out += text;
  }
  return out;
}
std::optional<std::string> ParsePercentiles(std::string_view value, C* c) {
  std::vector<double> values;
  for (std::string_view word : SplitArgs(value)) {
    double p = 0;
    if (!ParseDouble(word, &p)) return "Invalid latency-tracking-info-percentiles parameters";
    if (p > 100.0 || p < 0.0) {
      return "latency-tracking-info-percentiles parameters should sit between [0.0,100.0]";
    }
    values.push_back(p);
  }
  c->latency_tracking_info_percentiles = std::move(values);
  return std::nullopt;
}

// oom-score-adj-values: three scores (master, replica, background child) in [-2000, 2000].
std::string RenderOomScoreAdjValues(const C& c) {
  return Int64ToString(c.oom_score_adj_values[0]) + " " + Int64ToString(c.oom_score_adj_values[1]) +
         " " + Int64ToString(c.oom_score_adj_values[2]);
}
std::optional<std::string> ParseOomScoreAdjValues(std::string_view value, C* c) {
  std::vector<std::string_view> words = SplitArgs(value);
  if (words.size() != 3) return "wrong number of arguments";
  int64_t values[3];
  for (int i = 0; i < 3; ++i) {
    if (!StrToLL(words[i], 10, &values[i]) || values[i] < -2000 || values[i] > 2000) {
      return "Invalid oom-score-adj-values, elements must be between -2000 and 2000.";
    }
  }
  std::copy(values, values + 3, c->oom_score_adj_values);
  return std::nullopt;
}

// oom-score-adj: "relative" is another name of "yes", which is how Redis shows it.
std::string RenderOomScoreAdj(const C& c) { return c.oom_score_adj; }
std::optional<std::string> ParseOomScoreAdj(std::string_view value, C* c) {
  static const std::vector<std::string_view> kChoices = {"no", "yes", "relative", "absolute"};
  for (std::string_view choice : kChoices) {
    if (EqualsIgnoreCase(choice, value)) {
      c->oom_score_adj = choice == "relative" ? "yes" : std::string(choice);
      return std::nullopt;
    }
  }
  return EnumError(kChoices);
}

// shutdown-on-sigint / -sigterm: SHUTDOWN's flags, any of them together ("default" is none).
const std::vector<std::string_view> kShutdownFlags = {"default", "save", "nosave", "now", "force"};
template <int64_t C::*kField>
std::string RenderShutdownFlags(const C& c) {
  int64_t flags = c.*kField;
  if (flags == 0) return "default";
  std::string out;
  for (size_t i = 1; i < kShutdownFlags.size(); ++i) {
    if (flags & (int64_t{1} << (i - 1))) {
      if (!out.empty()) out += ' ';
      out += kShutdownFlags[i];
    }
  }
  return out;
}
template <int64_t C::*kField>
std::optional<std::string> ParseShutdownFlags(std::string_view value, C* c) {
  std::vector<std::string_view> words = SplitArgs(value);
  if (words.empty()) return EnumError(kShutdownFlags);
  int64_t flags = 0;
  for (std::string_view word : words) {
    auto it = std::find_if(kShutdownFlags.begin(), kShutdownFlags.end(),
                           [&](std::string_view f) { return EqualsIgnoreCase(f, word); });
    if (it == kShutdownFlags.end()) return EnumError(kShutdownFlags);
    if (it != kShutdownFlags.begin()) flags |= int64_t{1} << (it - kShutdownFlags.begin() - 1);
  }
  if ((flags & 1) && (flags & 2)) {
    return "shutdown options SAVE and NOSAVE can't be used simultaneously";
  }
  c->*kField = flags;
  return std::nullopt;
}

// Redis's is_valid_fn checks.
std::optional<std::string> CheckActiveDefrag(std::string_view value, const C&) {
  // Redis without its own jemalloc (HAVE_DEFRAG), as Debian builds it, and redlab, cannot defrag.
  if (!EqualsIgnoreCase(value, "yes")) return std::nullopt;
  return "Active defragmentation cannot be enabled: it requires a Redis server compiled with a "
         "modified Jemalloc like the one shipped by default with the Redis source distribution";
}
bool IsBaseName(std::string_view value) { return value.find_first_of("/\\") == value.npos; }
std::optional<std::string> CheckDbfilename(std::string_view value, const C&) {
  if (IsBaseName(value)) return std::nullopt;
  return "dbfilename can't be a path, just a filename";
}
std::optional<std::string> CheckAppendfilename(std::string_view value, const C&) {
  if (value.empty()) return "appendfilename can't be empty";
  if (!IsBaseName(value)) return "appendfilename can't be a path, just a filename";
  return std::nullopt;
}
std::optional<std::string> CheckAppenddirname(std::string_view value, const C&) {
  if (value.empty()) return "appenddirname can't be empty";
  if (!IsBaseName(value)) return "appenddirname can't be a path, just a dirname";
  return std::nullopt;
}
std::optional<std::string> CheckHostname(std::string_view value, const C&) {
  if (value.size() >= 256) return "Hostnames must be less than 256 characters";
  for (char ch : value) {
    if (!std::isalnum(static_cast<unsigned char>(ch)) && ch != '-' && ch != '.') {
      return "Hostnames may only contain alphanumeric characters, hyphens or dots";
    }
  }
  return std::nullopt;
}
// validateProcTitleTemplate: known {variables} only, and something left once expanded with an
// empty title and trimmed of spaces ({server-mode} is empty outside cluster and sentinel).
std::optional<std::string> CheckProcTitleTemplate(std::string_view value, const C& c) {
  const std::string kError = "template format is invalid or contains unknown variables";
  std::string expanded;
  for (size_t pos = 0; pos < value.size();) {
    size_t open = value.find('{', pos);
    expanded += value.substr(pos, open == value.npos ? value.npos : open - pos);
    if (open == value.npos) break;
    if (open + 1 >= value.size()) return kError;
    if (value[open + 1] == '{') {
      expanded += '{';
      pos = open + 2;
      continue;
    }
    size_t close = value.find('}', open + 1);
    if (close == value.npos) return kError;
    std::string_view var = value.substr(open + 1, close - open - 1);
    if (var == "unixsocket") {
      expanded += c.unixsocket;
    } else if (var == "listen-addr" || var == "config-file" || var == "port" || var == "tls-port") {
      expanded += '-';                                    // never empty
    } else if (var != "title" && var != "server-mode") {  // these two expand to nothing here
      return kError;
    }
    pos = close + 1;
  }
  if (expanded.find_first_not_of(' ') == std::string::npos) return kError;
  return std::nullopt;
}

}  // namespace

std::vector<std::string_view> SplitArgs(std::string_view value) {
  std::vector<std::string_view> words;
  if (value.empty()) return words;
  for (size_t pos = 0;;) {
    size_t end = value.find(' ', pos);
    words.push_back(value.substr(pos, end == value.npos ? value.npos : end - pos));
    if (end == value.npos) break;
    pos = end + 1;
  }
  return words;
}

std::string EnumError(const std::vector<std::string_view>& choices) {
  std::string msg = "argument(s) must be one of the following: ";
  for (size_t i = 0; i < choices.size(); ++i) {
    if (i > 0) msg += ", ";
    msg += choices[i];
  }
  return msg;
}

const std::vector<Param>& Params() {
  static const std::vector<std::string_view> kProtectedAction = {"no", "yes", "local"};
  static const std::vector<Param> params = {
      // Booleans (yes / no).
      Bool("rdbchecksum", &C::rdbchecksum).Immutable(),
      Bool("daemonize", &C::daemonize).Immutable(),
      Bool("io-threads-do-reads", &C::io_threads_do_reads).Immutable(),
      Bool("always-show-logo", &C::always_show_logo).Immutable(),
      Bool("protected-mode", &C::protected_mode),
      Bool("rdbcompression", &C::rdbcompression),
      Bool("rdb-del-sync-files", &C::rdb_del_sync_files),
      Bool("activerehashing", &C::activerehashing),
      Bool("stop-writes-on-bgsave-error", &C::stop_writes_on_bgsave_error),
      Bool("set-proc-title", &C::set_proc_title).Immutable(),
      Bool("dynamic-hz", &C::dynamic_hz),
      Bool("lazyfree-lazy-eviction", &C::lazyfree_lazy_eviction),
      Bool("lazyfree-lazy-expire", &C::lazyfree_lazy_expire),
      Bool("lazyfree-lazy-server-del", &C::lazyfree_lazy_server_del),
      Bool("lazyfree-lazy-user-del", &C::lazyfree_lazy_user_del),
      Bool("lazyfree-lazy-user-flush", &C::lazyfree_lazy_user_flush),
      Bool("repl-disable-tcp-nodelay", &C::repl_disable_tcp_nodelay),
      Bool("repl-diskless-sync", &C::repl_diskless_sync),
      Bool("aof-rewrite-incremental-fsync", &C::aof_rewrite_incremental_fsync),
      Bool("no-appendfsync-on-rewrite", &C::no_appendfsync_on_rewrite),
      Bool("cluster-require-full-coverage", &C::cluster_require_full_coverage),
      Bool("rdb-save-incremental-fsync", &C::rdb_save_incremental_fsync),
      Bool("aof-load-truncated", &C::aof_load_truncated),
      Bool("aof-use-rdb-preamble", &C::aof_use_rdb_preamble),
      Bool("aof-timestamp-enabled", &C::aof_timestamp_enabled),
      Bool("cluster-replica-no-failover", &C::cluster_replica_no_failover)
          .Alias("cluster-slave-no-failover"),
      Bool("replica-lazy-flush", &C::replica_lazy_flush).Alias("slave-lazy-flush"),
      Bool("replica-serve-stale-data", &C::replica_serve_stale_data)
          .Alias("slave-serve-stale-data"),
      Bool("replica-read-only", &C::replica_read_only).Alias("slave-read-only"),
      Bool("replica-ignore-maxmemory", &C::replica_ignore_maxmemory)
          .Alias("slave-ignore-maxmemory"),
      Bool("jemalloc-bg-thread", &C::jemalloc_bg_thread),
      Bool("activedefrag", &C::activedefrag).Checked(CheckActiveDefrag),
      Bool("syslog-enabled", &C::syslog_enabled).Immutable(),
      Bool("cluster-enabled", &C::cluster_enabled).Immutable(),
      Bool("appendonly", &C::appendonly),
      Bool("cluster-allow-reads-when-down", &C::cluster_allow_reads_when_down),
      Bool("cluster-allow-pubsubshard-when-down", &C::cluster_allow_pubsubshard_when_down),
      Bool("crash-log-enabled", &C::crash_log_enabled),
      Bool("crash-memcheck-enabled", &C::crash_memcheck_enabled),
      Bool("use-exit-on-panic", &C::use_exit_on_panic).Hidden(),
      Bool("disable-thp", &C::disable_thp).Immutable(),
      Bool("cluster-allow-replica-migration", &C::cluster_allow_replica_migration),
      Bool("replica-announced", &C::replica_announced),
      Bool("latency-tracking", &C::latency_tracking),
      Bool("aof-disable-auto-gc", &C::aof_disable_auto_gc),
      Bool("replica-ignore-disk-write-errors", &C::replica_ignore_disk_write_errors),

      // Strings.
      Str("aclfile", &C::aclfile).Immutable(),
      NullableStr("unixsocket", &C::unixsocket).Immutable(),
      NullableStr("pidfile", &C::pidfile).Immutable(),
      NullableStr("replica-announce-ip", &C::replica_announce_ip).Alias("slave-announce-ip"),
      NullableStr("masteruser", &C::masteruser).Sensitive(),
      NullableStr("cluster-announce-ip", &C::cluster_announce_ip),
      Str("cluster-config-file", &C::cluster_config_file).Immutable(),
      NullableStr("cluster-announce-hostname", &C::cluster_announce_hostname).Checked(CheckHostname),
      Str("syslog-ident", &C::syslog_ident).Immutable(),
      Str("dbfilename", &C::dbfilename).Protected().Checked(CheckDbfilename),
      Str("appendfilename", &C::appendfilename).Immutable().Checked(CheckAppendfilename),
      Str("appenddirname", &C::appenddirname).Immutable().Checked(CheckAppenddirname),
      NullableStr("server_cpulist", &C::server_cpulist).Immutable(),
      NullableStr("bio_cpulist", &C::bio_cpulist).Immutable(),
      NullableStr("aof_rewrite_cpulist", &C::aof_rewrite_cpulist).Immutable(),
      NullableStr("bgsave_cpulist", &C::bgsave_cpulist).Immutable(),
      Str("ignore-warnings", &C::ignore_warnings),
      Str("proc-title-template", &C::proc_title_template).Checked(CheckProcTitleTemplate),
      NullableStr("bind-source-addr", &C::bind_source_addr),
      Str("logfile", &C::logfile).Immutable(),
      NullableStr("masterauth", &C::masterauth).Sensitive(),
      NullableStr("requirepass", &C::requirepass).Sensitive(),

      // Enumerations.
      Enum("supervised", &C::supervised, {"upstart", "systemd", "auto", "no"}).Immutable(),
      Enum("syslog-facility", &C::syslog_facility,
           {"user", "local0", "local1", "local2", "local3", "local4", "local5", "local6", "local7"})
          .Immutable(),
      Enum("repl-diskless-load", &C::repl_diskless_load, {"disabled", "on-empty-db", "swapdb"}),
      Enum("loglevel", &C::loglevel, {"debug", "verbose", "notice", "warning"}),
      Enum("maxmemory-policy", &C::maxmemory_policy,
           {"volatile-lru", "volatile-lfu", "volatile-random", "volatile-ttl", "allkeys-lru",
            "allkeys-lfu", "allkeys-random", "noeviction"}),
      Enum("appendfsync", &C::appendfsync, {"everysec", "always", "no"}),
      Custom("oom-score-adj", RenderOomScoreAdj, ParseOomScoreAdj),
      Enum("acl-pubsub-default", &C::acl_pubsub_default, {"allchannels", "resetchannels"}),
      Enum("sanitize-dump-payload", &C::sanitize_dump_payload, {"no", "yes", "clients"}),
      Enum("enable-protected-configs", &C::enable_protected_configs, kProtectedAction).Immutable(),
      Enum("enable-debug-command", &C::enable_debug_command, kProtectedAction).Immutable(),
      Enum("enable-module-command", &C::enable_module_command, kProtectedAction).Immutable(),
      Enum("cluster-preferred-endpoint-type", &C::cluster_preferred_endpoint_type,
           {"ip", "hostname", "unknown-endpoint"}),
      Enum("propagation-error-behavior", &C::propagation_error_behavior,
           {"ignore", "panic", "panic-on-replicas"}),
      Custom("shutdown-on-sigint", RenderShutdownFlags<&C::shutdown_on_sigint>,
             ParseShutdownFlags<&C::shutdown_on_sigint>),
      Custom("shutdown-on-sigterm", RenderShutdownFlags<&C::shutdown_on_sigterm>,
             ParseShutdownFlags<&C::shutdown_on_sigterm>),

      // Integers (string2ll), within Redis's bounds for the C type behind each.
      Int("databases", &C::databases, 1, kIntMax).Immutable(),
      Int("port", &C::port, 0, 65535),
      Int("io-threads", &C::io_threads, 1, 128).Immutable(),
      Int("auto-aof-rewrite-percentage", &C::auto_aof_rewrite_percentage, 0, kIntMax),
      Int("cluster-replica-validity-factor", &C::cluster_replica_validity_factor, 0, kIntMax)
          .Alias("cluster-slave-validity-factor"),
      Int("list-max-listpack-size", &C::list_max_listpack_size, kIntMin, kIntMax)
          .Alias("list-max-ziplist-size"),
      Int("tcp-keepalive", &C::tcp_keepalive, 0, kIntMax),
      Int("cluster-migration-barrier", &C::cluster_migration_barrier, 0, kIntMax),
      Int("active-defrag-cycle-min", &C::active_defrag_cycle_min, 1, 99),
      Int("active-defrag-cycle-max", &C::active_defrag_cycle_max, 1, 99),
      Int("active-defrag-threshold-lower", &C::active_defrag_threshold_lower, 0, 1000),
      Int("active-defrag-threshold-upper", &C::active_defrag_threshold_upper, 0, 1000),
      Int("lfu-log-factor", &C::lfu_log_factor, 0, kIntMax),
      Int("lfu-decay-time", &C::lfu_decay_time, 0, kIntMax),
      Int("replica-priority", &C::replica_priority, 0, kIntMax).Alias("slave-priority"),
      Int("repl-diskless-sync-delay", &C::repl_diskless_sync_delay, 0, kIntMax),
      Int("maxmemory-samples", &C::maxmemory_samples, 1, kIntMax),
      Int("maxmemory-eviction-tenacity", &C::maxmemory_eviction_tenacity, 0, 100),
      Int("timeout", &C::timeout, 0, kIntMax),
      Int("replica-announce-port", &C::replica_announce_port, 0, 65535)
          .Alias("slave-announce-port"),
      Int("tcp-backlog", &C::tcp_backlog, 0, kIntMax).Immutable(),
      Int("cluster-port", &C::cluster_port, 0, 65535).Immutable(),
      Int("cluster-announce-bus-port", &C::cluster_announce_bus_port, 0, 65535),
      Int("cluster-announce-port", &C::cluster_announce_port, 0, 65535),
      Int("cluster-announce-tls-port", &C::cluster_announce_tls_port, 0, 65535),
      Int("repl-timeout", &C::repl_timeout, 1, kIntMax),
      Int("repl-ping-replica-period", &C::repl_ping_replica_period, 1, kIntMax)
          .Alias("repl-ping-slave-period"),
      Int("list-compress-depth", &C::list_compress_depth, 0, kIntMax),
      Int("rdb-key-save-delay", &C::rdb_key_save_delay, kIntMin, kIntMax).Hidden(),
      Int("key-load-delay", &C::key_load_delay, kIntMin, kIntMax).Hidden(),
      Int("active-expire-effort", &C::active_expire_effort, 1, 10),
      Int("hz", &C::hz, 0, kIntMax).Clamp(1, 500),  // CONFIG_MIN_HZ, CONFIG_MAX_HZ
      Int("min-replicas-to-write", &C::min_replicas_to_write, 0, kIntMax)
          .Alias("min-slaves-to-write"),
      Int("min-replicas-max-lag", &C::min_replicas_max_lag, 0, kIntMax).Alias("min-slaves-max-lag"),
      Int("watchdog-period", &C::watchdog_period, 0, kIntMax).Hidden(),
      Int("shutdown-timeout", &C::shutdown_timeout, 0, kIntMax),
      Int("repl-diskless-sync-max-replicas", &C::repl_diskless_sync_max_replicas, 0, kIntMax),
      Int("maxclients", &C::maxclients, 1, kUintMax).Unsigned(),
      Numeric(Kind::kOctal, "unixsocketperm", &C::unixsocketperm, 0, 0777).Unsigned().Immutable(),
      Int("socket-mark-id", &C::socket_mark_id, 0, kUintMax).Unsigned().Immutable(),
      Int("active-defrag-max-scan-fields", &C::active_defrag_max_scan_fields, 1, kLongMax)
          .Unsigned(),
      Int("slowlog-max-len", &C::slowlog_max_len, 0, kLongMax).Unsigned(),
      Int("acllog-max-len", &C::acllog_max_len, 0, kLongMax).Unsigned(),
      Int("busy-reply-threshold", &C::busy_reply_threshold, 0, kLongMax).Alias("lua-time-limit"),
      Bool("lua-enable-deprecated-api", &C::lua_enable_deprecated_api).Immutable().Hidden(),
      Int("cluster-node-timeout", &C::cluster_node_timeout, 0, kLongMax),
      Int("slowlog-log-slower-than", &C::slowlog_log_slower_than, -1, kLongMax),
      Int("latency-monitor-threshold", &C::latency_monitor_threshold, 0, kLongMax),
      Memory("proto-max-bulk-len", &C::proto_max_bulk_len, 1024 * 1024, kLongMax),
      Int("stream-node-max-entries", &C::stream_node_max_entries, 0, kLongMax),
      Memory("repl-backlog-size", &C::repl_backlog_size, 1, kLongMax).Clamp(16384, 0),
      Memory("maxmemory", &C::maxmemory, 0, kULongLongMax).Unsigned(),
      Memory("cluster-link-sendbuf-limit", &C::cluster_link_sendbuf_limit, 0, kULongLongMax)
          .Unsigned(),
      Int("hash-max-listpack-entries", &C::hash_max_listpack_entries, 0, kLongMax)
          .Unsigned()
          .Alias("hash-max-ziplist-entries"),
      Int("set-max-intset-entries", &C::set_max_intset_entries, 0, kLongMax).Unsigned(),
      Int("zset-max-listpack-entries", &C::zset_max_listpack_entries, 0, kLongMax)
          .Unsigned()
          .Alias("zset-max-ziplist-entries"),
      Memory("active-defrag-ignore-bytes", &C::active_defrag_ignore_bytes, 1, kLongMax).Unsigned(),
      Memory("hash-max-listpack-value", &C::hash_max_listpack_value, 0, kLongMax)
          .Unsigned()
          .Alias("hash-max-ziplist-value"),
      Memory("stream-node-max-bytes", &C::stream_node_max_bytes, 0, kLongMax).Unsigned(),
      Memory("zset-max-listpack-value", &C::zset_max_listpack_value, 0, kLongMax)
          .Unsigned()
          .Alias("zset-max-ziplist-value"),
      Memory("hll-sparse-max-bytes", &C::hll_sparse_max_bytes, 0, kLongMax).Unsigned(),
      Int("tracking-table-max-keys", &C::tracking_table_max_keys, 0, kLongMax).Unsigned(),
      Memory("client-query-buffer-limit", &C::client_query_buffer_limit, 1024 * 1024, kLongMax)
          .Unsigned(),
      Numeric(Kind::kMemoryPercent, "maxmemory-clients", &C::maxmemory_clients, -100, kLongMax),
      Int("repl-backlog-ttl", &C::repl_backlog_ttl, 0, kLongMax),
      Memory("auto-aof-rewrite-min-size", &C::auto_aof_rewrite_min_size, 0, kLongMax),
      Int("loading-process-events-interval-bytes", &C::loading_process_events_interval_bytes, 1024,
          kIntMax)
          .Hidden(),

      // TLS (redis-server 7.0.15 as Debian builds it has them).
      Int("tls-port", &C::tls_port, 0, 65535).Tls(),
      Int("tls-session-cache-size", &C::tls_session_cache_size, 0, kIntMax).Tls(),
      Int("tls-session-cache-timeout", &C::tls_session_cache_timeout, 0, kIntMax).Tls(),
      Bool("tls-cluster", &C::tls_cluster).Tls(),
      Bool("tls-replication", &C::tls_replication).Tls(),
      Enum("tls-auth-clients", &C::tls_auth_clients, {"no", "yes", "optional"}),
      Bool("tls-prefer-server-ciphers", &C::tls_prefer_server_ciphers).Tls(),
      Bool("tls-session-caching", &C::tls_session_caching).Tls(),
      NullableStr("tls-cert-file", &C::tls_cert_file).Tls(),
      NullableStr("tls-key-file", &C::tls_key_file).Tls(),
      NullableStr("tls-key-file-pass", &C::tls_key_file_pass).Tls(),
      NullableStr("tls-client-cert-file", &C::tls_client_cert_file).Tls(),
      NullableStr("tls-client-key-file", &C::tls_client_key_file).Tls(),
      NullableStr("tls-client-key-file-pass", &C::tls_client_key_file_pass).Tls(),
      NullableStr("tls-dh-params-file", &C::tls_dh_params_file).Tls(),
      NullableStr("tls-ca-cert-file", &C::tls_ca_cert_file).Tls(),
      NullableStr("tls-ca-cert-dir", &C::tls_ca_cert_dir).Tls(),
      NullableStr("tls-protocols", &C::tls_protocols).Tls(),
      NullableStr("tls-ciphers", &C::tls_ciphers).Tls(),
      NullableStr("tls-ciphersuites", &C::tls_ciphersuites).Tls(),

      // Special forms.
      Custom("dir", RenderDir, ParseDir).Protected(),
      Custom("save", RenderSave, ParseSave),
      Custom("client-output-buffer-limit", RenderOutputLimits, ParseOutputLimits),
      Custom("oom-score-adj-values", RenderOomScoreAdjValues, ParseOomScoreAdjValues),
      Custom("notify-keyspace-events", RenderNotifyKeyspaceEvents, ParseNotifyKeyspaceEvents),
      Custom("bind", RenderBind, ParseBind),
      Custom("replicaof", RenderReplicaOf, ParseReplicaOf).Alias("slaveof").Immutable(),
      Custom("latency-tracking-info-percentiles", RenderPercentiles, ParsePercentiles),
  };
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

}  // namespace redlab::server::engine::config_internal
