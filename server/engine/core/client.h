// A client of a node as the engine sees it: its selected database, protocol, name, auth state
// and reply buffer. The connection behind it (a socket, a script, a replication link) is reached
// only through the ClientIo interface, so the engine never touches libuv.
#pragma once

#include <cstdint>
#include <list>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "server/data/stream.h"

namespace redlab::server {
struct Command;
}  // namespace redlab::server

namespace redlab::server::acl {
class User;
}  // namespace redlab::server::acl

namespace redlab::server::engine {

class Client;
class CommandContext;

// Serves a client blocked on keys from `key`, which now holds a value of the type it waits for
// (BLPOP's pop, BLMOVE's move...): replies, changes the dataset and propagates as the command
// would have. `ctx` is the blocked command's own context.
using KeyServeProc = void (*)(CommandContext& ctx, const std::string& key);

// validateClientName: a client name is printable ASCII without spaces (CLIENT SETNAME, HELLO).
inline bool ValidClientName(std::string_view name) {
  for (char c : name) {
    if (c < '!' || c > '~') return false;
  }
  return true;
}
inline constexpr std::string_view kBadClientName =
    "Client names cannot contain spaces, newlines or special characters.";

// What the transport behind a client provides to the engine.
class ClientIo {
 public:
  virtual ~ClientIo() = default;
  // "ip:port" of the peer and of the local end, as CLIENT LIST prints them.
  virtual std::string_view PeerAddress() const = 0;
  virtual std::string_view LocalAddress() const = 0;
  // Whether the client came through the unix socket (flag U; always local to protected mode).
  virtual bool UnixSocket() const { return false; }
  virtual int Fd() const = 0;
  // The engine wrote to the client's reply buffer outside the client's own request (a pub/sub
  // message, an unblocked command): send it when convenient.
  virtual void RequestFlush() = 0;
  // A push (pub/sub message, invalidation) was written into the reply buffer from `from` on;
  // the transport may lose it there (FAULT REPLY DROP) by truncating the buffer back to `from`.
  virtual void PushWritten(size_t /*from*/) {}
  // Close the connection as soon as possible, dropping pending replies (CLIENT KILL).
  virtual void CloseAsap() = 0;
  // The client was blocked and is not any more: send its reply and go on with its input.
  virtual void ResumeInput() = 0;
  // Query buffer figures for CLIENT LIST (qbuf, qbuf-free) and INFO.
  virtual size_t QueryBufferLength() const = 0;
  virtual size_t QueryBufferFree() const = 0;
  // Bytes of replies accepted by the transport but not yet written to the socket.
  virtual size_t PendingOutputBytes() const = 0;
};

class Client {
 public:
  Client(uint64_t id, ClientIo* io, int64_t now_ms)
      : id_(id), io_(io), ctime_ms_(now_ms), last_interaction_ms_(now_ms) {}

  uint64_t id() const { return id_; }
  // The memory this client holds (CLIENT LIST tot-mem, INFO mem_clients_*): itself, its reply
  // buffer and its query buffer.
  size_t TotalMemory() const {
    return sizeof(Client) + reply_buffer_.capacity() +
           (io_ != nullptr ? io_->QueryBufferLength() + io_->QueryBufferFree() : 0);
  }
  ClientIo* io() const { return io_; }

  int db() const { return db_; }
  void set_db(int db) { db_ = db; }
  int protocol() const { return protocol_; }
  void set_protocol(int protocol) { protocol_ = protocol; }

  const std::string& name() const { return name_; }
  void set_name(std::string name) { name_ = std::move(name); }

  bool authenticated() const { return authenticated_; }
  void set_authenticated(bool value) { authenticated_ = value; }
  // The ACL user the client runs as: the default user until it authenticates as another;
  // nullptr for the node's own clients (the link to a master), which may do anything.
  const acl::User* user() const { return user_; }
  void set_user(const acl::User* user) { user_ = user; }

  // A script's client: blocking commands must not block it, they answer at once as if timed out
  // (Redis's CLIENT_DENY_BLOCKING).
  bool deny_blocking() const { return deny_blocking_; }
  void set_deny_blocking(bool value) { deny_blocking_ = value; }

  // Replies accumulate here; the transport drains it.
  std::string& reply_buffer() { return reply_buffer_; }
  const std::string& reply_buffer() const { return reply_buffer_; }

  // Close once the pending replies are written (QUIT, protocol errors).
  bool close_after_reply() const { return close_after_reply_; }
  void set_close_after_reply() { close_after_reply_ = true; }

  int64_t ctime_ms() const { return ctime_ms_; }
  int64_t last_interaction_ms() const { return last_interaction_ms_; }
  void set_last_interaction_ms(int64_t ms) { last_interaction_ms_ = ms; }
  const Command* last_command() const { return last_command_; }
  void set_last_command(const Command* cmd) { last_command_ = cmd; }

