// Expiry commands: EXPIRE, PEXPIRE, EXPIREAT, PEXPIREAT (with NX|XX|GT|LT), TTL, PTTL,
// EXPIRETIME, PEXPIRETIME and PERSIST, as Redis's expire.c.
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "server/base/numbers.h"
#include "server/command/command_table.h"
#include "server/engine/core/context.h"
#include "server/engine/core/engine.h"

namespace redlab::server::engine {
namespace {

constexpr int64_t kInt64Max = std::numeric_limits<int64_t>::max();
constexpr int64_t kInt64Min = std::numeric_limits<int64_t>::min();

enum ExpireFlag : unsigned { kExpireNx = 1, kExpireXx = 2, kExpireGt = 4, kExpireLt = 8 };

// parseExtendedExpireArgumentsOrReply: the options after the time, checked before the time.
bool ParseExpireFlags(CommandContext& ctx, unsigned* flags) {
  for (size_t i = 3; i < ctx.argc(); ++i) {
    if (ctx.ArgIs(i, "nx")) {
      *flags |= kExpireNx;
    } else if (ctx.ArgIs(i, "xx")) {
      *flags |= kExpireXx;
    } else if (ctx.ArgIs(i, "gt")) {
      *flags |= kExpireGt;
    } else if (ctx.ArgIs(i, "lt")) {
      *flags |= kExpireLt;
    } else {
      // "%s" of a C string: the option is cut at a NUL byte.
      std::string_view opt = ctx.arg(i);
      ctx.ReplyError("Unsupported option " + std::string(opt.substr(0, opt.find('\0'))));
      return false;
    }
  }
  if ((*flags & kExpireNx) && (*flags & (kExpireXx | kExpireGt | kExpireLt))) {
    ctx.ReplyError("NX and XX, GT or LT options at the same time are not compatible");
    return false;
  }
  if ((*flags & kExpireGt) && (*flags & kExpireLt)) {
    ctx.ReplyError("GT and LT options at the same time are not compatible");
    return false;
  }
  return true;
}

// Whether the flags forbid replacing `current` (kNoExpire: none) with `when`.
bool RefusedByFlags(unsigned flags, int64_t current, int64_t when) {
  if ((flags & kExpireNx) && current != kNoExpire) return true;
  if ((flags & kExpireXx) && current == kNoExpire) return true;
  // No TTL counts as an infinite one: GT always fails on it, LT always passes.
  if ((flags & kExpireGt) && (current == kNoExpire || when <= current)) return true;
  if ((flags & kExpireLt) && current != kNoExpire && when >= current) return true;
  return false;
}

// expireGenericCommand. `base_ms` is 0 for the *AT forms and the command time for relative ones;
// `seconds` says the argument is in seconds. A time already past deletes the key (propagated as
// DEL); any other is propagated as PEXPIREAT with the absolute time in ms.
void ExpireGeneric(CommandContext& ctx, int64_t base_ms, bool seconds) {
  unsigned flags = 0;
  if (!ParseExpireFlags(ctx, &flags)) return;
  int64_t when = 0;
  if (!ctx.IntArg(2, &when)) return;
  auto invalid = [&ctx] {
    ctx.ReplyError("invalid expire time in '" + ctx.command().full_name + "' command");
  };
  if (seconds) {
    if (when > kInt64Max / 1000 || when < kInt64Min / 1000) {
      invalid();
      return;
    }
    when *= 1000;
  }
  // Only an overflow upwards is checked, as Redis does (a negative sum is simply in the past).
  if (when > kInt64Max - base_ms) {
    invalid();
    return;
  }
  when += base_ms;

  Db& db = ctx.db();
  const std::string& key = ctx.arg(1);
  Db::Node* node = db.LookupWrite(key);
  if (node == nullptr || RefusedByFlags(flags, node->value.expire_ms, when)) {
    ctx.reply().Integer(0);
    return;
  }
  // A replica never deletes on its own: it keeps the past TTL and waits for the master's DEL;
  // neither does a node loading its AOF (checkAlreadyExpired).
  if (when <= ctx.now_ms() && !ctx.keyspace().replica() && !ctx.engine().loading()) {
    db.Delete(node);
    ctx.MarkDirty();
    if (ctx.engine().propagating()) ctx.PropagateAs({"DEL", key});
    ctx.SignalModifiedKey(key);
    ctx.NotifyKeyspaceEvent(kNotifyGeneric, "del", key);
    ctx.reply().Integer(1);
    return;
  }
  db.SetExpire(node, when);
  ctx.reply().Integer(1);
  if ((base_ms != 0 || seconds) && ctx.engine().propagating()) {
    std::vector<std::string> args(ctx.args().begin(), ctx.args().end());
    args[0] = "PEXPIREAT";
    args[2] = Int64ToString(when);
    ctx.PropagateAs(std::move(args));
  }
  ctx.SignalModifiedKey(key);
  ctx.NotifyKeyspaceEvent(kNotifyGeneric, "expire", key);
  ctx.MarkDirty();
}

void ExpireCommand(CommandContext& ctx) { ExpireGeneric(ctx, ctx.now_ms(), true); }
void PExpireCommand(CommandContext& ctx) { ExpireGeneric(ctx, ctx.now_ms(), false); }
void ExpireAtCommand(CommandContext& ctx) { ExpireGeneric(ctx, 0, true); }
void PExpireAtCommand(CommandContext& ctx) { ExpireGeneric(ctx, 0, false); }

// ttlGenericCommand: -2 for a missing key, -1 for a key without TTL, else the time left (or the
// absolute time), never below 0. Seconds are rounded to the nearest.
void TtlGeneric(CommandContext& ctx, bool milliseconds, bool absolute) {
  Db::Node* node = ctx.db().LookupNoTouch(ctx.arg(1));  // LOOKUP_NOTOUCH
  if (node == nullptr) {
    ctx.reply().Integer(-2);
    return;
  }
  int64_t expire = node->value.expire_ms;
  if (expire == kNoExpire) {
    ctx.reply().Integer(-1);
    return;
  }
  int64_t ttl = absolute ? expire : expire - ctx.now_ms();
  if (ttl < 0) ttl = 0;
  // Unsigned so that rounding the largest times up does not overflow (Redis's build gives the
  // same result there).
  ctx.reply().Integer(
      milliseconds ? ttl : static_cast<int64_t>((static_cast<uint64_t>(ttl) + 500) / 1000));
}

void TtlCommand(CommandContext& ctx) { TtlGeneric(ctx, false, false); }
void PTtlCommand(CommandContext& ctx) { TtlGeneric(ctx, true, false); }
void ExpireTimeCommand(CommandContext& ctx) { TtlGeneric(ctx, false, true); }
void PExpireTimeCommand(CommandContext& ctx) { TtlGeneric(ctx, true, true); }

void PersistCommand(CommandContext& ctx) {
  Db::Node* node = ctx.db().LookupWrite(ctx.arg(1));
  if (node == nullptr || !ctx.db().RemoveExpire(node)) {
    ctx.reply().Integer(0);
    return;
  }
  ctx.SignalModifiedKey(ctx.arg(1));
  ctx.NotifyKeyspaceEvent(kNotifyGeneric, "persist", ctx.arg(1));
  ctx.MarkDirty();
  ctx.reply().Integer(1);
}

}  // namespace

// The commands of specs/expire.json (generated by server/command/generate_specs.py).
#include "server/engine/commands/specs/expire.inc"

}  // namespace redlab::server::engine
