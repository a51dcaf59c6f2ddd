// Redis 7.0.15's src/sentinel.c: configuration, sentinelTimer, the links' periodic commands,
// INFO parsing, SDOWN, hello messages (the election is in election.cc, the failover in
// failover.cc).
#include "server/sentinel/sentinel.h"

#include "server/base/glob.h"
#include "server/base/hex.h"
#include "server/base/numbers.h"
#include "server/base/text.h"
#include "server/engine/pubsub/pubsub.h"

namespace redlab::server::sentinel {
namespace {

constexpr size_t kMaxPendingCommands = 100;

bool ParseInt(const std::string& s, int64_t* out) { return ParseInt64(s, out); }

std::string TypeStr(const Instance* ri) {
  if (ri->flags & kMaster) return "master";
  if (ri->flags & kSlave) return "slave";
  return "sentinel";
}

}  // namespace

Sentinel::Sentinel(engine::Engine* engine, uv_loop_t* loop)
    : engine_(engine), loop_(loop), myid_(RandomHex(40)) {}

Sentinel::~Sentinel() { CloseLinks(); }

int64_t Sentinel::Now() const { return engine_->clock().NowMs(); }

Instance* Sentinel::Master(std::string_view name) {
  auto it = masters_.find(std::string(name));
  return it == masters_.end() ? nullptr : it->second.get();
}

std::optional<std::string> Sentinel::Configure(const std::vector<std::string>& w) {
  if (w.empty()) return "Unrecognized sentinel configuration statement.";
  std::string what = ToLower(w[0]);
  auto master_or = [&](Instance** ri) -> std::optional<std::string> {
    *ri = w.size() >= 2 ? Master(w[1]) : nullptr;
    if (*ri == nullptr) return std::string("No such master with specified name.");
    return std::nullopt;
  };
  int64_t n = 0;
  Instance* ri = nullptr;
  if (what == "monitor" && w.size() == 5) {
    int64_t port = 0, quorum = 0;
    if (!ParseInt(w[3], &port) || !ParseInt(w[4], &quorum) || quorum <= 0) {
      return "Quorum must be 1 or greater.";
    }
    std::string error;
    if (!AddMaster(w[1], w[2], static_cast<int>(port), static_cast<int>(quorum), &error)) {
      return error;
    }
    return std::nullopt;
  }
  if ((what == "down-after-milliseconds" || what == "failover-timeout" ||
       what == "parallel-syncs" || what == "config-epoch" || what == "leader-epoch") &&
      w.size() == 3) {
    if (auto e = master_or(&ri)) return e;
    if (!ParseInt(w[2], &n) || n < 0) return "Invalid argument for " + what;
    if (what == "down-after-milliseconds") {
      if (n <= 0) return std::string("negative or zero time parameter.");
      ri->down_after = n;
    } else if (what == "failover-timeout") {
      if (n <= 0) return std::string("negative or zero time parameter.");
      ri->failover_timeout = n;
    } else if (what == "parallel-syncs") {
      ri->parallel_syncs = static_cast<int>(n);
    } else if (what == "config-epoch") {
      ri->config_epoch = static_cast<uint64_t>(n);
      if (ri->config_epoch > current_epoch_) current_epoch_ = ri->config_epoch;
    } else {
      ri->leader_epoch = static_cast<uint64_t>(n);
    }
    return std::nullopt;
  }
  if ((what == "auth-pass" || what == "auth-user") && w.size() == 3) {
    if (auto e = master_or(&ri)) return e;
    (what == "auth-pass" ? ri->auth_pass : ri->auth_user) = w[2];
    return std::nullopt;
  }
  if (what == "myid" && w.size() == 2) {
    if (w[1].size() != 40) return std::string("Malformed Sentinel id in myid option.");
    myid_ = w[1];
    myid_configured_ = true;
    return std::nullopt;
  }
  if (what == "current-epoch" && w.size() == 2) {
    if (!ParseInt(w[1], &n) || n < 0) return std::string("Invalid current-epoch");
    if (static_cast<uint64_t>(n) > current_epoch_) current_epoch_ = static_cast<uint64_t>(n);
    return std::nullopt;
  }
  if ((what == "known-replica" || what == "known-slave") && w.size() == 4) {
    if (auto e = master_or(&ri)) return e;
    int64_t port = 0;
    if (!ParseInt(w[3], &port)) return std::string("Wrong port for known-replica");
    AddSlave(ri, w[2], static_cast<int>(port));
    return std::nullopt;
  }
  // sentinel known-sentinel <master> <ip> <port> [runid]
  if (what == "known-sentinel" && (w.size() == 4 || w.size() == 5)) {
    if (auto e = master_or(&ri)) return e;
    int64_t port = 0;
    if (!ParseInt(w[3], &port)) return std::string("Wrong port for known-sentinel");
    if (w.size() == 5 && w[4] == myid_) return std::nullopt;
    std::string runid = w.size() == 5 ? w[4] : "";
    auto s = NewInstance(kSentinel, runid.empty() ? w[2] + ":" + w[3] : runid, w[2],
                         static_cast<int>(port), ri);
    s->runid = runid;
    s->quorum = ri->quorum;
    ri->sentinels.emplace(s->name, std::move(s));
    return std::nullopt;
  }
  if (w.size() == 2 && (what == "resolve-hostnames" || what == "announce-hostnames")) {
    std::string v = ToLower(w[1]);
    if (v != "yes" && v != "no") return "Please specify yes or no for the " + what + " option.";
    (what == "resolve-hostnames" ? settings.resolve_hostnames : settings.announce_hostnames) =
        v == "yes";
    return std::nullopt;
  }
  if (w.size() == 2 && what == "announce-ip") {
    settings.announce_ip = w[1];
    return std::nullopt;
  }
  if (w.size() == 2 && what == "announce-port") {
    settings.announce_port = std::atoi(w[1].c_str());
    return std::nullopt;
  }
  if (w.size() == 2 && (what == "sentinel-user" || what == "sentinel-pass")) {
    (what == "sentinel-user" ? settings.sentinel_user : settings.sentinel_pass) = w[1];
    return std::nullopt;
  }
  // Accepted and not acted on: scripts are never run by redlab (see the README).
  if (what == "deny-scripts-reconfig" || what == "notification-script" ||
      what == "client-reconfig-script" || what == "rename-command" ||
      what == "master-reboot-down-after-period" || what == "sentinel-user" ||
      what == "sentinel-pass") {
    return std::nullopt;
  }
  return "Unrecognized sentinel configuration statement.";
}

std::unique_ptr<Instance> Sentinel::NewInstance(uint32_t flags, const std::string& name,
                                                const std::string& ip, int port,
                                                Instance* master) const {
  auto ri = std::make_unique<Instance>();
  ri->flags = flags;
  ri->name = name;
  ri->ip = ip;
  ri->port = port;
  ri->master = master;
  ri->down_after = master != nullptr ? master->down_after : timing.default_down_after;
  ri->last_pong_time = ri->last_avail_time = ri->act_ping_time = Now();
  return ri;
}

Instance* Sentinel::AddMaster(const std::string& name, const std::string& ip, int port, int quorum,
                              std::string* error) {
  if (port < 0 || port > 65535) {
    *error = "Invalid port number.";
    return nullptr;
  }
  if (masters_.count(name)) {
    *error = "Duplicate master name.";
    return nullptr;
  }
  auto ri = NewInstance(kMaster, name, ip, port, nullptr);
  ri->quorum = quorum;
  ri->failover_timeout = timing.default_failover_timeout;
  ri->role_reported_time = ri->last_pong_time;  // now
  ri->role_reported = kMaster;
  Instance* out = ri.get();
  masters_.emplace(name, std::move(ri));
  return out;
}

void Sentinel::RemoveMaster(const std::string& name) {
  auto it = masters_.find(name);
  if (it == masters_.end()) return;
  for (auto& [_, s] : it->second->slaves) CloseLink(s.get());
  for (auto& [_, s] : it->second->sentinels) CloseLink(s.get());
  CloseLink(it->second.get());
  masters_.erase(it);
}

// sentinelResetMaster.
void Sentinel::ResetMaster(Instance* master, bool keep_sentinels) {
  for (auto& [_, s] : master->slaves) CloseLink(s.get());
  master->slaves.clear();
  if (!keep_sentinels) {
    for (auto& [_, s] : master->sentinels) CloseLink(s.get());
    master->sentinels.clear();
  }
  CloseLink(master);
  master->flags &= kMaster;
  master->leader.clear();
  master->failover_state = FailoverState::kNone;
  master->failover_state_change_time = 0;
  master->failover_start_time = 0;
  master->promoted_slave = nullptr;
  master->runid.clear();
  master->slave_master_host.clear();
  master->info.clear();
  master->info_refresh = 0;
  int64_t now = Now();
  master->act_ping_time = now;
  master->last_ping_time = 0;
  master->last_pong_time = master->last_avail_time = master->role_reported_time = now;
  master->role_reported = kMaster;
}

Instance* Sentinel::AddSlave(Instance* master, const std::string& ip, int port) {
  std::string key = ip + ":" + std::to_string(port);
  if (master->slaves.count(key)) return nullptr;
  auto slave = NewInstance(kSlave, key, ip, port, master);
  slave->role_reported_time = slave->slave_conf_change_time = slave->last_pong_time;  // now
  slave->role_reported = kSlave;
  Instance* s = slave.get();
  master->slaves.emplace(key, std::move(slave));
  return s;
}

int Sentinel::ResetMatching(std::string_view pattern) {
  int reset = 0;
  for (auto& [name, ri] : masters_) {
    if (!GlobMatch(pattern, name)) continue;
    ResetMaster(ri.get());
    Event(3, "+reset-master", ri.get(), true);
    ++reset;
  }
  return reset;
}

void Sentinel::Event(int level, const std::string& type, const Instance* ri, bool at,
                     const std::string& rest) {
  std::string msg;
  if (at && ri != nullptr) {
    msg = TypeStr(ri) + " " + ri->name + " " + ri->ip + " " + std::to_string(ri->port);
    if (!(ri->flags & kMaster) && ri->master != nullptr) {
      msg +=
          " @ " + ri->master->name + " " + ri->master->ip + " " + std::to_string(ri->master->port);
    }
  }
  msg += rest;
  if (engine_->host() != nullptr) engine_->host()->Log(level, type + " " + msg);
  if (level != 0) engine_->messaging().Publish(type, msg, engine::PubSubKind::kChannel);
}

void Sentinel::Start() {
  if (!myid_configured_) FlushConfig();
  previous_time = Now();
  for (auto& [_, ri] : masters_) {
    Event(3, "+monitor", ri.get(), true, " quorum " + std::to_string(ri->quorum));
  }
}

void Sentinel::CloseLinks() {
  for (auto& [_, m] : masters_) {
    for (auto& [__, s] : m->slaves) CloseLink(s.get());
    for (auto& [__, s] : m->sentinels) CloseLink(s.get());
    CloseLink(m.get());
  }
}

void Sentinel::CloseLink(Instance* ri) {
  if (ri->cc) ri->cc->Close();
  if (ri->pc) ri->pc->Close();
  ri->cc = ri->pc = nullptr;
  ri->disconnected = true;  // act_ping_time stays: a ping unanswered is still unanswered
}

// sentinelTimer and sentinelHandleDictOfRedisInstances.
void Sentinel::Timer() {
  CheckTiltCondition();
  Instance* switch_to_promoted = nullptr;
  for (auto& [_, m] : masters_) {
    HandleInstance(m.get());
    for (auto& [__, s] : m->slaves) HandleInstance(s.get());
    for (auto& [__, s] : m->sentinels) HandleInstance(s.get());
    if (m->failover_state == FailoverState::kUpdateConfig) switch_to_promoted = m.get();
  }
  if (switch_to_promoted != nullptr) FailoverSwitchToPromotedSlave(switch_to_promoted);
}

// sentinelHandleRedisInstance.
void Sentinel::HandleInstance(Instance* ri) {
  Reconnect(ri);
  SendPeriodicCommands(ri);
  if (tilt) {
    if (Now() - tilt_start_time < timing.tilt_period) return;
    tilt = false;
    Event(3, "-tilt", nullptr, false, "#tilt mode exited");
  }
  CheckSubjectivelyDown(ri);
  if (ri->flags & kMaster) {
    CheckObjectivelyDown(ri);
    if (StartFailoverIfNeeded(ri)) AskMasterStateToOtherSentinels(ri, /*forced=*/true);
    FailoverStateMachine(ri);
    AskMasterStateToOtherSentinels(ri, /*forced=*/false);
  }
}

void Sentinel::Reconnect(Instance* ri) {
  if (!ri->disconnected || ri->port == 0) return;
  int64_t now = Now();
  if (now - ri->last_reconn_time < timing.ping_period) return;
  ri->last_reconn_time = now;
  // FAULT PARTITION between this sentinel's node and the instance holds both links.
  int own_port = static_cast<int>(engine_->config().port);
  auto on_closed = [this, ri](bool command_link) {
    // Redis's instanceLinkConnectionError: the other link closes too when the command link
    // fails; the instance is disconnected until both are made again.
    if (command_link) {
      ri->cc = nullptr;
    } else {
      ri->pc = nullptr;
    }
    ri->disconnected = true;
  };
  auto send_auth = [ri](InstanceLink* link) {
    if (ri->auth_pass.empty()) return;
    if (ri->auth_user.empty()) {
      link->Send({"AUTH", ri->auth_pass}, nullptr);
    } else {
      link->Send({"AUTH", ri->auth_user, ri->auth_pass}, nullptr);
    }
  };
  if (ri->cc == nullptr) {
    InstanceLink::Events ev;
    ev.on_closed = [on_closed] { on_closed(true); };
    ri->cc = InstanceLink::Start(loop_, ri->ip, ri->port, own_port, std::move(ev));
    if (ri->cc != nullptr) {
      ri->cc_conn_time = now;
      send_auth(ri->cc);
      ri->cc->Send({"CLIENT", "SETNAME", "sentinel-" + myid_.substr(0, 8) + "-cmd"}, nullptr);
      SendPing(ri);
    }
  }
  if ((ri->flags & (kMaster | kSlave)) && ri->pc == nullptr) {
    InstanceLink::Events ev;
    ev.on_closed = [on_closed] { on_closed(false); };
    ev.on_push = [this](const Reply& r) {
      if (r.elements.size() == 3 && r.elements[0].str == "message" &&
          r.elements[1].str == "__sentinel__:hello") {
        ProcessHello(r.elements[2].str);
      }
    };
    ri->pc = InstanceLink::Start(loop_, ri->ip, ri->port, own_port, std::move(ev));
    if (ri->pc != nullptr) {
      send_auth(ri->pc);
      ri->pc->Send({"CLIENT", "SETNAME", "sentinel-" + myid_.substr(0, 8) + "-pubsub"}, nullptr);
      ri->pc->Send({"SUBSCRIBE", "__sentinel__:hello"}, nullptr);
    }
  }
  if (ri->cc != nullptr && ((ri->flags & kSentinel) || ri->pc != nullptr)) {
    ri->disconnected = false;
  }
}

void Sentinel::SendPing(Instance* ri) {
  if (ri->cc == nullptr) return;
  ri->cc->Send({"PING"}, [this, ri](const Reply& r) {
    if (r.type == 0) return;
    int64_t now = Now();
    std::string_view s = r.str;
    if ((r.type == '+' && s == "PONG") ||
        (r.type == '-' && (s.rfind("LOADING", 0) == 0 || s.rfind("MASTERDOWN", 0) == 0))) {
      ri->last_avail_time = now;
      ri->act_ping_time = 0;
    }
    ri->last_pong_time = now;
  });
  ri->last_ping_time = Now();
  if (ri->act_ping_time == 0) ri->act_ping_time = ri->last_ping_time;
}

void Sentinel::SendPeriodicCommands(Instance* ri) {
  if (ri->disconnected || ri->cc == nullptr) return;
  if (ri->cc->pending() >= kMaxPendingCommands) return;
  int64_t now = Now();
  int64_t info_period = timing.info_period;
  if ((ri->flags & kSlave) &&
      ((ri->master->flags & (kODown | kFailoverInProgress)) || ri->master_link_down_time != 0)) {
    info_period = 1000;
  }
  int64_t ping_period = std::min(ri->down_after, timing.ping_period);
  if (!(ri->flags & kSentinel) && (ri->info_refresh == 0 || now - ri->info_refresh > info_period)) {
    ri->cc->Send({"INFO"}, [this, ri](const Reply& r) {
      if (r.type == '$' && !r.null) RefreshInfo(ri, r.str);
    });
  }
  if (now - ri->last_pong_time > ping_period && now - ri->last_ping_time > ping_period / 2) {
    SendPing(ri);
  }
  if (now - ri->last_pub_time > timing.publish_period) SendHello(ri);
}

// sentinelSendHello.
void Sentinel::SendHello(Instance* ri) {
  if (ri->disconnected || ri->cc == nullptr) return;
  Instance* master = (ri->flags & kMaster) ? ri : ri->master;
  std::string ip = settings.announce_ip.empty() ? ri->cc->LocalIp() : settings.announce_ip;
  if (ip.empty()) return;
  int64_t port = settings.announce_port ? settings.announce_port : engine_->config().port;
  const Instance& addr = CurrentMasterAddress(*master);
  std::string payload = ip + "," + std::to_string(port) + "," + myid_ + "," +
                        std::to_string(current_epoch_) + "," + master->name + "," + addr.ip + "," +
                        std::to_string(addr.port) + "," + std::to_string(master->config_epoch);
  ri->last_pub_time = Now();
  ri->cc->Send({"PUBLISH", "__sentinel__:hello", payload}, nullptr);
}

// sentinelProcessHelloMessage: a sentinel not known yet is added (+sentinel); a newer epoch is
// taken (+new-epoch).
void Sentinel::ProcessHello(const std::string& hello) {
  std::vector<std::string> t;
  size_t start = 0;
  while (true) {
    size_t comma = hello.find(',', start);
    t.push_back(
        hello.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (t.size() != 8 || t[2] == myid_) return;
  Instance* master = Master(t[4]);
  if (master == nullptr) return;
  int port = std::atoi(t[1].c_str());
  Instance* si = nullptr;
  auto it = master->sentinels.find(t[2]);
  if (it != master->sentinels.end() && it->second->ip == t[0] && it->second->port == port) {
    si = it->second.get();
  }
  if (si == nullptr) {
    bool removed = it != master->sentinels.end();
    if (removed) {
      CloseLink(it->second.get());
      master->sentinels.erase(it);
      Event(2, "+sentinel-address-switch", master, true,
            " ip " + t[0] + " port " + t[1] + " for " + t[2]);
    }
    auto s = NewInstance(kSentinel, t[2], t[0], port, master);
    s->runid = t[2];
    s->quorum = master->quorum;
    si = s.get();
    master->sentinels.emplace(t[2], std::move(s));
    if (!removed) Event(2, "+sentinel", si, true);
    FlushConfig();
  }
  uint64_t epoch = std::strtoull(t[3].c_str(), nullptr, 10);
  if (epoch > current_epoch_) {
    current_epoch_ = epoch;
    FlushConfig();
    Event(3, "+new-epoch", master, false, std::to_string(current_epoch_));
  }
  si->last_hello_time = Now();
  // A newer configuration of the master: another sentinel failed it over.
  uint64_t master_config_epoch = std::strtoull(t[7].c_str(), nullptr, 10);
  if (master->config_epoch < master_config_epoch) {
    master->config_epoch = master_config_epoch;
    int master_port = std::atoi(t[6].c_str());
    if (master_port != master->port || t[5] != master->ip) {
      Event(3, "+config-update-from", si, true);
      Event(3, "+switch-master", master, false,
            master->name + " " + master->ip + " " + std::to_string(master->port) + " " + t[5] +
                " " + t[6]);
      ResetMasterAndChangeAddress(master, t[5], master_port);
    }
  }
}

void Sentinel::CheckSubjectivelyDown(Instance* ri) {
  int64_t now = Now();
  int64_t elapsed = 0;
  if (ri->act_ping_time != 0) {
    elapsed = now - ri->act_ping_time;
  } else if (ri->disconnected) {
    elapsed = now - ri->last_avail_time;
  }
  // A command link with a ping unanswered for half the timeout is made again.
  if (ri->cc != nullptr && now - ri->cc_conn_time > timing.min_link_reconnect_period &&
      ri->act_ping_time != 0 && now - ri->act_ping_time > ri->down_after / 2 &&
      now - ri->last_pong_time > ri->down_after / 2) {
    CloseLink(ri);
  }
  bool down = elapsed > ri->down_after ||
              ((ri->flags & kMaster) && ri->role_reported == kSlave &&
               now - ri->role_reported_time > ri->down_after + timing.info_period * 2);
  if (down) {
    if (!(ri->flags & kSDown)) {
      Event(3, "+sdown", ri, true);
      ri->s_down_since_time = now;
      ri->flags |= kSDown;
    }
  } else if (ri->flags & kSDown) {
    ri->flags &= ~kSDown;
    Event(3, "-sdown", ri, true);
  }
}

void Sentinel::RefreshInfo(Instance* ri, const std::string& info) {
  ri->info = info;
  ri->master_link_down_time = 0;
  int role = 0;
  size_t pos = 0;
  while (pos < info.size()) {
    size_t end = info.find("\r\n", pos);
    if (end == std::string::npos) end = info.size();
    std::string l = info.substr(pos, end - pos);
    pos = end + 2;
    if (l.size() >= 47 && l.rfind("run_id:", 0) == 0) {
      std::string id = l.substr(7, 40);
      if (!ri->runid.empty() && ri->runid != id) Event(2, "+reboot", ri, true);
      ri->runid = id;
    }
    if ((ri->flags & kMaster) && l.size() >= 7 && l.rfind("slave", 0) == 0 &&
        std::isdigit(static_cast<unsigned char>(l[5]))) {
      size_t ip = l.find("ip="), port = l.find("port=");
      if (ip == std::string::npos || port == std::string::npos) continue;
      std::string ip_s = l.substr(ip + 3, l.find(',', ip) - ip - 3);
      std::string port_s = l.substr(port + 5, l.find(',', port) - port - 5);
      if (Instance* s = AddSlave(ri, ip_s, std::atoi(port_s.c_str()))) {
        Event(2, "+slave", s, true);
        FlushConfig();
      }
    }
    if (l.size() >= 32 && l.rfind("master_link_down_since_seconds", 0) == 0) {
      ri->master_link_down_time = std::strtoll(l.c_str() + 31, nullptr, 10) * 1000;
    }
    if (l.rfind("role:master", 0) == 0) role = kMaster;
    if (l.rfind("role:slave", 0) == 0) role = kSlave;
    if (role == kSlave) {
      if (l.rfind("master_host:", 0) == 0 &&
          !EqualsIgnoreCase(ri->slave_master_host, l.substr(12))) {
        ri->slave_master_host = l.substr(12);
        ri->slave_conf_change_time = Now();
      }
      if (l.rfind("master_port:", 0) == 0 && ri->slave_master_port != std::atoi(l.c_str() + 12)) {
        ri->slave_master_port = std::atoi(l.c_str() + 12);
        ri->slave_conf_change_time = Now();
      }
      if (l.rfind("master_link_status:", 0) == 0) ri->master_link_up = l.substr(19) == "up";
      if (l.rfind("slave_priority:", 0) == 0) ri->slave_priority = std::atoi(l.c_str() + 15);
      if (l.rfind("slave_repl_offset:", 0) == 0) {
        ri->slave_repl_offset = std::strtoll(l.c_str() + 18, nullptr, 10);
      }
      if (l.rfind("replica_announced:", 0) == 0) {
        ri->replica_announced = std::atoi(l.c_str() + 18);
      }
    }
  }
  ri->info_refresh = Now();
  if (role != ri->role_reported) {
    ri->role_reported_time = Now();
    ri->role_reported = role;
    if (role == kSlave) ri->slave_conf_change_time = Now();
    bool coherent = static_cast<int>(ri->flags & (kMaster | kSlave)) == role;
    Event(1, coherent ? "+role-change" : "-role-change", ri, true,
          std::string(" new reported role is ") + (role == kMaster ? "master" : "slave"));
  }
  ActOnInfo(ri, role);
}

}  // namespace redlab::server::sentinel
