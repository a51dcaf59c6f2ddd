// Blocking and multi-key list pops: BLPOP, BRPOP, BRPOPLPUSH, BLMOVE, LMPOP and BLMPOP, as
// Redis 7.0's t_list.c. A command that finds data acts at once and replicates as its plain
// counterpart (LPOP, LMOVE...); otherwise the client blocks (blocking.cc) and is served from the
// first of its keys that becomes a list, which replicates the same way.
#include <algorithm>
#include <span>
#include <string>

#include "server/base/numbers.h"
#include "server/command/command_table.h"
#include "server/engine/commands/cmd_list.h"
#include "server/engine/commands/lookup.h"
#include "server/engine/commands/mpop_args.h"
#include "server/engine/core/engine.h"

namespace redlab::server::engine {
namespace {

using End = ListValue::End;

ListValue& ListOf(Db::Node* node) { return node->value.value.list(); }

std::string PopName(End end) { return end == End::kHead ? "LPOP" : "RPOP"; }

// How many elements a pop of `count` takes from a list of `len` (what the COUNT form replicates).
std::string Taken(int64_t count, size_t len) {
  return Int64ToString(std::min<int64_t>(count, static_cast<int64_t>(len)));
}

// Serves a client blocked in BLPOP, BRPOP or BLMPOP from `key` (serveClientBlockedOnList).
// Only BLMPOP's pop counts as a change and signals the key: the push that made it ready did.
void ServePop(CommandContext& ctx, const std::string& key) {
  const Client::BlockState& block = ctx.client().block();
  End where = static_cast<End>(block.from);
  Db::Node* node = ctx.db().LookupWrite(key);
  ListValue& list = ListOf(node);
  if (block.count != -1) {
    ctx.engine().Propagate(ctx.client().db(),
                           {PopName(where), key, Taken(block.count, list.size())});
    ListPopRangeWithKey(ctx, key, node, where, block.count);
    return;
  }
  ctx.engine().Propagate(ctx.client().db(), {PopName(where), key});
  std::string value = list.Pop(where);
  ctx.reply().ArrayHeader(2);
  ctx.reply().Bulk(key);
  ctx.reply().Bulk(value);
  ListPopped(ctx, node, key, where);
}

// Serves a client blocked in BLMOVE or BRPOPLPUSH from `key`. A destination of another type
// gets the client its WRONGTYPE, and the element stays where it is for the next client.
void ServeMove(CommandContext& ctx, const std::string& key) {
  const Client::BlockState& block = ctx.client().block();
  End from = static_cast<End>(block.from);
  End to = static_cast<End>(block.to);
  const std::string& destination = ctx.arg(2);
  Db::Node* dst = nullptr;
  if (!ctx.LookupWrite(destination, ObjectType::kList, &dst)) return;
  Db::Node* src = ctx.db().LookupWrite(key);
  std::string value = ListOf(src).Pop(from);
  ListPushMoved(ctx, destination, dst, to, value);
  // (Its pop event and the source's deletion follow the propagation below.)
  if (ctx.command().name() == "brpoplpush") {
    ctx.engine().Propagate(ctx.client().db(), {"RPOPLPUSH", key, destination});
  } else {
    ctx.engine().Propagate(
        ctx.client().db(),
        {"LMOVE", key, destination, std::string(ListEndName(from)), std::string(ListEndName(to))});
  }
  ListPopped(ctx, src, key, from);
}

// blockingPopGenericCommand: BLPOP and BRPOP (count -1: one element, answered [key, element])
// and BLMPOP (count > 0: [key, [elements]]).
void BlockingPop(CommandContext& ctx, std::span<const std::string> keys, End where,
                 size_t timeout_index, int64_t count) {
  int64_t deadline = 0;
  if (!ctx.TimeoutArg(timeout_index, /*seconds=*/true, &deadline)) return;
  const std::string* found = nullptr;
  Db::Node* node = nullptr;
  if (!FirstExistingKey(ctx, keys, ObjectType::kList, &found, &node)) return;
  if (node == nullptr) {
    ctx.engine().blocking().BlockPopOrReplyNull(ctx, Client::BlockKind::kList, keys, deadline,
                                                ServePop, count, static_cast<int>(where));
    return;
  }
  const std::string& key = *found;
  ListValue& list = ListOf(node);
  if (count != -1) {
    ctx.PropagateAs({PopName(where), key, Taken(count, list.size())});
    ListPopRangeWithKey(ctx, key, node, where, count);
    return;
  }
  std::string value = list.Pop(where);
  ctx.reply().ArrayHeader(2);
  ctx.reply().Bulk(key);
  ctx.reply().Bulk(value);
  ListPopped(ctx, node, key, where);
  ctx.SignalModifiedKey(key);
  ctx.MarkDirty();
  ctx.PropagateAs({PopName(where), key});
}

void BlpopCommand(CommandContext& ctx) {
  BlockingPop(ctx, ctx.args().subspan(1, ctx.argc() - 2), End::kHead, ctx.argc() - 1, -1);
}

void BrpopCommand(CommandContext& ctx) {
  BlockingPop(ctx, ctx.args().subspan(1, ctx.argc() - 2), End::kTail, ctx.argc() - 1, -1);
}

// blmoveGenericCommand: BLMOVE and BRPOPLPUSH, once their arguments are parsed.
void BlockingMove(CommandContext& ctx, End from, End to, int64_t deadline) {
  Db::Node* src = nullptr;
  if (!ctx.LookupWrite(ctx.arg(1), ObjectType::kList, &src)) return;
  if (src != nullptr) {
    ListMove(ctx, from, to);
    return;
  }
  if (!ctx.may_block()) {
    ctx.reply().Null();  // (a timeout answers a null array: Redis's own inconsistency)
    return;
  }
  Client::BlockState& block = ctx.client().block();
  block.serve = ServeMove;
  block.from = static_cast<int>(from);
  block.to = static_cast<int>(to);
  ctx.engine().blocking().BlockForKeys(ctx, Client::BlockKind::kList, ctx.args().subspan(1, 1),
                                       deadline);
}

void BlmoveCommand(CommandContext& ctx) {
  End from;
  End to;
  int64_t deadline = 0;
  if (!ListEndArg(ctx, 3, &from) || !ListEndArg(ctx, 4, &to)) return;
  if (!ctx.TimeoutArg(5, /*seconds=*/true, &deadline)) return;
  BlockingMove(ctx, from, to, deadline);
}

void BrpoplpushCommand(CommandContext& ctx) {
  int64_t deadline = 0;
  if (!ctx.TimeoutArg(3, /*seconds=*/true, &deadline)) return;
  BlockingMove(ctx, End::kTail, End::kHead, deadline);
}

// mpopGenericCommand: LMPOP pops from the first non-empty list of `keys`.
void Mpop(CommandContext& ctx, std::span<const std::string> keys, End where, int64_t count) {
  const std::string* key = nullptr;
  Db::Node* node = nullptr;
  if (!FirstExistingKey(ctx, keys, ObjectType::kList, &key, &node)) return;
  if (node == nullptr) {
    ctx.reply().NullArray();
    return;
  }
  ctx.PropagateAs({PopName(where), *key, Taken(count, ListOf(node).size())});
  ListPopRangeWithKey(ctx, *key, node, where, count);
}

// lmpopGenericCommand: [timeout] numkeys key [key ...] LEFT|RIGHT [COUNT count], checked in
// Redis's order (numkeys, direction, options, and only then a timeout).
void MpopGeneric(CommandContext& ctx, size_t numkeys_index, bool blocking) {
  MpopArgs mpop;
  if (!ParseMpopKeys(ctx, numkeys_index, &mpop)) return;
  End where;
  if (!ListEndArg(ctx, mpop.side_index, &where)) return;
  if (!ParseMpopCount(ctx, &mpop)) return;
  if (blocking) {
    BlockingPop(ctx, mpop.keys, where, 1, mpop.count);
  } else {
    Mpop(ctx, mpop.keys, where, mpop.count);
  }
}

void LmpopCommand(CommandContext& ctx) { MpopGeneric(ctx, 1, false); }
void BlmpopCommand(CommandContext& ctx) { MpopGeneric(ctx, 2, true); }

}  // namespace

// The commands of specs/list_blocking.json (generated by server/command/generate_specs.py).
#include "server/engine/commands/specs/list_blocking.inc"

}  // namespace redlab::server::engine
