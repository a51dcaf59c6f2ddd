// Starting and preparing the servers `redlab bench` runs against (see targets.h).
#include "tools/bench/targets.h"

#include <hiredis/hiredis.h>
#include <sched.h>

#include <chrono>
#include <stdexcept>

#include "client/config.h"
#include "conformance/harness/topology.h"
#include "server/topology.h"
#include "tools/hiredis_argv.h"

namespace redlab::tools::bench {
namespace {

std::string Join(const std::vector<std::string>& words) {
  std::string s;
  for (const auto& w : words) s += (s.empty() ? "" : " ") + w;
  return s;
}

struct ContextDeleter {
  void operator()(redisContext* c) const { redisFree(c); }
};
using Context = std::unique_ptr<redisContext, ContextDeleter>;

// Sends `argv`; returns the reply's text (a bulk, status or the integer); throws on an error.
std::string Command(redisContext* c, const std::vector<std::string>& argv) {
  ReplyPtr r = CommandArgv(c, argv);
  if (r == nullptr) throw std::runtime_error(std::string("connection lost: ") + c->errstr);
  std::string text = r->type == REDIS_REPLY_INTEGER ? std::to_string(r->integer)
                     : r->str != nullptr            ? std::string(r->str, r->len)
                                                    : "";
  if (r->type == REDIS_REPLY_ERROR) throw std::runtime_error(argv[0] + ": " + text);
  return text;
}

Context Connect(const Target& t) {
  Context c(redisConnect(t.host().c_str(), t.port()));
  if (!c || c->err) {
    throw std::runtime_error("cannot connect to " + t.host() + ":" + std::to_string(t.port()) +
                             (c ? std::string(": ") + c->errstr : ""));
  }
  if (!t.password().empty()) {
    if (t.user().empty()) {
      Command(c.get(), {"AUTH", t.password()});
    } else {
      Command(c.get(), {"AUTH", t.user(), t.password()});
    }
  }
  if (t.db() != 0) Command(c.get(), {"SELECT", std::to_string(t.db())});
  return c;
}

class RedlabTarget : public Target {
 public:
  explicit RedlabTarget(const TargetSpec& spec) {
    name_ = "redlab";
    server::TopologyOptions o;
    o.base.port = 0;
    o.base.loglevel = "warning";
    // The nodes' log would mix with the results (and with --json - on stdout); a --config
    // "logfile ..." given by the user comes after, and wins.
    o.base.settings = {{"logfile", "/dev/null"}};
    o.base.settings.insert(o.base.settings.end(), spec.config.begin(), spec.config.end());
    o.replicas = spec.replicas;
    // No TOPOLOGY RESTART LOSE here: its snapshots would be measured with the commands.
    o.base.keep_history = false;
    topology_ = server::Topology::Start(o);
    if (spec.replicas > 0 && !topology_->WaitForSync(std::chrono::seconds(10))) {
      throw std::runtime_error("redlab: the replicas did not sync with the master");
    }
    port_ = topology_->master().port();
  }
  void ApplyFaults(const std::vector<std::vector<std::string>>& faults) override {
    for (const auto& f : faults) topology_->master().Fault(f);
  }

 private:
  std::unique_ptr<server::Topology> topology_;
};

class RedisTarget : public Target {
 public:
  explicit RedisTarget(const TargetSpec& spec) {
    name_ = "redis";
    conformance::TopologyOptions o;
    o.replicas = spec.replicas;
    o.fault_proxy = !spec.faults.empty() && spec.replicas > 0;
    o.config = spec.config;
    topology_ = conformance::StartTopologyOf(conformance::Target::kRedis, o);
    port_ = topology_->master_port();
  }
  void ApplyFaults(const std::vector<std::vector<std::string>>& faults) override {
    for (const auto& f : faults) {
      std::vector<std::string> up;
      for (const auto& w : f) {
        std::string u = w;
        for (char& ch : u) ch = static_cast<char>(toupper(static_cast<unsigned char>(ch)));
        up.push_back(u);
      }
      if (up.size() >= 2 && up[0] == "REPL" && topology_->num_replicas() == 0) {
        throw std::runtime_error("FAULT " + Join(f) + " on redis needs --replicas");
      }
      if (up.size() == 3 && up[0] == "REPL" && up[1] == "DELAY") {
        topology_->DelayReplication(std::stoll(up[2]));
      } else if (up.size() == 2 && up[0] == "REPL" && up[1] == "PAUSE") {
        topology_->HoldReplication();
      } else if (up.size() == 2 && up[0] == "REPL" && up[1] == "CUT") {
        topology_->CutReplication();
      } else {
        throw std::runtime_error("FAULT " + Join(f) +
                                 " has no equivalent on real redis-server (only REPL DELAY ms, "
                                 "REPL PAUSE and REPL CUT, by the fault proxy)");
      }
    }
  }

 private:
  std::unique_ptr<conformance::Topology> topology_;
};

class ExistingTarget : public Target {
 public:
  explicit ExistingTarget(const std::string& url) {
    ServerAddress a = ServerAddress::Parse(url);
    name_ = "server";
    host_ = a.host;
    port_ = a.port;
    user_ = a.user;
    password_ = a.password;
    db_ = a.db;
  }
  void ApplyFaults(const std::vector<std::vector<std::string>>& faults) override {
    Context c = Connect(*this);
    for (const auto& f : faults) {
      std::vector<std::string> argv = {"FAULT"};
      argv.insert(argv.end(), f.begin(), f.end());
      Command(c.get(), argv);
    }
  }
};

}  // namespace

std::unique_ptr<Target> StartRedlab(const TargetSpec& spec) {
  return std::make_unique<RedlabTarget>(spec);
}

std::unique_ptr<Target> StartRedis(const TargetSpec& spec) {
  return std::make_unique<RedisTarget>(spec);
}

std::unique_ptr<Target> ExistingServer(const std::string& url) {
  try {
    return std::make_unique<ExistingTarget>(url);
  } catch (const std::exception& e) {
    throw std::invalid_argument(std::string("--server: ") + e.what());
  }
}

std::string LoadScript(const Target& target, const std::string& source) {
  Context c = Connect(target);
  return Command(c.get(), {"SCRIPT", "LOAD", source});
}

void LoadFunctionLibrary(const Target& target, const std::string& source) {
  Context c = Connect(target);
  Command(c.get(), {"FUNCTION", "LOAD", "REPLACE", source});
}

void CheckReachable(const Target& target) {
  Context c = Connect(target);
  Command(c.get(), {"PING"});
}

std::optional<PinnedCpus> CpusToPin() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) != 0) return std::nullopt;
  std::vector<int> cpus;
  for (int cpu = 0; cpu < CPU_SETSIZE && cpus.size() < 2; ++cpu) {
    if (CPU_ISSET(cpu, &set)) cpus.push_back(cpu);
  }
  if (cpus.size() < 2) return std::nullopt;
  return PinnedCpus{cpus[0], cpus[1]};
}

bool PinCallingThread(int cpu) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  // pid 0: the calling thread only (sched_setaffinity(2)), which new threads and children copy.
  return sched_setaffinity(0, sizeof(set), &set) == 0;
}

}  // namespace redlab::tools::bench
