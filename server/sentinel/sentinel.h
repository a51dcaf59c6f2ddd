// Redis Sentinel (Redis 7.0.15's src/sentinel.c): the monitored masters, their replicas and the
// other sentinels, and the timer that watches them over real connections (PING every second,
// INFO every 10 s, replicas discovered from the master's INFO, SDOWN after
// down-after-milliseconds without a valid reply). Events go to the node's own pub/sub channels
// (+sdown, +slave, ...) as Sentinel publishes them. Runs on the node's loop thread.
#pragma once

#include <uv.h>

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
  std::string leader;  // a master: whom this sentinel voted for in leader_epoch
  uint64_t leader_epoch = 0;
  int64_t failover_start_time = 0;
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

 private:
  void HandleInstance(Instance* ri);
  void Reconnect(Instance* ri);
  void CloseLink(Instance* ri);
  void SendPeriodicCommands(Instance* ri);
  void SendPing(Instance* ri);
  void SendHello(Instance* ri);
  void CheckSubjectivelyDown(Instance* ri);
  void RefreshInfo(Instance* ri, const std::string& info);
  void ResetMaster(Instance* master);

  engine::Engine* engine_;
  uv_loop_t* loop_;
  std::string myid_;
  uint64_t current_epoch_ = 0;
  std::map<std::string, std::unique_ptr<Instance>> masters_;
};

// What a sentinel node's host gives its commands: the Sentinel beside the engine (a Redis
// node's host has none).
class SentinelHost : public engine::EngineHost {
 public:
  virtual Sentinel* sentinel() { return nullptr; }
};
inline Sentinel* SentinelOf(engine::Engine& engine) {
  auto* host = dynamic_cast<SentinelHost*>(engine.host());
  return host == nullptr ? nullptr : host->sentinel();
}

// The sentinel's command table (Redis 7.0's commands flagged SENTINEL, with sentinel.c's own
// INFO, ROLE and PUBLISH, and SENTINEL): a CommandTable::Registrar.
void RegisterSentinelCommands(CommandTable& table);

}  // namespace redlab::server::sentinel
