// What a command procedure works with: the node's engine, the calling client, the arguments and
// a reply writer, plus the argument-parsing helpers that reply Redis's errors on bad input.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "server/command/command_table.h"
#include "server/data/keyspace.h"
#include "server/engine/core/client.h"
#include "server/engine/core/errors.h"
#include "server/resp/writer.h"

namespace redlab::server::engine {

class Engine;

class CommandContext {
 public:
  CommandContext(Engine& engine, Client& client, std::span<std::string> args, const Command& cmd,
                 resp::ReplyWriter& reply)
      : engine_(engine), client_(client), args_(args), cmd_(cmd), reply_(reply) {}

  Engine& engine() { return engine_; }
  Client& client() { return client_; }
  const Command& command() const { return cmd_; }
  resp::ReplyWriter& reply() { return reply_; }
  Keyspace& keyspace();
  Db& db();
  int64_t now_ms();

  size_t argc() const { return args_.size(); }
  const std::string& arg(size_t i) const { return args_[i]; }
  std::string& mutable_arg(size_t i) { return args_[i]; }
  std::span<std::string> args() { return args_; }

  // Argument parsing: on failure these reply Redis's error and return false.
  bool IntArg(size_t i, int64_t* out);  // "value is not an integer or out of range"
  bool IntArg(size_t i, int64_t* out, std::string_view error);  // the same with another text
  // getRangeLongFromObjectOrReply: an integer within [min, max], else Redis's range error.
  bool RangeIntArg(size_t i, int64_t min, int64_t max, int64_t* out);
  // getTimeoutFromObjectOrReply: a timeout in ms (or seconds, as a float, when `seconds`)
  // turned into an absolute node time; 0 stays 0 ("forever").
  bool TimeoutArg(size_t i, bool seconds, int64_t* deadline_ms);
  bool DoubleArg(size_t i, double* out);  // "value is not a valid float"
  bool LongDoubleArg(size_t i, long double* out);
  // Whether the client may block: not while EXEC runs its queue, nor from a script (Redis's
  // CLIENT_DENY_BLOCKING). Blocking commands answer at once instead, as if they timed out.
  bool may_block() const { return !client_.in_multi() && !client_.deny_blocking(); }
  // Is argument i equal to `word`, ignoring case?
  bool ArgIs(size_t i, std::string_view word) const;

  // Looks `key` up for reading or writing and checks its type. Returns false after replying
  // WRONGTYPE when the key holds another type; *node is nullptr when the key does not exist.
  bool LookupRead(std::string_view key, ObjectType type, Db::Node** node);
  bool LookupWrite(std::string_view key, ObjectType type, Db::Node** node);

  // Counts a change to the dataset (Redis's server.dirty, INFO rdb_changes_since_last_save).
  // A command that marks the dataset dirty is propagated to replicas, as Redis's call() does:
  // commands must count changes exactly as Redis does.
  void MarkDirty(uint64_t changes = 1);
  // A key was modified: WATCHes on it break, caches holding it are invalidated (Redis's
  // signalModifiedKey).
  void SignalModifiedKey(std::string_view key);
  // A keyspace notification about `key` of the client's database (Messaging::NotifyKeyspaceEvent;
  // defined in engine.h so that, off, it stays one branch).
  inline void NotifyKeyspaceEvent(uint32_t type, std::string_view event, std::string_view key);
  // Propagate these arguments instead of the command as called (rewriteClientCommandVector),
  // e.g. SET ... EX 10 becomes SET ... PXAT <abs>.
  void PropagateAs(std::vector<std::string> args) { rewritten_ = std::move(args); }
  // Propagate nothing for this command (it propagated its effects itself).
  void PreventPropagation() { prevent_propagation_ = true; }
  bool propagation_prevented() const { return prevent_propagation_; }
  // Propagate this command although it changed no data (PUBLISH: forceCommandPropagation).
  void ForcePropagation() { force_propagation_ = true; }
  bool propagation_forced() const { return force_propagation_; }
  std::optional<std::vector<std::string>>& rewritten_for_propagation() { return rewritten_; }
  // Shows argument i as "(redacted)" in SLOWLOG and MONITOR (passwords; Redis's
  // redactClientCommandArgument).
  void RedactArg(size_t i) { redacted_.push_back(i); }
  std::span<const size_t> redacted() const { return redacted_; }

  void ReplyOk() { reply_.Status("OK"); }
  void ReplyError(std::string_view message) { reply_.Error(message); }
  // The command's arity error, for the arities its description cannot say (pairs, a maximum).
  void ReplyWrongArity() { reply_.Error(err::WrongArity(cmd_.full_name)); }
  void ReplyWrongType();
  void ReplySyntaxError();

 private:
  Engine& engine_;
  Client& client_;
  std::span<std::string> args_;
  const Command& cmd_;
  resp::ReplyWriter& reply_;
  std::optional<std::vector<std::string>> rewritten_;
  std::vector<size_t> redacted_;
  bool prevent_propagation_ = false;
  bool force_propagation_ = false;
};

}  // namespace redlab::server::engine
