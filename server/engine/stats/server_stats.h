// The node's counters for INFO stats, commandstats, errorstats and latencystats (Redis's
// server.stat_* fields, c->cmd->calls/microseconds and the error-code dictionary). Owned once by
// the Engine; readers get them const, writers call the named methods below.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "server/command/command_table.h"
#include "server/engine/stats/latency.h"
#include "server/resp/writer.h"

namespace redlab::server::engine {

// A rate sampled once per cron tick over the last 16 ticks (Redis's trackInstantaneousMetric):
// instantaneous_ops_per_sec and the instantaneous_*_kbps of INFO stats.
struct InstantaneousMetric {
  static constexpr size_t kSamples = 16;
  uint64_t samples[kSamples] = {};
  size_t index = 0;
  uint64_t last_reading = 0;
  int64_t last_time_ms = 0;

  void Track(uint64_t reading, int64_t now_ms) {
    if (last_time_ms != 0 && now_ms > last_time_ms) {
      samples[index] =
          (reading - last_reading) * 1000 / static_cast<uint64_t>(now_ms - last_time_ms);
      index = (index + 1) % kSamples;
    }
    last_time_ms = now_ms;
    last_reading = reading;
  }
  // Per second, averaged over the samples.
  uint64_t Average() const {
    uint64_t sum = 0;
    for (uint64_t s : samples) sum += s;
    return sum / kSamples;
  }
};

struct CommandStats {
  uint64_t calls = 0;
  uint64_t usec = 0;
  uint64_t rejected_calls = 0;
  uint64_t failed_calls = 0;
  LatencyHistogram latency;  // recorded when latency-tracking is on
};

struct ServerStats {
  uint64_t total_connections_received = 0;
  uint64_t total_commands_processed = 0;
  uint64_t rejected_connections = 0;
  uint64_t total_net_input_bytes = 0;
  uint64_t total_net_output_bytes = 0;
  uint64_t total_reads_processed = 0;
  uint64_t total_writes_processed = 0;
  uint64_t total_error_replies = 0;
  uint64_t dirty = 0;  // changes since the last save (no saves happen: since start or FLUSHALL)
  std::map<std::string, uint64_t, std::less<>> errors;  // by error code, for INFO errorstats
  InstantaneousMetric ops, net_input, net_output, net_repl_input, net_repl_output;
  // Time spent over maxmemory: closed periods, and the start of the current one (0: none).
  uint64_t eviction_exceeded_us = 0;
  int64_t eviction_exceeded_since_us = 0;
};

// Every error reply written with this as the writer's error listener is counted (Redis's
// afterErrorReply): total_error_replies and the per-code errorstats.
class Stats : public resp::ErrorListener {
 public:
  explicit Stats(size_t command_ids) : commands_(command_ids) {}

  const ServerStats& totals() const { return totals_; }
  const CommandStats& command(const Command& cmd) const { return commands_[cmd.id]; }
  // Changes to the dataset since the last save (Redis's server.dirty): commands add to it, a
  // save sets what is left.
  uint64_t dirty() const { return totals_.dirty; }
  uint64_t error_replies() const { return totals_.total_error_replies; }

  void AddDirty(uint64_t changes) { totals_.dirty += changes; }
  void SetDirty(uint64_t changes) { totals_.dirty = changes; }

  // The network layer's accounting: a connection accepted, bytes read by one read call, bytes
  // written (`write_calls` of them), a connection refused.
  void CountConnection() { ++totals_.total_connections_received; }
  void CountNetInput(uint64_t bytes) {
    totals_.total_net_input_bytes += bytes;
    ++totals_.total_reads_processed;
  }
  void CountNetOutput(uint64_t bytes, uint64_t write_calls) {
    totals_.total_net_output_bytes += bytes;
    totals_.total_writes_processed += write_calls;
  }
  void CountRejectedConnection() { ++totals_.rejected_connections; }

  // Redis's incrCommandStatsOnError: a command failed (or was refused) when error replies were
  // counted since the baseline, which every call's start, every failure and every refusal inside
  // a script moves to the current count. So a script whose redis.pcall was refused, and which
  // then returned normally, did not fail: the refusal took that error for itself.
  void BeginCall() {
    error_baseline_ = totals_.total_error_replies;
    uncounted_error_ = false;
  }
  // A call of `cmd` that ran for `duration_us` (Redis's call()): its latency goes to the
  // histogram when `record_latency`; failed when it replied an error since the baseline, or an
  // uncounted one.
  void RecordCall(const Command& cmd, int64_t duration_us, bool record_latency) {
    CommandStats& cs = commands_[cmd.id];
    ++cs.calls;
    cs.usec += static_cast<uint64_t>(duration_us);
    if (record_latency) cs.latency.Record(duration_us);
    if (TakeNewErrors() || uncounted_error_) ++cs.failed_calls;
    uncounted_error_ = false;
    ++totals_.total_commands_processed;
  }
  // A command a script called, refused (scriptCall's rejection): rejected_calls, when the
  // refusal's error reply is new since the baseline.
  void CountScriptRefusal(const Command& cmd) {
    if (TakeNewErrors()) ++commands_[cmd.id].rejected_calls;
  }
  void OnUncountedErrorReply() override { uncounted_error_ = true; }
  // A command refused before it ran (rejected_calls).
  void CountRejectedCall(const Command& cmd) { ++commands_[cmd.id].rejected_calls; }
  // The parts of a blocked command's statistics that come when it is unblocked
  // (updateStatsOnUnblock): time spent serving it, its latency, its failure.
  void AddCommandTime(const Command& cmd, int64_t us) {
    commands_[cmd.id].usec += static_cast<uint64_t>(us);
  }
  void RecordCommandLatency(const Command& cmd, int64_t us) {
    commands_[cmd.id].latency.Record(us);
  }
  void CountFailedCall(const Command& cmd) { ++commands_[cmd.id].failed_calls; }


  // The memory stayed over maxmemory (`under` false) or got under it at `now_us`: the time
  // spent over it (INFO's total_eviction_exceeded_time).
  void TrackEvictionExceeded(bool under, int64_t now_us);
  // A cron tick: the instantaneous rates, with the replication stream's byte counts.
  void Sample(int64_t now_ms, uint64_t repl_input_bytes, uint64_t repl_output_bytes);
  // CONFIG RESETSTAT: every counter but dirty starts again.
  void Reset();

  // An error reply (text without its '-'), counted by its code.
  void OnErrorReply(std::string_view text) override;

 private:
  // Whether error replies were counted since the baseline; moves the baseline to now.
  bool TakeNewErrors() {
    bool any = totals_.total_error_replies > error_baseline_;
    error_baseline_ = totals_.total_error_replies;
    return any;
  }

  std::vector<CommandStats> commands_;  // by Command::id
  ServerStats totals_;
  uint64_t error_baseline_ = 0;  // Redis's prev_err_count
  bool uncounted_error_ = false;  // the running command replied an uncounted error
};

}  // namespace redlab::server::engine
