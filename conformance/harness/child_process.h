// The project's command-line tools (redlab, redlab-server) run as child processes with pipes to
// their stdin, stdout and stderr: how the suite drives them black-box, as a user's shell would.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <string>
#include <vector>

namespace redlab::conformance {

// Starts `argv` (argv[0] looked up on PATH) with this process's stdin, stdout and stderr; returns
// its pid. Throws when fork fails.
pid_t SpawnProcess(std::vector<std::string> argv);

// A server process (redis-server, redlab-server, a Sentinel) listening on `port`: started,
// killed and started again there, as a crash and a restart of a node.
class ServerProcess {
 public:
  ServerProcess(int port, std::vector<std::string> argv) : port_(port), argv_(std::move(argv)) {}
  // SIGKILLs the process if it is still running.
  ~ServerProcess() { Kill(); }
  ServerProcess(const ServerProcess&) = delete;
  ServerProcess& operator=(const ServerProcess&) = delete;

  // Starts `argv` (argv[0] looked up on PATH) and returns once it answers PING on the port;
  // throws when it has not within 10 s.
  void Start();
  // SIGKILL (no chance to write or send anything more), then reaps it. Nothing when not running.
  void Kill();
  int port() const { return port_; }

 private:
  int port_;
  std::vector<std::string> argv_;
  pid_t pid_ = -1;
};

class ChildProcess {
 public:
  // Starts `path` with `args` (argv[0] is `path`).
  ChildProcess(const std::string& path, const std::vector<std::string>& args);
  // SIGKILLs the process if it is still running.
  ~ChildProcess();
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  // Reads stdout until it has a whole line; "" at EOF or after `timeout`.
  std::string ReadLine(std::chrono::milliseconds timeout = std::chrono::seconds(20));
  // Writes `s` and a newline to stdin; false when it could not.
  bool WriteLine(const std::string& s);
  // Closes stdin: the process reads end of file.
  void CloseStdin();
  // Waits for the exit (up to `timeout`): the exit status, 128 + the signal that ended it, or -1
  // when it is still running.
  int Wait(std::chrono::milliseconds timeout = std::chrono::seconds(20));
  // Everything written to stderr so far.
  std::string Stderr();
  pid_t pid() const { return pid_; }

 private:
  void DrainStderr();

  pid_t pid_ = -1;
  bool exited_ = false;
  int stdin_ = -1, stdout_ = -1, stderr_ = -1;
  std::string err_text_;
};

// A server log line without its "pid:role date time " prefix: "* Ready to accept connections".
std::string WithoutPrefix(const std::string& line);

}  // namespace redlab::conformance
