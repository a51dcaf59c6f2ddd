// TOPOLOGY RESTART <port> LOSE <ms>: what a node's data was a moment before its crash, as real
// persistence keeps it (appendfsync everysec loses the last second). The node keeps periodic
// snapshots of its data (RDB payloads, keys and function libraries) stamped with its own clock:
// one at each cron tick (every 1000/hz ms, 100 ms by default) when the data changed since the
// last, one at the crash, kept for the last kWindowMs and within kMaxBytes. Taking one costs a
// serialisation of the dataset, so the history also stops for datasets over kMaxBytes and never
// takes more than about a twentieth of the loop's time. The snapshots live in malloc'd blocks,
// outside the node's memory accounting (base/memory.h): they are the lab's, not the dataset's,
// and must not move INFO used_memory or maxmemory's evictions.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "server/engine/core/engine.h"

namespace redlab::server::fault {

class DataHistory {
 public:
  static constexpr int64_t kWindowMs = 60000;
  static constexpr size_t kMaxBytes = 64u << 20;

  // Takes a snapshot at the node's time now if the data changed since the last one (or `force`
  // when anything changed at all) and the cost budget allows; drops what fell out of the window.
  void Tick(engine::Engine& engine, bool force = false);
  // The newest snapshot taken at or before `at_ms` (node time); nullopt when the history does
  // not reach back that far. Valid until the next Tick or Restart.
  std::optional<std::string_view> At(int64_t at_ms) const;
  // Starts again from the data as it is now (after a restart).
  void Restart(engine::Engine& engine);
  // Why there is no history (empty when there is one): a dataset too big to snapshot.
  const std::string& disabled_reason() const { return disabled_; }

  // Replaces the engine's data (keys and function libraries) with a snapshot's.
  static std::optional<std::string> Load(engine::Engine& engine, std::string_view rdb);

 private:
  struct FreeBytes {
    void operator()(char* p) const { std::free(p); }
  };
  struct Snapshot {
    int64_t at_ms;
    std::unique_ptr<char, FreeBytes> data;  // malloc'd: not counted as the node's memory
    size_t size;
  };
  std::deque<Snapshot> snapshots_;  // oldest first
  size_t bytes_ = 0;
  uint64_t last_dirty_ = UINT64_MAX;
  int64_t not_before_us_ = 0;  // monotonic: the cost budget's next allowed snapshot
  std::string disabled_;
};

}  // namespace redlab::server::fault