  // WATCH state: the keys watched, and whether one was modified since (EXEC then fails).
  struct WatchedKey {
    int db;
    std::string key;
    bool expired;  // already logically expired when WATCH ran (Redis's watchedKey.expired)
  };
  std::vector<WatchedKey>& watched_keys() { return watched_keys_; }
  bool dirty_cas() const { return dirty_cas_; }
  void set_dirty_cas() { dirty_cas_ = true; }
  void clear_dirty_cas() { dirty_cas_ = false; }

  // MULTI state: commands queued until EXEC, and whether one was refused (EXEC then aborts).
  struct QueuedCommand {
    const Command* cmd;
    std::vector<std::string> args;
    uint32_t flags;  // as Engine::CommandFlags gave them when queued
  };
  struct MultiState {
    bool active = false;
    bool aborted = false;  // Redis's CLIENT_DIRTY_EXEC
    std::vector<QueuedCommand> commands;
  };
  MultiState& multi() { return multi_; }
  const MultiState& multi() const { return multi_; }

  // Pub/sub subscriptions, in the order they were made.
  struct PubSubState {
    std::vector<std::string> channels;
    std::vector<std::string> patterns;
    std::vector<std::string> shard_channels;
  };
  PubSubState& pubsub() { return pubsub_; }
  const PubSubState& pubsub() const { return pubsub_; }
  // Redis's CLIENT_PUBSUB: in RESP2 a subscribed client may run only a few commands.
  bool subscribed() const {
    return !pubsub_.channels.empty() || !pubsub_.patterns.empty() ||
           !pubsub_.shard_channels.empty();
  }
  bool in_multi() const { return multi_.active; }

  // A blocked client waits for something (WAIT's acks, the end of CLIENT PAUSE, data in a list
  // or sorted set) and reads no input meanwhile; Blocking::BlockClient / BlockForKeys /
  // UnblockClient manage this.
  enum class BlockKind { kNone, kPostponed, kWait, kList, kZset, kStream };
  // kList, kZset: one key waited for, and the client's place in that key's queue.
  struct KeyWait {
    std::string key;
    std::list<Client*>::iterator queued;
  };
  struct BlockState {
    BlockKind kind = BlockKind::kNone;
    int64_t deadline_ms = 0;        // node time at which it times out; 0 = never (< 0 too)
    std::vector<std::string> args;  // kPostponed: the command to run when unblocked; kList,
                                    // kZset: the blocked command, served later
    int64_t wait_offset = 0;        // kWait: the replication offset acks must reach
    int64_t wait_replicas = 0;      // kWait: how many replicas must reach it
    // kList, kZset: the keys (each once, in the command's order), the command and how it is
    // served, with the options it parsed before blocking.
    std::vector<KeyWait> keys;
    const Command* cmd = nullptr;
    KeyServeProc serve = nullptr;
    int64_t count = -1;  // elements to pop; -1: the single-element form (BLPOP, BZPOPMIN)
    int from = 0;        // where to pop: a ListValue::End, or 1 for a sorted set's max
    int to = 0;          // BLMOVE, BRPOPLPUSH: the ListValue::End to push to
    // kStream: for each of `keys`, the ID the entries served must be above (XREAD's, with $
    // resolved when it blocked).
    std::vector<StreamId> stream_ids;
    // kStream, XREADGROUP: the group and consumer it reads as (group empty for XREAD), NOACK.
    std::string xread_group;
    std::string xread_consumer;
    bool xread_noack = false;
    int64_t call_us = 0;  // how long the call that blocked took (Redis's c->duration)
    // The engine's bookkeeping: the client's place among the blocked clients, and in the
    // timeout table (ordered as Redis's: by the deadline as an unsigned number).
    std::list<Client*>::iterator blocked_pos;
    std::multimap<uint64_t, Client*>::iterator timeout_pos;
  };
  BlockState& block() { return block_; }
  const BlockState& block() const { return block_; }
  bool blocked() const { return block_.kind != BlockKind::kNone; }
  bool blocked_on_keys() const {
    return block_.kind == BlockKind::kList || block_.kind == BlockKind::kZset ||
           block_.kind == BlockKind::kStream;
  }

  // When the pending output first passed the soft client-output-buffer-limit (0: it has not).
  int64_t output_soft_limit_since_ms = 0;
  // The client's part in replication: a replica attached to this node (Redis's CLIENT_SLAVE:
  // its output is the replication stream), or this node's link to its own master
  // (CLIENT_MASTER: its commands are the stream, obeyed whatever the node's state).
  enum class ReplRole : uint8_t { kNone, kReplica, kMaster };
  ReplRole repl_role() const { return repl_role_; }
  void set_repl_role(ReplRole role) { repl_role_ = role; }
  // The replication offset right after this client's last propagated write (Redis's c->woff):
  // what WAIT waits for.
  int64_t write_offset() const { return write_offset_; }
  void set_write_offset(int64_t offset) { write_offset_ = offset; }

