#include "server/engine/stats/info.h"

#include <fmt/format.h>
#include <sys/resource.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <set>

#include "server/base/monotonic.h"
#include "server/base/text.h"
#include "server/engine/core/engine.h"
#include "server/engine/core/help.h"
#include "server/engine/core/persistence.h"
#include "server/engine/core/script_runner.h"
#include "server/engine/stats/memory_report.h"

namespace redlab::server::engine {
namespace {

// bytesToHuman: B, K, M, G... with two decimals.
std::string Human(uint64_t n) {
  double d = static_cast<double>(n);
  if (n < 1024) return fmt::format("{}B", n);
  if (n < 1024ULL * 1024) return fmt::format("{:.2f}K", d / 1024);
  if (n < 1024ULL * 1024 * 1024) return fmt::format("{:.2f}M", d / (1024 * 1024));
  if (n < 1024ULL * 1024 * 1024 * 1024) return fmt::format("{:.2f}G", d / (1024.0 * 1024 * 1024));
  return fmt::format("{:.2f}T", d / (1024.0 * 1024 * 1024 * 1024));
}

uint64_t TotalSystemMemory() {
  return static_cast<uint64_t>(sysconf(_SC_PHYS_PAGES)) *
         static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
}

void ServerSection(Engine& e, std::string& out) {
  utsname name{};
  uname(&name);
  int64_t uptime = e.uptime_seconds();
  out += "# Server\r\n";
  out += fmt::format("redis_version:{}\r\n", kRedisVersion);
  out += "redis_git_sha1:00000000\r\nredis_git_dirty:0\r\nredis_build_id:0\r\n";
  out += "redis_mode:standalone\r\n";
  out += fmt::format("os:{} {} {}\r\n", name.sysname, name.release, name.machine);
  out += fmt::format("arch_bits:{}\r\n", sizeof(void*) * 8);
  out += "monotonic_clock:POSIX clock_gettime\r\nmultiplexing_api:epoll\r\n";
  out += "atomicvar_api:c11-builtin\r\n";
  out += fmt::format("gcc_version:{}.{}.{}\r\n", __GNUC__, __GNUC_MINOR__, __GNUC_PATCHLEVEL__);
  out += fmt::format("process_id:{}\r\n", getpid());
  out += "process_supervised:no\r\n";
  out += fmt::format("run_id:{}\r\n", e.run_id());
  out += fmt::format("tcp_port:{}\r\n", e.host() ? e.host()->TcpPort() : 0);
  out += fmt::format("server_time_usec:{}\r\n", e.clock().NowUs());
  out += fmt::format("uptime_in_seconds:{}\r\n", uptime);
  out += fmt::format("uptime_in_days:{}\r\n", uptime / 86400);
  out += fmt::format("hz:{}\r\nconfigured_hz:{}\r\n", e.config().hz, e.config().hz);
  out += fmt::format("lru_clock:{}\r\n", (e.clock().NowMs() / 1000) & ((1 << 24) - 1));
  out += "executable:\r\nconfig_file:" + e.config().config_file + "\r\nio_threads_active:0\r\n";
  out += "redlab_version:0.1.0\r\n";  // lets tools tell redlab from redis-server
}

void ClientsSection(Engine& e, std::string& out) {
  out += "# Clients\r\n";
  // Replicas attached to this node are not counted as clients (Redis subtracts its slaves).
  out += fmt::format("connected_clients:{}\r\n",
                     e.clients().size() - e.replication().connected_replicas());
  out += "cluster_connections:0\r\n";
  out += fmt::format("maxclients:{}\r\n", e.config().maxclients);
  out += fmt::format("client_recent_max_input_buffer:{}\r\nclient_recent_max_output_buffer:{}\r\n",
                     e.clients().RecentMaxInputBuffer(), e.clients().RecentMaxOutputBuffer());
  // Every blocked client counts, postponed ones included, as Redis's server.blocked_clients.
  out += fmt::format("blocked_clients:{}\r\ntracking_clients:{}\r\nclients_in_timeout_table:{}\r\n",
                     e.blocking().blocked_clients(), e.messaging().tracking().clients(),
                     e.blocking().clients_in_timeout_table());
}

// The scripting lines of INFO memory: EVAL's Lua state and cache, the functions' Lua state and
// libraries (whose fixed part Redis counts as 200 bytes: its engine and dictionaries).
void ScriptMemoryLines(Engine& e, std::string& out) {
  constexpr uint64_t kFunctionsBaseMemory = 200;
  ScriptRunner& scripts = e.scripts();
  uint64_t lua = scripts.lua_memory();
  uint64_t cached = scripts.cache().memory();
  uint64_t functions_lua = scripts.functions_lua_memory();
  uint64_t functions = kFunctionsBaseMemory + scripts.functions().memory();
  out += fmt::format("used_memory_lua:{}\r\nused_memory_vm_eval:{}\r\nused_memory_lua_human:{}\r\n",
                     lua, lua, Human(lua));
  out += fmt::format("used_memory_scripts_eval:{}\r\nnumber_of_cached_scripts:{}\r\n", cached,
                     scripts.cache().size());
  out += fmt::format("number_of_functions:{}\r\nnumber_of_libraries:{}\r\n",
                     scripts.functions().function_count(), scripts.functions().libraries().size());
  out += fmt::format("used_memory_vm_functions:{}\r\n", functions_lua);
  out += fmt::format("used_memory_vm_total:{}\r\nused_memory_vm_total_human:{}\r\n",
                     lua + functions_lua, Human(lua + functions_lua));
  out += fmt::format(
      "used_memory_functions:{}\r\nused_memory_scripts:{}\r\nused_memory_scripts_human:{}\r\n",
      functions, cached + functions, Human(cached + functions));
}

// Two decimals, as Redis prints its memory ratios ("%.2f").
std::string Ratio(double part, double whole) {
  return fmt::format("{:.2f}", whole == 0 ? 0.0 : part / whole);
}
int64_t Diff(uint64_t a, uint64_t b) { return static_cast<int64_t>(a) - static_cast<int64_t>(b); }

void MemorySection(Engine& e, std::string& out) {
  MemoryReport m = ReportMemory(e);
  uint64_t total = TotalSystemMemory();
  const ServerConfig& c = e.config();
  out += "# Memory\r\n";
  out += fmt::format("used_memory:{}\r\nused_memory_human:{}\r\n", m.used, Human(m.used));
  out += fmt::format("used_memory_rss:{}\r\nused_memory_rss_human:{}\r\n", m.rss, Human(m.rss));
  out += fmt::format("used_memory_peak:{}\r\nused_memory_peak_human:{}\r\n", m.peak,
                     Human(m.peak));
  out += fmt::format("used_memory_peak_perc:{:.2f}%\r\n",
                     m.peak == 0 ? 0.0 : m.used * 100.0 / m.peak);
  out += fmt::format("used_memory_overhead:{}\r\nused_memory_startup:{}\r\n", m.overhead,
                     m.startup);
  out += fmt::format("used_memory_dataset:{}\r\nused_memory_dataset_perc:{:.2f}%\r\n", m.dataset,
                     m.dataset * 100.0 / m.net);
  out += fmt::format("allocator_allocated:{}\r\nallocator_active:{}\r\nallocator_resident:{}\r\n",
                     m.allocated, m.active, m.resident);
  out += fmt::format("total_system_memory:{}\r\ntotal_system_memory_human:{}\r\n", total,
                     Human(total));
  ScriptMemoryLines(e, out);
  out += fmt::format("maxmemory:{}\r\nmaxmemory_human:{}\r\n", static_cast<uint64_t>(c.maxmemory),
                     Human(static_cast<uint64_t>(c.maxmemory)));
  out += fmt::format("maxmemory_policy:{}\r\n", c.maxmemory_policy);
  out += fmt::format("allocator_frag_ratio:{}\r\nallocator_frag_bytes:{}\r\n",
                     Ratio(m.active, m.allocated), Diff(m.active, m.allocated));
  out += fmt::format("allocator_rss_ratio:{}\r\nallocator_rss_bytes:{}\r\n",
                     Ratio(m.resident, m.active), Diff(m.resident, m.active));
  out += fmt::format("rss_overhead_ratio:{}\r\nrss_overhead_bytes:{}\r\n", Ratio(m.rss, m.resident),
                     Diff(m.rss, m.resident));
  out += fmt::format("mem_fragmentation_ratio:{}\r\nmem_fragmentation_bytes:{}\r\n",
                     Ratio(m.rss, m.used), Diff(m.rss, m.used));
  // Eviction counts all memory (no AOF or replica buffers are set apart), and values are freed
  // at once, never in the background.
  out += "mem_not_counted_for_evict:0\r\n";
  out += fmt::format("mem_replication_backlog:{}\r\nmem_total_replication_buffers:{}\r\n",
                     m.backlog, m.replication_buffers);
  out += fmt::format("mem_clients_slaves:{}\r\nmem_clients_normal:{}\r\n", m.clients_replicas,
                     m.clients_normal);
  out += "mem_cluster_links:0\r\nmem_aof_buffer:0\r\n";
  out += "mem_allocator:libc\r\n";
  out += "active_defrag_running:0\r\nlazyfree_pending_objects:0\r\nlazyfreed_objects:0\r\n";
}

void PersistenceSection(Engine& e, std::string& out) { e.persistence().AppendInfo(&out); }

void StatsSection(Engine& e, std::string& out) {
  const ServerStats& s = e.stats().totals();
  const KeyspaceStats& k = e.keyspace().stats();
  out += "# Stats\r\n";
  out += fmt::format("total_connections_received:{}\r\n", s.total_connections_received);
  out += fmt::format("total_commands_processed:{}\r\n", s.total_commands_processed);
  out += fmt::format("instantaneous_ops_per_sec:{}\r\n", s.ops.Average());
  out += fmt::format("total_net_input_bytes:{}\r\n", s.total_net_input_bytes);
  out += fmt::format("total_net_output_bytes:{}\r\n", s.total_net_output_bytes);
  const ReplicationStats& rs = e.replication().stats();
  out += fmt::format("total_net_repl_input_bytes:{}\r\ntotal_net_repl_output_bytes:{}\r\n",
                     rs.net_repl_input_bytes, rs.net_repl_output_bytes);
  auto kbps = [](const InstantaneousMetric& m) { return m.Average() / 1024.0; };
  out += fmt::format("instantaneous_input_kbps:{:.2f}\r\ninstantaneous_output_kbps:{:.2f}\r\n",
                     kbps(s.net_input), kbps(s.net_output));
  out += fmt::format(
      "instantaneous_input_repl_kbps:{:.2f}\r\ninstantaneous_output_repl_kbps:{:.2f}\r\n",
      kbps(s.net_repl_input), kbps(s.net_repl_output));
  out += fmt::format("rejected_connections:{}\r\n", s.rejected_connections);
  out += fmt::format("sync_full:{}\r\nsync_partial_ok:{}\r\nsync_partial_err:{}\r\n", rs.sync_full,
                     rs.sync_partial_ok, rs.sync_partial_err);
  out += fmt::format("expired_keys:{}\r\n", k.expired_keys);
  out += fmt::format("expired_stale_perc:{:.2f}\r\n", k.expired_stale_perc);
  out += fmt::format("expired_time_cap_reached_count:{}\r\n", k.expired_time_cap_reached_count);
  out += fmt::format("expire_cycle_cpu_milliseconds:{}\r\n", k.expire_cycle_cpu_us / 1000);
  out += fmt::format("evicted_keys:{}\r\nevicted_clients:0\r\n", k.evicted_keys);
  uint64_t current_exceeded_us =
      s.eviction_exceeded_since_us == 0
          ? 0
          : static_cast<uint64_t>(MonotonicUs() - s.eviction_exceeded_since_us);
  out += fmt::format("total_eviction_exceeded_time:{}\r\ncurrent_eviction_exceeded_time:{}\r\n",
                     (s.eviction_exceeded_us + current_exceeded_us) / 1000,
                     current_exceeded_us / 1000);
  out +=
      fmt::format("keyspace_hits:{}\r\nkeyspace_misses:{}\r\n", k.keyspace_hits, k.keyspace_misses);
  out += fmt::format("pubsub_channels:{}\r\npubsub_patterns:{}\r\npubsubshard_channels:{}\r\n",
                     e.messaging().pubsub().NumChannels(PubSubKind::kChannel),
                     e.messaging().pubsub().NumPatterns(),
                     e.messaging().pubsub().NumChannels(PubSubKind::kShard));
  out += fmt::format("latest_fork_usec:0\r\ntotal_forks:0\r\nmigrate_cached_sockets:{}\r\n",
                     e.migrate_sockets().size());
  // Keys with a TTL written on a writable replica, which Redis tracks to expire them: redlab's
  // replicas expire such keys as any other, so none is tracked apart.
  out += "slave_expires_tracked_keys:0\r\n";
  // No active defragmentation: libc's malloc has no defragmenter to drive.
  out +=
      "active_defrag_hits:0\r\nactive_defrag_misses:0\r\nactive_defrag_key_hits:0\r\n"
      "active_defrag_key_misses:0\r\ntotal_active_defrag_time:0\r\n"
      "current_active_defrag_time:0\r\n";
  const Tracking& t = e.messaging().tracking();
  out += fmt::format("tracking_total_keys:{}\r\ntracking_total_items:{}\r\n", t.total_keys(),
                     t.total_items());
  out += fmt::format("tracking_total_prefixes:{}\r\n", t.total_prefixes());
  // (Errors answered to our master or an AOF client: redlab's replicas do not count them apart.)
  out += "unexpected_error_replies:0\r\n";
  out += fmt::format("total_error_replies:{}\r\n", s.total_error_replies);
  // RESTORE and snapshots decode every payload in full whatever sanitize-dump-payload says;
  // those deep checks are not counted apart.
  out += "dump_payload_sanitizations:0\r\n";
  out += fmt::format("total_reads_processed:{}\r\n", s.total_reads_processed);
  out += fmt::format("total_writes_processed:{}\r\n", s.total_writes_processed);
  // One event-loop thread per node: nothing is read or written by I/O threads.
  out += "io_threaded_reads_processed:0\r\nio_threaded_writes_processed:0\r\n";
  // Reply buffers grow as replies need and are not resized by a cron, as Redis's are.
  out += "reply_buffer_shrinks:0\r\nreply_buffer_expands:0\r\n";
}

void ReplicationSection(Engine& e, std::string& out) { e.replication().AppendInfo(&out); }

void CpuSection(Engine&, std::string& out) {
  rusage self{}, children{};
  getrusage(RUSAGE_SELF, &self);
  getrusage(RUSAGE_CHILDREN, &children);
  auto secs = [](const timeval& tv) { return static_cast<double>(tv.tv_sec) + tv.tv_usec / 1e6; };
  out += "# CPU\r\n";
  out += fmt::format("used_cpu_sys:{:.6f}\r\nused_cpu_user:{:.6f}\r\n", secs(self.ru_stime),
                     secs(self.ru_utime));
  out += fmt::format("used_cpu_sys_children:{:.6f}\r\nused_cpu_user_children:{:.6f}\r\n",
                     secs(children.ru_stime), secs(children.ru_utime));
  // The node's own event-loop thread (INFO runs on it).
  rusage thread{};
  getrusage(RUSAGE_THREAD, &thread);
  out += fmt::format("used_cpu_sys_main_thread:{:.6f}\r\nused_cpu_user_main_thread:{:.6f}\r\n",
                     secs(thread.ru_stime), secs(thread.ru_utime));
}

void CommandStatsSection(Engine& e, std::string& out) {
  out += "# Commandstats\r\n";
  auto emit = [&](const Command& cmd) {
    const CommandStats& s = e.stats().command(cmd);
    if (s.calls == 0 && s.rejected_calls == 0 && s.failed_calls == 0) return;
    double per_call = s.calls ? static_cast<double>(s.usec) / static_cast<double>(s.calls) : 0;
    out += fmt::format(
        "cmdstat_{}:calls={},usec={},usec_per_call={:.2f},rejected_calls={},failed_calls={}\r\n",
        cmd.full_name, s.calls, s.usec, per_call, s.rejected_calls, s.failed_calls);
  };
  for (const auto& cmd : e.commands().all()) {
    emit(*cmd);
    for (const auto& sub : cmd->subcommands) emit(*sub);
  }
}

// latency_percentiles_usec_<command>:p50=...,p99=...,p99.9=... for each command called since the
// last reset while latency-tracking was on (fillPercentileDistributionLatencies).
void LatencyStatsSection(Engine& e, std::string& out) {
  out += "# Latencystats\r\n";
  if (!e.config().latency_tracking) return;
  const std::vector<double>& percentiles = e.config().latency_tracking_info_percentiles;
  auto emit = [&](const Command& cmd) {
    const LatencyHistogram& h = e.stats().command(cmd).latency;
    if (h.calls() == 0) return;
    out += fmt::format("latency_percentiles_usec_{}:", cmd.full_name);
    for (size_t i = 0; i < percentiles.size(); ++i) {
      if (i > 0) out += ',';
      std::string p = fmt::format("{:f}", percentiles[i]);
      // trimDoubleString: no trailing zeros, nor a trailing point.
      if (p.find('.') != std::string::npos) {
        p.erase(p.find_last_not_of('0') + 1);
        if (p.back() == '.') p.pop_back();
      }
      out += fmt::format("p{}={:.3f}", p,
                         static_cast<double>(h.ValueAtPercentile(percentiles[i])) / 1000.0);
    }
    out += "\r\n";
  };
  for (const auto& cmd : e.commands().all()) {
    emit(*cmd);
    for (const auto& sub : cmd->subcommands) emit(*sub);
  }
}

void ErrorStatsSection(Engine& e, std::string& out) {
  out += "# Errorstats\r\n";
  for (const auto& [code, count] : e.stats().totals().errors) {
    out += fmt::format("errorstat_{}:count={}\r\n", code, count);
  }
}

void KeyspaceSection(Engine& e, std::string& out) {
  out += "# Keyspace\r\n";
  Keyspace& ks = e.keyspace();
  for (int i = 0; i < ks.num_dbs(); ++i) {
    Db& db = ks.db(i);
    if (db.size() == 0) continue;
    out += fmt::format("db{}:keys={},expires={},avg_ttl={}\r\n", i, db.size(), db.expires_size(),
                       db.avg_ttl());
  }
}

void ModulesSection(Engine&, std::string& out) { out += "# Modules\r\n"; }

void ClusterSection(Engine&, std::string& out) { out += "# Cluster\r\ncluster_enabled:0\r\n"; }

// Sections in Redis's order; `in_default` marks those INFO prints with no argument.
struct Section {
  std::string_view name;
  bool in_default;
  bool in_all;
  void (*write)(Engine& e, std::string& out);
};
constexpr Section kSections[] = {
    {"server", true, true, ServerSection}, {"clients", true, true, ClientsSection},
    {"memory", true, true, MemorySection}, {"persistence", true, true, PersistenceSection},
    {"stats", true, true, StatsSection}, {"replication", true, true, ReplicationSection},
    {"cpu", true, true, CpuSection}, {"modules", true, true, ModulesSection},
    {"commandstats", false, true, CommandStatsSection},
    {"errorstats", true, true, ErrorStatsSection},
    {"latencystats", false, true, LatencyStatsSection}, {"cluster", true, true, ClusterSection},
    {"keyspace", true, true, KeyspaceSection},
};

}  // namespace

std::string GenerateInfo(Engine& engine, const std::vector<std::string_view>& requested) {
  std::set<std::string, std::less<>> wanted;
  bool everything = false;
  if (requested.empty()) wanted.insert("default");
  for (std::string_view r : requested) wanted.insert(ToLower(r));
  if (wanted.count("everything")) everything = true;
  bool all = everything || wanted.count("all");
  bool defaults = wanted.count("default");

  std::string out;
  for (const Section& s : kSections) {
    bool include = wanted.count(s.name) || (all && s.in_all) || (defaults && s.in_default);
    if (!include) continue;
    if (!out.empty()) out += "\r\n";
    s.write(engine, out);
  }
  return out;
}

}  // namespace redlab::server::engine
