// The keys clients WATCH, by database: a write to a watched key marks its watchers so their
// next EXEC fails, as Redis's touchWatchedKey.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "server/command/command_table.h"
#include "server/engine/core/client.h"

namespace redlab::server::engine {

class WatchRegistry {
 public:
  // `expired`: the key was already logically expired when watched.
  void Watch(Client* client, int db, std::string_view key, bool expired);
  // Forgets every key `client` watches (UNWATCH, EXEC, DISCARD, disconnect).
  void UnwatchAll(Client* client);
  // A key was modified: every client watching it has its transaction aborted. `exists` says
  // whether the key is in the database now: a key that was already expired when watched and is
  // now simply gone counts as unchanged, as in Redis's touchWatchedKey.
  void Touch(int db, std::string_view key, const std::function<bool()>& exists);
  // SWAPDB replaces database `db`'s contents (touchAllWatchedKeysInDb): a watched key that is
  // there before or after breaks its watchers' transactions, unless it only goes from expired
  // to absent, from absent to expired, or from expired to expired (each watcher's expired flag
  // follows, so EXEC later judges it as Redis does).
  void TouchSwapped(int db, std::string_view key, bool exists_before, bool exists_after,
                    bool expired_after);
  // Visits the watched keys of `db` (FLUSHDB, FLUSHALL touch those that existed).
  void ForEachKey(int db, const std::function<void(std::string_view key)>& fn) const;
  bool empty() const { return count_ == 0; }

 private:
  // Marks dirty and unwatches each client watching `key` of `db` for which `breaks` says the
  // change aborts its transaction; `breaks` gets the client's entry for the key (nullptr if it
  // has none) and may update its expired flag instead.
  void TouchWatchers(int db, std::string_view key,
                     const std::function<bool(Client::WatchedKey* watched)>& breaks);

  using Watchers = std::unordered_map<std::string, std::vector<Client*>, NameHash, std::equal_to<>>;
  std::unordered_map<int, Watchers> by_db_;
  size_t count_ = 0;
};

}  // namespace redlab::server::engine
