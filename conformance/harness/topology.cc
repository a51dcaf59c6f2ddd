#include "conformance/harness/topology.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <stdexcept>

#include "conformance/harness/child_process.h"
#include "conformance/harness/fixture.h"
#include "server/topology.h"
#include "tools/proxy/fault_proxy.h"

namespace redlab::conformance {
namespace {

// A field of an INFO reply ("master_link_status" -> "up"); empty when absent.
std::string InfoField(const std::string& info, std::string_view field) {
  std::string needle = std::string(field) + ":";
  size_t pos = info.find(needle);
  if (pos == std::string::npos || (pos > 0 && info[pos - 1] != '\n')) return {};
  size_t end = info.find('\r', pos);
  return info.substr(pos + needle.size(), end - pos - needle.size());
}

std::string Info(int port) {
  Client c(port, std::chrono::seconds(2));
  return c({"INFO", "replication"}).str;
}

void Expect(const Reply& r, const Reply& expected, const std::string& what) {
  if (!(r == expected)) throw std::runtime_error(what + " answered " + r.Describe());
}

// redlab nodes: embedded in this process, or one redlab-server process hosting them all; either
// way the faults are FAULT commands over TCP.
class RedlabTopology : public Topology {
 public:
  RedlabTopology(Target target, const TopologyOptions& options) {
    if (target == Target::kEmbedded) {
      server::TopologyOptions t;
      t.base.loglevel = "warning";
      t.base.settings = options.config;
      t.replicas = options.replicas;
      topology_ = server::Topology::Start(t);
      master_port_ = topology_->master().port();
      for (size_t i = 0; i < topology_->num_replicas(); ++i) {
        replica_ports_.push_back(topology_->replica(i).port());
      }
      return;
    }
    // redlab-server --port P --replicas N: a master on P, replicas on P+1..P+N.
    int base = ConsecutiveFreePorts(options.replicas + 1);
    std::vector<std::string> argv = {REDLAB_SERVER_PATH,
                                     "--port",
                                     std::to_string(base),
                                     "--replicas",
                                     std::to_string(options.replicas),
                                     "--loglevel",
                                     "warning"};
    for (const auto& [name, value] : options.config) {
      argv.push_back("--" + name);
      argv.push_back(value);
    }
    process_ = std::make_unique<ServerProcess>(base, argv);
    process_->Start();
    master_port_ = base;
    for (int i = 1; i <= options.replicas; ++i) {
      replica_ports_.push_back(base + i);
      // The process starts its replicas after the master: wait until each answers too.
      bool up = Eventually([&] {
        try {
          Client c(base + i, std::chrono::milliseconds(500));
          return !c({"PING"}).is_error();
        } catch (const std::exception&) {
          return false;
        }
      });
      if (!up)
        throw std::runtime_error("replica on port " + std::to_string(base + i) + " did not start");
    }
  }

  void HoldReplication() override { Fault(master_port_, {"REPL", "PAUSE"}); }
  void ReleaseReplication() override { Fault(master_port_, {"REPL", "RESUME"}); }
  void DelayReplication(int64_t ms) override {
    Fault(master_port_, {"REPL", "DELAY", std::to_string(ms)});
  }
  void CutReplication() override { Fault(master_port_, {"REPL", "CUT"}); }
  void HealReplication() override { Fault(master_port_, {"REPL", "HEAL"}); }

  void CrashMaster() override {
    Client c(master_port_);
    c.SendCommand({"FAULT", "CRASH"});
    if (!c.WaitClosed()) throw std::runtime_error("FAULT CRASH left the connection open");
    crashed_port_ = master_port_;
  }

  int RestartCrashedMaster() override {
    // Any live node of the process can bring another back.
    int live = replica_ports_.empty() ? master_port_ : replica_ports_.front();
    if (live == crashed_port_) live = master_port_;
    Client c(live);
    Expect(c({"TOPOLOGY", "RESTART", std::to_string(crashed_port_), "EMPTY"}), Status("OK"),
           "TOPOLOGY RESTART");
    return crashed_port_;
  }

  bool SupportsClockFaults() const override { return true; }
  void JumpClock(int port, int64_t ms) override {
    Fault(port, {"CLOCK", "JUMP", std::to_string(ms)});
  }

 private:
  static void Fault(int port, std::vector<std::string> args) {
    args.insert(args.begin(), "FAULT");
    Client c(port);
    Expect(c.Call(args), Status("OK"), "FAULT");
  }

  std::unique_ptr<server::Topology> topology_;
  std::unique_ptr<ServerProcess> process_;
};

// Real redis-server processes, each replica linked to the master through a fault proxy.
class RedisTopology : public Topology {
 public:
  explicit RedisTopology(const TopologyOptions& options) : config_(options.config) {
    char dir_template[] = "/tmp/redlab-topology-XXXXXX";
    if (mkdtemp(dir_template) == nullptr) throw std::runtime_error("mkdtemp failed");
    dir_ = dir_template;
    master_port_ = FreePort();
    master_ = std::make_unique<ServerProcess>(master_port_, Argv(master_port_, "master", 0));
    master_->Start();
    for (int i = 0; i < options.replicas; ++i) {
      int via = master_port_;
      if (options.fault_proxy) {
        tools::ProxyOptions p;
        p.target_port = master_port_;
        proxies_.push_back(tools::FaultProxy::Start(p));
        via = proxies_.back()->port();
      }
      int port = FreePort();
      replicas_.push_back(
          std::make_unique<ServerProcess>(port, Argv(port, "replica" + std::to_string(i), via)));
      replicas_.back()->Start();
      replica_ports_.push_back(port);
    }
  }

