// adjustOpenFilesLimit, as Redis 7.0.15's server.c.
#include "server/base/open_files.h"

#include <sys/resource.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace redlab::server {
namespace {

constexpr int64_t kMinReservedFds = 32;  // CONFIG_MIN_RESERVED_FDS

}  // namespace

int64_t AdjustOpenFilesLimit(int64_t maxclients, std::vector<OpenFilesLine>* log) {
  rlim_t maxfiles = static_cast<rlim_t>(maxclients + kMinReservedFds);
  rlimit limit{};
  if (getrlimit(RLIMIT_NOFILE, &limit) == -1) {
    log->push_back({true, std::string("Unable to obtain the current NOFILE limit (") +
                              std::strerror(errno) +
                              "), assuming 1024 and setting the max clients configuration "
                              "accordingly."});
    return 1024 - kMinReservedFds;
  }
  rlim_t oldlimit = limit.rlim_cur;
  if (oldlimit >= maxfiles) return maxclients;
  // The limit asked for, or the highest one below it that the system takes (16 fewer a try).
  rlim_t bestlimit = maxfiles;
  int setrlimit_error = 0;
  while (bestlimit > oldlimit) {
    constexpr rlim_t kStep = 16;
    limit.rlim_cur = bestlimit;
    limit.rlim_max = bestlimit;
    if (setrlimit(RLIMIT_NOFILE, &limit) != -1) break;
    setrlimit_error = errno;
    if (bestlimit < kStep) {
      bestlimit = oldlimit;
      break;
    }
    bestlimit -= kStep;
  }
  if (bestlimit < oldlimit) bestlimit = oldlimit;
  if (bestlimit >= maxfiles) {
    log->push_back({false, "Increased maximum number of open files to " + std::to_string(maxfiles) +
                               " (it was originally set to " + std::to_string(oldlimit) + ")."});
    return maxclients;
  }
  // Redis exits when fewer than its reserved descriptors remain; a node keeps one client.
  int64_t reduced = std::max<int64_t>(1, static_cast<int64_t>(bestlimit) - kMinReservedFds);
  log->push_back({true, "You requested maxclients of " + std::to_string(maxclients) +
                            " requiring at least " + std::to_string(maxfiles) +
                            " max file descriptors."});
  log->push_back({true, "Server can't set maximum open files to " + std::to_string(maxfiles) +
                            " because of OS error: " + std::strerror(setrlimit_error) + "."});
  log->push_back({true, "Current maximum open files is " + std::to_string(bestlimit) +
                            ". maxclients has been reduced to " + std::to_string(reduced) +
                            " to compensate for low ulimit. If you need higher maxclients "
                            "increase 'ulimit -n'."});
  return reduced;
}

}  // namespace redlab::server
