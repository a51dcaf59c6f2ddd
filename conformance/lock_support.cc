#include "conformance/lock_support.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <stdexcept>

#include "client/ids.h"

namespace redlab::conformance {

std::string ChannelOf(const std::string& name) {
  return name.find('{') != std::string::npos ? "redisson_lock__channel:" + name
                                             : "redisson_lock__channel:{" + name + "}";
}

Config TestConfig(int port) {
  Config config = Config::SingleServer("redis://127.0.0.1:" + std::to_string(port));
  config.connect_timeout = std::chrono::milliseconds(2000);
  config.timeout = std::chrono::milliseconds(2000);
  config.retry_interval = std::chrono::milliseconds(50);
  config.subscription_timeout = std::chrono::milliseconds(2000);
  return config;
}

std::vector<std::string> RedissonUnlock(const std::string& name, const std::string& owner) {
  std::string latch =
      (name.find('{') != std::string::npos ? "redisson_unlock_latch:" + name
                                           : "redisson_unlock_latch:{" + name + "}") +
      ":" + client::RandomHex(16);
  return {"EVAL",
          kRedissonUnlockScript,
          "3",
          name,
          ChannelOf(name),
          latch,
          "0",
          "30000",
          owner,
          "PUBLISH",
          "5000"};
}

std::vector<std::vector<std::string>> LoggedEvals(Client& c, const std::string& name) {
  std::vector<std::vector<std::string>> out;
  Reply log = c({"SLOWLOG", "GET", "-1"});
  for (auto e = log.elements.rbegin(); e != log.elements.rend(); ++e) {
    std::vector<std::string> args;
    for (const Reply& a : e->elements.at(3).elements) args.push_back(a.str);
    if (args.size() > 3 &&
        (args[0] == "EVALSHA" || args[0] == "EVAL" || args[0] == "evalsha" || args[0] == "eval") &&
        args[3] == name) {
      bool repeat = !out.empty() && std::equal(out.back().begin() + 2, out.back().end(),
                                               args.begin() + 2, args.end());
      if (!repeat) out.push_back(std::move(args));
    }
  }
  return out;
}

int64_t LockTest::Subscribers(const std::string& channel) {
  Reply r = c()({"PUBSUB", "NUMSUB", channel});
  return r.elements.size() == 2 ? r.elements[1].integer : -1;
}

namespace {

int ConnectLoopback(int port) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0) {
    close(fd);
    return -1;
  }
  int one = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
  return fd;
}

bool SendAll(int fd, const char* data, size_t n) {
  while (n > 0) {
    ssize_t w = send(fd, data, n, MSG_NOSIGNAL);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return false;
    data += w;
    n -= static_cast<size_t>(w);
  }
  return true;
}

}  // namespace

TcpProxy::TcpProxy(int target_port) : target_port_(target_port) {
  listen_fd_ = socket(AF_INET, SOCK_STREAM, 0);
  int one = 1;
  setsockopt(listen_fd_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  if (bind(listen_fd_, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0 ||
      listen(listen_fd_, 64) != 0) {
    throw std::runtime_error("proxy: cannot listen");
  }
  socklen_t len = sizeof(addr);
  getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&addr), &len);
  port_ = ntohs(addr.sin_port);
  if (pipe(wake_) != 0) throw std::runtime_error("proxy: pipe");
  thread_ = std::thread([this] { Run(); });
}

TcpProxy::~TcpProxy() {
  stop_ = true;
  Wake();
  thread_.join();
  for (const Pair& p : pairs_) {
    close(p.downstream);
    close(p.upstream);
  }
  close(listen_fd_);
  close(wake_[0]);
  close(wake_[1]);
}

void TcpProxy::Wake() {
  char c = 1;
  ssize_t ignored = write(wake_[1], &c, 1);
  (void)ignored;
}

void TcpProxy::SwallowRepliesOnOpenConnections() {
  std::lock_guard<std::mutex> lock(mu_);
  for (Pair& p : pairs_) p.swallow = true;
}

void TcpProxy::SwallowRepliesOnLatestConnection() {
  std::lock_guard<std::mutex> lock(mu_);
  if (!pairs_.empty()) pairs_.back().swallow = true;
}

void TcpProxy::HoldNewConnections() {
  std::lock_guard<std::mutex> lock(mu_);
  hold_new_ = true;
}

int TcpProxy::open_connections() {
  std::lock_guard<std::mutex> lock(mu_);
  return static_cast<int>(pairs_.size());
}

void TcpProxy::Hold() {
  hold_ = true;
  Wake();
}

void TcpProxy::Release() {
  hold_ = false;
  Wake();
}

