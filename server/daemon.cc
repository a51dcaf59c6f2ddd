#include "server/daemon.h"

#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>

namespace redlab::server {

Daemon::Daemon(bool daemonize) {
  if (!daemonize) return;
  int fds[2];
  if (pipe(fds) != 0) {
    std::perror("redlab-server: daemonize");
    std::exit(1);
  }
  pid_t pid = fork();
  if (pid < 0) {
    std::perror("redlab-server: daemonize");
    std::exit(1);
  }
  if (pid > 0) {
    // The parent: what the child reports, then its exit status.
    close(fds[1]);
    std::string report;
    char buf[512];
    for (ssize_t n; (n = read(fds[0], buf, sizeof(buf))) != 0;) {
      if (n > 0) report.append(buf, static_cast<size_t>(n));
    }
    if (report.empty() || report[0] != '+') {
      std::fputs(report.empty() ? "redlab-server: the daemon exited while starting\n"
                                : (report.substr(1) + "\n").c_str(),
                 stderr);
      std::_Exit(1);
    }
    std::_Exit(0);
  }
  close(fds[0]);
  report_fd_ = fds[1];
  setsid();
  int null = open("/dev/null", O_RDWR);
  if (null >= 0) {
    dup2(null, STDIN_FILENO);
    dup2(null, STDOUT_FILENO);
    dup2(null, STDERR_FILENO);
    if (null > STDERR_FILENO) close(null);
  }
}

void Daemon::Ready() {
  if (report_fd_ < 0) return;
  ssize_t ignored = write(report_fd_, "+", 1);
  (void)ignored;
  close(report_fd_);
  report_fd_ = -1;
}

void Daemon::Failed(const std::string& why) {
  if (report_fd_ < 0) return;
  std::string report = "-" + why;
  ssize_t ignored = write(report_fd_, report.data(), report.size());
  (void)ignored;
  close(report_fd_);
  report_fd_ = -1;
}

bool WritePidFile(const std::string& path) {
  if (path.empty()) return true;
  FILE* f = std::fopen(path.c_str(), "w");
  if (f == nullptr) return false;
  std::fprintf(f, "%d\n", static_cast<int>(getpid()));
  return std::fclose(f) == 0;
}

}  // namespace redlab::server
