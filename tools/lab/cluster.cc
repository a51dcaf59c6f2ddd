// The lab's targets: embedded redlab nodes and real redis-server processes.
#include "tools/lab/cluster.h"

#include <hiredis/hiredis.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "conformance/harness/child_process.h"
#include "conformance/harness/target.h"
#include "server/topology.h"
#include "tools/hiredis_argv.h"
#include "tools/proxy/fault_proxy.h"

namespace redlab::lab {

const char* TargetName(Target t) { return t == Target::kEmbedded ? "embedded" : "redis"; }

std::string AdminCommand(int port, const std::vector<std::string>& args,
                         std::chrono::milliseconds timeout) {
  timeval tv{static_cast<time_t>(timeout.count() / 1000),
             static_cast<suseconds_t>((timeout.count() % 1000) * 1000)};
  std::unique_ptr<redisContext, void (*)(redisContext*)> c(
      redisConnectWithTimeout("127.0.0.1", port, tv), redisFree);
  if (!c || c->err) {
    throw std::runtime_error("cannot connect to 127.0.0.1:" + std::to_string(port) + ": " +
                             (c ? c->errstr : "out of memory"));
  }
  redisSetTimeout(c.get(), tv);
  tools::ReplyPtr reply = tools::CommandArgv(c.get(), args);
  if (reply == nullptr) {
    throw std::runtime_error(args.at(0) + " to port " + std::to_string(port) + ": " + c->errstr);
  }
  switch (reply->type) {
    case REDIS_REPLY_ERROR:
      throw std::runtime_error(args.at(0) + " to port " + std::to_string(port) + ": " +
                               std::string(reply->str, reply->len));
    case REDIS_REPLY_INTEGER:
      return std::to_string(reply->integer);
    case REDIS_REPLY_STRING:
    case REDIS_REPLY_STATUS:
      return std::string(reply->str, reply->len);
    case REDIS_REPLY_ARRAY: {
      std::string out;
      for (size_t i = 0; i < reply->elements; ++i) {
        const redisReply* e = reply->element[i];
        if (i > 0) out += '\n';
        if (e->type == REDIS_REPLY_INTEGER) {
          out += std::to_string(e->integer);
        } else if (e->str != nullptr) {
          out.append(e->str, e->len);
        }
      }
      return out;
    }
    default:
      return "";
  }
}

Cluster::Cluster(Target target, const ClusterSpec& spec) : target_(target), spec_(spec) {
  for (int i = 0; i < spec.masters; ++i) names_.push_back("m" + std::to_string(i));
  for (int i = 0; i < spec.replicas; ++i) names_.push_back("r" + std::to_string(i));
}

void Cluster::Promote(size_t node) {
  std::string r = AdminCommand(Port(node), {"REPLICAOF", "NO", "ONE"});
  if (r != "OK") throw std::runtime_error("REPLICAOF NO ONE answered " + r);
}

bool Cluster::WaitForSync(std::chrono::milliseconds timeout) {
  if (spec_.replicas == 0) return true;
  auto deadline = std::chrono::steady_clock::now() + timeout;
  // A write and a WAIT on one connection: WAIT counts the replicas that acknowledged it.
  while (std::chrono::steady_clock::now() < deadline) {
    try {
      timeval tv{2, 0};
      std::unique_ptr<redisContext, void (*)(redisContext*)> c(
          redisConnectWithTimeout("127.0.0.1", Port(Master()), tv), redisFree);
      if (c && !c->err) {
        redisSetTimeout(c.get(), tv);
        freeReplyObject(redisCommand(c.get(), "SET redlab:lab:sync 1"));
        auto* r = static_cast<redisReply*>(redisCommand(c.get(), "WAIT %d 500", spec_.replicas));
        bool ok = r && r->type == REDIS_REPLY_INTEGER && r->integer == spec_.replicas;
        freeReplyObject(r);
        if (ok) {
          freeReplyObject(redisCommand(c.get(), "DEL redlab:lab:sync"));
          r = static_cast<redisReply*>(redisCommand(c.get(), "WAIT %d 2000", spec_.replicas));
          freeReplyObject(r);
          return true;
        }
      }
    } catch (const std::exception&) {
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));  // the links are connecting
  }
  return false;
}

int Cluster::SentinelMasterPort(size_t i) const {
  std::string r =
      AdminCommand(SentinelPort(i), {"SENTINEL", "GET-MASTER-ADDR-BY-NAME", kSentinelMaster});
  size_t nl = r.find('\n');
  if (nl == std::string::npos) {
    throw std::runtime_error("GET-MASTER-ADDR-BY-NAME answered '" + r + "'");
  }
  return std::stoi(r.substr(nl + 1));
}

