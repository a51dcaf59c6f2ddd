// What DEBUG subcommands change (Redis keeps these in its global server state), each behind a
// named setter that DEBUG calls and a reader for the code that obeys it.
#pragma once

#include <cstddef>
#include <cstdint>

namespace redlab::server::engine {

class DebugSettings {
 public:
  size_t quicklist_packed_threshold() const { return quicklist_packed_threshold_; }
  bool skip_checksum_validation() const { return skip_checksum_validation_; }
  bool disable_deny_scripts() const { return disable_deny_scripts_; }
  int64_t reply_buffer_peak_reset_time_ms() const { return reply_buffer_peak_reset_time_ms_; }
  bool reply_buffer_resizing() const { return reply_buffer_resizing_; }
  bool pause_cron() const { return pause_cron_; }

  void SetQuicklistPackedThreshold(size_t bytes) { quicklist_packed_threshold_ = bytes; }
  void SetSkipChecksumValidation(bool on) { skip_checksum_validation_ = on; }
  void SetDisableDenyScripts(bool on) { disable_deny_scripts_ = on; }
  void SetReplyBufferPeakResetTime(int64_t ms) { reply_buffer_peak_reset_time_ms_ = ms; }
  void SetReplyBufferResizing(bool on) { reply_buffer_resizing_ = on; }
  void SetPauseCron(bool on) { pause_cron_ = on; }

 private:
  // QUICKLIST-PACKED-THRESHOLD: list elements from this size on are stored plain (value
  // encodings, DUMP, snapshots).
  size_t quicklist_packed_threshold_ = size_t{1} << 30;
  // SET-SKIP-CHECKSUM-VALIDATION: RESTORE, snapshots and full syncs skip the checksum.
  bool skip_checksum_validation_ = false;
  // SET-DISABLE-DENY-SCRIPTS: scripts may call commands flagged noscript.
  bool disable_deny_scripts_ = false;
  // REPLYBUFFER PEAK-RESET-TIME (-1 never) and RESIZING: accepted and kept; redlab's reply
  // buffers are not resized by a cron, so nothing reads them.
  int64_t reply_buffer_peak_reset_time_ms_ = 5000;
  bool reply_buffer_resizing_ = true;
  // PAUSE-CRON: the engine's background work (Engine::Cron) stops.
  bool pause_cron_ = false;
};

}  // namespace redlab::server::engine
