#include "server/engine/keyspace.h"

#include <algorithm>
#include <chrono>

namespace redlab::server::engine {
namespace {

// Redis's ACTIVE_EXPIRE_CYCLE_KEYS_PER_LOOP and ..._ACCEPTABLE_STALE.
constexpr size_t kExpireKeysPerLoop = 20;
constexpr size_t kAcceptableStalePercent = 10;

int64_t MonotonicUs() {
  return std::chrono::duration_cast<std::chrono::microseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

}  // namespace

bool Db::IsExpired(const Node* node) const {
  return node->value.expire_ms != kNoExpire && node->value.expire_ms <= owner_->now_ms();
}

Db::Node* Db::Lookup(std::string_view key, bool count_stats, bool touch) {
  Node* node = dict_.Find(key);
  if (node != nullptr && IsExpired(node) && !(owner_->replica() && owner_->master_view())) {
    if (!owner_->replica() && !owner_->expiry_paused()) owner_->DeleteExpired(*this, node);
    node = nullptr;
  }
  if (touch && node != nullptr) node->value.access_s = static_cast<uint32_t>(owner_->now_ms() / 1000);
  if (count_stats) {
    if (node != nullptr) {
      ++owner_->stats().keyspace_hits;
    } else {
      ++owner_->stats().keyspace_misses;
    }
  }
  return node;
}

Db::Node* Db::LookupRead(std::string_view key) { return Lookup(key, true, true); }
Db::Node* Db::LookupWrite(std::string_view key) { return Lookup(key, false, true); }
Db::Node* Db::LookupQuiet(std::string_view key) { return Lookup(key, false, false); }
Db::Node* Db::LookupNoTouch(std::string_view key) { return Lookup(key, true, false); }

Db::Node* Db::Add(std::string_view key, Object value) {
  Node* node = dict_.Insert(key, DbEntry{std::move(value)});
  node->value.access_s = static_cast<uint32_t>(owner_->now_ms() / 1000);
  if (report_additions_ && owner_->key_added_listener_ != nullptr) {
    owner_->key_added_listener_->OnKeyAdded(*this, key, node->value.value.type());
  }
  return node;
}

Db::Node* Db::Set(std::string_view key, Object value, bool keep_ttl) {
  Node* node = dict_.Find(key);
  if (node == nullptr) return Add(key, std::move(value));
  node->value.value = std::move(value);
  node->value.access_s = static_cast<uint32_t>(owner_->now_ms() / 1000);
  if (!keep_ttl) RemoveExpire(node);
  return node;
}

bool Db::Delete(std::string_view key) {
  Node* node = dict_.Find(key);
  if (node == nullptr) return false;
  Delete(node);
  return true;
}

void Db::Delete(Node* node) {
  UntrackExpire(node);
  dict_.Erase(node);
}

Db::Node* Db::Move(Node* node, Db& to, std::string_view new_key) {
  int64_t expire = node->value.expire_ms;
  UntrackExpire(node);
  Object value = std::move(node->value.value);
  dict_.Erase(node);
  Node* moved = to.Add(new_key, std::move(value));
  if (expire != kNoExpire) to.SetExpire(moved, expire);
  return moved;
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

size_t Db::OverheadBytes() const {
  return dict_.OverheadBytes() + expiring_.capacity() * sizeof(Node*);
}

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

void Keyspace::FlushAll() {
  for (auto& db : dbs_) db->Clear();
}

}  // namespace redlab::server::engine