  // CLIENT REPLY: OFF drops every reply until ON; SKIP drops the reply of the next command only.
  // Replies are dropped as they would be written (Redis's prepareClientToWrite refusing them);
  // pushes are not (see MarkPushed).
  bool replies_suppressed() const { return reply_off_ || reply_skip_; }
  void set_reply_off(bool off) { reply_off_ = off; }
  void set_reply_on() {
    reply_off_ = false;
    reply_skip_ = false;
  }
  void set_reply_skip_next() {
    if (!reply_off_) reply_skip_next_ = true;
  }
  // Whether any CLIENT REPLY state is set (the engine then tracks the command's reply).
  bool reply_controlled() const { return reply_off_ || reply_skip_ || reply_skip_next_; }
  // RESET ends OFF and a pending SKIP (Redis's clearClientConnectionState).
  void ResetReplyControl() {
    reply_off_ = false;
    reply_skip_next_ = false;
  }
  // A command is done (Redis's resetClient): a pending SKIP applies to the next one.
  void AdvanceReplySkip() {
    reply_skip_ = reply_skip_next_;
    reply_skip_next_ = false;
  }

  // Pushes (pub/sub messages and subscription confirmations) go out even under OFF or SKIP, as
  // Redis's CLIENT_PUSHING: a push written into the reply buffer from `from` on is recorded while
  // reply control is on, so that the engine keeps it when it drops the rest of a reply.
  void MarkPushed(size_t from) {
    if (io_ != nullptr) io_->PushWritten(from);  // may lose it (FAULT REPLY DROP)
    if (reply_controlled() && reply_buffer_.size() > from) {
      pushed_.emplace_back(from, reply_buffer_.size());
    }
  }
  std::vector<std::pair<size_t, size_t>>& pushed_ranges() { return pushed_; }

  // MONITOR: the client receives every command the node runs.
  bool monitor() const { return monitor_; }
  void set_monitor(bool on) { monitor_ = on; }
  // CLIENT NO-EVICT (kept for CLIENT LIST's 'e' flag; redlab does not evict clients).
  bool no_evict() const { return no_evict_; }
  void set_no_evict(bool on) { no_evict_ = on; }
  // The client of a script's redis.call (Redis's CLIENT_SCRIPT): shown as "lua" by MONITOR;
  // SORT orders a set's members for it even without BY, so that replicas see the same order.
  bool is_script() const { return script_; }
  void set_script() { script_ = true; }

  // Client-side caching (CLIENT TRACKING): the client's mode and where its invalidation
  // messages go. The Tracking class of the engine keeps the keys and prefixes themselves.
  struct TrackingState {
    bool on = false;
    bool bcast = false;    // BCAST: invalidations for every key under its prefixes
    bool optin = false;    // OPTIN: only keys read right after CLIENT CACHING YES are tracked
    bool optout = false;   // OPTOUT: keys read right after CLIENT CACHING NO are not tracked
    bool noloop = false;   // NOLOOP: no invalidations for keys the client modified itself
    bool caching = false;  // CLIENT CACHING YES/NO given for the next command or transaction
    bool broken_redirect = false;       // the redirect client went away
    uint64_t redirect = 0;              // client id the messages go to; 0 = this connection
    std::vector<std::string> prefixes;  // BCAST prefixes, sorted as Redis's radix tree
  };
  TrackingState& tracking() { return tracking_; }
  const TrackingState& tracking() const { return tracking_; }

  // Memory of the arguments of the command being executed (CLIENT LIST argv-mem).
  size_t argv_mem() const { return argv_mem_; }
  void set_argv_mem(size_t bytes) { argv_mem_ = bytes; }

 private:
  uint64_t id_;
  ClientIo* io_;
  int db_ = 0;
  int protocol_ = 2;
  std::string name_;
  bool authenticated_ = false;
  const acl::User* user_ = nullptr;
  bool deny_blocking_ = false;
  bool close_after_reply_ = false;
  bool reply_off_ = false;
  bool reply_skip_ = false;
  bool reply_skip_next_ = false;
  bool monitor_ = false;
  bool no_evict_ = false;
  bool script_ = false;
  std::vector<std::pair<size_t, size_t>> pushed_;  // see MarkPushed
  std::string reply_buffer_;
  int64_t ctime_ms_;
  int64_t last_interaction_ms_;
  const Command* last_command_ = nullptr;
  size_t argv_mem_ = 0;
  ReplRole repl_role_ = ReplRole::kNone;
  int64_t write_offset_ = 0;
  std::vector<WatchedKey> watched_keys_;
  bool dirty_cas_ = false;
  MultiState multi_;
  BlockState block_;
  PubSubState pubsub_;
  TrackingState tracking_;
};

// CLIENT REPLY OFF/SKIP: drops the reply the command wrote from `reply_start` on (but the pushes
// written meanwhile), and moves a pending SKIP on to the next command (in engine_execute.cc).
void ApplyReplyControl(Client& client, size_t reply_start);

}  // namespace redlab::server::engine
