#include "server/engine/core/blocked_keys.h"

#include <utility>

namespace redlab::server::engine {

BlockedKeys::BlockedKeys(Keyspace* keyspace)
    : keyspace_(keyspace),
      waiting_(static_cast<size_t>(keyspace->num_dbs())),
      ready_set_(static_cast<size_t>(keyspace->num_dbs())) {
  keyspace_->set_key_added_listener(this);
}

void BlockedKeys::Add(Client* client) {
  int db = client->db();
  Queues& queues = waiting_[static_cast<size_t>(db)];
  if (queues.empty()) keyspace_->db(db).set_report_additions(true);
  for (Client::KeyWait& wait : client->block().keys) {
    Queue& queue = queues[wait.key];
    wait.queued = queue.insert(queue.end(), client);
  }
  if (client->block().kind == Client::BlockKind::kList) {
    ++list_clients_;
  } else if (client->block().kind == Client::BlockKind::kStream) {
    ++stream_clients_;
  } else {
    ++zset_clients_;
  }
}

void BlockedKeys::Remove(Client* client) {
  int db = client->db();
  Queues& queues = waiting_[static_cast<size_t>(db)];
  for (Client::KeyWait& wait : client->block().keys) {
    auto it = queues.find(wait.key);
    if (it == queues.end()) continue;
    it->second.erase(wait.queued);
    if (it->second.empty()) queues.erase(it);
  }
  client->block().keys.clear();
  if (queues.empty()) keyspace_->db(db).set_report_additions(false);
  if (client->block().kind == Client::BlockKind::kList) {
    --list_clients_;
  } else if (client->block().kind == Client::BlockKind::kStream) {
    --stream_clients_;
  } else {
    --zset_clients_;
  }
}

void BlockedKeys::OnKeyAdded(Db& db, std::string_view key, ObjectType type) {
  // Only lists, sorted sets and streams serve anyone, and only when someone waits for that type.
  if (type == ObjectType::kList) {
    if (list_clients_ == 0) return;
  } else if (type == ObjectType::kZset) {
    if (zset_clients_ == 0) return;
  } else if (type == ObjectType::kStream) {
    if (stream_clients_ == 0) return;
  } else {
    return;
  }
  size_t index = static_cast<size_t>(db.id());
  if (waiting_[index].find(key) == waiting_[index].end()) return;
  if (!ready_set_[index].emplace(key).second) return;  // already queued
  ready_.push_back(ReadyKey{db.id(), std::string(key)});
}

void BlockedKeys::ScanDatabase(Db& db) {
  std::vector<std::string> keys;
  for (const auto& [key, queue] : waiting_[static_cast<size_t>(db.id())]) keys.push_back(key);
  for (const std::string& key : keys) {
    db.ForEachMatching(key, [&](const Db::Node* n) { OnKeyAdded(db, key, n->value.value.type()); });
  }
}

void BlockedKeys::ScanDeletedStreams(Db& emptied, Db* replaced_with) {
  if (stream_clients_ == 0) return;
  std::vector<std::string> keys;
  for (const auto& [key, queue] : waiting_[static_cast<size_t>(emptied.id())]) keys.push_back(key);
  auto is_stream = [](Db* db, const std::string& key) {
    bool found = false;
    if (db != nullptr) {
      db->ForEachMatching(key, [&](const Db::Node* n) {
        found = n->value.value.is(ObjectType::kStream);
      });
    }
    return found;
  };
  for (const std::string& key : keys) {
    if (is_stream(&emptied, key) && !is_stream(replaced_with, key)) {
      OnKeyAdded(emptied, key, ObjectType::kStream);
    }
  }
}

std::vector<BlockedKeys::ReadyKey> BlockedKeys::TakeReady() { return std::exchange(ready_, {}); }

void BlockedKeys::Serving(const ReadyKey& ready) {
  ready_set_[static_cast<size_t>(ready.db)].erase(ready.key);
}

std::vector<Client*> BlockedKeys::Waiters(int db, std::string_view key) const {
  const Queues& queues = waiting_[static_cast<size_t>(db)];
  auto it = queues.find(key);
  if (it == queues.end()) return {};
  return std::vector<Client*>(it->second.begin(), it->second.end());
}

}  // namespace redlab::server::engine
