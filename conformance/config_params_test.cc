// Every parameter of redis-server 7.0.15 over CONFIG GET and SET: the names CONFIG GET * lists
// and their defaults, hidden parameters, immutable ones, Redis's validation texts and the forms
// values are shown in, all-or-nothing CONFIG SET, and what redlab wires up (replicaof, the
// replica's announced address and priority).
#include <map>
#include <set>

#include "conformance/harness/fixture.h"

namespace redlab::conformance {
namespace {

// A value that depends on the machine or on how the harness starts the server.
constexpr const char* kAnyValue = nullptr;

// CONFIG GET * on a redis-server 7.0.15 as Debian builds it (with TLS), started with default
// settings: every name (aliases included, hidden parameters excluded) and its default value.
const std::map<std::string, const char*> kDefaults = {
    {"acl-pubsub-default", "resetchannels"},
    {"aclfile", ""},
    {"acllog-max-len", "128"},
    {"active-defrag-cycle-max", "25"},
    {"active-defrag-cycle-min", "1"},
    {"active-defrag-ignore-bytes", "104857600"},
    {"active-defrag-max-scan-fields", "1000"},
    {"active-defrag-threshold-lower", "10"},
    {"active-defrag-threshold-upper", "100"},
    {"active-expire-effort", "1"},
    {"activedefrag", "no"},
    {"activerehashing", "yes"},
    {"always-show-logo", "no"},
    {"aof-disable-auto-gc", "no"},
    {"aof-load-truncated", "yes"},
    {"aof-rewrite-incremental-fsync", "yes"},
    {"aof-timestamp-enabled", "no"},
    {"aof-use-rdb-preamble", "yes"},
    {"aof_rewrite_cpulist", ""},
    {"appenddirname", "appendonlydir"},
    {"appendfilename", "appendonly.aof"},
    {"appendfsync", "everysec"},
    {"appendonly", "no"},
    {"auto-aof-rewrite-min-size", "67108864"},
    {"auto-aof-rewrite-percentage", "100"},
    {"bgsave_cpulist", ""},
    {"bind", kAnyValue},
    {"bind-source-addr", ""},
    {"bio_cpulist", ""},
    {"busy-reply-threshold", "5000"},
    {"client-output-buffer-limit",
     "normal 0 0 0 slave 268435456 67108864 60 pubsub 33554432 8388608 60"},
    {"client-query-buffer-limit", "1073741824"},
    {"cluster-allow-pubsubshard-when-down", "yes"},
    {"cluster-allow-reads-when-down", "no"},
    {"cluster-allow-replica-migration", "yes"},
    {"cluster-announce-bus-port", "0"},
    {"cluster-announce-hostname", ""},
    {"cluster-announce-ip", ""},
    {"cluster-announce-port", "0"},
    {"cluster-announce-tls-port", "0"},
    {"cluster-config-file", "nodes.conf"},
    {"cluster-enabled", "no"},
    {"cluster-link-sendbuf-limit", "0"},
    {"cluster-migration-barrier", "1"},
    {"cluster-node-timeout", "15000"},
    {"cluster-port", "0"},
    {"cluster-preferred-endpoint-type", "ip"},
    {"cluster-replica-no-failover", "no"},
    {"cluster-replica-validity-factor", "10"},
    {"cluster-require-full-coverage", "yes"},
    {"cluster-slave-no-failover", "no"},
    {"cluster-slave-validity-factor", "10"},
    {"crash-log-enabled", "yes"},
    {"crash-memcheck-enabled", "yes"},
    {"daemonize", "no"},
    {"databases", "16"},
    {"dbfilename", "dump.rdb"},
    {"dir", kAnyValue},
    {"disable-thp", "yes"},
    {"dynamic-hz", "yes"},
    {"enable-debug-command", "no"},
    {"enable-module-command", "no"},
    {"enable-protected-configs", "no"},
    {"hash-max-listpack-entries", "512"},
    {"hash-max-listpack-value", "64"},
    {"hash-max-ziplist-entries", "512"},
    {"hash-max-ziplist-value", "64"},
    {"hll-sparse-max-bytes", "3000"},
    {"hz", "10"},
    {"ignore-warnings", ""},
    {"io-threads", "1"},
    {"io-threads-do-reads", "no"},
    {"jemalloc-bg-thread", "yes"},
    {"latency-monitor-threshold", "0"},
    {"latency-tracking", "yes"},
    {"latency-tracking-info-percentiles", "50 99 99.9"},
    {"lazyfree-lazy-eviction", "no"},
    {"lazyfree-lazy-expire", "no"},
    {"lazyfree-lazy-server-del", "no"},
    {"lazyfree-lazy-user-del", "no"},
    {"lazyfree-lazy-user-flush", "no"},
    {"lfu-decay-time", "1"},
    {"lfu-log-factor", "10"},
    {"list-compress-depth", "0"},
    {"list-max-listpack-size", "-2"},
    {"list-max-ziplist-size", "-2"},
    {"logfile", kAnyValue},
    {"loglevel", kAnyValue},
    {"lua-time-limit", "5000"},
    {"masterauth", ""},
    {"masteruser", ""},
    {"maxclients", "10000"},
    {"maxmemory", "0"},
    {"maxmemory-clients", "0"},
    {"maxmemory-eviction-tenacity", "10"},
    {"maxmemory-policy", "noeviction"},
    {"maxmemory-samples", "5"},
    {"min-replicas-max-lag", "10"},
    {"min-replicas-to-write", "0"},
    {"min-slaves-max-lag", "10"},
    {"min-slaves-to-write", "0"},
    {"no-appendfsync-on-rewrite", "no"},
    {"notify-keyspace-events", ""},
    {"oom-score-adj", "no"},
    {"oom-score-adj-values", "0 200 800"},
    {"pidfile", ""},
    {"port", kAnyValue},
    {"proc-title-template", "{title} {listen-addr} {server-mode}"},
    {"propagation-error-behavior", "ignore"},
    {"protected-mode", "yes"},
    {"proto-max-bulk-len", "536870912"},
    {"rdb-del-sync-files", "no"},
    {"rdb-save-incremental-fsync", "yes"},
    {"rdbchecksum", "yes"},
    {"rdbcompression", "yes"},
    {"repl-backlog-size", "1048576"},
    {"repl-backlog-ttl", "3600"},
    {"repl-disable-tcp-nodelay", "no"},
    {"repl-diskless-load", "disabled"},
    {"repl-diskless-sync", "yes"},
    {"repl-diskless-sync-delay", "5"},
    {"repl-diskless-sync-max-replicas", "0"},
    {"repl-ping-replica-period", "10"},
    {"repl-ping-slave-period", "10"},
    {"repl-timeout", "60"},
    {"replica-announce-ip", ""},
    {"replica-announce-port", "0"},
    {"replica-announced", "yes"},
    {"replica-ignore-disk-write-errors", "no"},
    {"replica-ignore-maxmemory", "yes"},
    {"replica-lazy-flush", "no"},
    {"replica-priority", "100"},
    {"replica-read-only", "yes"},
    {"replica-serve-stale-data", "yes"},
    {"replicaof", ""},
    {"requirepass", ""},
    {"sanitize-dump-payload", "no"},
    {"save", ""},
    {"server_cpulist", ""},
    {"set-max-intset-entries", "512"},
    {"set-proc-title", "yes"},
    {"shutdown-on-sigint", "default"},
    {"shutdown-on-sigterm", "default"},
    {"shutdown-timeout", "10"},
    {"slave-announce-ip", ""},
    {"slave-announce-port", "0"},
    {"slave-ignore-maxmemory", "yes"},
    {"slave-lazy-flush", "no"},
    {"slave-priority", "100"},
    {"slave-read-only", "yes"},
    {"slave-serve-stale-data", "yes"},
    {"slaveof", ""},
    {"slowlog-log-slower-than", "10000"},
    {"slowlog-max-len", "128"},
    {"socket-mark-id", "0"},
    {"stop-writes-on-bgsave-error", "yes"},
    {"stream-node-max-bytes", "4096"},
    {"stream-node-max-entries", "100"},
    {"supervised", "no"},
    {"syslog-enabled", "no"},
    {"syslog-facility", "local0"},
    {"syslog-ident", "redis"},
    {"tcp-backlog", "511"},
    {"tcp-keepalive", "300"},
    {"timeout", "0"},
    {"tls-auth-clients", "yes"},
    {"tls-ca-cert-dir", ""},
    {"tls-ca-cert-file", ""},
    {"tls-cert-file", ""},
    {"tls-ciphers", ""},
    {"tls-ciphersuites", ""},
    {"tls-client-cert-file", ""},
    {"tls-client-key-file", ""},
    {"tls-client-key-file-pass", ""},
    {"tls-cluster", "no"},
    {"tls-dh-params-file", ""},
    {"tls-key-file", ""},
    {"tls-key-file-pass", ""},
    {"tls-port", "0"},
    {"tls-prefer-server-ciphers", "no"},
    {"tls-protocols", ""},
    {"tls-replication", "no"},
    {"tls-session-cache-size", "20480"},
    {"tls-session-cache-timeout", "300"},
    {"tls-session-caching", "yes"},
    {"tracking-table-max-keys", "1000000"},
    {"unixsocket", ""},
    {"unixsocketperm", "0"},
    {"zset-max-listpack-entries", "128"},
    {"zset-max-listpack-value", "64"},
    {"zset-max-ziplist-entries", "128"},
    {"zset-max-ziplist-value", "64"},
};

// HIDDEN_CONFIG: answered by name, never listed by a pattern.
const char* const kHidden[] = {"use-exit-on-panic", "rdb-key-save-delay", "key-load-delay",
                               "watchdog-period", "loading-process-events-interval-bytes",
                               "lua-enable-deprecated-api"};

// IMMUTABLE_CONFIG: settable at startup only.
// clang-format off
const char* const kImmutable[] = {
    "rdbchecksum", "daemonize", "io-threads-do-reads", "always-show-logo", "set-proc-title",
    "syslog-enabled", "cluster-enabled", "disable-thp", "aclfile", "unixsocket", "pidfile",
    "cluster-config-file", "syslog-ident", "appendfilename", "appenddirname", "server_cpulist",
    "bio_cpulist", "aof_rewrite_cpulist", "bgsave_cpulist", "logfile", "supervised",
    "syslog-facility", "enable-protected-configs", "enable-debug-command",
    "enable-module-command", "databases", "io-threads", "tcp-backlog", "cluster-port",
    "unixsocketperm", "socket-mark-id", "replicaof", "slaveof", "lua-enable-deprecated-api"};
// clang-format on

class ConfigParamsTest : public ConformanceTest {
 protected:
  void TearDown() override {
    // Back to the values the suite's server started with, for the next test.
    for (const auto& [name, value] : changed_) c()({"CONFIG", "SET", name, value});
  }

