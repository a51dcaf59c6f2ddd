#include "server/acl/acl_log.h"

#include <cstdlib>

namespace redlab::server::acl {
namespace {

constexpr int64_t kGroupingMaxDeltaMs = 60000;  // ACL_LOG_GROUPING_MAX_TIME_DELTA
constexpr size_t kEntriesScanned = 10;          // how far back a similar entry is looked for

bool Similar(const LogEntry& a, const LogEntry& b) {
  return a.reason == b.reason && a.context == b.context &&
         std::llabs(a.time_ms - b.time_ms) <= kGroupingMaxDeltaMs && a.object == b.object &&
         a.username == b.username;
}

}  // namespace

std::string_view LogReasonName(LogReason reason) {
  switch (reason) {
    case LogReason::kCommand:
      return "command";
    case LogReason::kKey:
      return "key";
    case LogReason::kAuth:
      return "auth";
    case LogReason::kChannel:
      return "channel";
  }
  return "unknown";
}

std::string_view LogContextName(LogContext context) {
  switch (context) {
    case LogContext::kToplevel:
      return "toplevel";
    case LogContext::kMulti:
      return "multi";
    case LogContext::kLua:
      return "lua";
  }
  return "unknown";
}

void AclLog::Add(LogEntry entry, size_t max_len) {
  for (size_t i = 0; i < entries_.size() && i < kEntriesScanned; ++i) {
    if (!Similar(entries_[i], entry)) continue;
    LogEntry match = std::move(entries_[i]);
    entries_.erase(entries_.begin() + static_cast<std::ptrdiff_t>(i));
    match.client_info = std::move(entry.client_info);
    match.time_ms = entry.time_ms;
    ++match.count;
    entries_.push_front(std::move(match));
    return;
  }
  entries_.push_front(std::move(entry));
  while (entries_.size() > max_len) entries_.pop_back();
}

}  // namespace redlab::server::acl
