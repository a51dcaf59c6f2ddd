#include "server/engine/watch.h"

#include <algorithm>

namespace redlab::server::engine {

void WatchRegistry::Watch(Client* client, int db, std::string_view key) {
  for (const auto& [d, k] : client->watched_keys()) {
    if (d == db && k == key) return;  // already watched
  }
  Watchers& watchers = by_db_[db];
  auto it = watchers.find(key);
  if (it == watchers.end()) it = watchers.emplace(std::string(key), std::vector<Client*>{}).first;
  it->second.push_back(client);
  client->watched_keys().emplace_back(db, std::string(key));
  ++count_;
}

void WatchRegistry::UnwatchAll(Client* client) {
  for (const auto& [db, key] : client->watched_keys()) {
    auto db_it = by_db_.find(db);
    if (db_it == by_db_.end()) continue;
    auto it = db_it->second.find(key);
    if (it == db_it->second.end()) continue;
    auto& clients = it->second;
    clients.erase(std::remove(clients.begin(), clients.end(), client), clients.end());
    if (clients.empty()) db_it->second.erase(it);
    if (db_it->second.empty()) by_db_.erase(db_it);
    --count_;
  }
  client->watched_keys().clear();
}

void WatchRegistry::Touch(int db, std::string_view key) {
  if (count_ == 0) return;
  auto db_it = by_db_.find(db);
  if (db_it == by_db_.end()) return;
  auto it = db_it->second.find(key);
  if (it == db_it->second.end()) return;
  for (Client* c : it->second) c->set_dirty_cas();
}

void WatchRegistry::TouchAll(int db) {
  for (auto& [d, watchers] : by_db_) {
    if (db != -1 && d != db) continue;
    for (auto& [key, clients] : watchers) {
      for (Client* c : clients) c->set_dirty_cas();
    }
  }
}

}  // namespace redlab::server::engine
