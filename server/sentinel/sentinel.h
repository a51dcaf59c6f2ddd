// Redis Sentinel (Redis 7.0.15's src/sentinel.c): the monitored masters, their replicas and the
// other sentinels, and the timer that watches them over real connections (PING every second,
// INFO every 10 s, replicas discovered from the master's INFO, SDOWN after
// down-after-milliseconds without a valid reply). Events go to the node's own pub/sub channels
// (+sdown, +slave, ...) as Sentinel publishes them. Runs on the node's loop thread.
#pragma once

#include <uv.h>

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "server/engine/core/engine.h"
#include "server/sentinel/instance_link.h"

namespace redlab::server::sentinel {

// Redis's SRI_* flags.
enum InstanceFlag : uint32_t {
  kMaster = 1u << 0,
  kSlave = 1u << 1,
  kSentinel = 1u << 2,
  kSDown = 1u << 3,
  kODown = 1u << 4,
  kMasterDown = 1u << 5,          // a sentinel that says the master is down
  kFailoverInProgress = 1u << 6,  // a master being failed over
  kPromoted = 1u << 7,            // the replica chosen for promotion
  kReconfSent = 1u << 8,          // REPLICAOF <new master> sent
  kReconfInprog = 1u << 9,        // the replica syncs with the new master
  kReconfDone = 1u << 10,         // the replica's link to the new master is up
  kForceFailover = 1u << 11,      // SENTINEL FAILOVER: no agreement needed
};

// Redis's SENTINEL_FAILOVER_STATE_*.
enum class FailoverState {
  kNone,
  kWaitStart,
  kSelectSlave,
  kSendSlaveofNoone,
  kWaitPromotion,
  kReconfSlaves,
  kUpdateConfig,
};
const char* FailoverStateName(FailoverState s);

// Sentinel's time parameters (SENTINEL DEBUG sets them), in milliseconds.
struct Timing {
  int64_t info_period = 10000;
  int64_t ping_period = 1000;
  int64_t ask_period = 1000;
  int64_t publish_period = 2000;
  int64_t default_down_after = 30000;
  int64_t tilt_trigger = 2000;
  int64_t tilt_period = 30000;
  int64_t slave_reconf_timeout = 10000;
  int64_t min_link_reconnect_period = 15000;
  int64_t election_timeout = 10000;
  int64_t script_max_runtime = 60000;
  int64_t script_retry_delay = 30000;
  int64_t default_failover_timeout = 180000;
};

struct Instance {
  uint32_t flags = 0;
  std::string name;  // a master's name; "ip:port" for the others
  std::string ip;
  int port = 0;
  std::string runid;
  int quorum = 0;
  int64_t down_after = 30000;
  int64_t failover_timeout = 180000;
  int parallel_syncs = 1;
  std::string auth_pass, auth_user;
  uint64_t config_epoch = 0;
  // A master: whom this sentinel voted for in leader_epoch; a sentinel: whom it voted for.
  std::string leader;
  uint64_t leader_epoch = 0;
  int64_t failover_start_time = 0;
  // The failover of a master.
  FailoverState failover_state = FailoverState::kNone;
  uint64_t failover_epoch = 0;
  int64_t failover_state_change_time = 0;
  int64_t o_down_since_time = 0;
  Instance* promoted_slave = nullptr;
  // A sentinel: when it last answered IS-MASTER-DOWN-BY-ADDR.
  int64_t last_master_down_reply_time = 0;
  // A replica: when its master address last changed, when REPLICAOF was sent for a failover.
  int64_t slave_conf_change_time = 0;
  int64_t slave_reconf_sent_time = 0;
  // The links (instanceLink).
  InstanceLink* cc = nullptr;  // commands
  InstanceLink* pc = nullptr;  // pub/sub (masters and replicas)
  bool disconnected = true;
  int64_t cc_conn_time = 0;
  int64_t last_reconn_time = 0;
  int64_t act_ping_time = 0;
  int64_t last_ping_time = 0;
  int64_t last_pong_time = 0;
  int64_t last_avail_time = 0;
  int64_t s_down_since_time = 0;
  int64_t info_refresh = 0;
  int64_t last_pub_time = 0;    // our last hello through this instance
  int64_t last_hello_time = 0;  // a sentinel's last hello to us
  std::string info;
  int role_reported = 0;  // kMaster or kSlave
  int64_t role_reported_time = 0;
  // Replicas, from their INFO.
  int64_t master_link_down_time = 0;
  bool master_link_up = false;
  std::string slave_master_host;
  int slave_master_port = 0;
  int slave_priority = 100;
  int64_t slave_repl_offset = 0;
  int replica_announced = 1;
  Instance* master = nullptr;
  std::map<std::string, std::unique_ptr<Instance>> slaves;     // by "ip:port"
  std::map<std::string, std::unique_ptr<Instance>> sentinels;  // by "ip:port"
};

class Sentinel {
 public:
  Sentinel(engine::Engine* engine, uv_loop_t* loop);
  ~Sentinel();

