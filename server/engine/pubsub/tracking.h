// Client-side caching, as Redis 7.0's tracking.c: the table of keys clients may hold in their
// caches (key -> ids of the clients that read it), the prefixes BCAST clients follow, and the
// invalidation messages sent when keys change.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <random>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "server/base/dict.h"
#include "server/command/command_table.h"
#include "server/engine/core/client.h"

namespace redlab::server::engine {

class Engine;

class Tracking {
 public:
  explicit Tracking(Engine& engine);

  struct Options {
    uint64_t redirect = 0;
    bool bcast = false;
    bool optin = false;
    bool optout = false;
    bool noloop = false;
  };
  // CLIENT TRACKING ON with options already checked (enableTracking): a client tracking already
  // keeps its prefixes and adds the new ones. BCAST without prefixes follows the empty prefix.
  void Enable(Client& client, const Options& options, std::span<const std::string> prefixes);
  // CLIENT TRACKING OFF, RESET, disconnection. The client's id stays in the table: entries go
  // lazily, when their key changes, as in Redis (so a client with many keys leaves cheaply).
  void Disable(Client& client);

  // After a read-only command of a client tracking in the default mode: remembers the keys the
  // command names (for a script, the keys the script declared: `cmd` and `args` are EVAL's).
  void RememberKeys(Client& client, const Command& cmd, std::span<const std::string> args);

  // A key changed (`by` modified it; nullptr for expiry and eviction). The clients that read it
  // are told: at once, except the client whose command is running, which is told after its
  // reply (SendPending). With `bcast`, the key also waits for the next broadcast to the BCAST
  // clients of every matching prefix.
  void InvalidateKey(const Client* by, std::string_view key, bool bcast);
  // A database was flushed: every tracking client is told "everything" (a null) and the table
  // is emptied; keys are not tracked per database.
  void InvalidateAll();
  // Keeps the table within tracking-table-max-keys by invalidating random keys, with an effort
  // that grows while it stays over (trackingLimitUsedSlots).
  void LimitUsedSlots();
  // Before the event loop sleeps: each BCAST client receives the keys modified under its
  // prefixes since the last broadcast, in one message per prefix.
  void BroadcastInvalidations();
  // The end of the running command: the invalidations held for its client leave now.
  bool has_pending() const { return !pending_.empty(); }
  void SendPending();

  // Whether a key change can concern anyone (the fast path of every write).
  bool idle() const { return table_.empty() && prefixes_.empty(); }
  int64_t clients() const { return clients_; }
  size_t total_keys() const { return table_.size(); }
  uint64_t total_items() const { return total_items_; }
  size_t total_prefixes() const { return prefixes_.size(); }

 private:
  // A prefix followed by BCAST clients: its clients, and the keys modified under it since the
  // last broadcast, each with the id of the client that modified it last (0: none, or a
  // script), so that NOLOOP clients can be spared their own changes.
  struct BcastState {
    std::map<std::string, uint64_t> keys;  // sorted, as Redis's radix tree sends them
    std::vector<Client*> clients;          // by id
  };
  // An invalidation held until the running command of its client has replied; no key: a flush.
  struct Pending {
    uint64_t client_id;
    std::optional<std::string> key;
  };

  void AddPrefix(Client& client, std::string_view prefix);
  // sendTrackingMessage: `payload` is the message's value in RESP, sent to the client or its
  // redirect target, whichever protocol and mode allow.
  void Send(Client& client, std::string_view payload);
  // A message was written into `client`'s replies from `start` on: have it sent.
  void Delivered(Client& client, size_t start);

  Engine& engine_;
  Dict<std::vector<uint64_t>> table_;  // key -> client ids, ordered as Redis's radix tree
  std::map<std::string, BcastState, std::less<>> prefixes_;
  std::vector<Pending> pending_;
  uint64_t total_items_ = 0;
  int64_t clients_ = 0;
  unsigned limit_rounds_ = 0;  // rounds LimitUsedSlots ended still over the limit
  std::mt19937_64 rng_{std::random_device{}()};
};

}  // namespace redlab::server::engine
