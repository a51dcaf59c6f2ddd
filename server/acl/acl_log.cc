#include "server/acl/acl_log.h"

#include <cstdlib>
#include <iterator>

#include "server/base/text.h"

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
  static constexpr std::string_view kNames[] = {"command", "key", "auth", "channel"};
  static_assert(std::size(kNames) == static_cast<size_t>(LogReason::kChannel) + 1);
  return EnumName(kNames, reason, std::string_view("unknown"));
}

std::string_view LogContextName(LogContext context) {
  static constexpr std::string_view kNames[] = {"toplevel", "multi", "lua"};
  static_assert(std::size(kNames) == static_cast<size_t>(LogContext::kLua) + 1);
  return EnumName(kNames, context, std::string_view("unknown"));
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
