#include "server/data/keyspace.h"

#include <algorithm>

#include "server/base/monotonic.h"

namespace redlab::server {
namespace {

// Redis's ACTIVE_EXPIRE_CYCLE_KEYS_PER_LOOP and ..._ACCEPTABLE_STALE.
constexpr size_t kExpireKeysPerLoop = 20;
constexpr size_t kAcceptableStalePercent = 10;

}  // namespace

bool Db::IsExpired(const Node* node) const {
  return node->value.expire_ms != kNoExpire && node->value.expire_ms <= owner_->now_ms();
}

Db::Node* Db::Lookup(std::string_view key, uint32_t flags) {
  Node* node = dict_.Find(key);
  if (node != nullptr && IsExpired(node) && !owner_->keeps_expired_keys()) {
    if (owner_->DeletesExpired(flags & kWrite)) owner_->DeleteExpired(*this, node);
    node = nullptr;
  }
  if ((flags & kTouch) && node != nullptr) owner_->TouchLru(node->value);
  if (flags & kCountStats) {
    if (node != nullptr) {
      ++owner_->stats().keyspace_hits;
    } else {
      ++owner_->stats().keyspace_misses;
      // (A miss after the expired key's deletion: "expired" comes before "keymiss".)
      if ((flags & kNotifyMiss) && owner_->report_misses_) [[unlikely]] {
        owner_->key_event_listener_->OnKeyMiss(*this, key);
      }
    }
  }
  return node;
}

Db::Node* Db::LookupRead(std::string_view key) {
  return Lookup(key, kCountStats | kTouch | kNotifyMiss);
}
Db::Node* Db::LookupWrite(std::string_view key) { return Lookup(key, kTouch | kWrite); }
Db::Node* Db::LookupQuiet(std::string_view key) { return Lookup(key, 0); }
Db::Node* Db::LookupNoTouch(std::string_view key) { return Lookup(key, kCountStats | kNotifyMiss); }
Db::Node* Db::LookupNoTouchNoNotify(std::string_view key) { return Lookup(key, kCountStats); }

Db::Node* Db::Add(std::string_view key, Object value) {
  return Insert(key, std::move(value), report_);
}

Db::Node* Db::Insert(std::string_view key, Object value, uint8_t report) {
  Node* node = dict_.Insert(key, DbEntry{std::move(value)});
  node->value.lru = owner_->NewLru();
  if (report != 0) [[unlikely]] {
    owner_->ReportAdded(*this, key, node->value.value.type(), report);
  }
  return node;
}

Db::Node* Db::Set(std::string_view key, Object value, bool keep_ttl) {
  Node* node = dict_.Find(key);
  // setKey looks the key up for writing first: an expired one goes (with its "expired" event)
  // and the key is new again. A read-only replica keeps it (its master's stream overwrites it).
  if (node != nullptr && IsExpired(node) && !owner_->keeps_expired_keys() &&
      owner_->DeletesExpired(/*write=*/true)) {
    owner_->DeleteExpired(*this, node);
    node = nullptr;
  }
  if (node == nullptr) return Add(key, std::move(value));
  Overwrite(node, std::move(value), keep_ttl);
  return node;
}

Db::Node* Db::SetLoaded(std::string_view key, Object value) {
  Node* node = dict_.Find(key);
  if (node == nullptr) {
    return Insert(key, std::move(value), static_cast<uint8_t>(report_ & ~kReportNew));
  }
  Overwrite(node, std::move(value), false);
  return node;
}

void Db::Overwrite(Node* node, Object value, bool keep_ttl) {
  ReportStreamGone(node);
  node->value.value = std::move(value);
  // dbSetValue: an overwritten key keeps its LFU counter; under LRU the new object is fresh.
  if (!owner_->access_tracking().lfu) node->value.lru = owner_->NewLru();
  if (!keep_ttl) RemoveExpire(node);
}

bool Db::Delete(std::string_view key) {
  Node* node = dict_.Find(key);
  if (node == nullptr) return false;
  Delete(node);
  return true;
}

void Db::Delete(Node* node) {
  ReportStreamGone(node);
  UntrackExpire(node);
  dict_.Erase(node);
}

Db::Node* Db::Move(Node* node, Db& to, std::string_view new_key) {
  int64_t expire = node->value.expire_ms;
  uint32_t lru = node->value.lru;
  ReportStreamGone(node);
  UntrackExpire(node);
  Object value = std::move(node->value.value);
  dict_.Erase(node);
  Node* moved = to.Add(new_key, std::move(value));
  moved->value.lru = lru;  // the same object moves, with its access data
  if (expire != kNoExpire) to.SetExpire(moved, expire);
  return moved;
}

void Db::ReportStreamGone(Node* node) {
  // dbGenericDelete / dbSetValue: clients blocked in XREADGROUP on a stream that goes are told.
  if ((report_ & kReportReady) && node->value.value.is(ObjectType::kStream)) {
    owner_->ReportAdded(*this, node->key(), ObjectType::kStream, kReportReady);
  }
}

void Db::SwapContents(Db& other) {
  std::swap(dict_, other.dict_);
  std::swap(expiring_, other.expiring_);
  std::swap(avg_ttl_, other.avg_ttl_);
}

void Db::TrackExpire(Node* node) {
  node->value.expire_slot = static_cast<uint32_t>(expiring_.size());
  expiring_.push_back(node);
}

void Db::UntrackExpire(Node* node) {
  if (node->value.expire_ms == kNoExpire) return;
  uint32_t slot = node->value.expire_slot;
  Node* last = expiring_.back();
  expiring_[slot] = last;
  last->value.expire_slot = slot;
  expiring_.pop_back();
  node->value.expire_ms = kNoExpire;
}

void Db::SetExpire(Node* node, int64_t when_ms) {
  if (node->value.expire_ms == kNoExpire) TrackExpire(node);
  node->value.expire_ms = when_ms;
  // rememberSlaveKeyWithExpire (databases past 63 are not tracked, as in Redis).
  if (owner_->replica() && owner_->client_command() && id_ < 64) {
    owner_->replica_own_expires_[std::string(node->key())] |= uint64_t{1} << id_;
  }
}

bool Db::RemoveExpire(Node* node) {
  if (node->value.expire_ms == kNoExpire) return false;
  UntrackExpire(node);
  return true;
}

void Db::Clear() {
  avg_ttl_ = 0;
  expiring_.clear();
  expiring_.shrink_to_fit();
  dict_.Clear();
}

Db::Node* Db::RandomKey() {
  // As Redis's dbRandomKey: a master deletes each expired key it meets, so the loop ends. A
  // replica cannot delete; when every key has a TTL they may all be logically expired, so it
  // gives up after 100 tries and returns the last key met, expired or not.
  const bool all_volatile = dict_.size() == expiring_.size();
  int tries = 100;
  while (true) {
    Node* node = dict_.Random(owner_->rng());
    if (node == nullptr) return nullptr;
    if (node->value.expire_ms == kNoExpire) return node;
    if (all_volatile && owner_->replica() && --tries == 0) return node;
    if (!IsExpired(node)) return node;
    if (!owner_->replica()) owner_->DeleteExpired(*this, node);
  }
}

Db::Node* Db::RandomVolatileKey() {
  if (expiring_.empty()) return nullptr;
  return expiring_[std::uniform_int_distribution<size_t>(0, expiring_.size() - 1)(owner_->rng())];
}

bool Db::ActiveExpire(int64_t deadline_us) {
  // No key with a TTL left: nothing to estimate (Redis resets avg_ttl here too).
  if (expiring_.empty()) avg_ttl_ = 0;
  size_t iterations = 0;
  while (!expiring_.empty()) {
    size_t sampled = std::min(kExpireKeysPerLoop, expiring_.size());
    size_t expired = 0;
    int64_t ttl_sum = 0;
    int64_t ttl_samples = 0;
    for (size_t i = 0; i < sampled && !expiring_.empty(); ++i) {
      size_t pick = std::uniform_int_distribution<size_t>(0, expiring_.size() - 1)(owner_->rng());
      Node* node = expiring_[pick];
      int64_t ttl = node->value.expire_ms - owner_->now_ms();
      if (ttl <= 0) {
        owner_->DeleteExpired(*this, node);
        ++expired;
      } else {
        ttl_sum += ttl;
        ++ttl_samples;
      }
    }
    if (ttl_samples > 0) {
      // Redis's running average: 2% weight to this sample, 98% to the previous estimate.
      int64_t avg = ttl_sum / ttl_samples;
      if (avg_ttl_ == 0) avg_ttl_ = avg;
      avg_ttl_ = (avg_ttl_ / 50) * 49 + (avg / 50);
    }
    if ((++iterations & 0xf) == 0 && MonotonicUs() > deadline_us) return false;
    if (expired * 100 <= sampled * kAcceptableStalePercent) break;
  }
  return true;
}

size_t Db::MainOverheadBytes() const { return dict_.OverheadBytes(); }
size_t Db::ExpiresOverheadBytes() const { return expiring_.capacity() * sizeof(Node*); }

Keyspace::Keyspace(Clock* clock, int databases) : clock_(clock), rng_(std::random_device{}()) {
  for (int i = 0; i < databases; ++i) dbs_.push_back(std::make_unique<Db>(this, i));
  SnapshotTime();
}

void Keyspace::ActiveExpireCycle(int64_t budget_us) {
  if (!active_expire_enabled_ || replica_ || expiry_paused_) return;
  int64_t start = MonotonicUs();
  int64_t deadline = start + budget_us;
  SnapshotTime();
  for (int i = 0; i < num_dbs(); ++i) {
    Db& db = *dbs_[static_cast<size_t>(expire_next_db_)];
    expire_next_db_ = (expire_next_db_ + 1) % num_dbs();
    if (!db.ActiveExpire(deadline)) {
      ++stats_.expired_time_cap_reached_count;
      break;
    }
  }
  stats_.expire_cycle_cpu_us += static_cast<uint64_t>(MonotonicUs() - start);
}

void Keyspace::ExpireReplicaOwnKeys() {
  if (replica_own_expires_.empty() || expiry_paused_) return;
  SnapshotTime();
  int64_t start = MonotonicUs();
  // Redis samples the keys at random; here a walk from a random bucket, with its stop rules:
  // more than three keys that cannot expire yet, or a millisecond spent.
  size_t buckets = replica_own_expires_.bucket_count();
  size_t bucket = std::uniform_int_distribution<size_t>(0, buckets - 1)(rng_);
  int cycles = 0, noexpire = 0;
  std::vector<std::string> done;  // keys no database holds with a TTL any more
  for (size_t b = 0; b < buckets && noexpire <= 3; ++b) {
    size_t at = (bucket + b) % buckets;
    for (auto it = replica_own_expires_.begin(at); it != replica_own_expires_.end(at); ++it) {
      uint64_t kept = 0;
      for (int id = 0; id < num_dbs() && id < 64; ++id) {
        if (!(it->second & (uint64_t{1} << id))) continue;
        Db& db = *dbs_[static_cast<size_t>(id)];
        Db::Node* node = db.FindWithoutExpiry(it->first);
        if (node == nullptr || node->value.expire_ms == kNoExpire) continue;
        if (node->value.expire_ms <= now_ms_) {
          DeleteExpired(db, node);
        } else {
          ++noexpire;
          kept |= uint64_t{1} << id;
        }
      }
      if (kept != 0) {
        it->second = kept;
      } else {
        done.push_back(it->first);
      }
      if ((++cycles % 64) == 0 && MonotonicUs() - start > 1000) noexpire = 4;
      if (noexpire > 3) break;
    }
  }
  for (const std::string& key : done) replica_own_expires_.erase(key);
}

void Keyspace::set_report_new_keys(bool on) {
  for (auto& db : dbs_) db->SetReport(Db::kReportNew, on && key_event_listener_ != nullptr);
}

void Keyspace::set_report_misses(bool on) { report_misses_ = on && key_event_listener_ != nullptr; }

void Keyspace::ReportAdded(Db& db, std::string_view key, ObjectType type, uint8_t report) {
  // dbAdd's order: blocked clients learn the key is ready, then the "new" event.
  if ((report & Db::kReportReady) && key_added_listener_ != nullptr) {
    key_added_listener_->OnKeyAdded(db, key, type);
  }
  if ((report & Db::kReportNew) && key_event_listener_ != nullptr) {
    key_event_listener_->OnNewKey(db, key);
  }
}

void Keyspace::DeleteExpired(Db& db, Db::Node* node) {
  ++stats_.expired_keys;
  if (expiry_listener_ == nullptr) {
    db.Delete(node);
    return;
  }
  std::string key(node->key());  // the node is about to go; keep its name for the listener
  db.Delete(node);
  expiry_listener_->OnKeyExpired(db, key);
}

namespace {

// Redis's LFU_INIT_VAL: new objects start with a small count so they are not evicted at once.
constexpr uint32_t kLfuInitVal = 5;

}  // namespace

uint32_t Keyspace::NewLru() const {
  if (tracking_.lfu) return (static_cast<uint32_t>(now_ms_ / 60000) & 0xFFFF) << 8 | kLfuInitVal;
  return static_cast<uint32_t>(now_ms_ / 1000);
}

void Keyspace::TouchLru(DbEntry& entry) {
  if (!tracking_.lfu) {
    entry.lru = static_cast<uint32_t>(now_ms_ / 1000);
    return;
  }
  // updateLFU: decay first, then a logarithmic increment (the higher the count, the less
  // likely another access raises it).
  uint32_t counter = LfuCounter(entry);
  if (counter < 255) {
    double r = std::uniform_real_distribution<double>(0.0, 1.0)(rng_);
    double base = counter > kLfuInitVal ? counter - kLfuInitVal : 0;
    double p = 1.0 / (base * static_cast<double>(tracking_.lfu_log_factor) + 1);
    if (r < p) ++counter;
  }
  entry.lru = (static_cast<uint32_t>(now_ms_ / 60000) & 0xFFFF) << 8 | counter;
}

int64_t Keyspace::IdleSeconds(const DbEntry& entry) const {
  return std::max<int64_t>(0, now_ms_ / 1000 - static_cast<int64_t>(entry.lru));
}

uint8_t Keyspace::LfuCounter(const DbEntry& entry) const {
  uint32_t last_minute = entry.lru >> 8;
  uint32_t counter = entry.lru & 0xFF;
  uint32_t now_minute = static_cast<uint32_t>(now_ms_ / 60000) & 0xFFFF;
  // LFUTimeElapsed: the 16-bit minute clock wraps about every 45 days.
  uint32_t elapsed =
      now_minute >= last_minute ? now_minute - last_minute : 65535 - last_minute + now_minute;
  uint32_t periods =
      tracking_.lfu_decay_time > 0 ? elapsed / static_cast<uint32_t>(tracking_.lfu_decay_time) : 0;
  return static_cast<uint8_t>(periods >= counter ? 0 : counter - periods);
}

void Keyspace::SetIdle(DbEntry& entry, int64_t idle_seconds) const {
  if (tracking_.lfu) return;
  entry.lru = static_cast<uint32_t>(std::max<int64_t>(0, now_ms_ / 1000 - idle_seconds));
}

void Keyspace::SetFreq(DbEntry& entry, uint8_t freq) const {
  if (!tracking_.lfu) return;
  entry.lru = (static_cast<uint32_t>(now_ms_ / 60000) & 0xFFFF) << 8 | freq;
}

void Keyspace::FlushAll() {
  for (auto& db : dbs_) db->Clear();
}

}  // namespace redlab::server
