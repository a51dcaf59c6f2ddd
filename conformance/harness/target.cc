#include "conformance/harness/target.h"

#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <functional>
#include <random>
#include <stdexcept>
#include <thread>
#include <utility>

#include "conformance/harness/child_process.h"
#include "conformance/harness/client.h"
#include "server/node.h"

namespace redlab::conformance {
namespace {

class EmbeddedServer : public Server {
 public:
  explicit EmbeddedServer(const ServerOptions& options) {
    server::NodeOptions node_options;
    node_options.port = 0;
    node_options.requirepass = options.requirepass;
    node_options.loglevel = "warning";
    node_options.settings = options.config;
    node_options.sentinel = options.sentinel;
    // A `bind` setting replaces the node's default address, as it does redis-server's.
    for (const auto& [name, value] : options.config) {
      if (name == "bind") node_options.bind = value;
    }
    node_ = server::Node::Start(node_options);
  }
  int port() const override { return node_->port(); }
  void Stop() override { node_->Stop(); }
  bool WaitExited(std::chrono::milliseconds timeout) override {
    return Eventually([&] { return node_->stopped(); }, timeout);
  }

 private:
  std::unique_ptr<server::Node> node_;
};

class ProcessServer : public Server {
 public:
  // Starts the server `argv_for(port)` describes on a free port. Another test process may take
  // the same port first: then this server fails to bind and exits, or another server answers
  // there; either way it starts again on another port.
  explicit ProcessServer(const std::function<std::vector<std::string>(int)>& argv_for) {
    std::string program;
    for (int attempt = 0; attempt < 5; ++attempt) {
      port_ = FreePort();
      std::vector<std::string> argv = argv_for(port_);
      program = argv[0];
      pid_ = SpawnProcess(argv);
      if (WaitReady()) return;
      Stop();
    }
    throw std::runtime_error("server " + program + " did not start");
  }
  ~ProcessServer() override { Stop(); }
  int port() const override { return port_; }
  void Stop() override {
    if (pid_ <= 0) return;
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
    pid_ = -1;
  }
  bool WaitExited(std::chrono::milliseconds timeout) override {
    if (pid_ <= 0) return true;
    bool exited = Eventually([&] { return waitpid(pid_, nullptr, WNOHANG) == pid_; }, timeout);
    if (exited) pid_ = -1;
    return exited;
  }

 private:
  // Ready when the server on the port answers and is this process: INFO's process_id, or, when
  // INFO needs a password first, a NOAUTH error from a child still alive.
  bool WaitReady() {
    bool ours = false;
    Eventually(
        [&] {
          if (waitpid(pid_, nullptr, WNOHANG) == pid_) {
            pid_ = -1;  // it exited: the port was taken
            return true;
          }
          try {
            Client c(port_, std::chrono::milliseconds(500));
            Reply info = c({"INFO", "server"});
            if (info.type == Reply::Type::kError) {
              ours = waitpid(pid_, nullptr, WNOHANG) == 0;
              return true;
            }
            ours =
                info.str.find("\nprocess_id:" + std::to_string(pid_) + "\r") != std::string::npos;
            return true;
          } catch (const std::exception&) {
            return false;
          }
        },
        std::chrono::seconds(10));
    return ours;
  }

  pid_t pid_ = -1;
  int port_ = 0;
};

// Settings as command-line options. A `user` directive is a redis.conf line ("alice on >pw
// +@all"): its words are separate arguments, as redis-server needs them.
void AppendConfigArgs(const ServerOptions& options, std::vector<std::string>* argv) {
  for (const auto& [name, value] : options.config) {
    argv->push_back("--" + name);
    if (name != "user") {
      argv->push_back(value);
      continue;
    }
    size_t start = 0;
    while (start <= value.size()) {
      size_t space = value.find(' ', start);
      if (space == std::string::npos) space = value.size();
      if (space > start) argv->push_back(value.substr(start, space - start));
      start = space + 1;
    }
  }
}

}  // namespace

// Each target with its REDLAB_TARGET name.
constexpr std::pair<Target, const char*> kTargetNames[] = {
    {Target::kEmbedded, "embedded"}, {Target::kSpawn, "spawn"}, {Target::kRedis, "redis"}};

Target CurrentTarget() {
  const char* env = std::getenv("REDLAB_TARGET");
  if (env == nullptr) return Target::kEmbedded;
  for (const auto& [target, name] : kTargetNames) {
    if (std::strcmp(env, name) == 0) return target;
  }
  throw std::runtime_error(std::string("REDLAB_TARGET must be embedded, spawn or redis, not ") +
                           env);
}

const char* TargetName(Target t) {
  for (const auto& [target, name] : kTargetNames) {
    if (target == t) return name;
  }
  return "?";
}

int FreePort() {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr));
  socklen_t len = sizeof(addr);
  getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
  close(fd);
  return ntohs(addr.sin_port);
}

namespace {

bool CanBind(int port) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = htons(static_cast<uint16_t>(port));
  bool ok = bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) == 0;
  close(fd);
  return ok;
}

}  // namespace

