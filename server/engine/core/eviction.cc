// maxmemory eviction, approximated as Redis approximates it: sample a few keys and evict the
// best candidate by the policy (Redis's evict.c): the least recently used key for the LRU
// policies, the least frequently used one (by its decayed LFU counter) for the LFU policies.
#include <algorithm>

#include "server/base/memory.h"
#include "server/base/monotonic.h"
#include "server/engine/core/engine.h"
#include "server/engine/core/memory.h"

namespace redlab::server::engine {
namespace {

// Picks a key of `db` to evict under `policy`, or nullptr, the best of `samples` random keys.
Db::Node* PickVictim(Keyspace& ks, Db& db, std::string_view policy, int64_t samples) {
  bool volatile_only = policy.rfind("volatile-", 0) == 0;
  bool random = policy.find("random") != std::string_view::npos;
  bool by_ttl = policy == "volatile-ttl";
  auto sample = [&]() -> Db::Node* {
    return volatile_only ? db.RandomVolatileKey() : db.RandomKey();
  };
  if (random) return sample();
  Db::Node* best = nullptr;
  // Never more samples than keys, as dictGetSomeKeys.
  samples = std::min<int64_t>(samples, static_cast<int64_t>(db.size()));
  for (int64_t i = 0; i < samples; ++i) {
    Db::Node* n = sample();
    if (n == nullptr) break;
    if (best == nullptr) {
      best = n;
    } else if (by_ttl                     ? n->value.expire_ms < best->value.expire_ms
               : ks.access_tracking().lfu ? ks.LfuCounter(n->value) < ks.LfuCounter(best->value)
                                          : n->value.lru < best->value.lru) {
      best = n;
    }
  }
  return best;
}

}  // namespace

size_t Memory::Used() const {
  int64_t used = ThreadAllocatedBytes();
  size_t bytes = used > 0 ? static_cast<size_t>(used) : 0;
  if (bytes > peak_) peak_ = bytes;
  return bytes;
}

void Memory::StartEviction() {
  if (engine_.config().maxmemory <= 0 || engine_.host() == nullptr) return;
  eviction_pending_ = true;
  engine_.host()->ScheduleBeforeSleep();
}

void Memory::RunEviction() {
  if (engine_.script_busy()) return;  // (isSafeToPerformEvictions; the next command enforces it)
  eviction_pending_ = false;
  engine_.keyspace().SnapshotTime();
  EnforceMaxmemory();
}

bool Memory::EnforceMaxmemory() {
  bool under = EvictUntilUnder();
  // Before a command, its evictions' DELs leave first, each alone (performEvictions).
  if (!engine_.in_call()) engine_.propagation().Flush(EffectGrouping::kEach);
  // How long the node stays over maxmemory (INFO total/current_eviction_exceeded_time).
  engine_.stats().TrackEvictionExceeded(under, MonotonicUs());
  return under;
}

bool Memory::EvictUntilUnder() {
  const ServerConfig& config = engine_.config();
  if (config.maxmemory <= 0) return true;
  const size_t limit = static_cast<size_t>(config.maxmemory);
  if (Used() <= limit) return true;
  const std::string& policy = config.maxmemory_policy;
  Keyspace& keyspace = engine_.keyspace();
  // A replica leaves eviction to its master unless replica-ignore-maxmemory is off.
  if (policy == "noeviction" || (keyspace.replica() && config.replica_ignore_maxmemory)) {
    return false;
  }
  Diagnostics& diagnostics = engine_.diagnostics();
  // The latency monitor's eviction-cycle and eviction-del events, as Redis records them.
  int64_t cycle_start = MonotonicMs();
  while (Used() > limit) {
    Db::Node* victim = nullptr;
    Db* victim_db = nullptr;
    for (int i = 0; i < keyspace.num_dbs() && victim == nullptr; ++i) {
      Db& db = keyspace.db(i);
      if (db.size() == 0) continue;
      victim = PickVictim(keyspace, db, policy, config.maxmemory_samples);
      victim_db = &db;
    }
    if (victim == nullptr) {
      diagnostics.RecordLatency("eviction-cycle", MonotonicMs() - cycle_start);
      return false;
    }
    std::string key(victim->key());
    int64_t del_start = MonotonicMs();
    victim_db->Delete(victim);
    diagnostics.RecordLatency("eviction-del", MonotonicMs() - del_start);
    ++keyspace.stats().evicted_keys;
    engine_.signals().ModifiedKey(victim_db->id(), key);
    engine_.messaging().NotifyKeyspaceEvent(kNotifyEvicted, "evicted", key, victim_db->id());
    engine_.Propagate(victim_db->id(), {"DEL", std::move(key)});
  }
  diagnostics.RecordLatency("eviction-cycle", MonotonicMs() - cycle_start);
  return true;
}

}  // namespace redlab::server::engine
