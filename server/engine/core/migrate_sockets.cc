#include "server/engine/core/migrate_sockets.h"

#include <iterator>

namespace redlab::server::engine {

MigrateSockets::Cached* MigrateSockets::Find(const std::string& name, int64_t now_s) {
  auto it = cached_.find(name);
  if (it == cached_.end()) return nullptr;
  it->second.last_use_s = now_s;
  return &it->second;
}

MigrateSockets::Cached* MigrateSockets::Add(const std::string& name,
                                            std::unique_ptr<SyncLink> link, int64_t now_s) {
  if (cached_.size() >= kMaxItems) {
    // Too many: drop one at random, as Redis does.
    auto victim = cached_.begin();
    std::advance(victim, static_cast<long>(random_() % cached_.size()));
    cached_.erase(victim);
  }
  Cached& entry = cached_[name];
  entry.link = std::move(link);
  entry.last_dbid = -1;
  entry.last_use_s = now_s;
  return &entry;
}

void MigrateSockets::CloseTimedOut(int64_t now_s) {
  for (auto it = cached_.begin(); it != cached_.end();) {
    if (now_s - it->second.last_use_s > kTtlSeconds) {
      it = cached_.erase(it);
    } else {
      ++it;
    }
  }
}

}  // namespace redlab::server::engine
