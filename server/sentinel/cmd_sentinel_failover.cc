// Redis 7.0.15's sentinel.c: SENTINEL FAILOVER and SENTINEL DEBUG
// (sentinelSetDebugConfigParameters, addReplySentinelDebugInfo).
#include <utility>

#include "server/base/numbers.h"
#include "server/base/text.h"
#include "server/sentinel/cmd_sentinel.h"
#include "server/sentinel/sentinel.h"

namespace redlab::server::sentinel {

void FailoverCmd(engine::CommandContext& ctx) {
  Sentinel& s = *SentinelOf(ctx.engine());
  Instance* ri = s.Master(ctx.arg(2));
  if (ri == nullptr) {
    ctx.ReplyError("No such master with that name");
    return;
  }
  if (ri->flags & kFailoverInProgress) {
    ctx.ReplyError("-INPROG Failover already in progress");
    return;
  }
  if (SelectSlave(*ri, s.Now(), s.timing) == nullptr) {
    ctx.ReplyError("-NOGOODSLAVE No suitable replica to promote");
    return;
  }
  if (ctx.engine().host() != nullptr) {
    ctx.engine().host()->Log(3, "Executing user requested FAILOVER of '" + ri->name + "'");
  }
  s.StartFailover(ri);
  ri->flags |= kForceFailover;
  ctx.ReplyOk();
}

void DebugCmd(engine::CommandContext& ctx) {
  Timing& t = SentinelOf(ctx.engine())->timing;
  std::pair<const char*, int64_t*> params[] = {
      {"INFO-PERIOD", &t.info_period},
      {"PING-PERIOD", &t.ping_period},
      {"ASK-PERIOD", &t.ask_period},
      {"PUBLISH-PERIOD", &t.publish_period},
      {"DEFAULT-DOWN-AFTER", &t.default_down_after},
      {"DEFAULT-FAILOVER-TIMEOUT", &t.default_failover_timeout},
      {"TILT-TRIGGER", &t.tilt_trigger},
      {"TILT-PERIOD", &t.tilt_period},
      {"SLAVE-RECONF-TIMEOUT", &t.slave_reconf_timeout},
      {"MIN-LINK-RECONNECT-PERIOD", &t.min_link_reconnect_period},
      {"ELECTION-TIMEOUT", &t.election_timeout},
      {"SCRIPT-MAX-RUNTIME", &t.script_max_runtime},
      {"SCRIPT-RETRY-DELAY", &t.script_retry_delay},
  };
  if (ctx.argc() == 2) {
    ctx.reply().MapHeader(std::size(params));
    for (const auto& [name, value] : params) {
      ctx.reply().Bulk(name);
      ctx.reply().BulkInteger(*value);
    }
    return;
  }
  // Redis sets each parameter as it goes: those before a bad one stay set.
  for (size_t j = 2; j < ctx.argc(); ++j) {
    const std::string& option = ctx.arg(j);
    int64_t* target = nullptr;
    for (const auto& [name, value] : params) {
      if (EqualsIgnoreCase(option, name)) target = value;
    }
    if (target == nullptr || j + 1 >= ctx.argc()) {
      ctx.ReplyError("Unknown option or number of arguments for SENTINEL DEBUG '" + option + "'");
      return;
    }
    int64_t ll = 0;
    ++j;
    if (!ParseInt64(ctx.arg(j), &ll) || ll <= 0) {
      ctx.ReplyError("Invalid argument '" + ctx.arg(j) + "' for SENTINEL DEBUG '" + option + "'");
      return;
    }
    *target = ll;
  }
  ctx.ReplyOk();
}

}  // namespace redlab::server::sentinel
