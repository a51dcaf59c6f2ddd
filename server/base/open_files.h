// The process's open-file limit raised for maxclients, as redis-server 7.0.15's
// adjustOpenFilesLimit (server.c) does at startup and on CONFIG SET maxclients: the limit it
// could get, and the log lines Redis writes about it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace redlab::server {

struct OpenFilesLine {
  bool warning;  // LL_WARNING, else LL_NOTICE
  std::string text;
};

// Raises RLIMIT_NOFILE to maxclients + 32 (CONFIG_MIN_RESERVED_FDS) when it is lower, or as
// close to it as the system allows; returns the maxclients the limit can serve (the given one,
// or less) and appends Redis's log lines to *log.
int64_t AdjustOpenFilesLimit(int64_t maxclients, std::vector<OpenFilesLine>* log);

}  // namespace redlab::server
