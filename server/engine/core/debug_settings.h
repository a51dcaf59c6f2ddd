// What DEBUG subcommands change (Redis keeps these in its global server state), each behind a
// named setter that DEBUG calls and a reader for the code that obeys it.
#pragma once

#include <cstddef>
#include <cstdint>

namespace redlab::server::engine {

class DebugSettings {
 public:
  // QUICKLIST-PACKED-THRESHOLD: list elements from this size on are stored plain (value
  // encodings, DUMP, snapshots).
  size_t quicklist_packed_threshold() const { return quicklist_packed_threshold_; }
  void SetQuicklistPackedThreshold(size_t bytes) { quicklist_packed_threshold_ = bytes; }
  // SET-SKIP-CHECKSUM-VALIDATION: RESTORE, snapshots and full syncs skip the checksum.
  bool skip_checksum_validation() const { return skip_checksum_validation_; }
  void SetSkipChecksumValidation(bool on) { skip_checksum_validation_ = on; }
  // SET-DISABLE-DENY-SCRIPTS: scripts may call commands flagged noscript.
  bool disable_deny_scripts() const { return disable_deny_scripts_; }
  void SetDisableDenyScripts(bool on) { disable_deny_scripts_ = on; }
  // REPLYBUFFER PEAK-RESET-TIME (-1 never) and RESIZING: accepted and kept; redlab's reply
  // buffers are not resized by a cron, so nothing reads them.
  int64_t reply_buffer_peak_reset_time_ms() const { return reply_buffer_peak_reset_time_ms_; }
  void SetReplyBufferPeakResetTime(int64_t ms) { reply_buffer_peak_reset_time_ms_ = ms; }
  bool reply_buffer_resizing() const { return reply_buffer_resizing_; }
  void SetReplyBufferResizing(bool on) { reply_buffer_resizing_ = on; }
  // PAUSE-CRON: the engine's background work (Engine::Cron) stops.
  bool pause_cron() const { return pause_cron_; }
  void SetPauseCron(bool on) { pause_cron_ = on; }

 private:
  size_t quicklist_packed_threshold_ = size_t{1} << 30;
  bool skip_checksum_validation_ = false;
  bool disable_deny_scripts_ = false;
  int64_t reply_buffer_peak_reset_time_ms_ = 5000;
  bool reply_buffer_resizing_ = true;
  bool pause_cron_ = false;
};

}  // namespace redlab::server::engine
