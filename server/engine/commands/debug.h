// The DEBUG subcommands that inspect, digest, reload or create data (debug_data.cc), called by
// the DEBUG dispatcher in cmd_debug.cc.
#pragma once

#include "server/engine/core/context.h"

namespace redlab::server::engine {

void DebugObject(CommandContext& ctx);       // OBJECT <key>
void DebugListpack(CommandContext& ctx);     // LISTPACK <key>
void DebugQuicklist(CommandContext& ctx);    // QUICKLIST <key> [<0|1>]
void DebugDigest(CommandContext& ctx);       // DIGEST
void DebugDigestValue(CommandContext& ctx);  // DIGEST-VALUE <key>...
void DebugReload(CommandContext& ctx);       // RELOAD [MERGE] [NOFLUSH] [NOSAVE]
void DebugLoadAof(CommandContext& ctx);      // LOADAOF
void DebugPopulate(CommandContext& ctx);     // POPULATE <count> [<prefix>] [<size>]
void DebugProtocol(CommandContext& ctx);     // PROTOCOL <type>

}  // namespace redlab::server::engine
