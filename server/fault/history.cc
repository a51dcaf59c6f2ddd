// A node's data history for TOPOLOGY RESTART LOSE (redlab's own; the loss it models is that of
// Redis's aof.c with appendfsync everysec, or of rdb.c's save points).
#include "server/fault/history.h"

#include <cstring>

#include "server/base/monotonic.h"
#include "server/engine/core/script_runner.h"
#include "server/rdb/snapshot.h"
#include "server/replication/replication.h"

namespace redlab::server::fault {
namespace {

// A snapshot may take this share of the loop's time at most: after one that took d, the next
// waits 20 d.
constexpr int64_t kCostFactor = 20;

}  // namespace

void DataHistory::Tick(engine::Engine& engine, bool force) {
  uint64_t dirty = engine.stats().dirty();
  if (dirty == last_dirty_ && !snapshots_.empty()) return;
  int64_t start = MonotonicUs();
  if (!force && start < not_before_us_) return;
  int64_t now_ms = engine.clock().NowMs();
  auto too_big = [&] {
    disabled_ = "the dataset is larger than " + std::to_string(kMaxBytes >> 20) +
                " MB: the node keeps no history of it";
    snapshots_.clear();
    bytes_ = 0;
  };
  // Not even serialised: a dataset that big would not be kept anyway.
  if (engine.memory().Used() > kMaxBytes) {
    too_big();
    last_dirty_ = dirty;
    return;
  }
  rdb::RdbAux aux;
  aux.ctime_s = now_ms / 1000;
  std::string rdb = rdb::WriteRdb(engine.keyspace(), aux, engine.rdb_write_options());
  not_before_us_ = MonotonicUs() + (MonotonicUs() - start) * kCostFactor;
  last_dirty_ = dirty;
  if (rdb.size() > kMaxBytes) {
    too_big();
    return;
  }
  disabled_.clear();
  char* block = static_cast<char*>(std::malloc(rdb.size() == 0 ? 1 : rdb.size()));
  if (block == nullptr) return;
  std::memcpy(block, rdb.data(), rdb.size());
  bytes_ += rdb.size();
  snapshots_.push_back(Snapshot{now_ms, std::unique_ptr<char, FreeBytes>(block), rdb.size()});
  // Keep the newest snapshot older than the window (it answers for any moment inside it), and
  // stay within the byte budget.
  while (snapshots_.size() > 1 &&
         (snapshots_[1].at_ms <= now_ms - kWindowMs || bytes_ > kMaxBytes)) {
    bytes_ -= snapshots_.front().size;
    snapshots_.pop_front();
  }
}

std::optional<std::string_view> DataHistory::At(int64_t at_ms) const {
  std::optional<std::string_view> found;
  for (const Snapshot& s : snapshots_) {
    if (s.at_ms > at_ms) break;
    found = std::string_view(s.data.get(), s.size);
  }
  return found;
}

void DataHistory::Restart(engine::Engine& engine) {
  snapshots_.clear();
  bytes_ = 0;
  last_dirty_ = UINT64_MAX;
  not_before_us_ = 0;
  Tick(engine, /*force=*/true);
}

std::optional<std::string> DataHistory::Load(engine::Engine& engine, std::string_view rdb) {
  // As a master loading its file: keys that expired meanwhile are gone.
  rdb::RdbReadOptions options{engine.value_options(), /*verify_checksum=*/true};
  return replication::ReplaceDataset(engine, rdb, options, nullptr, /*drop_expired=*/true);
}

}  // namespace redlab::server::fault
