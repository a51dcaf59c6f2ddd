// Redis 7.0.15's sentinel.c: the SENTINEL subcommands that live beside the failover
// (cmd_sentinel_failover.cc), for the table of cmd_sentinel.cc.
#pragma once

#include "server/engine/core/context.h"

namespace redlab::server::sentinel {

// SENTINEL FAILOVER <master-name>: a failover without the other sentinels' agreement.
void FailoverCmd(engine::CommandContext& ctx);
// SENTINEL DEBUG [<param> <value> ...]: Sentinel's time parameters, listed or set.
void DebugCmd(engine::CommandContext& ctx);

}  // namespace redlab::server::sentinel
