// The keyspace of a node: its numbered databases, each a Dict of keys with optional expiry
// times. Expiry is lazy on access and active in a sampled cycle, as in Redis's db.c and
// expire.c; every time is the node's command-time snapshot, read through its Clock.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <random>
#include <string_view>
#include <vector>

#include "server/base/clock.h"
#include "server/base/dict.h"
#include "server/data/object.h"

namespace redlab::server {

inline constexpr int64_t kNoExpire = -1;

struct DbEntry {
  Object value;
  int64_t expire_ms = kNoExpire;  // absolute unix time in ms, or kNoExpire
  uint32_t expire_slot = 0;       // position in Db::expiring_ while expire_ms is set
  // Redis's per-object lru field: under an LFU maxmemory policy the minute of the last access
  // (16 bits) and a logarithmic access counter (8 bits); otherwise the second of the last access
  // in node time. Read through the Keyspace, which knows which it holds.
  uint32_t lru = 0;
};

// How access is tracked (from maxmemory-policy, lfu-log-factor and lfu-decay-time).
struct AccessTracking {
  bool lfu = false;
  int64_t lfu_log_factor = 10;
  int64_t lfu_decay_time = 1;  // minutes per counter decrement; 0: never decays
};

struct KeyspaceStats {
  uint64_t keyspace_hits = 0;
  uint64_t keyspace_misses = 0;
  uint64_t expired_keys = 0;
  uint64_t evicted_keys = 0;
  uint64_t expired_time_cap_reached_count = 0;
  uint64_t expire_cycle_cpu_us = 0;
  double expired_stale_perc = 0;
};

class Keyspace;
class Db;

// Told when a key is deleted because it expired (lazily or by the cycle), so the node can
// propagate the deletion and invalidate WATCHes, as Redis's deleteExpiredKeyAndPropagate.
class ExpiryListener {
 public:
  virtual ~ExpiryListener() = default;
  virtual void OnKeyExpired(Db& db, std::string_view key) = 0;
};

// Told when a key is added to a database whose keys clients are blocked on (Redis's dbAdd
// calling signalKeyAsReady), so the node can serve them once the command is done; also when a
// stream is deleted or overwritten (as the stream type, for XREADGROUP's waiters).
class KeyAddedListener {
 public:
  virtual ~KeyAddedListener() = default;
  virtual void OnKeyAdded(Db& db, std::string_view key, ObjectType type) = 0;
};

// Told, for keyspace notifications, of a key that comes into being (the "new" event of dbAdd)
// and of a read that finds no key ("keymiss" of lookupKey); each only while switched on
// (Keyspace::set_report_new_keys, set_report_misses), so that otherwise they cost a branch.
class KeyEventListener {
 public:
  virtual ~KeyEventListener() = default;
  virtual void OnNewKey(Db& db, std::string_view key) = 0;
  virtual void OnKeyMiss(Db& db, std::string_view key) = 0;
};

class Db {
 public:
  using Node = Dict<DbEntry>::Node;

  Db(Keyspace* owner, int id) : owner_(owner), id_(id) {}

  int id() const { return id_; }
  size_t size() const { return dict_.size(); }
  size_t expires_size() const { return expiring_.size(); }

  // Finds `key`, applying lazy expiry first: an expired key is deleted (unless this node is a
  // replica, which only hides it) and reported missing. Read lookups count keyspace hits/misses
  // and report a miss to the KeyEventListener (the "keymiss" event).
  Node* LookupRead(std::string_view key);
  Node* LookupWrite(std::string_view key);
  // As LookupRead without touching the hit/miss counters or the access time (internal checks
  // such as SCAN's type filter).
  Node* LookupQuiet(std::string_view key);
  // As LookupRead but leaving the access time alone (Redis's LOOKUP_NOTOUCH: TYPE, TTL).
  Node* LookupNoTouch(std::string_view key);
  // As LookupNoTouch without the keymiss event (LOOKUP_NOTOUCH|LOOKUP_NONOTIFY: OBJECT).
  Node* LookupNoTouchNoNotify(std::string_view key);

  // Finds `key` without applying expiry (the node may be logically expired): for checks that
  // must not change the dataset, such as WATCH's.
  template <typename Fn>
  void ForEachMatching(std::string_view key, Fn&& fn) const {
    if (const Node* n = dict_.Find(key)) fn(n);
  }
  // The same for the keyspace's own expiry passes, which decide themselves what expired.
  Node* FindWithoutExpiry(std::string_view key) { return dict_.Find(key); }

