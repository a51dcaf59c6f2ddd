#include "server/log.h"

#include <sys/time.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <ctime>

namespace redlab::server {

LogLevel ParseLogLevel(std::string_view name) {
  if (name == "debug") return LogLevel::kDebug;
  if (name == "verbose") return LogLevel::kVerbose;
  if (name == "warning") return LogLevel::kWarning;
  return LogLevel::kNotice;
}

namespace {
std::atomic<bool> port_tags{false};
}  // namespace

void Logger::SetPortTags(bool on) { port_tags = on; }

void Logger::Log(LogLevel level, std::string_view message) const {
  if (level < level_) return;
  static constexpr char kMarks[] = {'.', '-', '*', '#'};
  timeval tv;
  gettimeofday(&tv, nullptr);
  tm local;
  localtime_r(&tv.tv_sec, &local);
  char stamp[64];
  size_t n = strftime(stamp, sizeof(stamp), "%d %b %Y %H:%M:%S.", &local);
  std::snprintf(stamp + n, sizeof(stamp) - n, "%03d", static_cast<int>(tv.tv_usec / 1000));
  // As Redis's serverLogRaw, the file is opened for each line (so it can be rotated away).
  FILE* out = file_.empty() ? stdout : std::fopen(file_.c_str(), "a");
  if (out == nullptr) return;
  char tag[24] = "";
  if (port_tags) std::snprintf(tag, sizeof(tag), "[%d] ", port_);
  std::fprintf(out, "%d:%c %s %c %s%.*s\n", static_cast<int>(getpid()), role_, stamp,
               kMarks[static_cast<int>(level)], tag, static_cast<int>(message.size()),
               message.data());
  if (out == stdout) {
    std::fflush(out);
  } else {
    std::fclose(out);
  }
}

void Logger::LogFromSignalHandler(const std::string& file, std::string_view message) {
  FILE* out = file.empty() ? stdout : std::fopen(file.c_str(), "a");
  if (out == nullptr) return;
  std::fprintf(out, "%d:signal-handler (%lld) %.*s\n", static_cast<int>(getpid()),
               static_cast<long long>(time(nullptr)), static_cast<int>(message.size()),
               message.data());
  if (out == stdout) {
    std::fflush(out);
  } else {
    std::fclose(out);
  }
}

}  // namespace redlab::server