int ConsecutiveFreePorts(int n) {
  std::mt19937 rng(std::random_device{}());
  for (int attempt = 0; attempt < 100; ++attempt) {
    int base = std::uniform_int_distribution<int>(20000, 30000)(rng);
    bool all_free = true;
    for (int i = 0; i < n && all_free; ++i) all_free = CanBind(base + i);
    if (all_free) return base;
  }
  throw std::runtime_error("no run of free ports");
}

bool Eventually(const std::function<bool()>& condition, std::chrono::milliseconds timeout) {
  auto deadline = std::chrono::steady_clock::now() + timeout;
  while (true) {
    if (condition()) return true;
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
}

std::unique_ptr<Server> StartServer(const ServerOptions& options) {
  return StartServerOf(CurrentTarget(), options);
}

namespace {

// A server with a path of its own, removed with it: its working directory, where what one
// test's server writes (a SAVE, the RDB file of a disk-based full sync) is never loaded by a later
// server of another test, as it would be from a shared directory; or a sentinel's config file.
class ServerWithOwnPath : public Server {
 public:
  ServerWithOwnPath(std::string path, std::unique_ptr<Server> server)
      : path_(std::move(path)), server_(std::move(server)) {}
  ~ServerWithOwnPath() override {
    server_.reset();
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  int port() const override { return server_->port(); }
  void Stop() override { server_->Stop(); }
  bool WaitExited(std::chrono::milliseconds timeout) override {
    return server_->WaitExited(timeout);
  }

 private:
  std::string path_;
  std::unique_ptr<Server> server_;
};

// The server `start` starts, owning `path`; the path is removed at once when it does not start.
std::unique_ptr<Server> WithOwnPath(const std::string& path,
                                    const std::function<std::unique_ptr<Server>()>& start) {
  try {
    return std::make_unique<ServerWithOwnPath>(path, start());
  } catch (...) {
    std::error_code ignored;
    std::filesystem::remove_all(path, ignored);
    throw;
  }
}

// A sentinel process, started from a sentinel.conf of its own (Sentinel needs a config file it
// can write), which goes with it.
std::unique_ptr<Server> StartSentinel(Target target, const ServerOptions& options) {
  static std::atomic<int> next{0};
  std::string path =
      "/tmp/redlab-sentinel-" + std::to_string(getpid()) + "-" + std::to_string(next++) + ".conf";
  return WithOwnPath(path, [&] {
    return std::make_unique<ProcessServer>([&](int port) {
      FILE* f = std::fopen(path.c_str(), "w");
      if (f == nullptr) throw std::runtime_error("cannot write " + path);
      std::fprintf(f, "port %d\nbind 127.0.0.1\nloglevel warning\n", port);
      if (target == Target::kRedis) std::fprintf(f, "logfile /dev/null\n");
      for (const auto& [name, value] : options.config) {
        std::fprintf(f, "%s %s\n", name.c_str(), value.c_str());
      }
      std::fclose(f);
      std::string program = target == Target::kSpawn ? REDLAB_SERVER_PATH : "redis-server";
      return std::vector<std::string>{program, path, "--sentinel"};
    });
  });
}

}  // namespace

static std::unique_ptr<Server> StartServerIn(Target target, const ServerOptions& options);

std::unique_ptr<Server> StartServerOf(Target target, const ServerOptions& options) {
  // Sentinels write their config file only; a test that names a `dir` keeps it.
  bool names_dir = false;
  for (const auto& [name, value] : options.config) names_dir = names_dir || name == "dir";
  if (options.sentinel || names_dir) return StartServerIn(target, options);
  char dir[] = "/tmp/redlab-server-XXXXXX";
  if (mkdtemp(dir) == nullptr) throw std::runtime_error("cannot create a directory in /tmp");
  ServerOptions in_dir = options;
  in_dir.config.insert(in_dir.config.begin(), {"dir", dir});
  return WithOwnPath(dir, [&] { return StartServerIn(target, in_dir); });
}

static std::unique_ptr<Server> StartServerIn(Target target, const ServerOptions& options) {
  if (target == Target::kEmbedded) return std::make_unique<EmbeddedServer>(options);
  if (options.sentinel) return StartSentinel(target, options);
  return std::make_unique<ProcessServer>([&](int port) {
    std::vector<std::string> argv;
    if (target == Target::kSpawn) {
      argv = {REDLAB_SERVER_PATH, "--port", std::to_string(port), "--loglevel", "warning"};
    } else {
      argv = {"redis-server", "--port",    std::to_string(port), "--bind", "127.0.0.1",
              "--save",       "",          "--appendonly",       "no",     "--loglevel",
              "warning",      "--logfile", "/dev/null"};
    }
    if (!options.requirepass.empty()) {
      argv.push_back("--requirepass");
      argv.push_back(options.requirepass);
    }
    AppendConfigArgs(options, &argv);
    return argv;
  });
}

}  // namespace redlab::conformance