  // Adds a key that must not exist (after a lookup returned nullptr). This, Set of a new key
  // and Move are where a key comes into being: the KeyAddedListener hears of them while
  // report_additions is on, the KeyEventListener while new keys are reported.
  Node* Add(std::string_view key, Object value);
  // Sets `key` to `value`, replacing any value; the old TTL is dropped unless `keep_ttl`.
  Node* Set(std::string_view key, Object value, bool keep_ttl = false);
  // Set, for a key read from a snapshot: no "new" event (Redis's dbAddRDBLoad).
  Node* SetLoaded(std::string_view key, Object value);
  // Deletes `key` if present (expired or not); returns whether it was there.
  bool Delete(std::string_view key);
  void Delete(Node* node);
  // A stream is deleted or overwritten (callers replacing a value in place say so): its key is
  // reported ready (signalKeyAsReady), so clients blocked in XREADGROUP on it are unblocked.
  void ReportStreamGone(Node* node);
  // Moves the entry to `to` under `new_key` (RENAME, MOVE): value, TTL and access data go
  // together; `to` must not hold new_key.
  Node* Move(Node* node, Db& to, std::string_view new_key);
  // SWAPDB: the two databases exchange their keys (ids stay: clients stay where they are).
  void SwapContents(Db& other);

  void SetExpire(Node* node, int64_t when_ms);
  bool RemoveExpire(Node* node);  // returns whether there was a TTL

  bool IsExpired(const Node* node) const;
  void Clear();

  // A random live key; expired ones met on the way are deleted (on a master).
  Node* RandomKey();
  // A random key with a TTL (nullptr when none), for volatile-* eviction.
  Node* RandomVolatileKey();
  // One SCAN step over the keys (see Dict::Scan).
  template <typename Fn>
  uint64_t Scan(uint64_t cursor, Fn&& fn) const {
    return dict_.Scan(cursor, std::forward<Fn>(fn));
  }
  template <typename Fn>
  void ForEach(Fn&& fn) const {
    dict_.ForEach(std::forward<Fn>(fn));
  }

  // Samples keys with a TTL and deletes the expired ones, like one database pass of Redis's
  // activeExpireCycle. Returns false when the time budget ran out.
  bool ActiveExpire(int64_t deadline_us);

  size_t OverheadBytes() const { return MainOverheadBytes() + ExpiresOverheadBytes(); }
  // Of which the key table's, and the expiring keys' index (MEMORY STATS's db.N fields).
  size_t MainOverheadBytes() const;
  size_t ExpiresOverheadBytes() const;

  // On while clients are blocked on keys of this database: only then (or while new keys are
  // reported) does adding a key cost more than a branch.
  void set_report_additions(bool on) { SetReport(kReportReady, on); }
  // The running estimate of the TTL of keys with one, kept by the expire cycle (INFO avg_ttl).
  int64_t avg_ttl() const { return avg_ttl_; }

 private:
  friend class Keyspace;
  // What Lookup does besides finding the key (Redis's LOOKUP_* flags, inverted).
  enum LookupFlag : uint32_t {
    kCountStats = 1u << 0,
    kTouch = 1u << 1,
    kNotifyMiss = 1u << 2,
    kWrite = 1u << 3,  // the key is about to be written: a writable replica deletes it if expired
  };
  // Why adding a key is reported: clients blocked on this database, the "new" event.
  enum Report : uint8_t { kReportReady = 1u << 0, kReportNew = 1u << 1 };
  Node* Lookup(std::string_view key, uint32_t flags);
  Node* Insert(std::string_view key, Object value, uint8_t report);
  void Overwrite(Node* node, Object value, bool keep_ttl);
  void SetReport(uint8_t bit, bool on) { report_ = on ? (report_ | bit) : (report_ & ~bit); }
  void TrackExpire(Node* node);
  void UntrackExpire(Node* node);

  Keyspace* owner_;
  int id_;
  Dict<DbEntry> dict_;
  std::vector<Node*> expiring_;  // keys with a TTL, sampled by the active expire cycle
  int64_t avg_ttl_ = 0;
  uint8_t report_ = 0;  // Report bits
};

class Keyspace {
 public:
  static constexpr int kDefaultDatabases = 16;

  explicit Keyspace(Clock* clock, int databases = kDefaultDatabases);

  int num_dbs() const { return static_cast<int>(dbs_.size()); }
  Db& db(int index) { return *dbs_[static_cast<size_t>(index)]; }

  // The command-time snapshot: taken once per command (and once per script), so a command sees
  // one instant, as Redis's server.mstime / cmd_time_snapshot.
  int64_t now_ms() const { return now_ms_; }
  void SnapshotTime() { now_ms_ = clock_->NowMs(); }
  Clock& clock() { return *clock_; }

