// The ACL log (ACL LOG): the latest refused commands, keys, channels and failed
// authentications, newest first, with similar events within a minute counted in one entry.
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <string_view>

namespace redlab::server::acl {

// ACL_DENIED_CMD, _KEY, _AUTH, _CHANNEL.
enum class LogReason { kCommand, kKey, kAuth, kChannel };
// Where the refused command came from (ACL_LOG_CTX_*).
enum class LogContext { kToplevel, kMulti, kLua };

std::string_view LogReasonName(LogReason reason);     // "command", "key", "auth", "channel"
std::string_view LogContextName(LogContext context);  // "toplevel", "multi", "lua"

struct LogEntry {
  uint64_t count = 1;
  LogReason reason;
  LogContext context;
  std::string object;       // the command, key or channel refused; AUTH/HELLO for authentication
  std::string username;     // the client's user, or the one it tried to authenticate as
  int64_t time_ms = 0;      // when it last happened
  std::string client_info;  // the client as CLIENT LIST shows it, when it last happened
};

class AclLog {
 public:
  // Adds an event (addACLLogEntry): a matching entry among the ten newest (same reason, context,
  // object and user, within a minute) counts it and moves to the front; otherwise the event
  // becomes a new entry and the log is trimmed to `max_len` entries.
  void Add(LogEntry entry, size_t max_len);
  const std::deque<LogEntry>& entries() const { return entries_; }
  void Reset() { entries_.clear(); }

 private:
  std::deque<LogEntry> entries_;  // newest first
};

}  // namespace redlab::server::acl