  std::string Get(const std::string& name) {
    Reply r = c()({"CONFIG", "GET", name});
    return r.elements.size() == 2 ? r.elements[1].str : std::string("<missing>");
  }
  // CONFIG SET name value, remembering the value to restore after the test.
  Reply Set(const std::string& name, const std::string& value) {
    if (!changed_.count(name)) changed_[name] = Get(name);
    return c()({"CONFIG", "SET", name, value});
  }
  static Reply SetError(const std::string& name, const std::string& reason) {
    return Error("ERR CONFIG SET failed (possibly related to argument '" + name + "') - " + reason);
  }
  static std::map<std::string, std::string> AsMap(const Reply& r) {
    std::map<std::string, std::string> m;
    for (size_t i = 0; i + 1 < r.elements.size(); i += 2)
      m[r.elements[i].str] = r.elements[i + 1].str;
    return m;
  }

  std::map<std::string, std::string> changed_;
};

TEST_F(ConfigParamsTest, ConfigGetStarListsEveryParameterWithItsDefault) {
  // A server of its own: the suite's may have been changed by an earlier test.
  std::unique_ptr<Server> fresh = StartServer();
  Client f(fresh->port());
  Reply all = f({"CONFIG", "GET", "*"});
  std::map<std::string, std::string> shown = AsMap(all);
  EXPECT_EQ(all.elements.size(), 2 * shown.size()) << "a name listed twice";
  EXPECT_EQ(shown.size(), 192u);
  std::set<std::string> expected_names, shown_names;
  for (const auto& [name, value] : kDefaults) expected_names.insert(name);
  for (const auto& [name, value] : shown) shown_names.insert(name);
  EXPECT_EQ(shown_names, expected_names);
  for (const auto& [name, value] : kDefaults) {
    if (value != kAnyValue && shown.count(name)) {
      EXPECT_EQ(shown[name], value) << name;
    }
  }
}

TEST_F(ConfigParamsTest, HiddenParametersAnswerOnlyWhenNamed) {
  std::map<std::string, std::string> all = AsMap(c()({"CONFIG", "GET", "*"}));
  for (const char* name : kHidden) {
    EXPECT_EQ(all.count(name), 0u) << name;
    Reply named = c()({"CONFIG", "GET", name});
    ASSERT_EQ(named.elements.size(), 2u) << name;
    EXPECT_EQ(named.elements[0], Bulk(name));
  }
  EXPECT_EQ(c()({"CONFIG", "GET", "key-load-delay"}), Array({Bulk("key-load-delay"), Bulk("0")}));
  EXPECT_EQ(c()({"CONFIG", "GET", "key-load*"}), Array({}));
  // Hidden, yet settable.
  EXPECT_EQ(Set("key-load-delay", "5"), Status("OK"));
  EXPECT_EQ(Get("key-load-delay"), "5");
}

TEST_F(ConfigParamsTest, ImmutableParametersRefuseEvenTheirOwnValue) {
  for (const char* name : kImmutable) {
    std::string value = Get(name);
    EXPECT_EQ(c()({"CONFIG", "SET", name, value}), SetError(name, "can't set immutable config"))
        << name;
    EXPECT_EQ(Get(name), value) << name;
  }
  // The argument as given, in the error (Redis's "CONFIG SET set immutable").
  EXPECT_EQ(c()({"CONFIG", "SET", "DAEMONIZE", "yes"}),
            SetError("DAEMONIZE", "can't set immutable config"));
  EXPECT_EQ(c()({"CONFIG", "SET", "replicaof", "no one"}),
            SetError("replicaof", "can't set immutable config"));
}

TEST_F(ConfigParamsTest, GetWithSeveralPatternsAndNames) {
  Reply r = c()({"CONFIG", "GET", "maxmemory", "maxmemory*", "bind", "*of"});
  std::map<std::string, std::string> res = AsMap(r);
  EXPECT_EQ(r.elements.size(), 2 * res.size()) << "a name answered twice";
  EXPECT_EQ(res.size(), 8u);
  for (const char* name :
       {"maxmemory", "maxmemory-policy", "maxmemory-samples", "maxmemory-eviction-tenacity",
        "maxmemory-clients", "bind", "replicaof", "slaveof"}) {
    EXPECT_EQ(res.count(name), 1u) << name;
  }
  EXPECT_EQ(res["replicaof"], "");
  EXPECT_EQ(res["slaveof"], "");
  // Aliases answer under the name asked, with the parameter's value.
  EXPECT_EQ(Set("replica-priority", "7"), Status("OK"));
  EXPECT_EQ(c()({"CONFIG", "GET", "slave-priority"}), Array({Bulk("slave-priority"), Bulk("7")}));
}

TEST_F(ConfigParamsTest, PercentRefusedAndTheWholeCommandRolledBack) {
  std::string clients = Get("maxmemory-clients");
  std::string query_limit = Get("client-query-buffer-limit");
  ASSERT_EQ(Set("maxmemory", "10000002"), Status("OK"));
  EXPECT_EQ(c()({"CONFIG", "SET", "maxmemory", "10000001", "maxmemory-clients", "200%",
                 "client-query-buffer-limit", "invalid"}),
            SetError("maxmemory-clients", "percentage argument must be less or equal to 100"));
  EXPECT_EQ(Get("maxmemory"), "10000002");
  EXPECT_EQ(Get("maxmemory-clients"), clients);
  EXPECT_EQ(Get("client-query-buffer-limit"), query_limit);
  // A percentage is shown as given; a memory value in bytes.
  EXPECT_EQ(Set("maxmemory-clients", "10%"), Status("OK"));
  EXPECT_EQ(Get("maxmemory-clients"), "10%");
  EXPECT_EQ(Set("maxmemory-clients", "1mb"), Status("OK"));
  EXPECT_EQ(Get("maxmemory-clients"), "1048576");
  EXPECT_EQ(Set("maxmemory-clients", "-5%"),
            SetError("maxmemory-clients", "argument must be a memory or percent value"));
}

TEST_F(ConfigParamsTest, BadValuesGetRedisReasons) {
  EXPECT_EQ(Set("activerehashing", "maybe"),
            SetError("activerehashing", "argument must be 'yes' or 'no'"));
  EXPECT_EQ(
      Set("appendfsync", "sometimes"),
      SetError("appendfsync", "argument(s) must be one of the following: everysec, always, no"));
  EXPECT_EQ(
      Set("maxmemory-eviction-tenacity", "101"),
      SetError("maxmemory-eviction-tenacity", "argument must be between 0 and 100 inclusive"));
  EXPECT_EQ(Set("shutdown-timeout", "1.5"),
            SetError("shutdown-timeout", "argument couldn't be parsed into an integer"));
  EXPECT_EQ(Set("maxclients", "4294967296"),
            SetError("maxclients", "argument must be between 1 and 4294967295 inclusive"));
  EXPECT_EQ(Set("hll-sparse-max-bytes", "5xb"),
            SetError("hll-sparse-max-bytes", "argument must be a memory value"));
  // A refused value is reported under the parameter's lower-case name (or its alias's).
  EXPECT_EQ(c()({"CONFIG", "SET", "SLAVE-PRIORITY", "x"}),
            SetError("slave-priority", "argument couldn't be parsed into an integer"));
  EXPECT_EQ(Set("shutdown-on-sigint", "save nosave"),
            SetError("shutdown-on-sigint",
                     "shutdown options SAVE and NOSAVE can't be used simultaneously"));
  EXPECT_EQ(
      Set("shutdown-on-sigint", ""),
      SetError("shutdown-on-sigint",
               "argument(s) must be one of the following: default, save, nosave, now, force"));
  EXPECT_EQ(Set("oom-score-adj-values", "0 200"),
            SetError("oom-score-adj-values", "wrong number of arguments"));
  EXPECT_EQ(Set("oom-score-adj-values", "0 200 2001"),
            SetError("oom-score-adj-values",
                     "Invalid oom-score-adj-values, elements must be between -2000 and 2000."));
  EXPECT_EQ(
      Set("latency-tracking-info-percentiles", "50 101"),
      SetError("latency-tracking-info-percentiles",
               "latency-tracking-info-percentiles parameters should sit between [0.0,100.0]"));
  EXPECT_EQ(Set("latency-tracking-info-percentiles", "50 x"),
            SetError("latency-tracking-info-percentiles",
                     "Invalid latency-tracking-info-percentiles parameters"));
  EXPECT_EQ(Set("save", "0 1"), SetError("save", "Invalid save parameters"));
  EXPECT_EQ(Set("save", "100"), SetError("save", "Invalid save parameters"));
  EXPECT_EQ(
      Set("proc-title-template", "{title} {nosuch}"),
      SetError("proc-title-template", "template format is invalid or contains unknown variables"));
  EXPECT_EQ(
      Set("proc-title-template", "{title}"),
      SetError("proc-title-template", "template format is invalid or contains unknown variables"));
  EXPECT_EQ(Set("cluster-announce-hostname", "a b"),
            SetError("cluster-announce-hostname",
                     "Hostnames may only contain alphanumeric characters, hyphens or dots"));
  EXPECT_EQ(
      Set("activedefrag", "yes"),
      SetError("activedefrag",
               "Active defragmentation cannot be enabled: it requires a Redis server compiled "
               "with a modified Jemalloc like the one shipped by default with the Redis "
               "source distribution"));
  // TLS cannot be turned on without certificates.
  EXPECT_EQ(Set("tls-replication", "yes"),
            SetError("tls-replication", "Unable to update TLS configuration. Check server logs."));
  EXPECT_EQ(Get("tls-replication"), "no");
  EXPECT_EQ(c()({"PING"}), Status("PONG"));
}

TEST_F(ConfigParamsTest, ValuesAreShownInRedisForm) {
  EXPECT_EQ(Set("save", "0100 01 60 10000"), Status("OK"));
  EXPECT_EQ(Get("save"), "100 1 60 10000");
  EXPECT_EQ(Set("save", ""), Status("OK"));
  EXPECT_EQ(Get("save"), "");
  EXPECT_EQ(Set("oom-score-adj", "relative"), Status("OK"));
  EXPECT_EQ(Get("oom-score-adj"), "yes");
  EXPECT_EQ(Set("shutdown-on-sigterm", "force NOW"), Status("OK"));
  EXPECT_EQ(Get("shutdown-on-sigterm"), "now force");
  EXPECT_EQ(Set("shutdown-on-sigterm", "default save"), Status("OK"));
  EXPECT_EQ(Get("shutdown-on-sigterm"), "save");
  EXPECT_EQ(Set("latency-tracking-info-percentiles", "50.000 99.90 0.0001 100"), Status("OK"));
  EXPECT_EQ(Get("latency-tracking-info-percentiles"), "50 99.9 0.0001 100");
  EXPECT_EQ(Set("latency-tracking-info-percentiles", ""), Status("OK"));
  EXPECT_EQ(Get("latency-tracking-info-percentiles"), "");
  EXPECT_EQ(Set("hll-sparse-max-bytes", "3k"), Status("OK"));
  EXPECT_EQ(Get("hll-sparse-max-bytes"), "3000");
  EXPECT_EQ(Set("appendfsync", "ALWAYS"), Status("OK"));
  EXPECT_EQ(Get("appendfsync"), "always");
  // repl-backlog-size has a floor of 16kb (resizeReplicationBacklog).
  EXPECT_EQ(Set("repl-backlog-size", "100"), Status("OK"));
  EXPECT_EQ(Get("repl-backlog-size"), "16384");
  // Set together with its alias, a parameter takes the last value.
  EXPECT_EQ(c()({"CONFIG", "SET", "replica-lazy-flush", "yes", "slave-lazy-flush", "no"}),
            Status("OK"));
  EXPECT_EQ(Get("replica-lazy-flush"), "no");
}

// replicaof shows the master a replica follows; the replica's INFO shows its configured priority.
TEST_F(ConfigParamsTest, ReplicaofShowsTheMasterFollowed) {
  std::unique_ptr<Server> replica = StartServer();
  Client r(replica->port());
  int master_port = FreePort();  // no one listens there: the link just keeps trying
  ASSERT_EQ(r({"REPLICAOF", "127.0.0.1", std::to_string(master_port)}), Status("OK"));
  std::string expected = "127.0.0.1 " + std::to_string(master_port);
  EXPECT_EQ(r({"CONFIG", "GET", "replicaof"}), Array({Bulk("replicaof"), Bulk(expected)}));
  EXPECT_EQ(r({"CONFIG", "GET", "slaveof"}), Array({Bulk("slaveof"), Bulk(expected)}));
  ASSERT_EQ(r({"CONFIG", "SET", "replica-priority", "42", "replica-announced", "no"}),
            Status("OK"));
  std::string info = r({"INFO", "replication"}).str;
  EXPECT_NE(info.find("slave_priority:42\r\n"), std::string::npos) << info;
  EXPECT_NE(info.find("replica_announced:0\r\n"), std::string::npos) << info;
  ASSERT_EQ(r({"REPLICAOF", "NO", "ONE"}), Status("OK"));
  EXPECT_EQ(r({"CONFIG", "GET", "replicaof"}), Array({Bulk("replicaof"), Bulk("")}));
}

// replica-announce-ip and -port: the master lists the replica under the address it announced
// (from the handshake on; the sync itself waits for repl-diskless-sync-delay).
TEST_F(ConfigParamsTest, ReplicaAnnouncesItsConfiguredAddress) {
  std::unique_ptr<Server> master = StartServer();
  std::unique_ptr<Server> replica = StartServer();
  Client m(master->port());
  Client r(replica->port());
  ASSERT_EQ(
      r({"CONFIG", "SET", "replica-announce-ip", "10.1.2.3", "replica-announce-port", "1234"}),
      Status("OK"));
  ASSERT_EQ(r({"REPLICAOF", "127.0.0.1", std::to_string(master->port())}), Status("OK"));
  std::string info;
  EXPECT_TRUE(Eventually([&] {
    info = m({"INFO", "replication"}).str;
    return info.find("slave0:ip=10.1.2.3,port=1234,") != std::string::npos;
  })) << info;
}

}  // namespace
}  // namespace redlab::conformance
