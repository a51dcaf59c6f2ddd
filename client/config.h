// The client's configuration: which servers, and the timeouts, retries and lock settings, each
// with Redisson's default and meaning.
#pragma once

#include <chrono>
#include <string>
#include <string_view>
#include <vector>

namespace redlab {

/// One server, parsed from `redis://[[user]:password@]host[:port][/db]`, as Lettuce reads
/// Redis URIs: user and password are percent-decoded (RFC 3986: `%40` is '@', '+' stays '+'),
/// the host is required (`redis://:6379` is an error, not localhost), the port defaults to
/// 6379 and the database to 0.
struct ServerAddress {
  std::string host = "127.0.0.1";
  int port = 6379;
  std::string user;      // empty: AUTH with the password alone (or no AUTH)
  std::string password;  // empty: no AUTH
  int db = 0;            // SELECTed after connecting when not 0

  /// Throws ConfigError on a malformed URL (no host, a bad port, database or %-escape). The
  /// scheme may be left out ("host:port").
  static ServerAddress Parse(std::string_view url);
  /// `redis://host:port[/db]`, the password left out: for messages.
  std::string ToString() const;
};

/// What the client connects to and how it behaves. Build one with a factory, then adjust.
struct Config {
  enum class Mode {
    kSingle,              ///< one server
    kMasterReplica,       ///< a master with replicas: lock writes are followed by WAIT
    kIndependentMasters,  ///< several unrelated masters (each lock lives on one, see GetLock)
    kSentinel,            ///< a master found and followed through Redis Sentinel
  };

  /// A single server (Redisson's useSingleServer).
  static Config SingleServer(std::string_view url);
  /// A master and its replicas (Redisson's useMasterSlaveServers). Locks live on the master;
  /// the replica addresses document the topology, the number to WAIT for is read from the
  /// master's INFO (connected_slaves) before each lock write.
  static Config MasterReplica(std::string_view master_url,
                              const std::vector<std::string>& replica_urls);
  /// Independent masters, e.g. for RedLock-style use: GetLock(name, index) picks one.
  static Config IndependentMasters(const std::vector<std::string>& urls);
  /// The master `master_name` as Redis Sentinel knows it (Redisson's useSentinelServers): the
  /// sentinels at `sentinel_urls` are asked SENTINEL GET-MASTER-ADDR-BY-NAME (REPLICAS and
  /// SENTINELS too), the client follows +switch-master (and a rescan every
  /// sentinel_scan_interval), and lock writes WAIT for the replicas the sentinels list as up.
  /// `masters[0]`'s user, password and db apply to the master (its host and port are ignored).
  static Config Sentinel(std::string master_name, const std::vector<std::string>& sentinel_urls);

  Mode mode = Mode::kSingle;
  std::vector<ServerAddress> masters;    // one, except in kIndependentMasters
  std::vector<ServerAddress> replicas;   // kMasterReplica only
  std::string sentinel_master_name;      // kSentinel only: the name the sentinels monitor
  std::vector<ServerAddress> sentinels;  // kSentinel only: where to ask first (more are found)
  /// kSentinel: how often the sentinels are asked again for the master, its replicas and the
  /// other sentinels, in case an event was missed (Redisson: scanInterval, 1 s).
  std::chrono::milliseconds sentinel_scan_interval{1000};

  /// How long establishing a connection (TCP, AUTH, SELECT) may take (Redisson:
  /// connectTimeout, 10 s).
  std::chrono::milliseconds connect_timeout{10000};
  /// How long a reply may take once the command is sent (Redisson: timeout, 3 s). A command
  /// past it fails with TimeoutError and its connection is reopened.
  std::chrono::milliseconds timeout{3000};
  /// How often a command is tried again after a connection failure, or after a timeout when it
  /// is safe to repeat (Redisson: retryAttempts, 4). 0: no retry.
  int retry_attempts = 4;
  /// The pause before retry n (n = 0, 1, ...), as Redisson's default retryDelay,
  /// EqualJitterDelay(1 s, 2 s): half of min(base x 2^n, max), plus a random part of up to that
  /// half. It also sizes the unlock latch's TTL, (timeout + delay(retry_attempts)) x
  /// retry_attempts, as Redisson's unlockInnerAsync does.
  std::chrono::milliseconds retry_delay_base{1000};
  std::chrono::milliseconds retry_delay_max{2000};
  /// A constant pause instead (Redisson's deprecated retryInterval, which sets a ConstantDelay);
  /// 0: the jittered delay above.
  std::chrono::milliseconds retry_interval{0};
  /// The pause before retry `attempt`, as configured.
  std::chrono::milliseconds RetryDelay(int attempt) const;
  /// The lease a lock gets when no lease is given, and that the watchdog renews every third of
  /// it while the holder lives (Redisson: lockWatchdogTimeout, 30 s).
  std::chrono::milliseconds lock_watchdog_timeout{30000};
  /// The fair lock: how long a queued waiter keeps its place after the one before it when the
  /// caller gives no wait time; a waiter that stops asking drops out of the queue then
  /// (Redisson: fairLockWaitTimeout, 5 min).
  std::chrono::milliseconds fair_lock_wait_timeout{300000};
  /// How many locks the watchdog renews in one EVAL (Redisson: lockWatchdogBatchSize, 100).
  int lock_watchdog_batch_size = 100;
  /// With replicas: when a lock write reached no replica within slaves_sync_timeout, undo an
  /// acquisition and throw NoSyncedReplicas (Redisson: checkLockSyncedSlaves, true).
  bool check_lock_synced_slaves = true;
  /// With replicas: the WAIT timeout after each lock write (Redisson: slavesSyncTimeout, 1 s).
  std::chrono::milliseconds slaves_sync_timeout{1000};
  /// How long subscribing to a lock's unlock channel may take before Lock() gives up with
  /// TimeoutError (Redisson: subscriptionTimeout, 7.5 s). TryLock(wait) is bounded by its wait.
  std::chrono::milliseconds subscription_timeout{7500};
  /// How often the pub/sub connection is checked (Redisson: pingConnectionInterval, 30 s). A
  /// half-open connection (the peer or a middlebox gone without a FIN) delivers nothing, not
  /// even an error, so waiters would sleep through every unlock message: a check not answered
  /// by the next one closes the connection, which is reopened with every channel subscribed
  /// again. The check is a SUBSCRIBE to a private channel (`redlab:ping:<random>`), whose
  /// confirmation hiredis 0.14 can route (it cannot route a PING's reply on a subscribed
  /// connection). 0: no checks.
  std::chrono::milliseconds ping_connection_interval{30000};
  /// RedLock: how long an acquisition attempt (and a renewal, a release) waits for each
  /// master's answer; a master silent past it counts as not acquired, and what the attempt may
  /// have written there is released. Small against the lease, so a dead master costs little
  /// (Redis's RedLock description suggests 5-50 ms for a 10 s lease; 100 ms leaves room for a
  /// loaded machine). Every master is asked at once, so an attempt takes the slowest answer.
  std::chrono::milliseconds red_lock_node_timeout{100};
  /// RedLock: after a failed attempt the next starts after a random delay of up to this, within
  /// the wait left (clients that failed together do not retry in step).
  std::chrono::milliseconds red_lock_retry_delay{100};
  /// Command connections per master; commands from many threads are pipelined on them, and a
  /// lock write with its WAIT blocks only the connection it runs on.
  int connection_pool_size = 4;

  /// Throws ConfigError when the configuration cannot work.
  void Validate() const;
};

}  // namespace redlab
