// The engine's diagnostics that watch commands run: MONITOR clients and the slow log (the latency
// monitor is fed inline, see Diagnostics::RecordLatency). Kept apart from Call so that a command
// pays only a few comparisons when none of them applies.
#include "server/engine/stats/diagnostics.h"

#include <algorithm>
#include <cstdio>

#include "server/base/text.h"

namespace redlab::server::engine {
namespace {

// getClientPeerId: "ip:port"; clients without a connection (a script's) have none.
std::string_view PeerId(const Client& client) {
  return client.io() != nullptr ? client.io()->PeerAddress() : std::string_view("?:0");
}

}  // namespace

void Diagnostics::AddMonitor(Client& client) {
  client.set_monitor(true);
  monitors_.push_back(&client);
}

void Diagnostics::RemoveMonitor(Client& client) {
  if (!client.monitor()) return;
  client.set_monitor(false);
  std::erase(monitors_, &client);
}

void Diagnostics::FeedMonitors(const Client& client, int db, std::span<const std::string> args,
                               std::span<const size_t> redacted) {
  if (monitors_.empty()) return;
  int64_t us = clock_.NowUs();
  char head[64];
  std::snprintf(head, sizeof(head), "+%lld.%06lld [%d ", static_cast<long long>(us / 1000000),
                static_cast<long long>(us % 1000000), db);
  std::string line = head;
  line += client.is_script() ? std::string_view("lua") : PeerId(client);
  line += "] ";
  for (size_t j = 0; j < args.size(); ++j) {
    if (j > 0) line += ' ';
    bool hidden = std::find(redacted.begin(), redacted.end(), j) != redacted.end();
    AppendRepr(&line, hidden ? std::string_view("(redacted)") : std::string_view(args[j]));
  }
  line += "\r\n";
  for (Client* monitor : monitors_) {
    if (monitor->replies_suppressed()) continue;
    monitor->reply_buffer() += line;
    if (monitor->io() != nullptr) monitor->io()->RequestFlush();
  }
}

void Diagnostics::LogSlowCommand(const Client& client, std::span<const std::string> args,
                                 std::span<const size_t> redacted, int64_t duration_us) {
  auto max_len = static_cast<size_t>(config_.slowlog_max_len);
  if (duration_us >= config_.slowlog_log_slower_than) {
    slowlog_.Push(args, redacted, clock_.NowMs() / 1000, duration_us, PeerId(client), client.name(),
                  max_len);
  } else {
    slowlog_.Trim(max_len);
  }
}

}  // namespace redlab::server::engine
