// What must happen when keys change, as Redis's db.c (signalModifiedKey, signalFlushedDb,
// dbSwapDatabases) and multi.c (touchWatchedKey): WATCHes break, client-side caches are
// invalidated, blocked clients are served, keyspace events are published. The engine owns one;
// commands signal through it and never reach the WATCH registry or tracking themselves.
#pragma once

#include <cstdint>
#include <string_view>

#include "server/data/keyspace.h"
#include "server/engine/core/client.h"
#include "server/engine/core/watch.h"

namespace redlab::server::engine {

class Blocking;
class Engine;
class Messaging;

class KeyspaceSignals final : public ExpiryListener, public KeyEventListener {
 public:
  explicit KeyspaceSignals(Engine& engine);
  KeyspaceSignals(const KeyspaceSignals&) = delete;
  KeyspaceSignals& operator=(const KeyspaceSignals&) = delete;

  // WATCH (`expired`: the key was already logically expired), and UNWATCH, EXEC, DISCARD,
  // RESET, a disconnect.
  void Watch(Client* client, int db, std::string_view key, bool expired) {
    watches_.Watch(client, db, key, expired);
  }
  void UnwatchAll(Client* client) { watches_.UnwatchAll(client); }

  // A key changed (`by` changed it; nullptr when no client did): invalidates WATCHes on it and
  // the client-side caches that hold it (signalModifiedKey).
  void ModifiedKey(int db, std::string_view key, const Client* by = nullptr);
  // A database is about to be emptied (db = -1: all of them): WATCHes on keys it holds break,
  // and every tracking client is told to drop its whole cache.
  void Flushed(int db);
  // SWAPDB (dbSwapDatabases): exchanges two databases' keys, breaking the WATCHes the swap
  // changes; clients, their WATCHes and their blocking stay with the database number.
  void SwapDatabases(int a, int b);

  // Tells the keyspace which of its events (new keys, misses) could be published under
  // notify-keyspace-events `notify` (startup and every CONFIG SET).
  void ConfigureKeyEvents(uint32_t notify);

 private:
  // A key expired (lazily or by the active cycle), a key came into being, a read missed.
  void OnKeyExpired(Db& db, std::string_view key) override;
  void OnNewKey(Db& db, std::string_view key) override;
  void OnKeyMiss(Db& db, std::string_view key) override;

  Engine& engine_;
  Keyspace& keyspace_;
  Messaging& messaging_;
  Blocking& blocking_;
  WatchRegistry watches_;
};

}  // namespace redlab::server::engine