void TcpProxy::Run() {
  while (!stop_) {
    std::vector<pollfd> fds;
    fds.push_back({wake_[0], POLLIN, 0});
    fds.push_back({listen_fd_, POLLIN, 0});
    size_t n_pairs;
    {
      std::lock_guard<std::mutex> lock(mu_);
      n_pairs = pairs_.size();
      for (const Pair& p : pairs_) {
        fds.push_back({p.downstream, POLLIN, 0});
        // Held: the target's bytes stay unread, in the kernel, until Release.
        fds.push_back({p.upstream, static_cast<short>(hold_ || p.held ? 0 : POLLIN), 0});
      }
    }
    if (poll(fds.data(), fds.size(), 1000) <= 0) continue;
    if (fds[0].revents) {
      char buf[64];
      ssize_t ignored = read(wake_[0], buf, sizeof(buf));
      (void)ignored;
    }
    std::lock_guard<std::mutex> lock(mu_);
    std::vector<bool> dead(n_pairs, false);
    char buf[65536];
    for (size_t i = 0; i < n_pairs; ++i) {
      Pair& p = pairs_[i];
      const pollfd& down = fds[2 + 2 * i];
      const pollfd& up = fds[3 + 2 * i];
      if (down.revents) {
        ssize_t n = recv(p.downstream, buf, sizeof(buf), 0);
        if (n <= 0 || !SendAll(p.upstream, buf, static_cast<size_t>(n))) dead[i] = true;
      }
      if (!dead[i] && up.revents && !hold_ && !p.held) {
        ssize_t n = recv(p.upstream, buf, sizeof(buf), 0);
        if (n <= 0 || (!p.swallow && !SendAll(p.downstream, buf, static_cast<size_t>(n)))) {
          dead[i] = true;
        }
      }
    }
    for (size_t i = n_pairs; i-- > 0;) {
      if (!dead[i]) continue;
      close(pairs_[i].downstream);
      close(pairs_[i].upstream);
      pairs_.erase(pairs_.begin() + static_cast<long>(i));
    }
    if (fds[1].revents) {
      int down = accept(listen_fd_, nullptr, nullptr);
      if (down >= 0) {
        int up = ConnectLoopback(target_port_);
        if (up < 0) {
          close(down);
        } else {
          int one = 1;
          setsockopt(down, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
          pairs_.push_back({down, up, false, hold_new_});
          ++accepted_;
        }
      }
    }
  }
}

namespace {

class RedisReplicaPair : public ReplicaPair {
 public:
  RedisReplicaPair() {
    ServerOptions master_options;
    // Full resynchronisation at once instead of after Redis 7.0's 5 s diskless delay; files
    // (none expected) go to the server's own directory (StartServerOf).
    master_options.config = {{"repl-diskless-sync-delay", "0"}};
    master_ = StartServerOf(Target::kRedis, master_options);
    proxy_ = std::make_unique<TcpProxy>(master_->port());
    ServerOptions replica_options;
    // The replica loads the snapshot from the socket instead of writing a dump.rdb first.
    replica_options.config = {{"repl-diskless-load", "on-empty-db"}};
    replica_ = StartServerOf(Target::kRedis, replica_options);
    Attach(master_->port(), replica_->port(), proxy_->port());
  }
  ~RedisReplicaPair() override {
    replica_->Stop();
    proxy_.reset();
    master_->Stop();
  }
  int master_port() const override { return master_->port(); }
  int replica_port() const override { return replica_->port(); }
  void HoldReplication() override { proxy_->Hold(); }
  void ResumeReplication() override { proxy_->Release(); }

 private:
  std::unique_ptr<Server> master_;
  std::unique_ptr<TcpProxy> proxy_;
  std::unique_ptr<Server> replica_;
};

class RedlabReplicaPair : public ReplicaPair {
 public:
  RedlabReplicaPair() : master_(StartServer()), replica_(StartServer()) {
    Attach(master_->port(), replica_->port(), 0);
  }
  int master_port() const override { return master_->port(); }
  int replica_port() const override { return replica_->port(); }
  void HoldReplication() override { Fault({"FAULT", "REPL", "PAUSE"}); }
  void ResumeReplication() override { Fault({"FAULT", "REPL", "RESUME"}); }

 private:
  void Fault(const std::vector<std::string>& args) {
    Client master(master_->port());
    Reply r = master.Call(args);
    if (r.is_error()) throw std::runtime_error("FAULT refused: " + r.str);
  }
  std::unique_ptr<Server> master_;
  std::unique_ptr<Server> replica_;
};

}  // namespace

std::unique_ptr<ReplicaPair> ReplicaPair::Start() {
  if (CurrentTarget() == Target::kRedis) return std::make_unique<RedisReplicaPair>();
  return std::make_unique<RedlabReplicaPair>();
}

void ReplicaPair::Attach(int master_port, int replica_port, int via_port) {
  Client replica(replica_port);
  Reply attached =
      replica({"REPLICAOF", "127.0.0.1", std::to_string(via_port ? via_port : master_port)});
  if (attached.is_error()) {
    throw Unsupported("this server cannot replicate yet: REPLICAOF answered " + attached.str);
  }
  Client master(master_port);
  bool online = Eventually(
      [&] {
        Reply m = master({"INFO", "replication"});
        Reply r = replica({"INFO", "replication"});
        return m.str.find("state=online") != std::string::npos &&
               r.str.find("master_link_status:up") != std::string::npos;
      },
      std::chrono::seconds(10));
  if (!online) throw std::runtime_error("the replica did not come online");
  // After a diskless full sync Redis 7.0 starts streaming commands only at the replica's first
  // REPLCONF ACK (sent each second): wait until a write is acknowledged, so tests start with
  // replication flowing.
  master({"SET", "redlab:replication-warmup", "1"});
  Reply acked = master({"WAIT", "1", "5000"});
  master({"DEL", "redlab:replication-warmup"});
  if (acked.integer != 1) throw std::runtime_error("the replica does not acknowledge writes");
  master({"WAIT", "1", "5000"});
  master({"CONFIG", "RESETSTAT"});  // tests count the commands they cause
}

void ReplicaPair::DetachReplica() {
  Client replica(replica_port());
  replica({"REPLICAOF", "NO", "ONE"});
  Client master(master_port());
  Eventually([&] {
    return master({"INFO", "replication"}).str.find("connected_slaves:0") != std::string::npos;
  });
}

}  // namespace redlab::conformance
