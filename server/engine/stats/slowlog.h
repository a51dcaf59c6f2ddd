// The slow log of a node (Redis's slowlog.c): the commands that ran for at least
// slowlog-log-slower-than microseconds, newest first, at most slowlog-max-len of them, each with
// its arguments shortened as Redis shortens them.
#pragma once

#include <cstdint>
#include <deque>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace redlab::server::engine {

class SlowLog {
 public:
  // Redis's SLOWLOG_ENTRY_MAX_ARGC and SLOWLOG_ENTRY_MAX_STRING.
  static constexpr size_t kMaxArgs = 32;
  static constexpr size_t kMaxArgBytes = 128;

  struct Entry {
    int64_t id;
    int64_t time_s;       // unix time the command ended, node clock
    int64_t duration_us;  // how long it ran
    std::vector<std::string> args;
    std::string peer;  // "ip:port" of the client
    std::string name;  // the client's name, or empty
  };

  // Logs a command. `redacted` lists argument indexes to show as "(redacted)" (passwords).
  // Past kMaxArgs arguments the last one kept says how many more there were; arguments longer
  // than kMaxArgBytes are cut and say how many bytes were left out. The oldest entries go once
  // there are more than `max_len`.
  void Push(std::span<const std::string> args, std::span<const size_t> redacted, int64_t time_s,
            int64_t duration_us, std::string_view peer, std::string_view name, size_t max_len);
  // Drops the oldest entries beyond `max_len`: Redis does so after every command it considers
  // for the log, logged or not, so a lowered slowlog-max-len applies from the next command.
  void Trim(size_t max_len) {
    while (entries_.size() > max_len) entries_.pop_back();
  }
  void Reset() { entries_.clear(); }

  const std::deque<Entry>& entries() const { return entries_; }  // newest first
  size_t size() const { return entries_.size(); }

 private:
  std::deque<Entry> entries_;
  int64_t next_id_ = 0;
};

}  // namespace redlab::server::engine