bool Cluster::WaitForSentinels(std::chrono::milliseconds timeout) {
  for (int port : sentinel_ports_) {
    std::string r = AdminCommand(port, {"SENTINEL", "DEBUG", "publish-period", "200", "ask-period",
                                        "100", "info-period", "500", "ping-period", "250"});
    if (r != "OK") throw std::runtime_error("SENTINEL DEBUG answered " + r);
  }
  const std::string replicas = std::to_string(spec_.replicas);
  const std::string others = std::to_string(sentinel_ports_.size() - 1);
  auto deadline = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < deadline) {
    bool ready = true;
    for (int port : sentinel_ports_) {
      std::map<std::string, std::string> fields;
      try {
        std::istringstream in(AdminCommand(port, {"SENTINEL", "MASTER", kSentinelMaster}));
        std::string key, value;
        while (std::getline(in, key) && std::getline(in, value)) fields[key] = value;
      } catch (const std::exception&) {
      }
      if (fields["num-slaves"] != replicas || fields["num-other-sentinels"] != others) {
        ready = false;
        break;
      }
    }
    if (ready) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));  // the hellos are on their way
  }
  return false;
}

namespace {

class EmbeddedCluster : public Cluster {
 public:
  explicit EmbeddedCluster(const ClusterSpec& spec) : Cluster(Target::kEmbedded, spec) {
    server::TopologyOptions t;
    t.base.loglevel = "warning";
    t.base.settings = {{"logfile", "/dev/null"}};  // the crashes are the lab's, not news
    t.masters = spec.masters;
    t.replicas = spec.replicas;
    t.sentinels = spec.sentinels;
    t.sentinel_port = 0;
    t.down_after_ms = kSentinelDownAfterMs;
    t.failover_timeout_ms = 5000;
    topology_ = server::Topology::Start(t);
    for (server::Node* n : topology_->nodes()) ports_.push_back(n->port());
    for (size_t i = 0; i < topology_->num_sentinels(); ++i) {
      sentinel_ports_.push_back(topology_->sentinel(i).port());
    }
  }
  ~EmbeddedCluster() override {
    // The partition table is the process's: the next cluster must not inherit this one's.
    if (partitioned_) {
      try {
        N(0).Fault({"PARTITION", "HEAL"});
      } catch (const std::exception&) {  // the table is healed by any node; this one refused
      }
    }
    topology_->Stop();
  }

  void HoldLink(size_t node) override { N(node).Fault({"REPL", "PAUSE"}); }
  void ReleaseLink(size_t node) override { N(node).Fault({"REPL", "RESUME"}); }
  void DelayLink(size_t node, int64_t ms) override {
    N(node).Fault({"REPL", "DELAY", std::to_string(ms)});
  }
  void Crash(size_t node) override { N(node).Crash(); }
  void Restart(size_t node) override { N(node).Restart(/*keep_data=*/false); }
  bool SupportsClock() const override { return true; }
  void JumpClock(size_t node, int64_t ms) override {
    N(node).Fault({"CLOCK", "JUMP", std::to_string(ms)});
  }
  void Partition(const std::vector<int>& ports) override {
    std::vector<std::string> args = {"PARTITION"};
    for (int p : ports) args.push_back(std::to_string(p));
    if (ports.empty()) args.push_back("HEAL");
    N(0).Fault(args);  // any node sets the process's partition, a crashed one too
    partitioned_ = !ports.empty();
  }

 private:
  server::Node& N(size_t node) { return *topology_->nodes().at(node); }
  std::unique_ptr<server::Topology> topology_;
  bool partitioned_ = false;
};

class RedisCluster : public Cluster {
 public:
  explicit RedisCluster(const ClusterSpec& spec) : Cluster(Target::kRedis, spec) {
    char dir_template[] = "/tmp/redlab-lab-XXXXXX";
    if (mkdtemp(dir_template) == nullptr) throw std::runtime_error("mkdtemp failed");
    dir_ = dir_template;
    for (int i = 0; i < spec.masters; ++i) StartNode(0);
    proxies_.resize(ports_.size());  // masters have no link
    for (int i = 0; i < spec.replicas; ++i) {
      tools::ProxyOptions p;
      p.target_port = ports_.at(0);
      proxies_.push_back(tools::FaultProxy::Start(p));
      StartNode(proxies_.back()->port());
    }
    for (int i = 0; i < spec.sentinels; ++i) StartSentinel(spec.sentinels / 2 + 1);
  }
  ~RedisCluster() override {
    sentinels_.clear();
    processes_.clear();
    proxies_.clear();
    std::error_code ignored;
    std::filesystem::remove_all(dir_, ignored);
  }