  ~RedisTopology() override {
    replicas_.clear();
    master_.reset();
    proxies_.clear();
    std::error_code ignored;
    std::filesystem::remove_all(dir_, ignored);
  }

  void HoldReplication() override {
    for (auto& p : proxies_) p->Hold();
  }
  void ReleaseReplication() override {
    for (auto& p : proxies_) p->Release();
  }
  void DelayReplication(int64_t ms) override {
    for (auto& p : proxies_) p->Delay(ms);
  }
  void CutReplication() override {
    for (auto& p : proxies_) p->Cut();
  }
  void HealReplication() override {
    for (auto& p : proxies_) p->Heal();
  }

  void CrashMaster() override {
    master_->Kill();  // SIGKILL: no chance to send anything more
    crashed_port_ = master_port_;
  }

  int RestartCrashedMaster() override {
    master_->Start();
    return crashed_port_;
  }

  bool SupportsClockFaults() const override { return false; }
  void JumpClock(int, int64_t) override {
    throw std::logic_error("real redis-server has no clock faults");
  }

 private:
  std::vector<std::string> Argv(int port, const std::string& name, int master_via) {
    std::vector<std::string> argv = {
        "redis-server", "--port", std::to_string(port), "--bind", "127.0.0.1", "--save", "",
        "--appendonly", "no", "--loglevel", "warning", "--logfile", "/dev/null", "--dir", dir_,
        "--dbfilename", name + ".rdb",
        // Snapshots go over the socket at once, and load in memory: no files, no 5 s wait.
        "--repl-diskless-sync", "yes", "--repl-diskless-sync-delay", "0", "--repl-diskless-load",
        "swapdb"};
    if (master_via != 0) {
      argv.push_back("--replicaof");
      argv.push_back("127.0.0.1 " + std::to_string(master_via));
    }
    for (const auto& [n, v] : config_) {
      argv.push_back("--" + n);
      argv.push_back(v);
    }
    return argv;
  }

  std::vector<std::pair<std::string, std::string>> config_;
  std::string dir_;
  std::unique_ptr<ServerProcess> master_;
  std::vector<std::unique_ptr<tools::FaultProxy>> proxies_;
  std::vector<std::unique_ptr<ServerProcess>> replicas_;
};

}  // namespace

bool Topology::WaitForSync(std::chrono::milliseconds timeout) {
  auto deadline = std::chrono::steady_clock::now() + timeout;
  auto left = [&] {
    return std::chrono::duration_cast<std::chrono::milliseconds>(deadline -
                                                                 std::chrono::steady_clock::now());
  };
  for (int port : replica_ports_) {
    if (!Eventually([&] { return InfoField(Info(port), "master_link_status") == "up"; }, left())) {
      return false;
    }
  }
  // The master must see each of them online too (real Redis marks a replica online only once
  // it has noticed the end of the snapshot transfer).
  bool online = Eventually(
      [&] {
        std::string info = Info(master_port_);
        size_t n = 0;
        for (size_t pos = info.find(",state=online,"); pos != std::string::npos;
             pos = info.find(",state=online,", pos + 1)) {
          ++n;
        }
        return n == replica_ports_.size();
      },
      left());
  if (!online) return false;
  int64_t target = std::stoll(InfoField(Info(master_port_), "master_repl_offset"));
  for (int port : replica_ports_) {
    bool caught_up = Eventually(
        [&] {
          std::string off = InfoField(Info(port), "slave_repl_offset");
          return !off.empty() && std::stoll(off) >= target;
        },
        left());
    if (!caught_up) return false;
  }
  return true;
}

void Topology::Promote(size_t i) {
  int port = replica_port(i);
  Client c(port);
  Expect(c({"REPLICAOF", "NO", "ONE"}), Status("OK"), "REPLICAOF NO ONE");
  master_port_ = port;
  replica_ports_.erase(replica_ports_.begin() + static_cast<long>(i));
}

std::unique_ptr<Topology> StartTopology(const TopologyOptions& options) {
  return StartTopologyOf(CurrentTarget(), options);
}

std::unique_ptr<Topology> StartTopologyOf(Target target, const TopologyOptions& options) {
  std::unique_ptr<Topology> t;
  if (target == Target::kRedis) {
    t = std::make_unique<RedisTopology>(options);
  } else {
    t = std::make_unique<RedlabTopology>(target, options);
  }
  if (!t->WaitForSync()) throw std::runtime_error("the replicas did not sync with the master");
  return t;
}

Topology* ReplicatedTest::topology_ = nullptr;

void ReplicatedTest::StartSuiteTopology(const TopologyOptions& options) {
  topology_ = StartTopology(options).release();
}

void ReplicatedTest::TearDownTestSuite() {
  delete topology_;
  topology_ = nullptr;
}

void ReplicatedTest::SetUp() {
  Client m = topology_->ConnectMaster();
  ASSERT_EQ(m({"FLUSHALL"}), Status("OK"));
  ASSERT_TRUE(topology_->WaitForSync());
}

}  // namespace redlab::conformance
