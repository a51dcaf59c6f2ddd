// Commands that move keys between databases or copy them: COPY, MOVE and SWAPDB (db.c).
#include <climits>

#include "server/command/command_table.h"
#include "server/engine/core/context.h"
#include "server/engine/core/engine.h"
#include "server/engine/core/errors.h"

namespace redlab::server::engine {
namespace {

// getIntFromObjectOrReply: an integer that fits a C int. With a message of its own the command
// gives it for both failures; otherwise an integer out of range gets the range message.
bool CIntArg(CommandContext& ctx, size_t i, int64_t* out, std::string_view error = {}) {
  if (error.empty()) return ctx.RangeIntArg(i, INT_MIN, INT_MAX, out);
  if (!ctx.IntArg(i, out, error)) return false;
  if (*out < INT_MIN || *out > INT_MAX) {
    ctx.ReplyError(error);
    return false;
  }
  return true;
}

bool ValidDb(CommandContext& ctx, int64_t id) { return id >= 0 && id < ctx.keyspace().num_dbs(); }

// COPY source destination [DB destination-db] [REPLACE]
void CopyCommand(CommandContext& ctx) {
  int64_t dst_id = ctx.client().db();
  bool replace = false;
  for (size_t j = 3; j < ctx.argc(); ++j) {
    if (ctx.ArgIs(j, "replace")) {
      replace = true;
    } else if (ctx.ArgIs(j, "db") && j + 1 < ctx.argc()) {
      if (!CIntArg(ctx, j + 1, &dst_id)) return;
      if (!ValidDb(ctx, dst_id)) {
        ctx.ReplyError(err::kDbIndexOutOfRange);
        return;
      }
      ++j;
    } else {
      ctx.ReplySyntaxError();
      return;
    }
  }
  const std::string& key = ctx.arg(1);
  const std::string& new_key = ctx.arg(2);
  Db& src = ctx.db();
  Db& dst = ctx.keyspace().db(static_cast<int>(dst_id));
  if (&src == &dst && key == new_key) {
    ctx.ReplyError(err::kSameObject);
    return;
  }
  Db::Node* node = src.LookupRead(key);
  if (node == nullptr) {
    ctx.reply().Integer(0);
    return;
  }
  bool replacing = false;
  if (dst.LookupWrite(new_key) != nullptr) {
    if (!replace) {
      ctx.reply().Integer(0);
      return;
    }
    replacing = true;
  }
  int64_t expire = node->value.expire_ms;
  Object copy = node->value.value.Clone();
  if (replacing) dst.Delete(new_key);
  Db::Node* added = dst.Add(new_key, std::move(copy));
  if (expire != kNoExpire) dst.SetExpire(added, expire);
  ctx.engine().SignalModifiedKey(dst.id(), new_key);
  ctx.engine().NotifyKeyspaceEvent(kNotifyGeneric, "copy_to", new_key, dst.id());
  ctx.MarkDirty();
  ctx.reply().Integer(1);
}

void MoveCommand(CommandContext& ctx) {
  int64_t dst_id = 0;
  if (!CIntArg(ctx, 2, &dst_id)) return;
  if (!ValidDb(ctx, dst_id)) {
    ctx.ReplyError(err::kDbIndexOutOfRange);
    return;
  }
  Db& src = ctx.db();
  Db& dst = ctx.keyspace().db(static_cast<int>(dst_id));
  if (&src == &dst) {
    ctx.ReplyError(err::kSameObject);
    return;
  }
  const std::string& key = ctx.arg(1);
  Db::Node* node = src.LookupWrite(key);
  if (node == nullptr || dst.LookupWrite(key) != nullptr) {
    ctx.reply().Integer(0);
    return;
  }
  src.Move(node, dst, key);
  ctx.engine().SignalModifiedKey(src.id(), key);
  ctx.engine().SignalModifiedKey(dst.id(), key);
  ctx.engine().NotifyKeyspaceEvent(kNotifyGeneric, "move_from", key, src.id());
  ctx.engine().NotifyKeyspaceEvent(kNotifyGeneric, "move_to", key, dst.id());
  ctx.MarkDirty();
  ctx.reply().Integer(1);
}

void SwapDbCommand(CommandContext& ctx) {
  int64_t a = 0, b = 0;
  if (!CIntArg(ctx, 1, &a, "invalid first DB index")) return;
  if (!CIntArg(ctx, 2, &b, "invalid second DB index")) return;
  if (!ValidDb(ctx, a) || !ValidDb(ctx, b)) {
    ctx.ReplyError(err::kDbIndexOutOfRange);
    return;
  }
  ctx.engine().SwapDatabases(static_cast<int>(a), static_cast<int>(b));
  ctx.MarkDirty();  // even when a == b, as Redis (the command is propagated)
  ctx.ReplyOk();
}

}  // namespace

void RegisterCopyCommands(CommandTable& table) {
  table.Add({.name = "copy",
             .arity = -3,
             .flags = kCmdWrite | kCmdDenyOom,
             .acl = kAclKeyspace,
             .keys = {KeyAt(1, kKeyRO | kKeyAccess), KeyAt(2, kKeyOW | kKeyUpdate)},
             .proc = CopyCommand,
             .group = "generic",
             .since = "6.2.0",
             .summary = "Copy a key",
             .complexity = "O(N) worst case for collections, where N is the number of nested "
                           "items. O(1) for string values."});
  table.Add({.name = "move",
             .arity = 3,
             .flags = kCmdWrite | kCmdFast,
             .acl = kAclKeyspace,
             .keys = {KeyAt(1, kKeyRW | kKeyAccess | kKeyUpdate)},
             .proc = MoveCommand,
             .group = "generic",
             .since = "1.0.0",
             .summary = "Move a key to another database",
             .complexity = "O(1)"});
  table.Add({.name = "swapdb",
             .arity = 3,
             .flags = kCmdWrite | kCmdFast,
             .acl = kAclKeyspace | kAclDangerous,
             .proc = SwapDbCommand,
             .group = "server",
             .since = "4.0.0",
             .summary = "Swaps two Redis databases",
             .complexity = "O(N) where N is the count of clients watching or blocking on keys "
                           "from both databases."});
}

}  // namespace redlab::server::engine