  void HoldLink(size_t node) override { Proxy(node).Hold(); }
  void ReleaseLink(size_t node) override { Proxy(node).Release(); }
  void DelayLink(size_t node, int64_t ms) override { Proxy(node).Delay(ms); }
  void Crash(size_t node) override { processes_.at(node)->Kill(); }
  void Restart(size_t node) override { processes_.at(node)->Start(); }
  bool SupportsClock() const override { return false; }
  void JumpClock(size_t, int64_t) override {
    throw std::logic_error("a real redis-server's clock cannot be moved");
  }
  void Partition(const std::vector<int>&) override {
    throw std::logic_error("real redis-server processes cannot be partitioned (FAULT PARTITION)");
  }

 private:
  tools::FaultProxy& Proxy(size_t node) {
    if (node >= proxies_.size() || !proxies_[node]) {
      throw std::logic_error(Name(node) + " has no replication link");
    }
    return *proxies_[node];
  }
  void StartNode(int master_via) {
    int port = conformance::FreePort();
    std::string name = "n" + std::to_string(ports_.size());
    std::vector<std::string> argv = {"redis-server",
                                     "--port",
                                     std::to_string(port),
                                     "--bind",
                                     "127.0.0.1",
                                     "--save",
                                     "",
                                     "--appendonly",
                                     "no",
                                     "--loglevel",
                                     "warning",
                                     "--logfile",
                                     "/dev/null",
                                     "--dir",
                                     dir_,
                                     "--dbfilename",
                                     name + ".rdb",
                                     "--repl-diskless-sync",
                                     "yes",
                                     "--repl-diskless-sync-delay",
                                     "0",
                                     "--repl-diskless-load",
                                     "swapdb"};
    if (master_via != 0) {
      argv.push_back("--replicaof");
      argv.push_back("127.0.0.1 " + std::to_string(master_via));
    }
    processes_.push_back(std::make_unique<conformance::ServerProcess>(port, argv));
    processes_.back()->Start();
    ports_.push_back(port);
  }

  // `redis-server sentinel-N.conf --sentinel`: the file is Sentinel's own, rewritten by it.
  void StartSentinel(int quorum) {
    int port = conformance::FreePort();
    std::string conf = dir_ + "/sentinel-" + std::to_string(sentinels_.size()) + ".conf";
    std::ofstream(conf) << "port " << port << "\nbind 127.0.0.1\nlogfile /dev/null\ndir " << dir_
                        << "\nsentinel monitor " << kSentinelMaster << " 127.0.0.1 " << ports_.at(0)
                        << " " << quorum << "\nsentinel down-after-milliseconds " << kSentinelMaster
                        << " " << kSentinelDownAfterMs << "\nsentinel failover-timeout "
                        << kSentinelMaster << " 5000\n";
    sentinels_.push_back(std::make_unique<conformance::ServerProcess>(
        port, std::vector<std::string>{"redis-server", conf, "--sentinel"}));
    sentinels_.back()->Start();
    sentinel_ports_.push_back(port);
  }

  std::string dir_;
  std::vector<std::unique_ptr<conformance::ServerProcess>> sentinels_;
  std::vector<std::unique_ptr<conformance::ServerProcess>> processes_;
  std::vector<std::unique_ptr<tools::FaultProxy>> proxies_;  // by node; null for masters
};

}  // namespace

std::unique_ptr<Cluster> Cluster::Start(Target target, const ClusterSpec& spec) {
  if (spec.masters > 1 && spec.replicas > 0) {
    throw std::invalid_argument("independent masters have no replicas");
  }
  if (spec.masters > 1 && spec.sentinels > 0) {
    throw std::invalid_argument("sentinels watch one master");
  }
  std::unique_ptr<Cluster> c;
  if (target == Target::kRedis) {
    c = std::make_unique<RedisCluster>(spec);
  } else {
    c = std::make_unique<EmbeddedCluster>(spec);
  }
  if (!c->WaitForSync(std::chrono::seconds(10))) {
    throw std::runtime_error("the replicas did not sync with the master");
  }
  if (spec.sentinels > 0 && !c->WaitForSentinels(std::chrono::seconds(15))) {
    throw std::runtime_error("the sentinels did not find the replicas and each other");
  }
  return c;
}

}  // namespace redlab::lab
