// Blocked clients and CLIENT PAUSE (Redis's blocked.c, timeout.c and the pause of
// networking.c): the clients waiting in blocking order, their timeouts by the node's clock, the
// keys they wait on and the serving of those that became ready. Owned once by the Engine.
#pragma once

#include <cstddef>
#include <cstdint>
#include <list>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "server/command/command_table.h"
#include "server/data/keyspace.h"
#include "server/engine/core/blocked_keys.h"
#include "server/engine/core/client.h"

namespace redlab::server::engine {

class CommandContext;
class Engine;

class Blocking {
 public:
  // `engine` runs postponed commands and serves ready keys; its keyspace reports new keys here.
  explicit Blocking(Engine& engine);
  Blocking(const Blocking&) = delete;
  Blocking& operator=(const Blocking&) = delete;

  // A blocked client reads no input until it is unblocked; its reply is written by whoever
  // unblocks it (or by the timeout handling of its kind). A deadline of 0 never comes, nor does
  // one that overflowed (negative), as in Redis.
  void BlockClient(Client& client, Client::BlockKind kind, int64_t deadline_ms);
  // Unblocks `client`; unless `resume` is false, its pending input is processed now.
  void UnblockClient(Client& client, bool resume = true);
  // Unblocks `client` whose blocked command's reply was written from `reply_start` on, applying
  // CLIENT REPLY to it; `resume`: the client goes on with its pipelined input now.
  void FinishBlockedCommand(Client& client, size_t reply_start, bool resume);
  // Blocks the client running `ctx` on `keys` (kList or kZset; a key named twice counts once)
  // until one of them holds data of that kind, and block().serve serves it from that key
  // (Redis's blockForKeys). The command sets block().serve and its options first.
  void BlockForKeys(CommandContext& ctx, Client::BlockKind kind, std::span<const std::string> keys,
                    int64_t deadline_ms);
  // A blocking pop (BLPOP, BRPOP, BLMPOP, BZPOPMIN, BZPOPMAX, BZMPOP) that found every key
  // empty: a null array where the client may not block (MULTI, a script), else BlockForKeys,
  // to be served by `serve` popping `count` (-1: the single-element form) from `from`.
  void BlockPopOrReplyNull(CommandContext& ctx, Client::BlockKind kind,
                           std::span<const std::string> keys, int64_t deadline_ms,
                           KeyServeProc serve, int64_t count, int from);
  // CLIENT UNBLOCK: unblocks client `id` as if it timed out, or with an UNBLOCKED error.
  // False when it is not blocked (or only postponed by CLIENT PAUSE, which it cannot leave).
  bool UnblockById(uint64_t id, bool with_error);
  // Forgets a blocked client that goes away (its connection closes): nothing is served to it.
  void Forget(Client& client) {
    if (client.blocked()) ReleaseBlock(client);
  }
  // Times out blocked clients whose deadline has passed and ends an expired pause.
  void OnTimer();
  size_t blocked_clients() const { return blocked_.size(); }
  // Blocked clients with a deadline (INFO clients_in_timeout_table).
  size_t clients_in_timeout_table() const { return timeouts_.size(); }

  // Answers the WAITs whose replicas have now acknowledged enough (as acks arrive).
  void ServeWaitingReplicas();
  // Unblocks every blocked client but those postponed by a pause with `error`, closing them
  // after the reply (Redis's disconnectAllBlockedClients, when a master becomes a replica).
  void DisconnectBlockedClients(std::string_view error);

  // CLIENT PAUSE: until `end_ms` (node time), commands of all clients (or only writes) wait.
  void Pause(int64_t end_ms, bool writes_only);
  void Unpause();
  bool paused() const { return pause_end_ms_ != 0; }
  // Whether the pause holds this invocation of `cmd` (with its `flags`; for EXEC, its queue's)
  // from `client`, which then waits, postponed, until the pause ends.
  bool PauseHolds(const Client& client, const Command& cmd, uint32_t flags) const {
    if (pause_end_ms_ == 0) [[likely]]
      return false;
    return PauseHoldsSlow(client, cmd, flags);
  }

  // The keys clients wait on (signalled ready by the keyspace, scanned by FLUSH and SWAPDB).
  BlockedKeys& keys() { return blocked_keys_; }
  // signalKeyAsReady for a stream that got entries: clients blocked in XREAD on it are served.
  void SignalStreamReady(Db& db, std::string_view key) {
    blocked_keys_.SignalReady(db, key, ObjectType::kStream);
  }
  bool has_ready_keys() const { return blocked_keys_.has_ready(); }
  // Serves the clients blocked on keys that became ready, as Redis's handleClientsBlockedOnKeys
  // after each command, transaction or script; then lets the served ones go on with their input.
  void HandleClientsBlockedOnKeys();

 private:
  bool PauseHoldsSlow(const Client& client, const Command& cmd, uint32_t flags) const;
  void ServeKey(int db, const std::string& key, std::vector<uint64_t>* served);
  void ServeClient(Client& client, const std::string& key);
  static bool StreamHasNewEntries(const Client& client, const Db::Node* node, std::string_view key);
  // unblockDeletedStreamReadgroupClients: the clients blocked in XREADGROUP on `key`, which no
  // longer holds a stream, get -UNBLOCKED.
  void UnblockDeletedStreamReaders(int db, const std::string& key, std::vector<uint64_t>* served);
  // The reply of a blocked client that times out (replyToBlockedClientTimedOut).
  void ReplyTimedOut(Client& client);
  // Forgets a blocked client's bookkeeping (queues, timeout table) and clears its block state.
  Client::BlockState ReleaseBlock(Client& client);
  void ScheduleNextTimer();

  Engine& engine_;
  std::list<Client*> blocked_;                 // in blocking order
  std::multimap<uint64_t, Client*> timeouts_;  // blocked clients with a deadline
  BlockedKeys blocked_keys_;
  std::vector<uint64_t> served_;  // clients served, to go on with their input (by id)
  bool resuming_served_ = false;
  int64_t pause_end_ms_ = 0;  // 0: not paused
  bool pause_writes_only_ = false;
};

}  // namespace redlab::server::engine
