#include "server/engine/core/watch.h"

#include <algorithm>

namespace redlab::server::engine {

void WatchRegistry::Watch(Client* client, int db, std::string_view key, bool expired) {
  for (const auto& w : client->watched_keys()) {
    if (w.db == db && w.key == key) return;  // already watched
  }
  Watchers& watchers = by_db_[db];
  auto it = watchers.find(key);
  if (it == watchers.end()) it = watchers.emplace(std::string(key), std::vector<Client*>{}).first;
  it->second.push_back(client);
  client->watched_keys().push_back({db, std::string(key), expired});
  ++count_;
}

void WatchRegistry::UnwatchAll(Client* client) {
  for (const auto& w : client->watched_keys()) {
    auto db_it = by_db_.find(w.db);
    if (db_it == by_db_.end()) continue;
    auto it = db_it->second.find(w.key);
    if (it == db_it->second.end()) continue;
    auto& clients = it->second;
    clients.erase(std::remove(clients.begin(), clients.end(), client), clients.end());
    if (clients.empty()) db_it->second.erase(it);
    if (db_it->second.empty()) by_db_.erase(db_it);
    --count_;
  }
  client->watched_keys().clear();
}

void WatchRegistry::TouchWatchers(int db, std::string_view key,
                                  const std::function<bool(Client::WatchedKey* watched)>& breaks) {
  auto db_it = by_db_.find(db);
  if (db_it == by_db_.end()) return;
  auto it = db_it->second.find(key);
  if (it == db_it->second.end()) return;
  std::vector<Client*> clients = it->second;  // UnwatchAll below edits the registry
  for (Client* c : clients) {
    auto& watched = c->watched_keys();
    auto w = std::find_if(watched.begin(), watched.end(),
                          [&](const Client::WatchedKey& k) { return k.db == db && k.key == key; });
    if (!breaks(w != watched.end() ? &*w : nullptr)) continue;
    c->set_dirty_cas();
    // Redis unwatches a client once it is dirty: there is nothing left to watch for.
    UnwatchAll(c);
  }
}

void WatchRegistry::Touch(int db, std::string_view key, const std::function<bool()>& exists) {
  if (count_ == 0) return;
  TouchWatchers(db, key, [&](Client::WatchedKey* w) {
    if (w != nullptr && w->expired && !exists()) {
      w->expired = false;  // the expired key was deleted: logically no change
      return false;
    }
    return true;
  });
}

void WatchRegistry::TouchSwapped(int db, std::string_view key, bool exists_before,
                                 bool exists_after, bool expired_after) {
  if (!exists_before && !exists_after) return;
  TouchWatchers(db, key, [&](Client::WatchedKey* w) {
    if (w == nullptr) return false;
    if (w->expired) {
      if (!exists_after) {
        w->expired = false;  // an expired key now gone: logically no change
        return false;
      }
      return !expired_after;  // still an expired key: no change
    }
    if (!exists_before && expired_after) {
      w->expired = true;  // nothing replaced by an expired key: still nothing
      return false;
    }
    return true;
  });
}

void WatchRegistry::ForEachKey(int db, const std::function<void(std::string_view key)>& fn) const {
  auto db_it = by_db_.find(db);
  if (db_it == by_db_.end()) return;
  std::vector<std::string> keys;
  for (const auto& [key, clients] : db_it->second) keys.push_back(key);
  for (const auto& key : keys) fn(key);
}

}  // namespace redlab::server::engine
