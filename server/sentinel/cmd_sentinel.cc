// Redis 7.0.15's sentinel.c commands: SENTINEL and its subcommands, and sentinel mode's INFO,
// ROLE and PUBLISH; the rest of a sentinel's table is Redis's own commands flagged SENTINEL
// (AUTH, CLIENT, COMMAND, HELLO, PING, the (P)(UN)SUBSCRIBE family, SHUTDOWN, ACL).
#include <arpa/inet.h>

#include <set>

#include "server/base/glob.h"
#include "server/base/numbers.h"
#include "server/base/text.h"
#include "server/engine/commands/families.h"
#include "server/engine/core/context.h"
#include "server/engine/core/help.h"
#include "server/engine/stats/info.h"
#include "server/sentinel/cmd_sentinel.h"
#include "server/sentinel/sentinel.h"

namespace redlab::server::sentinel {
namespace {

using engine::CommandContext;

constexpr std::string_view kSentinelHelp[] = {
    "CKQUORUM <master-name>",
    "    Check if the current Sentinel configuration is able to reach the quorum",
    "    needed to failover a master and the majority needed to authorize the",
    "    failover.",
    "CONFIG SET <param> <value>",
    "    Set a global Sentinel configuration parameter.",
    "CONFIG GET <param>",
    "    Get global Sentinel configuration parameter.",
    "DEBUG [<param> <value> ...]",
    "    Show a list of configurable time parameters and their values (milliseconds).",
    "    Or update current configurable parameters values (one or more).",
    "GET-MASTER-ADDR-BY-NAME <master-name>",
    "    Return the ip and port number of the master with that name.",
    "FAILOVER <master-name>",
    "    Manually failover a master node without asking for agreement from other",
    "    Sentinels",
    "FLUSHCONFIG",
    "    Force Sentinel to rewrite its configuration on disk, including the current",
    "    Sentinel state.",
    "INFO-CACHE <master-name>",
    "    Return last cached INFO output from masters and all its replicas.",
    "IS-MASTER-DOWN-BY-ADDR <ip> <port> <current-epoch> <runid>",
    "    Check if the master specified by ip:port is down from current Sentinel's",
    "    point of view.",
    "MASTER <master-name>",
    "    Show the state and info of the specified master.",
    "MASTERS",
    "    Show a list of monitored masters and their state.",
    "MONITOR <name> <ip> <port> <quorum>",
    "    Start monitoring a new master with the specified name, ip, port and quorum.",
    "MYID",
    "    Return the ID of the Sentinel instance.",
    "PENDING-SCRIPTS",
    "    Get pending scripts information.",
    "REMOVE <master-name>",
    "    Remove master from Sentinel's monitor list.",
    "REPLICAS <master-name>",
    "    Show a list of replicas for this master and their state.",
    "RESET <pattern>",
    "    Reset masters for specific master name matching this pattern.",
    "SENTINELS <master-name>",
    "    Show a list of Sentinel instances for this master and their state.",
    "SET <master-name> <option> <value> [<option> <value> ...]",
    "    Set configuration parameters for certain masters.",
    "SIMULATE-FAILURE [CRASH-AFTER-ELECTION] [CRASH-AFTER-PROMOTION] [HELP]",
    "    Simulate a Sentinel crash.",
};

Sentinel& S(CommandContext& ctx) { return *SentinelOf(ctx.engine()); }

Instance* MasterOrReply(CommandContext& ctx, const std::string& name) {
  Instance* ri = S(ctx).Master(name);
  if (ri == nullptr) ctx.ReplyError("No such master with that name");
  return ri;
}

// addReplySentinelRedisInstance.
void ReplyInstance(CommandContext& ctx, Sentinel& s, const Instance& ri) {
  resp::ReplyWriter& r = ctx.reply();
  int64_t now = s.Now();
  std::vector<std::pair<std::string, std::string>> f;
  auto num = [](int64_t v) { return std::to_string(v); };
  f.emplace_back("name", ri.name);
  f.emplace_back("ip", ri.ip);
  f.emplace_back("port", num(ri.port));
  f.emplace_back("runid", ri.runid);
  std::string flags;
  if (ri.flags & kSDown) flags += "s_down,";
  if (ri.flags & kODown) flags += "o_down,";
  if (ri.flags & kMaster) flags += "master,";
  if (ri.flags & kSlave) flags += "slave,";
  if (ri.flags & kSentinel) flags += "sentinel,";
  if (ri.disconnected) flags += "disconnected,";
  if (ri.flags & kMasterDown) flags += "master_down,";
  if (ri.flags & kFailoverInProgress) flags += "failover_in_progress,";
  if (ri.flags & kPromoted) flags += "promoted,";
  if (ri.flags & kReconfSent) flags += "reconf_sent,";
  if (ri.flags & kReconfInprog) flags += "reconf_inprog,";
  if (ri.flags & kReconfDone) flags += "reconf_done,";
  if (ri.flags & kForceFailover) flags += "force_failover,";
  if (!flags.empty()) flags.pop_back();
  f.emplace_back("flags", flags);
  f.emplace_back("link-pending-commands", num(ri.cc ? static_cast<int64_t>(ri.cc->pending()) : 0));
  f.emplace_back("link-refcount", "1");
  if (ri.flags & kFailoverInProgress) {
    f.emplace_back("failover-state", FailoverStateName(ri.failover_state));
  }
  f.emplace_back("last-ping-sent", num(ri.act_ping_time ? now - ri.act_ping_time : 0));
  f.emplace_back("last-ok-ping-reply", num(now - ri.last_avail_time));
  f.emplace_back("last-ping-reply", num(now - ri.last_pong_time));
  if (ri.flags & kSDown) f.emplace_back("s-down-time", num(now - ri.s_down_since_time));
  if (ri.flags & kODown) f.emplace_back("o-down-time", num(now - ri.o_down_since_time));
  f.emplace_back("down-after-milliseconds", num(ri.down_after));
  if (ri.flags & (kMaster | kSlave)) {
    f.emplace_back("info-refresh", num(ri.info_refresh ? now - ri.info_refresh : 0));
    f.emplace_back("role-reported", ri.role_reported == kMaster ? "master" : "slave");
    f.emplace_back("role-reported-time", num(now - ri.role_reported_time));
  }
  if (ri.flags & kMaster) {
    f.emplace_back("config-epoch", num(static_cast<int64_t>(ri.config_epoch)));
    f.emplace_back("num-slaves", num(static_cast<int64_t>(ri.slaves.size())));
    f.emplace_back("num-other-sentinels", num(static_cast<int64_t>(ri.sentinels.size())));
    f.emplace_back("quorum", num(ri.quorum));
    f.emplace_back("failover-timeout", num(ri.failover_timeout));
    f.emplace_back("parallel-syncs", num(ri.parallel_syncs));
  }
  if (ri.flags & kSlave) {
    f.emplace_back("master-link-down-time", num(ri.master_link_down_time));
    f.emplace_back("master-link-status", ri.master_link_up ? "ok" : "err");
    f.emplace_back("master-host", ri.slave_master_host.empty() ? "?" : ri.slave_master_host);
    f.emplace_back("master-port", num(ri.slave_master_port));
    f.emplace_back("slave-priority", num(ri.slave_priority));
    f.emplace_back("slave-repl-offset", num(ri.slave_repl_offset));
    f.emplace_back("replica-announced", num(ri.replica_announced));
  }
  if (ri.flags & kSentinel) {
    f.emplace_back("last-hello-message", num(now - ri.last_hello_time));
    f.emplace_back("voted-leader", ri.leader.empty() ? "?" : ri.leader);
    f.emplace_back("voted-leader-epoch", num(static_cast<int64_t>(ri.leader_epoch)));
  }
  r.MapHeader(f.size());
  for (const auto& [k, v] : f) {
    r.Bulk(k);
    r.Bulk(v);
  }
}

void ReplyInstances(CommandContext& ctx, Sentinel& s,
                    const std::map<std::string, std::unique_ptr<Instance>>& all) {
  ctx.reply().ArrayHeader(all.size());
  for (const auto& [_, ri] : all) ReplyInstance(ctx, s, *ri);
}

void HelpCmd(CommandContext& ctx) { engine::ReplyHelp(ctx, kSentinelHelp); }
void MastersCmd(CommandContext& ctx) { ReplyInstances(ctx, S(ctx), S(ctx).masters()); }
void MasterCmd(CommandContext& ctx) {
  if (Instance* ri = MasterOrReply(ctx, ctx.arg(2))) ReplyInstance(ctx, S(ctx), *ri);
}
void ReplicasCmd(CommandContext& ctx) {
  if (Instance* ri = MasterOrReply(ctx, ctx.arg(2))) ReplyInstances(ctx, S(ctx), ri->slaves);
}
void SentinelsCmd(CommandContext& ctx) {
  if (Instance* ri = MasterOrReply(ctx, ctx.arg(2))) ReplyInstances(ctx, S(ctx), ri->sentinels);
}
void MyidCmd(CommandContext& ctx) { ctx.reply().Bulk(S(ctx).myid()); }
void GetMasterAddrCmd(CommandContext& ctx) {
  Instance* ri = S(ctx).Master(ctx.arg(2));
  if (ri == nullptr) {
    ctx.reply().NullArray();
    return;
  }
  const Instance& addr = S(ctx).CurrentMasterAddress(*ri);
  ctx.reply().ArrayHeader(2);
  ctx.reply().Bulk(addr.ip);
  ctx.reply().BulkInteger(addr.port);
}
// SENTINEL IS-MASTER-DOWN-BY-ADDR <ip> <port> <current-epoch> <runid>: whether this sentinel
// sees that master SDOWN, and its vote for the epoch when a runid (not "*") asks for one.
void IsMasterDownCmd(CommandContext& ctx) {
  int64_t port = 0, epoch = 0;
  if (!ParseInt64(ctx.arg(3), &port) || !ParseInt64(ctx.arg(4), &epoch)) {
    ctx.ReplyError("value is not an integer or out of range");
    return;
  }
  Sentinel& s = S(ctx);
  Instance* ri = nullptr;
  for (auto& [_, m] : s.masters()) {
    if (m->ip == ctx.arg(2) && m->port == port) ri = m.get();
  }
  bool down = !s.tilt && ri != nullptr && (ri->flags & kSDown);
  std::string leader;
  uint64_t leader_epoch = 0;
  if (ri != nullptr && ctx.arg(5) != "*") {
    leader = s.VoteLeader(ri, static_cast<uint64_t>(epoch), ctx.arg(5), &leader_epoch);
  }
  ctx.reply().ArrayHeader(3);
  ctx.reply().Integer(down ? 1 : 0);
  ctx.reply().Bulk(leader.empty() ? "*" : leader);
  ctx.reply().Integer(static_cast<int64_t>(leader_epoch));
}

void ResetCmd(CommandContext& ctx) {
  int reset = S(ctx).ResetMatching(ctx.arg(2));
  if (reset) S(ctx).FlushConfig();
  ctx.reply().Integer(reset);
}

void CkquorumCmd(CommandContext& ctx) {
  Instance* ri = MasterOrReply(ctx, ctx.arg(2));
  if (ri == nullptr) return;
  int usable = 1;
  for (const auto& [_, s] : ri->sentinels) {
    if (!(s->flags & (kSDown | kODown))) ++usable;
  }
  int voters = static_cast<int>(ri->sentinels.size()) + 1;
  bool noquorum = usable < ri->quorum, noauth = usable < voters / 2 + 1;
  if (!noquorum && !noauth) {
    ctx.reply().Status("OK " + std::to_string(usable) +
                       " usable Sentinels. Quorum and failover authorization can be reached");
    return;
  }
  std::string e = "NOQUORUM " + std::to_string(usable) + " usable Sentinels. ";
  if (noquorum) e += "Not enough available Sentinels to reach the specified quorum for this master";
  if (noauth) {
    if (noquorum) e += ". ";
    e += "Not enough available Sentinels to reach the majority and authorize a failover";
  }
  ctx.ReplyError("-" + e);
}

void MonitorCmd(CommandContext& ctx) {
  int64_t quorum = 0, port = 0;
  if (!ParseInt64(ctx.arg(5), &quorum)) {
    ctx.ReplyError("Invalid quorum");
    return;
  }
  if (!ParseInt64(ctx.arg(4), &port)) {
    ctx.ReplyError("Invalid port");
    return;
  }
  if (quorum <= 0) {
    ctx.ReplyError("Quorum must be 1 or greater.");
    return;
  }
  // Without resolve-hostnames an address must be an IP.
  unsigned char buf[16];
  if (inet_pton(AF_INET, ctx.arg(3).c_str(), buf) != 1 &&
      inet_pton(AF_INET6, ctx.arg(3).c_str(), buf) != 1) {
    ctx.ReplyError("Invalid IP address or hostname specified");
    return;
  }
  std::string error;
  Instance* ri = S(ctx).AddMaster(ctx.arg(2), ctx.arg(3), static_cast<int>(port),
                                  static_cast<int>(quorum), &error);
  if (ri == nullptr) {
    ctx.ReplyError(error);
    return;
  }
  S(ctx).FlushConfig();
  ctx.ReplyOk();
  S(ctx).Event(3, "+monitor", ri, true, " quorum " + std::to_string(ri->quorum));
}

void RemoveCmd(CommandContext& ctx) {
  Instance* ri = MasterOrReply(ctx, ctx.arg(2));
  if (ri == nullptr) return;
  S(ctx).Event(3, "-monitor", ri, true);
  S(ctx).RemoveMaster(ctx.arg(2));
  S(ctx).FlushConfig();
  ctx.ReplyOk();
}

// SENTINEL CONFIG GET <pattern> | SET <option> <value>.
void ConfigCmd(CommandContext& ctx) {
  Sentinel::Settings& c = S(ctx).settings;
  std::string sub = ToLower(ctx.arg(2));
  if (sub == "get" && ctx.argc() == 4) {
    std::vector<std::pair<std::string, std::string>> all = {
        {"resolve-hostnames", c.resolve_hostnames ? "yes" : "no"},
        {"announce-hostnames", c.announce_hostnames ? "yes" : "no"},
        {"announce-ip", c.announce_ip},
        {"announce-port", std::to_string(c.announce_port)},
        {"sentinel-user", c.sentinel_user},
        {"sentinel-pass", c.sentinel_pass}};
    std::vector<std::pair<std::string, std::string>> found;
    for (auto& kv : all) {
      if (GlobMatch(ctx.arg(3), kv.first, /*nocase=*/true)) found.push_back(kv);
    }
    ctx.reply().MapHeader(found.size());
    for (auto& [k, v] : found) {
      ctx.reply().Bulk(k);
      ctx.reply().Bulk(v);
    }
    return;
  }
  if (sub != "set" || ctx.argc() != 5) {
    ctx.ReplyError("Only SENTINEL CONFIG GET <option> / SET <option> <value> are supported.");
    return;
  }
  std::string option = ToLower(ctx.arg(3));
  const std::string& value = ctx.arg(4);
  std::string yn = ToLower(value);
  int64_t n = 0;
  bool bad = false;
  if (option == "resolve-hostnames" || option == "announce-hostnames") {
    bad = yn != "yes" && yn != "no";
    if (!bad) {
      (option == "resolve-hostnames" ? c.resolve_hostnames : c.announce_hostnames) = yn == "yes";
    }
  } else if (option == "announce-ip") {
    c.announce_ip = value;
  } else if (option == "announce-port") {
    bad = !ParseInt64(value, &n) || n < 0 || n > 65535;
    if (!bad) c.announce_port = n;
  } else if (option == "sentinel-user" || option == "sentinel-pass") {
    (option == "sentinel-user" ? c.sentinel_user : c.sentinel_pass) = value;
  } else {
    ctx.ReplyError("Invalid argument '" + ctx.arg(3) + "' to SENTINEL CONFIG SET");
    return;
  }
  if (bad) {
    ctx.ReplyError("Invalid value '" + value + "' to SENTINEL CONFIG SET '" + ctx.arg(3) + "'");
    return;
  }
  S(ctx).FlushConfig();
  ctx.ReplyOk();
}

void FlushconfigCmd(CommandContext& ctx) {
  if (!S(ctx).FlushConfig()) {
    ctx.ReplyError("Failed to save config file. Check server logs.");
    return;
  }
  ctx.ReplyOk();
}
void PendingScriptsCmd(CommandContext& ctx) { ctx.reply().EmptyArray(); }

void SetCmd(CommandContext& ctx) {
  Instance* ri = MasterOrReply(ctx, ctx.arg(2));
  if (ri == nullptr) return;
  for (size_t j = 3; j < ctx.argc(); ++j) {
    std::string option = ctx.arg(j);
    std::string lower = ToLower(option);
    bool more = j + 1 < ctx.argc();
    int64_t ll = 0;
    bool numeric = lower == "down-after-milliseconds" || lower == "failover-timeout" ||
                   lower == "parallel-syncs" || lower == "quorum";
    if (numeric && more) {
      ++j;
      if (!ParseInt64(ctx.arg(j), &ll) || ll <= 0) {
        ctx.ReplyError("Invalid argument '" + ctx.arg(j) + "' for SENTINEL SET '" + option + "'");
        return;
      }
      if (lower == "down-after-milliseconds") {
        ri->down_after = ll;
        for (auto& [_, s] : ri->slaves) s->down_after = ll;
        for (auto& [_, s] : ri->sentinels) s->down_after = ll;
      } else if (lower == "failover-timeout") {
        ri->failover_timeout = ll;
      } else if (lower == "parallel-syncs") {
        ri->parallel_syncs = static_cast<int>(ll);
      } else {
        ri->quorum = static_cast<int>(ll);
      }
      S(ctx).Event(3, "+set", ri, true, " " + option + " " + ctx.arg(j));
    } else if ((lower == "auth-pass" || lower == "auth-user") && more) {
      ++j;
      (lower == "auth-pass" ? ri->auth_pass : ri->auth_user) = ctx.arg(j);
      S(ctx).Event(3, "+set", ri, true,
                   " " + option + " " + (lower == "auth-pass" ? "******" : ctx.arg(j)));
    } else {
      ctx.ReplyError("Unknown option or number of arguments for SENTINEL SET '" + option + "'");
      return;
    }
  }
  S(ctx).FlushConfig();
  ctx.ReplyOk();
}

void InfoCacheCmd(CommandContext& ctx) {
  Sentinel& s = S(ctx);
  std::vector<Instance*> chosen;
  std::set<std::string> seen;
  for (size_t i = 2; i < ctx.argc(); ++i) {
    Instance* ri = s.Master(ctx.arg(i));
    if (ri != nullptr && seen.insert(ri->name).second) chosen.push_back(ri);
  }
  int64_t now = s.Now();
  resp::ReplyWriter& r = ctx.reply();
  r.ArrayHeader(chosen.size() * 2);
  auto one = [&](const Instance& ri, int64_t refresh) {
    r.ArrayHeader(2);
    r.Integer(refresh ? now - ri.info_refresh : 0);
    if (ri.info.empty()) {
      r.Null();
    } else {
      r.Bulk(ri.info);
    }
  };
  for (Instance* ri : chosen) {
    r.Bulk(ri->name);
    r.ArrayHeader(ri->slaves.size() + 1);
    one(*ri, ri->info_refresh);
    for (auto& [_, sl] : ri->slaves) one(*sl, ri->info_refresh);
  }
}

void SimulateFailureCmd(CommandContext& ctx) {
  Sentinel& s = S(ctx);
  s.simfailure_flags = 0;
  for (size_t j = 2; j < ctx.argc(); ++j) {
    std::string a = ToLower(ctx.arg(j));
    if (a == "crash-after-election") {
      s.simfailure_flags |= 1;
    } else if (a == "crash-after-promotion") {
      s.simfailure_flags |= 2;
    } else if (a == "help") {
      ctx.reply().ArrayHeader(2);
      ctx.reply().Bulk("crash-after-election");
      ctx.reply().Bulk("crash-after-promotion");
      return;
    } else {
      ctx.ReplyError("Unknown failure simulation specified");
      return;
    }
  }
  ctx.ReplyOk();
}

// sentinelInfoCommand: the server, clients, cpu and stats sections, and Sentinel's.
void InfoCmd(CommandContext& ctx) {
  static const std::set<std::string> kSections = {"server", "clients", "cpu", "stats", "sentinel"};
  std::vector<std::string_view> wanted;
  bool all = ctx.argc() == 1;
  bool sentinel = all;
  for (size_t i = 1; i < ctx.argc(); ++i) {
    std::string a = ToLower(ctx.arg(i));
    if (a == "all" || a == "everything" || a == "default") all = sentinel = true;
    if (a == "sentinel") sentinel = true;
  }
  std::vector<std::string> names;
  for (const std::string& name : kSections) {
    if (name == "sentinel") continue;
    bool asked = all;
    for (size_t i = 1; i < ctx.argc(); ++i) asked = asked || EqualsIgnoreCase(ctx.arg(i), name);
    if (asked) names.push_back(name);
  }
  // Redis's order of sections.
  std::vector<std::string_view> ordered;
  for (std::string_view n : {"server", "clients", "cpu", "stats"}) {
    for (const std::string& x : names) {
      if (x == n) ordered.push_back(n);
    }
  }
  std::string info = ordered.empty() ? std::string() : engine::GenerateInfo(ctx.engine(), ordered);
  size_t mode = info.find("redis_mode:standalone");
  if (mode != std::string::npos) info.replace(mode, 21, "redis_mode:sentinel");
  if (sentinel) {
    Sentinel& s = S(ctx);
    if (!info.empty()) info += "\r\n";
    info += "# Sentinel\r\nsentinel_masters:" + std::to_string(s.masters().size()) +
            "\r\nsentinel_tilt:" + (s.tilt ? "1" : "0") +
            "\r\nsentinel_tilt_since_seconds:" +
            std::to_string(s.tilt ? (s.Now() - s.tilt_start_time) / 1000 : -1) +
            "\r\nsentinel_running_scripts:0\r\nsentinel_scripts_queue_length:0\r\n"
            "sentinel_simulate_failure_flags:" +
            std::to_string(s.simfailure_flags) + "\r\n";
    int id = 0;
    for (const auto& [name, ri] : s.masters()) {
      std::string status = (ri->flags & kODown) ? "odown" : (ri->flags & kSDown) ? "sdown" : "ok";
      info += "master" + std::to_string(id++) + ":name=" + name + ",status=" + status +
              ",address=" + ri->ip + ":" + std::to_string(ri->port) +
              ",slaves=" + std::to_string(ri->slaves.size()) +
              ",sentinels=" + std::to_string(ri->sentinels.size() + 1) + "\r\n";
    }
  }
  ctx.reply().Bulk(info);  // a plain bulk string, also in RESP3 (addReplyBulkSds)
}

void RoleCmd(CommandContext& ctx) {
  Sentinel& s = S(ctx);
  ctx.reply().ArrayHeader(2);
  ctx.reply().Bulk("sentinel");
  ctx.reply().ArrayHeader(s.masters().size());
  for (const auto& [name, _] : s.masters()) ctx.reply().Bulk(name);
}

void PublishCmd(CommandContext& ctx) {
  if (ctx.arg(1) != "__sentinel__:hello") {
    ctx.ReplyError("Only HELLO messages are accepted by Sentinel instances.");
    return;
  }
  S(ctx).ProcessHello(ctx.arg(2));
  ctx.reply().Integer(1);
}

}  // namespace

// SENTINEL and its subcommands, from specs/sentinel.json (generated by
// server/command/generate_specs.py).
#include "server/sentinel/specs/sentinel.inc"

void RegisterSentinelCommands(CommandTable& table) {
  // Redis's commands a sentinel keeps (flagged SENTINEL in src/commands/*.json); INFO, ROLE
  // and PUBLISH keep their descriptions with sentinel.c's code.
  static const std::set<std::string_view> kKept = {
      "acl",        "auth",    "client",       "command", "hello",    "info",      "ping",
      "psubscribe", "publish", "punsubscribe", "role",    "shutdown", "subscribe", "unsubscribe"};
  CommandTable redis(engine::RegisterCommands);
  for (const auto& cmd : redis.all()) {
    if (!kKept.count(cmd->name())) continue;
    CommandSpec spec = *cmd->spec;
    if (spec.name == "info") spec.proc = InfoCmd;
    if (spec.name == "role") spec.proc = RoleCmd;
    if (spec.name == "publish") spec.proc = PublishCmd;
    table.Add(std::move(spec));
  }
  RegisterSentinelCommand(table);
  // A sentinel takes FAULT (crash, stall, clock, partition) and TOPOLOGY like any node.
  engine::RegisterNodeControlCommands(table);
}

}  // namespace redlab::server::sentinel
