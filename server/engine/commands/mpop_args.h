// The arguments LMPOP, BLMPOP, ZMPOP and BZMPOP share (Redis's lmpopGenericCommand and
// zmpopGenericCommand): numkeys key [key ...] <side> [COUNT count], checked in Redis's order.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

namespace redlab::server::engine {

class CommandContext;

struct MpopArgs {
  std::span<const std::string> keys;
  size_t side_index = 0;  // the argument naming the side (LEFT|RIGHT, MIN|MAX)
  int64_t count = 1;      // COUNT, 1 when not given
};

// numkeys (at `numkeys_index`) and the keys after it: false after replying Redis's error.
bool ParseMpopKeys(CommandContext& ctx, size_t numkeys_index, MpopArgs* out);
// The options after the side (the caller parses the side first, as Redis): false after
// replying Redis's error.
bool ParseMpopCount(CommandContext& ctx, MpopArgs* out);

}  // namespace redlab::server::engine
