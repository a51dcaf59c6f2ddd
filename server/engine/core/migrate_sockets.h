// MIGRATE's cached connections (Redis's server.migrate_cached_sockets): one blocking link per
// "host:port", reused by the next MIGRATE to it, with the database last selected on it; at most
// 64, closed after 10 s unused (MIGRATE_SOCKET_CACHE_ITEMS / _TTL).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <random>
#include <string>

#include "server/engine/core/sync_link.h"

namespace redlab::server::engine {

class MigrateSockets {
 public:
  static constexpr size_t kMaxItems = 64;
  static constexpr int64_t kTtlSeconds = 10;

  struct Cached {
    std::unique_ptr<SyncLink> link;
    int64_t last_dbid = -1;
    int64_t last_use_s = 0;
  };

  // The cached link for `name`, or nullptr.
  Cached* Find(const std::string& name, int64_t now_s);
  // Caches a new link under `name`, first dropping one entry when the cache is full.
  Cached* Add(const std::string& name, std::unique_ptr<SyncLink> link, int64_t now_s);
  void Close(const std::string& name) { cached_.erase(name); }
  // migrateCloseTimedoutSockets: closes the links unused for more than kTtlSeconds.
  void CloseTimedOut(int64_t now_s);
  size_t size() const { return cached_.size(); }

 private:
  std::map<std::string, Cached> cached_;
  std::minstd_rand random_;  // the node's own: nodes of a process run on their own threads
};

}  // namespace redlab::server::engine
