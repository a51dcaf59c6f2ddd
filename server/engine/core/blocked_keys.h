// Clients blocked on keys (BLPOP, BLMOVE, BZPOPMIN...): for each database and key, the clients
// waiting on it in the order they blocked, and the keys that became ready since they were last
// served (Redis's db->blocking_keys, db->ready_keys and server.ready_keys).
#pragma once

#include <cstddef>
#include <list>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "server/command/command_table.h"
#include "server/data/keyspace.h"
#include "server/engine/core/client.h"

namespace redlab::server::engine {

class BlockedKeys : public KeyAddedListener {
 public:
  explicit BlockedKeys(Keyspace* keyspace);

  // Queues `client` on each key of its block().keys, in its database, after those already
  // waiting there (it is served after them).
  void Add(Client* client);
  // Takes `client` off the queues of its keys.
  void Remove(Client* client);

  // A key was added: it is ready when clients waiting for its type wait on it (signalKeyAsReady).
  void OnKeyAdded(Db& db, std::string_view key, ObjectType type) override;

  // A stream got entries (XADD): ready when clients wait on it (signalKeyAsReady).
  void SignalReady(Db& db, std::string_view key, ObjectType type) { OnKeyAdded(db, key, type); }

  // After SWAPDB: every key clients wait on in `db` that now holds a value is ready
  // (scanDatabaseForReadyKeys; logically expired keys too, which serving then deletes).
  void ScanDatabase(Db& db);
  // Before FLUSHDB / FLUSHALL (replaced_with nullptr) or SWAPDB: the streams clients wait on in
  // `emptied` that will not be streams afterwards are ready, so that XREADGROUP waiters get
  // -UNBLOCKED (scanDatabaseForDeletedStreams).
  void ScanDeletedStreams(Db& emptied, Db* replaced_with);

  struct ReadyKey {
    int db;
    std::string key;
  };
  bool has_ready() const { return !ready_.empty(); }
  // The keys signalled ready, in order; the list starts again empty. A key taken is not queued
  // again until Serving() is called for it, just before its clients are served: what serving
  // them adds may make it ready once more.
  std::vector<ReadyKey> TakeReady();
  void Serving(const ReadyKey& ready);

  // The clients waiting on `key`, in blocking order (a copy: serving them changes the queue).
  std::vector<Client*> Waiters(int db, std::string_view key) const;

  // How many clients wait on lists, and on sorted sets.
  size_t list_clients() const { return list_clients_; }
  size_t zset_clients() const { return zset_clients_; }
  size_t stream_clients() const { return stream_clients_; }

 private:
  using Queue = std::list<Client*>;
  using Queues = std::unordered_map<std::string, Queue, NameHash, std::equal_to<>>;
  using KeySet = std::unordered_set<std::string, NameHash, std::equal_to<>>;

  Keyspace* keyspace_;
  std::vector<Queues> waiting_;    // by database
  std::vector<KeySet> ready_set_;  // by database: the keys in ready_ or being served
  std::vector<ReadyKey> ready_;
  size_t list_clients_ = 0;
  size_t zset_clients_ = 0;
  size_t stream_clients_ = 0;
};

}  // namespace redlab::server::engine
