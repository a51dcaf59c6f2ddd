// Redis 7.0.15's src/sentinel.c: the failover (sentinelStartFailover(IfNeeded), the state machine
// sentinelFailoverWaitStart .. sentinelFailoverSwitchToPromotedSlave, sentinelAbortFailover,
// sentinelSendSlaveOf's transaction), the acting half of sentinelRefreshInstanceInfo (promotion
// seen, replicas reconfigured, +convert-to-slave, +fix-slave-config), the master's switch to a
// new address (sentinelResetMasterAndChangeAddress) and TILT mode.
#include <cstdlib>
#include <iterator>

#include "server/base/text.h"
#include "server/sentinel/sentinel.h"

namespace redlab::server::sentinel {

constexpr int64_t kMaxDesync = 1000;  // SENTINEL_MAX_DESYNC

const char* FailoverStateName(FailoverState s) {
  static constexpr const char* kNames[] = {
      "none",           "wait_start",    "select_slave", "send_slaveof_noone",
      "wait_promotion", "reconf_slaves", "update_config"};
  static_assert(std::size(kNames) == static_cast<size_t>(FailoverState::kUpdateConfig) + 1);
  return EnumName(kNames, s, "unknown");
}

// sentinelCheckTiltCondition: the timer ran backwards or more than tilt-trigger late (the
// process stalled, the clock jumped): for tilt-period the sentinel watches but does not act.
void Sentinel::CheckTiltCondition() {
  int64_t now = Now();
  int64_t delta = now - previous_time;
  if (previous_time != 0 && (delta < 0 || delta > timing.tilt_trigger)) {
    tilt = true;
    tilt_start_time = now;
    Event(3, "+tilt", nullptr, false, "#tilt mode entered");
  }
  previous_time = now;
}

const Instance& Sentinel::CurrentMasterAddress(const Instance& master) const {
  if ((master.flags & kFailoverInProgress) && master.promoted_slave != nullptr &&
      master.failover_state >= FailoverState::kReconfSlaves) {
    return *master.promoted_slave;
  }
  return master;
}

bool Sentinel::MasterLooksSane(const Instance* master) const {
  return (master->flags & kMaster) && master->role_reported == kMaster &&
         !(master->flags & (kSDown | kODown)) &&
         Now() - master->info_refresh < timing.info_period * 2;
}

bool Sentinel::NoDownFor(const Instance* ri, int64_t ms) const {
  int64_t most_recent = std::max(ri->s_down_since_time, ri->o_down_since_time);
  return most_recent == 0 || Now() - most_recent > ms;
}

void Sentinel::ForceHelloUpdate(Instance* master) {
  auto force = [&](Instance* ri) {
    if (ri->last_pub_time >= timing.publish_period + 1) {
      ri->last_pub_time -= timing.publish_period + 1;
    }
  };
  force(master);
  for (auto& [_, s] : master->sentinels) force(s.get());
  for (auto& [_, s] : master->slaves) force(s.get());
}

void Sentinel::SimFailureCrash() {
  if (engine_->host() != nullptr) {
    engine_->host()->Log(3, "Sentinel CRASH because of SENTINEL simulate-failure");
  }
  if (auto* host = dynamic_cast<SentinelHost*>(engine_->host())) host->SimulateCrash();
}

void Sentinel::StartFailover(Instance* master) {
  master->failover_state = FailoverState::kWaitStart;
  master->flags |= kFailoverInProgress;
  master->failover_epoch = ++current_epoch_;
  Event(3, "+new-epoch", master, false, std::to_string(current_epoch_));
  Event(3, "+try-failover", master, true);
  master->failover_start_time = Now() + std::rand() % kMaxDesync;
  master->failover_state_change_time = Now();
}

bool Sentinel::StartFailoverIfNeeded(Instance* master) {
  if (!(master->flags & kODown)) return false;
  if (master->flags & kFailoverInProgress) return false;
  if (Now() - master->failover_start_time < master->failover_timeout * 2) return false;
  StartFailover(master);
  return true;
}

void Sentinel::FailoverStateMachine(Instance* master) {
  if (!(master->flags & kFailoverInProgress)) return;
  switch (master->failover_state) {
    case FailoverState::kWaitStart:
      FailoverWaitStart(master);
      break;
    case FailoverState::kSelectSlave:
      FailoverSelectSlave(master);
      break;
    case FailoverState::kSendSlaveofNoone:
      FailoverSendSlaveOfNoOne(master);
      break;
    case FailoverState::kWaitPromotion:
      if (Now() - master->failover_state_change_time > master->failover_timeout) {
        Event(3, "-failover-abort-slave-timeout", master, true);
        AbortFailover(master);
      }
      break;
    case FailoverState::kReconfSlaves:
      FailoverReconfNextSlave(master);
      break;
    default:
      break;
  }
}

void Sentinel::FailoverWaitStart(Instance* master) {
  std::string leader = GetLeader(master, master->failover_epoch);
  bool isleader = !leader.empty() && EqualsIgnoreCase(leader, myid_);
  if (!isleader && !(master->flags & kForceFailover)) {
    int64_t election_timeout = std::min(timing.election_timeout, master->failover_timeout);
    if (Now() - master->failover_start_time > election_timeout) {
      Event(3, "-failover-abort-not-elected", master, true);
      AbortFailover(master);
    }
    return;
  }
  Event(3, "+elected-leader", master, true);
  if (simfailure_flags & 1) return SimFailureCrash();  // CRASH-AFTER-ELECTION
  master->failover_state = FailoverState::kSelectSlave;
  master->failover_state_change_time = Now();
  Event(3, "+failover-state-select-slave", master, true);
}

void Sentinel::FailoverSelectSlave(Instance* master) {
  Instance* slave = SelectSlave(*master, Now(), timing);
  if (slave == nullptr) {
    Event(3, "-failover-abort-no-good-slave", master, true);
    AbortFailover(master);
    return;
  }
  Event(3, "+selected-slave", slave, true);
  slave->flags |= kPromoted;
  master->promoted_slave = slave;
  master->failover_state = FailoverState::kSendSlaveofNoone;
  master->failover_state_change_time = Now();
  Event(2, "+failover-state-send-slaveof-noone", slave, true);
}

void Sentinel::FailoverSendSlaveOfNoOne(Instance* master) {
  Instance* slave = master->promoted_slave;
  if (slave->disconnected || slave->cc == nullptr) {
    if (Now() - master->failover_state_change_time > master->failover_timeout) {
      Event(3, "-failover-abort-slave-timeout", master, true);
      AbortFailover(master);
    }
    return;
  }
  if (!SendSlaveOf(slave, nullptr)) return;
  Event(2, "+failover-state-wait-promotion", slave, true);
  master->failover_state = FailoverState::kWaitPromotion;
  master->failover_state_change_time = Now();
}

// sentinelFailoverReconfNextSlave: REPLICAOF <promoted> to the other replicas, parallel-syncs at
// a time.
void Sentinel::FailoverReconfNextSlave(Instance* master) {
  int in_progress = 0;
  for (auto& [_, s] : master->slaves) {
    if (s->flags & (kReconfSent | kReconfInprog)) ++in_progress;
  }
  int64_t now = Now();
  for (auto& [_, s] : master->slaves) {
    if (in_progress >= master->parallel_syncs) break;
    Instance* slave = s.get();
    if (slave->flags & (kPromoted | kReconfDone)) continue;
    if ((slave->flags & kReconfSent) &&
        now - slave->slave_reconf_sent_time > timing.slave_reconf_timeout) {
      Event(2, "-slave-reconf-sent-timeout", slave, true);
      slave->flags &= ~kReconfSent;
      slave->flags |= kReconfDone;
    }
    if (slave->flags & (kReconfSent | kReconfInprog)) continue;
    if (slave->disconnected || slave->cc == nullptr) continue;
    if (SendSlaveOf(slave, master->promoted_slave)) {
      slave->flags |= kReconfSent;
      slave->slave_reconf_sent_time = now;
      Event(2, "+slave-reconf-sent", slave, true);
      ++in_progress;
    }
  }
  FailoverDetectEnd(master);
}

void Sentinel::FailoverDetectEnd(Instance* master) {
  if (master->promoted_slave == nullptr || (master->promoted_slave->flags & kSDown)) return;
  int not_reconfigured = 0;
  for (auto& [_, s] : master->slaves) {
    if (s->flags & (kPromoted | kReconfDone)) continue;
    if (s->flags & kSDown) continue;
    ++not_reconfigured;
  }
  bool timeout = false;
  if (Now() - master->failover_state_change_time > master->failover_timeout) {
    not_reconfigured = 0;
    timeout = true;
    Event(3, "+failover-end-for-timeout", master, true);
  }
  if (not_reconfigured == 0) {
    Event(3, "+failover-end", master, true);
    master->failover_state = FailoverState::kUpdateConfig;
    master->failover_state_change_time = Now();
  }
  if (timeout) {
    // Best effort: the replicas not reconfigured yet are told anyway.
    for (auto& [_, s] : master->slaves) {
      Instance* slave = s.get();
      if (slave->flags & (kPromoted | kReconfDone | kReconfSent)) continue;
      if (slave->disconnected || slave->cc == nullptr) continue;
      if (SendSlaveOf(slave, master->promoted_slave)) {
        Event(2, "+slave-reconf-sent-be", slave, true);
        slave->flags |= kReconfSent;
      }
    }
  }
}

void Sentinel::FailoverSwitchToPromotedSlave(Instance* master) {
  const Instance& ref = master->promoted_slave ? *master->promoted_slave : *master;
  std::string ip = ref.ip;
  int port = ref.port;
  Event(3, "+switch-master", master, false,
        master->name + " " + master->ip + " " + std::to_string(master->port) + " " + ip + " " +
            std::to_string(port));
  ResetMasterAndChangeAddress(master, ip, port);
}

void Sentinel::AbortFailover(Instance* master) {
  master->flags &= ~(kFailoverInProgress | kForceFailover);
  master->failover_state = FailoverState::kNone;
  master->failover_state_change_time = Now();
  if (master->promoted_slave != nullptr) {
    master->promoted_slave->flags &= ~kPromoted;
    master->promoted_slave = nullptr;
  }
}

// sentinelSendSlaveOf: MULTI, REPLICAOF host port (or NO ONE), CONFIG REWRITE, CLIENT KILL TYPE
// normal and pubsub, EXEC; the replies are not looked at (the next INFO tells).
bool Sentinel::SendSlaveOf(Instance* ri, const Instance* to) {
  if (ri->cc == nullptr) return false;
  std::string host = to ? to->ip : "NO";
  std::string port = to ? std::to_string(to->port) : "ONE";
  ri->cc->Send({"MULTI"}, nullptr);
  ri->cc->Send({"SLAVEOF", host, port}, nullptr);
  ri->cc->Send({"CONFIG", "REWRITE"}, nullptr);
  ri->cc->Send({"CLIENT", "KILL", "TYPE", "normal"}, nullptr);
  ri->cc->Send({"CLIENT", "KILL", "TYPE", "pubsub"}, nullptr);
  ri->cc->Send({"EXEC"}, nullptr);
  return true;
}

// sentinelResetMasterAndChangeAddress: the master takes the new address; its replicas (but the
// one at that address) and the old address come back as its replicas.
void Sentinel::ResetMasterAndChangeAddress(Instance* master, const std::string& ip, int port) {
  std::vector<std::pair<std::string, int>> slaves;
  for (auto& [_, s] : master->slaves) {
    if (s->ip == ip && s->port == port) continue;
    slaves.emplace_back(s->ip, s->port);
  }
  if (ip != master->ip || port != master->port) slaves.emplace_back(master->ip, master->port);
  ResetMaster(master, /*keep_sentinels=*/true);
  master->ip = ip;
  master->port = port;
  master->o_down_since_time = 0;
  master->s_down_since_time = 0;
  for (const auto& [sip, sport] : slaves) {
    if (Instance* slave = AddSlave(master, sip, sport)) Event(2, "+slave", slave, true);
  }
  FlushConfig();
}

void Sentinel::ActOnInfo(Instance* ri, int role) {
  if (tilt) return;
  Instance* master = ri->master;
  // A replica turned master: the one this failover promoted, or one to turn back.
  if ((ri->flags & kSlave) && role == kMaster) {
    if ((ri->flags & kPromoted) && (master->flags & kFailoverInProgress) &&
        master->failover_state == FailoverState::kWaitPromotion) {
      master->config_epoch = master->failover_epoch;
      master->failover_state = FailoverState::kReconfSlaves;
      master->failover_state_change_time = Now();
      FlushConfig();
      Event(3, "+promoted-slave", ri, true);
      if (simfailure_flags & 2) return SimFailureCrash();  // CRASH-AFTER-PROMOTION
      Event(3, "+failover-state-reconf-slaves", master, true);
      ForceHelloUpdate(master);
    } else {
      int64_t wait_time = timing.publish_period * 4;
      if (!(ri->flags & kPromoted) && MasterLooksSane(master) && NoDownFor(ri, wait_time) &&
          Now() - ri->role_reported_time > wait_time) {
        if (SendSlaveOf(ri, master)) Event(2, "+convert-to-slave", ri, true);
      }
    }
  }
  // A replica of another address than its master's.
  if ((ri->flags & kSlave) && role == kSlave &&
      (ri->slave_master_port != master->port ||
       !EqualsIgnoreCase(ri->slave_master_host, master->ip))) {
    int64_t wait_time = master->failover_timeout;
    if (MasterLooksSane(master) && NoDownFor(ri, wait_time) &&
        Now() - ri->slave_conf_change_time > wait_time) {
      if (SendSlaveOf(ri, master)) Event(2, "+fix-slave-config", ri, true);
    }
  }
  // A replica being reconfigured by this failover.
  if ((ri->flags & kSlave) && role == kSlave && (ri->flags & (kReconfSent | kReconfInprog)) &&
      master->promoted_slave != nullptr) {
    if ((ri->flags & kReconfSent) && !ri->slave_master_host.empty() &&
        EqualsIgnoreCase(ri->slave_master_host, master->promoted_slave->ip) &&
        ri->slave_master_port == master->promoted_slave->port) {
      ri->flags &= ~kReconfSent;
      ri->flags |= kReconfInprog;
      Event(2, "+slave-reconf-inprog", ri, true);
    }
    if ((ri->flags & kReconfInprog) && ri->master_link_up) {
      ri->flags &= ~kReconfInprog;
      ri->flags |= kReconfDone;
      Event(2, "+slave-reconf-done", ri, true);
    }
  }
}

}  // namespace redlab::server::sentinel
