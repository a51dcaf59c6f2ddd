// The node's counters (Redis's server.stat_* and afterErrorReply's error-code dictionary).
#include "server/engine/stats/server_stats.h"

namespace redlab::server::engine {

void Stats::OnErrorReply(std::string_view text) {
  ++totals_.total_error_replies;
  std::string_view code = text.substr(0, text.find(' '));
  auto it = totals_.errors.find(code);
  if (it == totals_.errors.end()) {
    // Redis stops tracking new error codes past 128 of them (ERROR_STATS_NUMBER).
    if (totals_.errors.size() >= 128) return;
    it = totals_.errors.emplace(std::string(code), 0).first;
  }
  ++it->second;
}

void Stats::TrackEvictionExceeded(bool under, int64_t now_us) {
  if (!under && totals_.eviction_exceeded_since_us == 0) {
    totals_.eviction_exceeded_since_us = now_us;
  } else if (under && totals_.eviction_exceeded_since_us != 0) {
    totals_.eviction_exceeded_us +=
        static_cast<uint64_t>(now_us - totals_.eviction_exceeded_since_us);
    totals_.eviction_exceeded_since_us = 0;
  }
}

void Stats::Sample(int64_t now_ms, uint64_t repl_input_bytes, uint64_t repl_output_bytes) {
  totals_.ops.Track(totals_.total_commands_processed, now_ms);
  totals_.net_input.Track(totals_.total_net_input_bytes, now_ms);
  totals_.net_output.Track(totals_.total_net_output_bytes, now_ms);
  totals_.net_repl_input.Track(repl_input_bytes, now_ms);
  totals_.net_repl_output.Track(repl_output_bytes, now_ms);
}

void Stats::Reset() {
  for (CommandStats& cs : commands_) cs = CommandStats{};
  uint64_t dirty = totals_.dirty;
  totals_ = ServerStats{};
  totals_.dirty = dirty;
  error_baseline_ = 0;  // the error count starts again too
}

}  // namespace redlab::server::engine
