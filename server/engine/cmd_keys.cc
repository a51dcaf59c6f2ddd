// Generic key commands.
#include "server/engine/command_table.h"
#include "server/engine/context.h"
#include "server/engine/engine.h"

namespace redlab::server::engine {
namespace {

void DelCommand(CommandContext& ctx) {
  int64_t deleted = 0;
  for (size_t i = 1; i < ctx.argc(); ++i) {
    if (ctx.db().LookupWrite(ctx.arg(i)) != nullptr && ctx.db().Delete(ctx.arg(i))) ++deleted;
  }
  ctx.MarkDirty(static_cast<uint64_t>(deleted));
  ctx.reply().Integer(deleted);
}

}  // namespace

void RegisterKeyCommands(CommandTable& table) {
  table.Add({.name = "del", .arity = -2, .flags = kCmdWrite, .acl = kAclKeyspace,
             .keys = {KeyRange(1, -1, 1, kKeyRM | kKeyDelete)}, .proc = DelCommand,
             .group = "generic", .since = "1.0.0", .summary = "Delete a key",
             .complexity = "O(N) where N is the number of keys that will be removed. When a key to "
                           "remove holds a value other than a string, the individual complexity "
                           "for this key is O(M) where M is the number of elements in the list, "
                           "set, sorted set or hash. Removing a single key that holds a string "
                           "value is O(1).",
             .tips = {"request_policy:multi_shard", "response_policy:agg_sum"}});
}

}  // namespace redlab::server::engine
