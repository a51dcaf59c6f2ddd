// The arguments of the *MPOP commands (t_list.c lmpopGenericCommand, t_zset.c
// zmpopGenericCommand).
#include "server/engine/commands/mpop_args.h"

#include "server/base/numbers.h"
#include "server/engine/core/context.h"

namespace redlab::server::engine {

bool ParseMpopKeys(CommandContext& ctx, size_t numkeys_index, MpopArgs* out) {
  int64_t numkeys = 0;
  if (!ParseInt64(ctx.arg(numkeys_index), &numkeys) || numkeys < 1) {
    ctx.ReplyError("numkeys should be greater than 0");
    return false;
  }
  if (static_cast<uint64_t>(numkeys) >= ctx.argc() - numkeys_index - 1) {
    ctx.ReplySyntaxError();
    return false;
  }
  out->keys = ctx.args().subspan(numkeys_index + 1, static_cast<size_t>(numkeys));
  out->side_index = numkeys_index + static_cast<size_t>(numkeys) + 1;
  return true;
}

bool ParseMpopCount(CommandContext& ctx, MpopArgs* out) {
  int64_t count = -1;
  for (size_t j = out->side_index + 1; j < ctx.argc(); ++j) {
    bool more = j + 1 < ctx.argc();
    if (count == -1 && ctx.ArgIs(j, "count") && more) {
      ++j;
      if (!ParseInt64(ctx.arg(j), &count) || count < 1) {
        ctx.ReplyError("count should be greater than 0");
        return false;
      }
    } else {
      ctx.ReplySyntaxError();
      return false;
    }
  }
  out->count = count == -1 ? 1 : count;
  return true;
}

}  // namespace redlab::server::engine