  // A sentinel.conf directive after "sentinel" ("monitor mymaster 127.0.0.1 6379 2"); an error
  // text as Redis's config loader gives it, or nullopt.
  std::optional<std::string> Configure(const std::vector<std::string>& words);
  // After the configuration: the +monitor events and the first connections.
  void Start();
  // sentinelTimer, every 100 ms of the loop.
  void Timer();
  // Closes every link (the node stops or crashes).
  void CloseLinks();

  const std::string& myid() const { return myid_; }
  uint64_t current_epoch() const { return current_epoch_; }
  std::map<std::string, std::unique_ptr<Instance>>& masters() { return masters_; }
  Instance* Master(std::string_view name);
  engine::Engine& engine() { return *engine_; }
  int64_t Now() const;
  uint32_t simfailure_flags = 0;
  Timing timing;
  // TILT mode.
  bool tilt = false;
  int64_t tilt_start_time = 0;
  int64_t previous_time = 0;
  // The file a sentinel started from (rewritten as Redis's sentinelFlushConfig does); "" for
  // none (the in-process sentinels of a topology).
  std::string config_file;
  // SENTINEL CONFIG's global parameters.
  struct Settings {
    bool resolve_hostnames = false;
    bool announce_hostnames = false;
    std::string announce_ip;
    int64_t announce_port = 0;
    std::string sentinel_user, sentinel_pass;
  } settings;

  // SENTINEL MONITOR: nullptr after setting `error` (Redis's sentinelCheckCreateInstanceErrors).
  Instance* AddMaster(const std::string& name, const std::string& ip, int port, int quorum,
                      std::string* error);
  void RemoveMaster(const std::string& name);
  // SENTINEL RESET: forgets replicas, sentinels and state of the masters matching `pattern`.
  int ResetMatching(std::string_view pattern);
  // Redis's sentinelEvent: publishes "<type> <msg>" (and logs it); `ri` may be null; with
  // `at` the message starts with the instance's "%@" description.
  // A hello message ("ip,port,runid,current_epoch,master_name,master_ip,master_port,
  // master_config_epoch"), from a monitored node's __sentinel__:hello or a sentinel's PUBLISH.
  void ProcessHello(const std::string& hello);
  // sentinelVoteLeader: votes for `runid` in `epoch` unless this sentinel already voted in it;
  // returns the vote held for the master ("" when none) and its epoch.
  std::string VoteLeader(Instance* master, uint64_t epoch, const std::string& runid,
                         uint64_t* leader_epoch);
  void Event(int level, const std::string& type, const Instance* ri, bool at,
             const std::string& rest = {});
  // sentinelSimFailureCrash.
  void SimFailureCrash();
  // sentinelStartFailover (SENTINEL FAILOVER forces it).
  void StartFailover(Instance* master);
  // sentinelGetCurrentMasterAddress: the promoted replica once it took the role.
  const Instance& CurrentMasterAddress(const Instance& master) const;
  // sentinelFlushConfig: rewrites config_file (when there is one) with the sentinel's state;
  // false when it could not be written.
  bool FlushConfig();
  // The `sentinel ...` lines Redis's rewriteConfigSentinelOption writes.
  std::vector<std::string> ConfigLines() const;

