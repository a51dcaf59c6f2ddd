// redlab-server's process as redis-server's `daemonize` and `pidfile` make it (server.c's
// daemonize() and createPidFile()).
#pragma once

#include <string>

namespace redlab::server {

class Daemon {
 public:
  // With `daemonize`, forks: the parent waits until the child reports Ready (exit 0) or
  // Failed (its reason on stderr, exit 1), so that a harness starting `redlab-server -` with
  // `daemonize yes` gets its prompt back once the server listens, as with redis-server; the
  // child goes on in a session of its own with /dev/null as stdin, stdout and stderr (the log
  // goes to `logfile`, or nowhere). Without, nothing happens and Ready/Failed do nothing.
  // Call before any thread starts.
  explicit Daemon(bool daemonize);
  Daemon(const Daemon&) = delete;
  Daemon& operator=(const Daemon&) = delete;

  void Ready();
  void Failed(const std::string& why);

 private:
  int report_fd_ = -1;  // the child's end of the pipe to the waiting parent
};

// Writes the process's pid to `path` (nothing for an empty path); false when it cannot.
bool WritePidFile(const std::string& path);

}  // namespace redlab::server
