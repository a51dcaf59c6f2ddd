// Redis 7.0's t_stream.c: XREAD (and its blocking).
#include "server/engine/commands/cmd_stream.h"

namespace redlab::server::engine {

void SignalStreamReady(CommandContext& ctx, std::string_view key) {}

void RegisterStreamReadCommands(CommandTable& table) {}

}  // namespace redlab::server::engine
