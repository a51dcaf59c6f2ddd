#include "server/engine/stats/slowlog.h"

#include <algorithm>

namespace redlab::server::engine {

void SlowLog::Push(std::span<const std::string> args, std::span<const size_t> redacted,
                   int64_t time_s, int64_t duration_us, std::string_view peer,
                   std::string_view name, size_t max_len) {
  Entry e{next_id_++, time_s, duration_us, {}, std::string(peer), std::string(name)};
  size_t kept = std::min(args.size(), kMaxArgs);
  e.args.reserve(kept);
  for (size_t j = 0; j < kept; ++j) {
    if (kept != args.size() && j == kept - 1) {
      e.args.push_back("... (" + std::to_string(args.size() - kept + 1) + " more arguments)");
    } else if (std::find(redacted.begin(), redacted.end(), j) != redacted.end()) {
      e.args.emplace_back("(redacted)");
    } else if (args[j].size() > kMaxArgBytes) {
      e.args.push_back(args[j].substr(0, kMaxArgBytes) + "... (" +
                       std::to_string(args[j].size() - kMaxArgBytes) + " more bytes)");
    } else {
      e.args.push_back(args[j]);
    }
  }
  entries_.push_front(std::move(e));
  Trim(max_len);
}

}  // namespace redlab::server::engine
