// String commands that read or replace whole values, with their expiry options: GET, SET,
// SETNX, SETEX, PSETEX, GETSET, GETDEL, GETEX, MGET, MSET, MSETNX (Redis's t_string.c). The
// rest of the family is in cmd_string_ops.cc.
#include "server/engine/commands/cmd_string.h"

#include <string>
#include <vector>

#include "server/base/numbers.h"
#include "server/base/text.h"
#include "server/command/command_table.h"
#include "server/engine/core/context.h"
#include "server/engine/core/engine.h"
#include "server/engine/core/errors.h"

namespace redlab::server::engine {
namespace {

// The options of SET and GETEX, as Redis's OBJ_* flags.
enum StringOption : uint32_t {
  kOptNx = 1u << 0,
  kOptXx = 1u << 1,
  kOptEx = 1u << 2,
  kOptPx = 1u << 3,
  kOptKeepTtl = 1u << 4,
  kOptGet = 1u << 5,
  kOptExat = 1u << 6,
  kOptPxat = 1u << 7,
  kOptPersist = 1u << 8,
};
constexpr uint32_t kOptAnyExpire = kOptEx | kOptPx | kOptExat | kOptPxat;

struct StringOptions {
  uint32_t flags = 0;
  size_t expire_arg = 0;  // index of the EX/PX/EXAT/PXAT value; 0 when none was given
};

enum class OptionsOf { kSet, kGetex };

// parseExtendedStringArgumentsOrReply: SET's options from argument 3, GETEX's from 2. A word
// that is unknown, belongs to the other command, lacks its value or conflicts with one seen
// before is a syntax error; repeating a word is allowed (the last expiry wins).
bool ParseStringOptions(CommandContext& ctx, OptionsOf of, StringOptions* out) {
  bool set = of == OptionsOf::kSet;
  uint32_t& flags = out->flags;
  static constexpr struct {
    std::string_view word;
    uint32_t flag;
  } kExpiries[] = {{"ex", kOptEx}, {"px", kOptPx}, {"exat", kOptExat}, {"pxat", kOptPxat}};
  for (size_t j = set ? 3 : 2; j < ctx.argc(); ++j) {
    std::string_view opt = ctx.arg(j);
    bool has_value = j + 1 < ctx.argc();
    if (set && OptionIs(opt, "nx") && !(flags & kOptXx)) {
      flags |= kOptNx;
      continue;
    }
    if (set && OptionIs(opt, "xx") && !(flags & kOptNx)) {
      flags |= kOptXx;
      continue;
    }
    if (set && OptionIs(opt, "get")) {
      flags |= kOptGet;
      continue;
    }
    if (set && OptionIs(opt, "keepttl") && !(flags & (kOptPersist | kOptAnyExpire))) {
      flags |= kOptKeepTtl;
      continue;
    }
    if (!set && OptionIs(opt, "persist") && !(flags & (kOptKeepTtl | kOptAnyExpire))) {
      flags |= kOptPersist;
      continue;
    }
    bool matched = false;
    for (const auto& e : kExpiries) {
      // Each expiry conflicts with the other three, KEEPTTL and PERSIST, but not with itself.
      uint32_t conflicts = kOptKeepTtl | kOptPersist | (kOptAnyExpire & ~e.flag);
      if (has_value && OptionIs(opt, e.word) && !(flags & conflicts)) {
        flags |= e.flag;
        out->expire_arg = ++j;
        matched = true;
        break;
      }
    }
    if (!matched) {
      ctx.ReplySyntaxError();
      return false;
    }
  }
  return true;
}

// getExpireMillisecondsOrReply: the expiry in argument `arg` as an absolute unix time in ms.
// Values <= 0, and values whose conversion to absolute ms overflows, are refused.
bool ExpireMillis(CommandContext& ctx, size_t arg, uint32_t flags, int64_t* ms) {
  if (!ctx.IntArg(arg, ms)) return false;
  bool seconds = (flags & (kOptEx | kOptExat)) != 0;
  bool ok = *ms > 0 && !(seconds && *ms > INT64_MAX / 1000);
  if (ok && seconds) *ms *= 1000;
  if (ok && (flags & (kOptEx | kOptPx))) ok = !__builtin_add_overflow(*ms, ctx.now_ms(), ms);
  if (!ok) {
    ctx.ReplyError("invalid expire time in '" + ctx.command().full_name + "' command");
    return false;
  }
  return true;
}

// getGenericCommand: replies the string at argument 1, or nil; false after WRONGTYPE.
bool ReplyValue(CommandContext& ctx) {
  Db::Node* node = nullptr;
  if (!ctx.LookupRead(ctx.arg(1), ObjectType::kString, &node)) return false;
  if (node == nullptr) {
    ctx.reply().Null();
  } else {
    ctx.reply().Bulk(node->value.value.str());
  }
  return true;
}

// setKey: stores `value` under `key`, whose live entry (from a write lookup) is `node` or
// nullptr. The TTL goes unless `keep_ttl`.
Db::Node* StoreString(CommandContext& ctx, Db::Node* node, std::string_view key,
                      std::string_view value, bool keep_ttl) {
  if (node == nullptr) {
    node = ctx.db().Add(key, Object::FromString(value));
  } else {
    Object& obj = node->value.value;
    if (obj.is(ObjectType::kString) && obj.str().capacity() / 2 <= value.size()) {
      // Overwriting a string: reuse its buffer unless that would leave most of it unused.
      obj.str().assign(value);
      obj.set_raw_string(false);
      obj.set_float_string(false);
    } else {
      ctx.db().ReportStreamGone(node);
      obj = Object::FromString(value);
    }
    if (!keep_ttl) ctx.db().RemoveExpire(node);
  }
  ctx.SignalModifiedKey(key);
  return node;
}

void GetCommand(CommandContext& ctx) { ReplyValue(ctx); }

// setGenericCommand, shared by SET, SETNX, SETEX and PSETEX. `ok_int` makes the replies :1/:0
// (SETNX) instead of +OK / nil.
void SetGeneric(CommandContext& ctx, const StringOptions& opts, size_t value_arg, bool ok_int) {
  uint32_t flags = opts.flags;
  int64_t when_ms = 0;
  if (opts.expire_arg != 0 && !ExpireMillis(ctx, opts.expire_arg, flags, &when_ms)) return;
  if ((flags & kOptGet) && !ReplyValue(ctx)) return;

  const std::string& key = ctx.arg(1);
  const std::string& value = ctx.arg(value_arg);
  Db::Node* node = ctx.db().LookupWrite(key);
  if (((flags & kOptNx) && node != nullptr) || ((flags & kOptXx) && node == nullptr)) {
    if (flags & kOptGet) return;  // the old value was the reply
    if (ok_int) {
      ctx.reply().Integer(0);
    } else {
      ctx.reply().Null();
    }
    return;
  }
  node = StoreString(ctx, node, key, value, (flags & kOptKeepTtl) != 0);
  ctx.MarkDirty();
  ctx.NotifyKeyspaceEvent(kNotifyString, "set", key);
  if (opts.expire_arg != 0) {
    ctx.db().SetExpire(node, when_ms);
    ctx.NotifyKeyspaceEvent(kNotifyGeneric, "expire", key);
    // Replicas get the absolute time, whatever form the expiry was given in.
    if (ctx.engine().propagating()) {
      ctx.PropagateAs({"SET", key, value, "PXAT", Int64ToString(when_ms)});
    }
  } else if ((flags & kOptGet) && ctx.engine().propagating()) {
    // Propagated without GET (any number of them); key and value stay even if they read "get".
    std::vector<std::string> args;
    for (size_t j = 0; j < ctx.argc(); ++j) {
      if (j >= 3 && OptionIs(ctx.arg(j), "get")) continue;
      args.push_back(ctx.arg(j));
    }
    ctx.PropagateAs(std::move(args));
  }
  if (flags & kOptGet) return;
  if (ok_int) {
    ctx.reply().Integer(1);
  } else {
    ctx.ReplyOk();
  }
}

void SetCommand(CommandContext& ctx) {
  StringOptions opts;
  if (!ParseStringOptions(ctx, OptionsOf::kSet, &opts)) return;
  SetGeneric(ctx, opts, 2, false);
}

void SetNxCommand(CommandContext& ctx) { SetGeneric(ctx, {.flags = kOptNx}, 2, true); }
void SetExCommand(CommandContext& ctx) {
  SetGeneric(ctx, {.flags = kOptEx, .expire_arg = 2}, 3, false);
}
void PSetExCommand(CommandContext& ctx) {
  SetGeneric(ctx, {.flags = kOptPx, .expire_arg = 2}, 3, false);
}

void GetSetCommand(CommandContext& ctx) {
  if (!ReplyValue(ctx)) return;
  StoreString(ctx, ctx.db().LookupWrite(ctx.arg(1)), ctx.arg(1), ctx.arg(2), false);
  ctx.NotifyKeyspaceEvent(kNotifyString, "set", ctx.arg(1));
  ctx.MarkDirty();
  if (ctx.engine().propagating()) ctx.PropagateAs({"SET", ctx.arg(1), ctx.arg(2)});
}

void GetDelCommand(CommandContext& ctx) {
  if (!ReplyValue(ctx)) return;
  if (!ctx.db().Delete(ctx.arg(1))) return;
  if (ctx.engine().propagating()) ctx.PropagateAs({"DEL", ctx.arg(1)});
  ctx.SignalModifiedKey(ctx.arg(1));
  ctx.NotifyKeyspaceEvent(kNotifyGeneric, "del", ctx.arg(1));
  ctx.MarkDirty();
}

// GETEX never propagates as itself: as PEXPIREAT, PERSIST, or DEL when an absolute time has
// already passed.
void GetExCommand(CommandContext& ctx) {
  StringOptions opts;
  if (!ParseStringOptions(ctx, OptionsOf::kGetex, &opts)) return;
  const std::string& key = ctx.arg(1);
  Db::Node* node = nullptr;
  if (!ctx.LookupRead(key, ObjectType::kString, &node)) return;
  if (node == nullptr) {
    ctx.reply().Null();  // before the expiry value is even looked at
    return;
  }
  int64_t when_ms = 0;
  if (opts.expire_arg != 0 && !ExpireMillis(ctx, opts.expire_arg, opts.flags, &when_ms)) return;
  ctx.reply().Bulk(node->value.value.str());

  bool propagating = ctx.engine().propagating();
  std::string_view event;
  if ((opts.flags & (kOptExat | kOptPxat)) && when_ms <= ctx.now_ms() &&
      !ctx.keyspace().replica() && !ctx.engine().loading()) {
    ctx.db().Delete(node);
    if (propagating) ctx.PropagateAs({"DEL", key});
    event = "del";
  } else if (opts.expire_arg != 0) {
    ctx.db().SetExpire(node, when_ms);
    if (propagating) ctx.PropagateAs({"PEXPIREAT", key, Int64ToString(when_ms)});
    event = "expire";
  } else if (opts.flags & kOptPersist) {
    if (!ctx.db().RemoveExpire(node)) return;
    if (propagating) ctx.PropagateAs({"PERSIST", key});
    event = "persist";
  } else {
    return;
  }
  ctx.SignalModifiedKey(key);
  ctx.NotifyKeyspaceEvent(kNotifyGeneric, event, key);
  ctx.MarkDirty();
}

void MGetCommand(CommandContext& ctx) {
  resp::ReplyWriter& r = ctx.reply();
  r.ArrayHeader(ctx.argc() - 1);
  for (size_t j = 1; j < ctx.argc(); ++j) {
    Db::Node* node = ctx.db().LookupRead(ctx.arg(j));
    if (node == nullptr || !node->value.value.is(ObjectType::kString)) {
      r.Null();  // a key of another type reads as missing, not as an error
    } else {
      r.Bulk(node->value.value.str());
    }
  }
}

// msetGenericCommand. MSETNX sets nothing when any key exists.
void MSetGeneric(CommandContext& ctx, bool nx) {
  if (ctx.argc() % 2 == 0) {
    ctx.ReplyWrongArity();
    return;
  }
  if (nx) {
    for (size_t j = 1; j < ctx.argc(); j += 2) {
      if (ctx.db().LookupWrite(ctx.arg(j)) != nullptr) {
        ctx.reply().Integer(0);
        return;
      }
    }
  }
  for (size_t j = 1; j < ctx.argc(); j += 2) {
    // A key may repeat: each pair is looked up again, so the last value wins.
    StoreString(ctx, ctx.db().LookupWrite(ctx.arg(j)), ctx.arg(j), ctx.arg(j + 1), false);
    ctx.NotifyKeyspaceEvent(kNotifyString, "set", ctx.arg(j));
  }
  ctx.MarkDirty((ctx.argc() - 1) / 2);
  if (nx) {
    ctx.reply().Integer(1);
  } else {
    ctx.ReplyOk();
  }
}

void MSetCommand(CommandContext& ctx) { MSetGeneric(ctx, false); }
void MSetNxCommand(CommandContext& ctx) { MSetGeneric(ctx, true); }

// setGetKeys: with GET the key is read as well as written.
std::vector<FoundKey> SetKeys(std::span<const std::string> args) {
  for (size_t i = 3; i < args.size(); ++i) {
    // Compared as a C string, as Redis does.
    if (EqualsIgnoreCase(CStringPrefix(args[i]), "get")) {
      return {{1, kKeyRW | kKeyAccess | kKeyUpdate}};
    }
  }
  return {{1, kKeyOW | kKeyUpdate}};
}

}  // namespace

// The commands of specs/string.json (generated by server/command/generate_specs.py).
#include "server/engine/commands/specs/string.inc"

}  // namespace redlab::server::engine
