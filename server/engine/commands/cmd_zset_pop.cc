// Sorted-set pops: ZPOPMIN, ZPOPMAX, ZMPOP and the blocking BZPOPMIN, BZPOPMAX and BZMPOP, as
// Redis 7.0's t_zset.c. A blocking pop that finds members acts at once and replicates as
// ZPOPMIN/ZPOPMAX; otherwise the client blocks (blocking.cc) and is served from the first of
// its keys that becomes a sorted set, which replicates the same way.
#include <algorithm>
#include <span>
#include <string>

#include "server/base/numbers.h"
#include "server/command/command_table.h"
#include "server/engine/commands/cmd_zset.h"
#include "server/engine/commands/lookup.h"
#include "server/engine/commands/mpop_args.h"

namespace redlab::server::engine {
namespace {

std::string PopName(bool max) { return max ? "ZPOPMAX" : "ZPOPMIN"; }

// How the members popped are answered (genericZpopCommand's flags).
struct ZpopReply {
  bool emit_key = false;        // the key comes first (the multi-key forms)
  bool nested = false;          // each member with its score as a pair array
  bool nil_when_empty = false;  // no key to pop from: a null array rather than an empty one
};

// genericZpopCommand: pops up to `count` members (-1: one, in the single-member reply shape)
// from the first existing key of `keys`, stopping at a key of another type. Returns the key
// popped from, or nullptr; *len gets its size before the pop.
const std::string* Zpop(CommandContext& ctx, std::span<const std::string> keys, bool max,
                        int64_t count, ZpopReply shape, size_t* len) {
  const std::string* key = nullptr;
  Db::Node* node = nullptr;
  if (!FirstExistingKey(ctx, keys, ObjectType::kZset, &key, &node)) return nullptr;
  resp::ReplyWriter& r = ctx.reply();
  if (node == nullptr) {
    if (shape.nil_when_empty) {
      r.NullArray();
    } else {
      r.EmptyArray();
    }
    return nullptr;
  }
  if (count == 0) {  // ZPOPMIN key 0
    r.EmptyArray();
    return nullptr;
  }
  if (count == -1) count = 1;
  ZsetValue& zset = node->value.value.zset();
  *len = zset.size();
  size_t n = std::min(static_cast<size_t>(count), zset.size());
  if (!shape.emit_key) {
    r.ArrayHeader(shape.nested ? n : n * 2);
  } else if (!shape.nested) {
    r.ArrayHeader(n * 2 + 1);
    r.Bulk(*key);
  } else {
    r.ArrayHeader(2);
    r.Bulk(*key);
    r.ArrayHeader(n);
  }
  std::string member;
  for (size_t i = 0; i < n; ++i) {
    ZsetValue::Iterator it = zset.AtRank(max ? zset.size() - 1 : 0);
    member.assign(it.member());
    double score = it.score();
    zset.Remove(member);
    ctx.MarkDirty();
    if (i == 0) {
      // (Within the reply, as Redis: a RESP3 client popping its own keys gets the push there.)
      ctx.NotifyKeyspaceEvent(kNotifyZset, max ? "zpopmax" : "zpopmin", *key);
      ctx.SignalModifiedKey(*key);
    }
    if (shape.nested) r.ArrayHeader(2);
    r.Bulk(member);
    r.Double(score);
  }
  if (zset.empty()) {
    ctx.db().Delete(node);
    ctx.NotifyKeyspaceEvent(kNotifyGeneric, "del", *key);
  }
  return key;
}

// The replicated form of a pop: ZPOPMIN/ZPOPMAX key, with the number taken when a count was
// given.
std::vector<std::string> PopEffect(bool max, const std::string& key, int64_t count, size_t len) {
  if (count == -1) return {PopName(max), key};
  return {PopName(max), key, Int64ToString(std::min<int64_t>(count, static_cast<int64_t>(len)))};
}

// zpopMinMaxCommand: ZPOPMIN/ZPOPMAX key [count]. A flat [member, score, ...] array, except in
// RESP3 with an explicit count, where each pair is its own array.
void ZpopMinMax(CommandContext& ctx, bool max) {
  if (ctx.argc() > 3) {
    ctx.ReplySyntaxError();
    return;
  }
  int64_t count = -1;
  // getPositiveLongFromObjectOrReply: one text for "not a number" and "negative".
  if (ctx.argc() == 3 && (!ParseInt64(ctx.arg(2), &count) || count < 0)) {
    ctx.ReplyError("value is out of range, must be positive");
    return;
  }
  size_t len = 0;
  Zpop(ctx, ctx.args().subspan(1, 1), max, count,
       {.nested = ctx.reply().protocol() >= 3 && count != -1}, &len);
}

void ZpopminCommand(CommandContext& ctx) { ZpopMinMax(ctx, false); }
void ZpopmaxCommand(CommandContext& ctx) { ZpopMinMax(ctx, true); }

// The shape of BZPOPMIN/BZPOPMAX ([key, member, score]) or BZMPOP ([key, [[member, score]...]]).
ZpopReply BlockingShape(bool multi) {
  return {.emit_key = true, .nested = multi, .nil_when_empty = multi};
}

// Serves a client blocked in BZPOPMIN, BZPOPMAX or BZMPOP from `key`.
void ServeZpop(CommandContext& ctx, const std::string& key) {
  const Client::BlockState& block = ctx.client().block();
  bool max = block.from != 0;
  size_t len = 0;
  Zpop(ctx, std::span<const std::string>(&key, 1), max, block.count,
       BlockingShape(block.count != -1), &len);
  ctx.engine().Propagate(ctx.client().db(), PopEffect(max, key, block.count, len));
}

// blockingGenericZpopCommand: BZPOPMIN/BZPOPMAX (count -1) and BZMPOP (count > 0).
void BlockingZpop(CommandContext& ctx, std::span<const std::string> keys, bool max,
                  size_t timeout_index, int64_t count) {
  int64_t deadline = 0;
  if (!ctx.TimeoutArg(timeout_index, /*seconds=*/true, &deadline)) return;
  const std::string* key = nullptr;
  Db::Node* node = nullptr;
  if (!FirstExistingKey(ctx, keys, ObjectType::kZset, &key, &node)) return;
  if (node == nullptr) {
    ctx.engine().blocking().BlockPopOrReplyNull(ctx, Client::BlockKind::kZset, keys, deadline,
                                                ServeZpop, count, max ? 1 : 0);
    return;
  }
  size_t len = 0;
  Zpop(ctx, std::span<const std::string>(key, 1), max, count, BlockingShape(count != -1), &len);
  ctx.PropagateAs(PopEffect(max, *key, count, len));
}

void BzpopminCommand(CommandContext& ctx) {
  BlockingZpop(ctx, ctx.args().subspan(1, ctx.argc() - 2), false, ctx.argc() - 1, -1);
}

void BzpopmaxCommand(CommandContext& ctx) {
  BlockingZpop(ctx, ctx.args().subspan(1, ctx.argc() - 2), true, ctx.argc() - 1, -1);
}

// zmpopGenericCommand: [timeout] numkeys key [key ...] MIN|MAX [COUNT count], checked in Redis's
// order (numkeys, side, options, and only then a timeout).
void ZmpopGeneric(CommandContext& ctx, size_t numkeys_index, bool blocking) {
  MpopArgs mpop;
  if (!ParseMpopKeys(ctx, numkeys_index, &mpop)) return;
  bool max = false;
  if (ctx.ArgIs(mpop.side_index, "max")) {
    max = true;
  } else if (!ctx.ArgIs(mpop.side_index, "min")) {
    ctx.ReplySyntaxError();
    return;
  }
  if (!ParseMpopCount(ctx, &mpop)) return;
  std::span<const std::string> keys = mpop.keys;
  int64_t count = mpop.count;
  if (blocking) {
    BlockingZpop(ctx, keys, max, 1, count);
    return;
  }
  size_t len = 0;
  const std::string* key = Zpop(ctx, keys, max, count, BlockingShape(true), &len);
  if (key != nullptr) ctx.PropagateAs(PopEffect(max, *key, count, len));
}

void ZmpopCommand(CommandContext& ctx) { ZmpopGeneric(ctx, 1, false); }
void BzmpopCommand(CommandContext& ctx) { ZmpopGeneric(ctx, 2, true); }

}  // namespace

// The commands of specs/zset_pop.json (generated by server/command/generate_specs.py).
#include "server/engine/commands/specs/zset_pop.inc"

}  // namespace redlab::server::engine
