// Log lines in Redis's format ("pid:M 22 Nov 2026 10:00:00.123 * message"), filtered by the
// node's loglevel, on stdout or appended to the node's `logfile` as Redis writes them. Each node
// logs with its own port so lines of several nodes can be told apart.
#pragma once

#include <string>
#include <string_view>

namespace redlab::server {

enum class LogLevel { kDebug, kVerbose, kNotice, kWarning };

LogLevel ParseLogLevel(std::string_view name);  // Redis's names; unknown -> kNotice

class Logger {
 public:
  explicit Logger(std::string_view level = "notice") : level_(ParseLogLevel(level)) {}
  void set_level(std::string_view level) { level_ = ParseLogLevel(level); }
  void set_role(char role) { role_ = role; }
  void set_port(int port) { port_ = port; }
  // Redis's logfile: empty for stdout, else a file each line is appended to.
  void set_file(std::string path) { file_ = std::move(path); }

  // Lines carry the node's port ("[6379] ") only when the process runs several nodes (a
  // topology); a single node's lines are redis-server's, which harnesses match exactly.
  static void SetPortTags(bool on);

  void Log(LogLevel level, std::string_view message) const;
  // What redis-server's signal handlers log (serverLogFromHandler): "pid:signal-handler
  // (unix time) message", on stdout or appended to `file`.
  static void LogFromSignalHandler(const std::string& file, std::string_view message);
  void Notice(std::string_view message) const { Log(LogLevel::kNotice, message); }
  void Warning(std::string_view message) const { Log(LogLevel::kWarning, message); }
  void Verbose(std::string_view message) const { Log(LogLevel::kVerbose, message); }

 private:
  LogLevel level_;
  char role_ = 'M';
  int port_ = 0;
  std::string file_;
};

}  // namespace redlab::server
