// The node's diagnostics that watch commands run (Redis's slowlog.c, latency.c's monitor and
// replicationFeedMonitors): the slow log, the latency monitor and the MONITOR clients.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "server/base/clock.h"
#include "server/engine/config/config.h"
#include "server/engine/core/client.h"
#include "server/engine/stats/latency.h"
#include "server/engine/stats/slowlog.h"

namespace redlab::server::engine {

class Diagnostics {
 public:
  Diagnostics(const ServerConfig& config, const Clock& clock) : config_(config), clock_(clock) {}

  SlowLog& slowlog() { return slowlog_; }
  LatencyMonitor& latency_monitor() { return latency_; }

  // latencyAddSampleIfNeeded: records `event` when it took at least latency-monitor-threshold.
  void RecordLatency(std::string_view event, int64_t latency_ms) {
    if (config_.latency_monitor_threshold > 0 && latency_ms >= config_.latency_monitor_threshold) {
      latency_.AddSample(event, latency_ms, clock_.NowMs() / 1000);
    }
  }
  // Whether a command of `duration_us` is one the slow log must consider (to log it, or to trim
  // itself), unless slowlog-log-slower-than is negative.
  bool SlowLogConsiders(int64_t duration_us) const {
    int64_t slower_than = config_.slowlog_log_slower_than;
    return slower_than >= 0 && (duration_us >= slower_than ||
                                slowlog_.size() > static_cast<size_t>(config_.slowlog_max_len));
  }
  // Logs the command (or only trims the log when it was not slow); kept out of line so that a
  // command pays only the comparisons above.
  void LogSlowCommand(const Client& client, std::span<const std::string> args,
                      std::span<const size_t> redacted, int64_t duration_us);

  // MONITOR: `client` receives every command run from now on.
  void AddMonitor(Client& client);
  void RemoveMonitor(Client& client);
  bool has_monitors() const { return !monitors_.empty(); }
  // Sends a command to the MONITOR clients, as Redis's replicationFeedMonitors: the time, the
  // database and client, then the arguments quoted (redacted ones as "(redacted)").
  void FeedMonitors(const Client& client, int db, std::span<const std::string> args,
                    std::span<const size_t> redacted = {});

 private:
  const ServerConfig& config_;
  const Clock& clock_;
  SlowLog slowlog_;
  LatencyMonitor latency_;
  std::vector<Client*> monitors_;
};

}  // namespace redlab::server::engine
