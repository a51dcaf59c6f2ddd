// INFO's sections carry Redis 7.0.15's fields, by name and in Redis's order, so that tools that
// read INFO (exporters, test harnesses) find every field where they expect it. Values are checked
// by the suites of each area; here only the names.
#include <map>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "conformance/harness/fixture.h"

namespace redlab::conformance {
namespace {

class InfoTest : public ConformanceTest {
 protected:
  // The field names of one INFO section, in order.
  std::vector<std::string> FieldsOf(const std::string& section) {
    std::string info = c()({"INFO", section}).str;
    std::vector<std::string> names;
    size_t pos = 0;
    while (pos < info.size()) {
      size_t end = info.find("\r\n", pos);
      std::string line = info.substr(pos, end - pos);
      pos = end + 2;
      if (line.empty() || line[0] == '#') continue;
      names.push_back(line.substr(0, line.find(':')));
    }
    return names;
  }
};

TEST_F(InfoTest, ClientsFields) {
  EXPECT_EQ(FieldsOf("clients"),
            (std::vector<std::string>{"connected_clients", "cluster_connections", "maxclients",
                                      "client_recent_max_input_buffer",
                                      "client_recent_max_output_buffer", "blocked_clients",
                                      "tracking_clients", "clients_in_timeout_table"}));
}

TEST_F(InfoTest, MemoryFields) {
  EXPECT_EQ(FieldsOf("memory"), (std::vector<std::string>{"used_memory",
                                                          "used_memory_human",
                                                          "used_memory_rss",
                                                          "used_memory_rss_human",
                                                          "used_memory_peak",
                                                          "used_memory_peak_human",
                                                          "used_memory_peak_perc",
                                                          "used_memory_overhead",
                                                          "used_memory_startup",
                                                          "used_memory_dataset",
                                                          "used_memory_dataset_perc",
                                                          "allocator_allocated",
                                                          "allocator_active",
                                                          "allocator_resident",
                                                          "total_system_memory",
                                                          "total_system_memory_human",
                                                          "used_memory_lua",
                                                          "used_memory_vm_eval",
                                                          "used_memory_lua_human",
                                                          "used_memory_scripts_eval",
                                                          "number_of_cached_scripts",
                                                          "number_of_functions",
                                                          "number_of_libraries",
                                                          "used_memory_vm_functions",
                                                          "used_memory_vm_total",
                                                          "used_memory_vm_total_human",
                                                          "used_memory_functions",
                                                          "used_memory_scripts",
                                                          "used_memory_scripts_human",
                                                          "maxmemory",
                                                          "maxmemory_human",
                                                          "maxmemory_policy",
                                                          "allocator_frag_ratio",
                                                          "allocator_frag_bytes",
                                                          "allocator_rss_ratio",
                                                          "allocator_rss_bytes",
                                                          "rss_overhead_ratio",
                                                          "rss_overhead_bytes",
                                                          "mem_fragmentation_ratio",
                                                          "mem_fragmentation_bytes",
                                                          "mem_not_counted_for_evict",
                                                          "mem_replication_backlog",
                                                          "mem_total_replication_buffers",
                                                          "mem_clients_slaves",
                                                          "mem_clients_normal",
                                                          "mem_cluster_links",
                                                          "mem_aof_buffer",
                                                          "mem_allocator",
                                                          "active_defrag_running",
                                                          "lazyfree_pending_objects",
                                                          "lazyfreed_objects"}));
}

TEST_F(InfoTest, PersistenceFields) {
  EXPECT_EQ(FieldsOf("persistence"), (std::vector<std::string>{"loading",
                                                               "async_loading",
                                                               "current_cow_peak",
                                                               "current_cow_size",
                                                               "current_cow_size_age",
                                                               "current_fork_perc",
                                                               "current_save_keys_processed",
                                                               "current_save_keys_total",
                                                               "rdb_changes_since_last_save",
                                                               "rdb_bgsave_in_progress",
                                                               "rdb_last_save_time",
                                                               "rdb_last_bgsave_status",
                                                               "rdb_last_bgsave_time_sec",
                                                               "rdb_current_bgsave_time_sec",
                                                               "rdb_saves",
                                                               "rdb_last_cow_size",
                                                               "rdb_last_load_keys_expired",
                                                               "rdb_last_load_keys_loaded",
                                                               "aof_enabled",
                                                               "aof_rewrite_in_progress",
                                                               "aof_rewrite_scheduled",
                                                               "aof_last_rewrite_time_sec",
                                                               "aof_current_rewrite_time_sec",
                                                               "aof_last_bgrewrite_status",
                                                               "aof_rewrites",
                                                               "aof_rewrites_consecutive_failures",
                                                               "aof_last_write_status",
                                                               "aof_last_cow_size",
                                                               "module_fork_in_progress",
                                                               "module_fork_last_cow_size"}));
}

TEST_F(InfoTest, StatsFields) {
  EXPECT_EQ(FieldsOf("stats"), (std::vector<std::string>{"total_connections_received",
                                                         "total_commands_processed",
                                                         "instantaneous_ops_per_sec",
                                                         "total_net_input_bytes",
                                                         "total_net_output_bytes",
                                                         "total_net_repl_input_bytes",
                                                         "total_net_repl_output_bytes",
                                                         "instantaneous_input_kbps",
                                                         "instantaneous_output_kbps",
                                                         "instantaneous_input_repl_kbps",
                                                         "instantaneous_output_repl_kbps",
                                                         "rejected_connections",
                                                         "sync_full",
                                                         "sync_partial_ok",
                                                         "sync_partial_err",
                                                         "expired_keys",
                                                         "expired_stale_perc",
                                                         "expired_time_cap_reached_count",
                                                         "expire_cycle_cpu_milliseconds",
                                                         "evicted_keys",
                                                         "evicted_clients",
                                                         "total_eviction_exceeded_time",
                                                         "current_eviction_exceeded_time",
                                                         "keyspace_hits",
                                                         "keyspace_misses",
                                                         "pubsub_channels",
                                                         "pubsub_patterns",
                                                         "pubsubshard_channels",
                                                         "latest_fork_usec",
                                                         "total_forks",
                                                         "migrate_cached_sockets",
                                                         "slave_expires_tracked_keys",
                                                         "active_defrag_hits",
                                                         "active_defrag_misses",
                                                         "active_defrag_key_hits",
                                                         "active_defrag_key_misses",
                                                         "total_active_defrag_time",
                                                         "current_active_defrag_time",
                                                         "tracking_total_keys",
                                                         "tracking_total_items",
                                                         "tracking_total_prefixes",
                                                         "unexpected_error_replies",
                                                         "total_error_replies",
                                                         "dump_payload_sanitizations",
                                                         "total_reads_processed",
                                                         "total_writes_processed",
                                                         "io_threaded_reads_processed",
                                                         "io_threaded_writes_processed",
                                                         "reply_buffer_shrinks",
                                                         "reply_buffer_expands"}));
}

TEST_F(InfoTest, CPUFields) {
  EXPECT_EQ(FieldsOf("cpu"),
            (std::vector<std::string>{"used_cpu_sys", "used_cpu_user", "used_cpu_sys_children",
                                      "used_cpu_user_children", "used_cpu_sys_main_thread",
                                      "used_cpu_user_main_thread"}));
}

}  // namespace
}  // namespace redlab::conformance