  // A replica never expires keys itself: it hides them until the master's DEL arrives.
  bool replica() const { return replica_; }
  void set_replica(bool replica) {
    replica_ = replica;
    if (!replica) replica_own_expires_.clear();  // a master's active expiry covers them all
  }
  // replica-read-only no: a write on the replica deletes the expired key it meets first, as
  // Redis's LOOKUP_WRITE (EXPIRE_FORCE_DELETE_EXPIRED) does on writable replicas.
  bool replica_writable() const { return replica_writable_; }
  void set_replica_writable(bool writable) { replica_writable_ = writable; }
  // Whether an expired key met by a lookup (a write when `write`) is deleted now.
  bool DeletesExpired(bool write) const {
    return (!replica_ || (write && replica_writable_)) && !expiry_paused_;
  }
  // While a replica runs its master's stream, logically expired keys are still there for it
  // (Redis's expireIfNeeded answers "not expired" to the master client): the master decides.
  bool master_view() const { return master_view_; }
  void set_master_view(bool on) { master_view_ = on; }
  // Whether a client's own command runs (not the master's stream, nor a load): on a writable
  // replica the keys it gives a TTL are remembered for ExpireReplicaOwnKeys.
  bool client_command() const { return client_command_; }
  void set_client_command(bool on) { client_command_ = on; }
  // While the node loads its AOF no key expires (Redis's keyIsExpired during loading).
  void set_loading(bool on) { loading_ = on; }
  // Whether lookups find logically expired keys: a replica running its master's stream, or
  // a node loading its AOF.
  bool keeps_expired_keys() const { return loading_ || (replica_ && master_view_); }
  // While clients are paused (CLIENT PAUSE) keys do not expire either: expired ones are hidden,
  // not deleted, so the dataset stays still, as in Redis.
  bool expiry_paused() const { return expiry_paused_; }
  void set_expiry_paused(bool paused) { expiry_paused_ = paused; }
  bool active_expire_enabled() const { return active_expire_enabled_; }
  void set_active_expire_enabled(bool enabled) { active_expire_enabled_ = enabled; }

  KeyspaceStats& stats() { return stats_; }

  // Access tracking (OBJECT IDLETIME/FREQ, eviction), as Redis's LRU clock and LFU counters.
  const AccessTracking& access_tracking() const { return tracking_; }
  void set_access_tracking(const AccessTracking& tracking) { tracking_ = tracking; }
  // The lru field of a new object (createObject).
  uint32_t NewLru() const;
  // An access (lookupKey without NOTOUCH): the LRU second, or the LFU counter's update.
  void TouchLru(DbEntry& entry);
  // Seconds since the last access (estimateObjectIdleTime), for the LRU form.
  int64_t IdleSeconds(const DbEntry& entry) const;
  // The access counter after its decay (LFUDecrAndReturn), for the LFU form.
  uint8_t LfuCounter(const DbEntry& entry) const;
  // RESTORE/loading: IDLETIME seconds (LRU form) or FREQ (LFU form), as objectSetLRUOrLFU.
  void SetIdle(DbEntry& entry, int64_t idle_seconds) const;
  void SetFreq(DbEntry& entry, uint8_t freq) const;
  void set_expiry_listener(ExpiryListener* listener) { expiry_listener_ = listener; }
  void set_key_added_listener(KeyAddedListener* listener) { key_added_listener_ = listener; }
  // Keyspace notifications: whether new keys and read misses reach the KeyEventListener.
  void set_key_event_listener(KeyEventListener* listener) { key_event_listener_ = listener; }
  void set_report_new_keys(bool on);
  void set_report_misses(bool on);
  std::mt19937_64& rng() { return rng_; }

  // One run of the active expire cycle over every database, within `budget_us`.
  void ActiveExpireCycle(int64_t budget_us);
  // A replica's own active expiry (Redis's expireSlaveKeys): the keys its clients gave a TTL on
  // a writable replica, which no DEL of the master will ever remove, are deleted once expired.
  void ExpireReplicaOwnKeys();
  size_t replica_own_keys_with_ttl() const { return replica_own_expires_.size(); }
  void FlushAll();

 private:
  friend class Db;
  // Deletes an expired key, counts it and tells the listener.
  void DeleteExpired(Db& db, Db::Node* node);
  // A key was added to `db` for the reasons in `report` (Db::Report bits).
  void ReportAdded(Db& db, std::string_view key, ObjectType type, uint8_t report);

  Clock* clock_;
  int64_t now_ms_ = 0;
  bool replica_ = false;
  bool replica_writable_ = false;
  bool master_view_ = false;
  bool client_command_ = false;
  // Redis's slaveKeysWithExpire: key -> the databases (bit per id below 64) where a client of
  // this replica gave it a TTL.
  std::unordered_map<std::string, uint64_t> replica_own_expires_;
  bool loading_ = false;
  bool active_expire_enabled_ = true;
  bool expiry_paused_ = false;
  KeyspaceStats stats_;
  AccessTracking tracking_;
  ExpiryListener* expiry_listener_ = nullptr;
  KeyAddedListener* key_added_listener_ = nullptr;
  KeyEventListener* key_event_listener_ = nullptr;
  bool report_misses_ = false;
  std::mt19937_64 rng_;
  std::vector<std::unique_ptr<Db>> dbs_;
  int expire_next_db_ = 0;  // where the next cycle starts, so every database gets its turn
};

}  // namespace redlab::server
