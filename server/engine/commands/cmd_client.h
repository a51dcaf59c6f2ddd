// The CLIENT subcommands of client-side caching (cmd_client_tracking.cc), registered with the
// other CLIENT subcommands in cmd_client.cc.
#pragma once

#include "server/engine/core/context.h"

namespace redlab::server::engine {

void ClientTrackingCommand(CommandContext& ctx);      // CLIENT TRACKING
void ClientCachingCommand(CommandContext& ctx);       // CLIENT CACHING
void ClientGetRedirCommand(CommandContext& ctx);      // CLIENT GETREDIR
void ClientTrackingInfoCommand(CommandContext& ctx);  // CLIENT TRACKINGINFO

}  // namespace redlab::server::engine
