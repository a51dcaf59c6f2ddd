// An external lock library as a lab driver: a child process speaking JSON lines.
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "tools/lab/driver.h"

namespace redlab::lab {
namespace {

class ExternalDriver : public LockDriver {
 public:
  ExternalDriver(const std::string& command, const std::vector<std::string>& servers) {
    int in[2], out[2];
    if (pipe(in) != 0 || pipe(out) != 0) throw std::runtime_error("pipe failed");
    pid_ = fork();
    if (pid_ < 0) throw std::runtime_error("fork failed");
    if (pid_ == 0) {
      dup2(in[0], STDIN_FILENO);
      dup2(out[1], STDOUT_FILENO);
      close(in[1]);
      close(out[0]);
      execl("/bin/sh", "sh", "-c", command.c_str(), static_cast<char*>(nullptr));
      _exit(127);
    }
    close(in[0]);
    close(out[1]);
    to_child_ = in[1];
    from_child_ = out[0];
    signal(SIGPIPE, SIG_IGN);  // a driver that died is an error reply, not the lab's death
    nlohmann::json hello = {{"op", "connect"}, {"servers", servers}};
    auto answer = Request(hello, Millis(10000));
    if (!answer || !answer->value("ok", false)) {
      throw std::runtime_error("the driver `" + command + "` did not accept the servers" +
                               (answer ? ": " + answer->dump() : ""));
    }
  }

  ~ExternalDriver() override {
    close(to_child_);  // EOF, and a SIGTERM: a driver has nothing left to do
    kill(pid_, SIGTERM);
    for (int i = 0; i < 100; ++i) {
      if (waitpid(pid_, nullptr, WNOHANG) == pid_) {
        pid_ = -1;
        break;
      }
      poll(nullptr, 0, 10);  // the driver is disconnecting
    }
    if (pid_ > 0) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
    close(from_child_);
  }

  std::string kind() const override { return "external"; }
  void Pause(bool stop) override { kill(pid_, stop ? SIGSTOP : SIGCONT); }
  std::string OwnerId(const std::string&) override { return "driver:" + std::to_string(pid_); }

  DriverResult Acquire(const std::string& lock, Millis wait, Millis lease) override {
    return Ask(
        {{"op", "acquire"}, {"lock", lock}, {"wait_ms", wait.count()}, {"lease_ms", lease.count()}},
        wait + Millis(5000));
  }
  DriverResult Release(const std::string& lock) override {
    return Ask({{"op", "release"}, {"lock", lock}}, Millis(5000));
  }

 private:
  DriverResult Ask(const nlohmann::json& request, Millis timeout) {
    auto answer = Request(request, timeout);
    if (!answer) return {Outcome::kUnknown, std::nullopt, "the driver did not answer"};
    DriverResult r;
    if (answer->value("ok", false)) {
      r.outcome = Outcome::kOk;
      if (answer->contains("token") && (*answer)["token"].is_number_integer()) {
        r.token = (*answer)["token"].get<int64_t>();
      }
    } else {
      r.outcome = answer->value("unknown", false) ? Outcome::kUnknown : Outcome::kFail;
      r.error = answer->contains("error") ? (*answer)["error"].dump() : "refused";
    }
    return r;
  }

  std::optional<nlohmann::json> Request(const nlohmann::json& request, Millis timeout) {
    std::string line = request.dump() + "\n";
    if (write(to_child_, line.data(), line.size()) != static_cast<ssize_t>(line.size())) {
      return std::nullopt;
    }
    auto deadline = std::chrono::steady_clock::now() + timeout;
    while (true) {
      size_t nl = buffer_.find('\n');
      if (nl != std::string::npos) {
        std::string reply = buffer_.substr(0, nl);
        buffer_.erase(0, nl + 1);
        try {
          return nlohmann::json::parse(reply);
        } catch (const std::exception&) {
          return nlohmann::json{{"ok", false}, {"error", "unparsable answer: " + reply}};
        }
      }
      auto left = std::chrono::duration_cast<Millis>(deadline - std::chrono::steady_clock::now());
      if (left.count() <= 0) return std::nullopt;
      pollfd p{from_child_, POLLIN, 0};
      if (poll(&p, 1, static_cast<int>(left.count())) <= 0) continue;
      char buf[4096];
      ssize_t n = read(from_child_, buf, sizeof(buf));
      if (n <= 0) return std::nullopt;  // the driver exited
      buffer_.append(buf, static_cast<size_t>(n));
    }
  }

  pid_t pid_ = -1;
  int to_child_ = -1, from_child_ = -1;
  std::string buffer_;
};

}  // namespace

std::unique_ptr<LockDriver> MakeExternalDriver(const std::string& command,
                                               const std::vector<std::string>& servers) {
  return std::make_unique<ExternalDriver>(command, servers);
}

}  // namespace redlab::lab