namespace redlab::conformance {
namespace {

// INFO latencystats: one latency_percentiles_usec_<command> line per command called since the
// last reset, with the configured percentiles; a blocked command counts once served (not when it
// times out).
class LatencyStatsTest : public ConformanceTest {
 protected:
  // field -> value of INFO latencystats.
  std::map<std::string, std::string> Lines() {
    std::string info = c()({"INFO", "latencystats"}).str;
    std::map<std::string, std::string> lines;
    for (size_t pos = 0; pos < info.size();) {
      size_t end = info.find("\r\n", pos);
      std::string line = info.substr(pos, end - pos);
      pos = end + 2;
      if (line.empty() || line[0] == '#') continue;
      lines[line.substr(0, line.find(':'))] = line.substr(line.find(':') + 1);
    }
    return lines;
  }
  void TearDown() override {
    c()({"CONFIG", "SET", "latency-tracking", "yes", "latency-tracking-info-percentiles",
         "50 99 99.9"});
  }
};

TEST_F(LatencyStatsTest, OneLinePerCommandCalledWithThePercentiles) {
  ASSERT_EQ(c()({"CONFIG", "RESETSTAT"}), Status("OK"));
  ASSERT_EQ(c()({"SET", "k", "v"}), Status("OK"));
  ASSERT_EQ(c()({"CLIENT", "ID"}).type, Reply::Type::kInteger);
  std::map<std::string, std::string> lines = Lines();
  std::set<std::string> names;
  for (const auto& [name, value] : lines) names.insert(name);
  EXPECT_EQ(names, (std::set<std::string>{"latency_percentiles_usec_config|resetstat",
                                          "latency_percentiles_usec_set",
                                          "latency_percentiles_usec_client|id"}));
  const std::regex three(R"(p50=\d+\.\d{3},p99=\d+\.\d{3},p99\.9=\d+\.\d{3})");
  for (const auto& [name, value] : lines) EXPECT_TRUE(std::regex_match(value, three)) << value;

  ASSERT_EQ(c()({"CONFIG", "SET", "latency-tracking-info-percentiles", "0 99.999 100"}),
            Status("OK"));
  const std::regex other(R"(p0=\d+\.\d{3},p99\.999=\d+\.\d{3},p100=\d+\.\d{3})");
  EXPECT_TRUE(std::regex_match(Lines()["latency_percentiles_usec_set"], other))
      << Lines()["latency_percentiles_usec_set"];

  ASSERT_EQ(c()({"CONFIG", "SET", "latency-tracking", "no"}), Status("OK"));
  EXPECT_TRUE(Lines().empty());
}

TEST_F(LatencyStatsTest, ABlockedCommandCountsOnceServed) {
  ASSERT_EQ(c()({"DEL", "latency:list"}).type, Reply::Type::kInteger);
  ASSERT_EQ(c()({"CONFIG", "RESETSTAT"}), Status("OK"));
  // Timed out: no latency recorded.
  ASSERT_EQ(c()({"BLPOP", "latency:list", "0.01"}), Nil());
  EXPECT_EQ(Lines().count("latency_percentiles_usec_blpop"), 0u);
  // Served by another client's push.
  Client waiter = Connect();
  waiter.SendCommand({"BLPOP", "latency:list", "0"});
  ASSERT_TRUE(Eventually([&] {
    return c()({"INFO", "clients"}).str.find("blocked_clients:1\r\n") != std::string::npos;
  }));
  ASSERT_EQ(c()({"RPUSH", "latency:list", "x"}), Int(1));
  EXPECT_EQ(waiter.Read(), Array({Bulk("latency:list"), Bulk("x")}));
  EXPECT_EQ(Lines().count("latency_percentiles_usec_blpop"), 1u);
}

}  // namespace
}  // namespace redlab::conformance
