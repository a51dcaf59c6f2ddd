#include "conformance/harness/child_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <sstream>
#include <stdexcept>

#include "conformance/harness/client.h"
#include "conformance/harness/target.h"

namespace redlab::conformance {

pid_t SpawnProcess(std::vector<std::string> argv) {
  std::vector<char*> cargv;
  for (auto& a : argv) cargv.push_back(a.data());
  cargv.push_back(nullptr);
  pid_t pid = fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {
    execvp(cargv[0], cargv.data());
    _exit(127);
  }
  return pid;
}

void ServerProcess::Start() {
  pid_ = SpawnProcess(argv_);
  bool up = Eventually(
      [&] {
        try {
          Client c(port_, std::chrono::milliseconds(500));
          c({"PING"});
          return true;
        } catch (const std::exception&) {
          return false;  // still starting
        }
      },
      std::chrono::seconds(10));
  if (!up) throw std::runtime_error(argv_[0] + " did not start on port " + std::to_string(port_));
}

void ServerProcess::Kill() {
  if (pid_ <= 0) return;
  kill(pid_, SIGKILL);
  waitpid(pid_, nullptr, 0);
  pid_ = -1;
}

ChildProcess::ChildProcess(const std::string& path, const std::vector<std::string>& args) {
  int in[2], out[2], err[2];
  if (pipe(in) || pipe(out) || pipe(err)) throw std::runtime_error("pipe");
  // Built before fork: the child only execs.
  std::vector<char*> argv{const_cast<char*>(path.c_str())};
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  pid_ = fork();
  if (pid_ < 0) throw std::runtime_error("fork");
  if (pid_ == 0) {
    dup2(in[0], 0);
    dup2(out[1], 1);
    dup2(err[1], 2);
    // Nothing else of the test process (the pipes' other ends, a TcpProxy's sockets) may live
    // on in the child.
    close_range(3, ~0U, 0);
    execvp(path.c_str(), argv.data());  // (a bare name is looked up in PATH)
    _exit(127);
  }
  close(in[0]);
  close(out[1]);
  close(err[1]);
  stdin_ = in[1];
  stdout_ = out[0];
  stderr_ = err[0];
}

ChildProcess::~ChildProcess() {
  if (pid_ > 0 && !exited_) {
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
  }
  for (int fd : {stdin_, stdout_, stderr_}) {
    if (fd >= 0) close(fd);
  }
}

std::string ChildProcess::ReadLine(std::chrono::milliseconds timeout) {
  std::string line;
  auto deadline = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < deadline) {
    pollfd p{stdout_, POLLIN, 0};
    if (poll(&p, 1, 100) <= 0) continue;
    char ch;
    if (read(stdout_, &ch, 1) != 1) return line;
    if (ch == '\n') return line;
    line += ch;
  }
  return line;
}

bool ChildProcess::WriteLine(const std::string& s) {
  std::string line = s + "\n";
  return write(stdin_, line.data(), line.size()) == static_cast<ssize_t>(line.size());
}

void ChildProcess::CloseStdin() {
  if (stdin_ >= 0) close(stdin_);
  stdin_ = -1;
}

int ChildProcess::Wait(std::chrono::milliseconds timeout) {
  auto deadline = std::chrono::steady_clock::now() + timeout;
  int status = 0;
  while (std::chrono::steady_clock::now() < deadline) {
    pid_t r = waitpid(pid_, &status, WNOHANG);
    if (r == pid_) {
      exited_ = true;
      return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    }
    // Waiting on stderr doubles as the pause between checks, and keeps its pipe from filling.
    pollfd p{stderr_, POLLIN, 0};
    if (poll(&p, 1, 5) > 0) DrainStderr();
  }
  return -1;
}

std::string ChildProcess::Stderr() {
  DrainStderr();
  return err_text_;
}

void ChildProcess::DrainStderr() {
  char buf[4096];
  int flags = fcntl(stderr_, F_GETFL);
  fcntl(stderr_, F_SETFL, flags | O_NONBLOCK);
  ssize_t n;
  while ((n = read(stderr_, buf, sizeof(buf))) > 0) err_text_.append(buf, static_cast<size_t>(n));
  fcntl(stderr_, F_SETFL, flags);
}

std::string WithoutPrefix(const std::string& line) {
  std::istringstream in(line);
  std::string word;
  for (int i = 0; i < 5 && in >> word; ++i) {
  }
  std::string rest;
  std::getline(in >> std::ws, rest);
  return rest;
}

}  // namespace redlab::conformance