 private:
  void HandleInstance(Instance* ri);
  void Reconnect(Instance* ri);
  void CloseLink(Instance* ri);
  void SendPeriodicCommands(Instance* ri);
  void SendPing(Instance* ri);
  void SendHello(Instance* ri);
  void CheckSubjectivelyDown(Instance* ri);
  void RefreshInfo(Instance* ri, const std::string& info);
  void ResetMaster(Instance* master, bool keep_sentinels = false);
  // election.cc
  void CheckObjectivelyDown(Instance* master);
  void AskMasterStateToOtherSentinels(Instance* master, bool forced);
  std::string GetLeader(Instance* master, uint64_t epoch);
  // failover.cc
  void CheckTiltCondition();
  bool StartFailoverIfNeeded(Instance* master);
  void FailoverStateMachine(Instance* master);
  void FailoverWaitStart(Instance* master);
  void FailoverSelectSlave(Instance* master);
  void FailoverSendSlaveOfNoOne(Instance* master);
  void FailoverReconfNextSlave(Instance* master);
  void FailoverDetectEnd(Instance* master);
  void FailoverSwitchToPromotedSlave(Instance* master);
  void AbortFailover(Instance* master);
  bool SendSlaveOf(Instance* ri, const Instance* to);
  void ResetMasterAndChangeAddress(Instance* master, const std::string& ip, int port);
  // The acting half of sentinelRefreshInstanceInfo, after an INFO reply.
  void ActOnInfo(Instance* ri, int role);
  bool MasterLooksSane(const Instance* master) const;
  bool NoDownFor(const Instance* ri, int64_t ms) const;
  void ForceHelloUpdate(Instance* master);
  Instance* AddSlave(Instance* master, const std::string& ip, int port);
  // createSentinelRedisInstance's common part: an instance of kind `flags` at ip:port named
  // `name`, of `master` (nullptr for a master itself) whose down-after period it takes, seen
  // just now (its last pong, availability and ping times).
  std::unique_ptr<Instance> NewInstance(uint32_t flags, const std::string& name,
                                        const std::string& ip, int port, Instance* master) const;

  engine::Engine* engine_;
  uv_loop_t* loop_;
  std::string myid_;
  bool myid_configured_ = false;
  uint64_t current_epoch_ = 0;
  std::map<std::string, std::unique_ptr<Instance>> masters_;
};

// sentinelSelectSlave: the replica to promote (none S/ODOWN, disconnected, silent for 5 pings,
// of priority 0 or with stale INFO), the lowest priority, then the largest offset, then the
// smallest run id; nullptr when none fits.
Instance* SelectSlave(const Instance& master, int64_t now, const Timing& timing);
// compareSlavesForPromotion: whether `a` is a better choice than `b`.
bool BetterForPromotion(const Instance& a, const Instance& b);
// The count of sentinelGetLeader: `votes` are the other sentinels' votes in this epoch ("" for
// none); `vote` casts this sentinel's vote for the most voted candidate (or itself when there is
// none) and returns whom it voted for in this epoch ("" when it holds no vote in it). The winner
// needs a majority of `voters` and at least `quorum` votes; "" when none.
std::string CountLeader(const std::vector<std::string>& votes,
                        const std::function<std::string(const std::string&)>& vote,
                        size_t voters, int quorum);

// What a sentinel node's host gives its commands: the Sentinel beside the engine (a Redis
// node's host has none).
class SentinelHost : public engine::EngineHost {
 public:
  virtual Sentinel* sentinel() { return nullptr; }
  // SENTINEL SIMULATE-FAILURE's crash (Redis exits with 99): the node dies as by FAULT CRASH.
  virtual void SimulateCrash() {}
};
inline Sentinel* SentinelOf(engine::Engine& engine) {
  auto* host = dynamic_cast<SentinelHost*>(engine.host());
  return host == nullptr ? nullptr : host->sentinel();
}

// The sentinel's command table (Redis 7.0's commands flagged SENTINEL, with sentinel.c's own
// INFO, ROLE and PUBLISH, and SENTINEL): a CommandTable::Registrar.
void RegisterSentinelCommands(CommandTable& table);

}  // namespace redlab::server::sentinel
