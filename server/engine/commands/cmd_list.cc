// List commands (non-blocking): pushes, pops, ranges, edits, LPOS and LMOVE, with Redis 7.0's
// argument checks in Redis's order, its dirty counts and its WATCH signals. The blocking and
// multi-key pops are in cmd_list_blocking.cc.
#include "server/engine/commands/cmd_list.h"

#include <string>

#include "server/base/numbers.h"
#include "server/command/command_table.h"
#include "server/engine/commands/lookup.h"
#include "server/engine/core/context.h"
#include "server/engine/core/engine.h"
#include "server/engine/core/errors.h"

namespace redlab::server::engine {
namespace {

using End = ListValue::End;

constexpr std::string_view kMustBePositive = "value is out of range, must be positive";

ListValue& ListOf(Db::Node* node) { return node->value.value.list(); }

// Deletes the key of a list left empty, as every Redis list command does, with its "del" event.
void DeleteIfEmpty(CommandContext& ctx, Db::Node* node, std::string_view key) {
  if (!ListOf(node).empty()) return;
  ctx.db().Delete(node);
  ctx.NotifyKeyspaceEvent(kNotifyGeneric, "del", key);
}

std::string_view PushEvent(End end) { return end == End::kHead ? "lpush" : "rpush"; }

// getPositiveLongFromObjectOrReply: a non-negative integer, else `error` (also for non-integers).
bool NonNegativeArg(CommandContext& ctx, size_t i, std::string_view error, int64_t* out) {
  if (!ParseInt64(ctx.arg(i), out) || *out < 0) {
    ctx.ReplyError(error);
    return false;
  }
  return true;
}

// Replies the elements at positions [first, last] as an array (reversed for tail pops).
void ReplyRange(CommandContext& ctx, const ListValue& list, size_t first, size_t last,
                bool reverse) {
  resp::ReplyWriter& r = ctx.reply();
  r.ArrayHeader(last - first + 1);
  list.ForEach(first, last, reverse, [&](std::string_view v) { r.Bulk(v); });
}

// Pops up to `count` (> 0) elements from `end` of a non-empty list and replies them as an array in
// the order they were popped (listPopRangeAndReplyWithKey's range); returns how many it popped.
size_t PopAndReplyRange(CommandContext& ctx, ListValue& list, End end, int64_t count) {
  size_t len = list.size();
  size_t n = static_cast<uint64_t>(count) < len ? static_cast<size_t>(count) : len;
  if (end == End::kHead) {
    ReplyRange(ctx, list, 0, n - 1, false);
  } else {
    ReplyRange(ctx, list, len - n, len - 1, true);
  }
  list.Erase(end, n);
  return n;
}

// LPUSH, RPUSH, LPUSHX, RPUSHX (pushGenericCommand). `only_existing` is the X variants.
void Push(CommandContext& ctx, End end, bool only_existing) {
  const std::string& key = ctx.arg(1);
  Db::Node* node = nullptr;
  if (!ctx.LookupWrite(key, ObjectType::kList, &node)) return;
  if (node == nullptr) {
    if (only_existing) {
      ctx.reply().Integer(0);
      return;
    }
    node = ctx.db().Add(key, Object::NewList());
  }
  ListValue& list = ListOf(node);
  for (size_t i = 2; i < ctx.argc(); ++i) list.Push(end, ctx.arg(i));
  ctx.MarkDirty(ctx.argc() - 2);
  ctx.reply().Integer(static_cast<int64_t>(list.size()));
  ctx.SignalModifiedKey(key);
  ctx.NotifyKeyspaceEvent(kNotifyList, PushEvent(end), key);
}

void LpushCommand(CommandContext& ctx) { Push(ctx, End::kHead, false); }
void RpushCommand(CommandContext& ctx) { Push(ctx, End::kTail, false); }
void LpushxCommand(CommandContext& ctx) { Push(ctx, End::kHead, true); }
void RpushxCommand(CommandContext& ctx) { Push(ctx, End::kTail, true); }

// LPOP / RPOP [count] (popGenericCommand).
void Pop(CommandContext& ctx, End end) {
  if (ctx.argc() > 3) {
    ctx.ReplyWrongArity();
    return;
  }
  bool has_count = ctx.argc() == 3;
  int64_t count = 0;
  if (has_count && !NonNegativeArg(ctx, 2, kMustBePositive, &count)) return;
  const std::string& key = ctx.arg(1);
  Db::Node* node = nullptr;
  if (!ctx.LookupWrite(key, ObjectType::kList, &node)) return;
  if (node == nullptr) {
    // With a count the missing key is a null array (*-1 in RESP2), without it a null bulk.
    if (has_count) {
      ctx.reply().NullArray();
    } else {
      ctx.reply().Null();
    }
    return;
  }
  if (has_count && count == 0) {
    ctx.reply().EmptyArray();
    return;
  }
  ListValue& list = ListOf(node);
  size_t removed = 1;
  if (!has_count) {
    ctx.reply().Bulk(list.Pop(end));
  } else {
    removed = PopAndReplyRange(ctx, list, end, count);
  }
  ListPopped(ctx, node, key, end);
  ctx.SignalModifiedKey(key);
  ctx.MarkDirty(removed);
}

void LpopCommand(CommandContext& ctx) { Pop(ctx, End::kHead); }
void RpopCommand(CommandContext& ctx) { Pop(ctx, End::kTail); }

void LlenCommand(CommandContext& ctx) {
  Db::Node* node = nullptr;
  if (!ctx.LookupRead(ctx.arg(1), ObjectType::kList, &node)) return;
  ctx.reply().Integer(node ? static_cast<int64_t>(ListOf(node).size()) : 0);
}

void LindexCommand(CommandContext& ctx) {
  Db::Node* node = ReadOrReply(ctx, ctx.arg(1), ObjectType::kList, IfMissing::kNull);
  if (node == nullptr) return;
  int64_t index = 0;
  if (!ctx.IntArg(2, &index)) return;
  const ListValue& list = ListOf(node);
  size_t pos = 0;
  if (ListValue::ResolveIndex(index, list.size(), &pos)) {
    ctx.reply().Bulk(list.at(pos));
  } else {
    ctx.reply().Null();
  }
}

void LrangeCommand(CommandContext& ctx) {
  int64_t start = 0;
  int64_t end = 0;
  if (!ctx.IntArg(2, &start) || !ctx.IntArg(3, &end)) return;
  Db::Node* node = nullptr;
  if (!ctx.LookupRead(ctx.arg(1), ObjectType::kList, &node)) return;
  size_t first = 0;
  size_t last = 0;
  if (node == nullptr || !ListValue::ResolveRange(start, end, ListOf(node).size(), &first, &last)) {
    ctx.reply().EmptyArray();
    return;
  }
  ReplyRange(ctx, ListOf(node), first, last, false);
}

void LsetCommand(CommandContext& ctx) {
  const std::string& key = ctx.arg(1);
  Db::Node* node = WriteOrReply(ctx, key, ObjectType::kList, IfMissing::kNoSuchKey);
  if (node == nullptr) return;
  int64_t index = 0;
  if (!ctx.IntArg(2, &index)) return;
  ListValue& list = ListOf(node);
  size_t pos = 0;
  if (!ListValue::ResolveIndex(index, list.size(), &pos)) {
    ctx.ReplyError(err::kOutOfRange);
    return;
  }
  list.at(pos) = ctx.arg(3);
  ctx.ReplyOk();
  ctx.SignalModifiedKey(key);
  ctx.NotifyKeyspaceEvent(kNotifyList, "lset", key);
  ctx.MarkDirty();
}

void LtrimCommand(CommandContext& ctx) {
  int64_t start = 0;
  int64_t end = 0;
  if (!ctx.IntArg(2, &start) || !ctx.IntArg(3, &end)) return;
  const std::string& key = ctx.arg(1);
  Db::Node* node = WriteOrReply(ctx, key, ObjectType::kList, IfMissing::kOk);
  if (node == nullptr) return;
  size_t removed = ListOf(node).Trim(start, end);
  // The event even when nothing was trimmed.
  ctx.NotifyKeyspaceEvent(kNotifyList, "ltrim", key);
  DeleteIfEmpty(ctx, node, key);
  // Redis signals the key even when nothing was trimmed (but counts no change then).
  ctx.SignalModifiedKey(key);
  ctx.MarkDirty(removed);
  ctx.ReplyOk();
}

void LremCommand(CommandContext& ctx) {
  int64_t count = 0;
  if (!ctx.IntArg(2, &count)) return;
  const std::string& key = ctx.arg(1);
  Db::Node* node = WriteOrReply(ctx, key, ObjectType::kList, IfMissing::kZero);
  if (node == nullptr) return;
  size_t removed = ListOf(node).Remove(ctx.arg(3), count);
  if (removed > 0) {
    ctx.SignalModifiedKey(key);
    ctx.NotifyKeyspaceEvent(kNotifyList, "lrem", key);
  }
  DeleteIfEmpty(ctx, node, key);
  ctx.MarkDirty(removed);
  ctx.reply().Integer(static_cast<int64_t>(removed));
}

void LinsertCommand(CommandContext& ctx) {
  bool after = false;
  if (ctx.ArgIs(2, "after")) {
    after = true;
  } else if (!ctx.ArgIs(2, "before")) {
    ctx.ReplySyntaxError();
    return;
  }
  const std::string& key = ctx.arg(1);
  Db::Node* node = WriteOrReply(ctx, key, ObjectType::kList, IfMissing::kZero);
  if (node == nullptr) return;
  ListValue& list = ListOf(node);
  size_t pivot = list.Find(ctx.arg(3));
  if (pivot == std::string::npos) {
    ctx.reply().Integer(-1);
    return;
  }
  list.Insert(after ? pivot + 1 : pivot, ctx.arg(4));
  ctx.SignalModifiedKey(key);
  ctx.NotifyKeyspaceEvent(kNotifyList, "linsert", key);
  ctx.MarkDirty();
  ctx.reply().Integer(static_cast<int64_t>(list.size()));
}

// LPOS key element [RANK rank] [COUNT num-matches] [MAXLEN len]
void LposCommand(CommandContext& ctx) {
  int64_t rank = 1;
  int64_t count = -1;  // -1: no COUNT option (reply one index or nil, not an array)
  int64_t maxlen = 0;
  for (size_t j = 3; j < ctx.argc(); ++j) {
    bool more = j + 1 < ctx.argc();
    if (ctx.ArgIs(j, "rank") && more) {
      if (!ctx.IntArg(++j, &rank)) return;
      if (rank == 0) {
        ctx.ReplyError(
            "RANK can't be zero: use 1 to start from the first match, 2 from the second ... or "
            "use negative to start from the end of the list");
        return;
      }
    } else if (ctx.ArgIs(j, "count") && more) {
      if (!NonNegativeArg(ctx, ++j, "COUNT can't be negative", &count)) return;
    } else if (ctx.ArgIs(j, "maxlen") && more) {
      if (!NonNegativeArg(ctx, ++j, "MAXLEN can't be negative", &maxlen)) return;
    } else {
      ctx.ReplySyntaxError();
      return;
    }
  }
  Db::Node* node = nullptr;
  if (!ctx.LookupRead(ctx.arg(1), ObjectType::kList, &node)) return;
  if (node == nullptr) {
    if (count != -1) {
      ctx.reply().EmptyArray();
    } else {
      ctx.reply().Null();
    }
    return;
  }
  std::vector<int64_t> found =
      ListOf(node).Positions(ctx.arg(2), rank, count == -1 ? 1 : count, maxlen);
  resp::ReplyWriter& r = ctx.reply();
  if (count == -1) {
    if (found.empty()) {
      r.Null();
    } else {
      r.Integer(found.front());
    }
    return;
  }
  r.ArrayHeader(found.size());
  for (int64_t pos : found) r.Integer(pos);
}

void LmoveCommand(CommandContext& ctx) {
  End from;
  End to;
  if (!ListEndArg(ctx, 3, &from) || !ListEndArg(ctx, 4, &to)) return;
  ListMove(ctx, from, to);
}

void RpoplpushCommand(CommandContext& ctx) { ListMove(ctx, End::kTail, End::kHead); }

}  // namespace

bool ListEndArg(CommandContext& ctx, size_t i, End* end) {
  if (ctx.ArgIs(i, "left")) {
    *end = End::kHead;
  } else if (ctx.ArgIs(i, "right")) {
    *end = End::kTail;
  } else {
    ctx.ReplySyntaxError();
    return false;
  }
  return true;
}

std::string_view ListEndName(End end) { return end == End::kHead ? "left" : "right"; }

void ListPopped(CommandContext& ctx, Db::Node* node, const std::string& key, End end) {
  ctx.NotifyKeyspaceEvent(kNotifyList, end == End::kHead ? "lpop" : "rpop", key);
  DeleteIfEmpty(ctx, node, key);
}

void ListPushMoved(CommandContext& ctx, const std::string& destination, Db::Node* dst, End to,
                   const std::string& value) {
  if (dst == nullptr) dst = ctx.db().Add(destination, Object::NewList());
  ctx.SignalModifiedKey(destination);
  ListOf(dst).Push(to, value);
  ctx.NotifyKeyspaceEvent(kNotifyList, PushEvent(to), destination);
  ctx.reply().Bulk(value);
}

void ListMove(CommandContext& ctx, End from, End to) {
  const std::string& source = ctx.arg(1);
  const std::string& destination = ctx.arg(2);
  Db::Node* src = WriteOrReply(ctx, source, ObjectType::kList, IfMissing::kNull);
  if (src == nullptr) return;
  Db::Node* dst = nullptr;
  if (!ctx.LookupWrite(destination, ObjectType::kList, &dst)) return;
  std::string value = ListOf(src).Pop(from);
  // With source == destination the list is the same object: the element is pushed back before
  // the emptiness check below, so a one-element list survives a rotation.
  ListPushMoved(ctx, destination, dst, to, value);
  ListPopped(ctx, src, source, from);
  ctx.SignalModifiedKey(source);
  ctx.MarkDirty();
  // The blocking forms that did not have to block replicate as their plain counterparts.
  std::string_view name = ctx.command().name();
  if (name == "blmove") {
    ctx.PropagateAs({"LMOVE", source, destination, ctx.arg(3), ctx.arg(4)});
  } else if (name == "brpoplpush") {
    ctx.PropagateAs({"RPOPLPUSH", source, destination});
  }
}

void ListPopRangeWithKey(CommandContext& ctx, const std::string& key, Db::Node* node, End end,
                         int64_t count) {
  resp::ReplyWriter& r = ctx.reply();
  r.ArrayHeader(2);
  r.Bulk(key);
  size_t n = PopAndReplyRange(ctx, ListOf(node), end, count);
  ListPopped(ctx, node, key, end);
  ctx.SignalModifiedKey(key);
  ctx.MarkDirty(n);
}

// The commands of specs/list.json (generated by server/command/generate_specs.py).
#include "server/engine/commands/specs/list.inc"

}  // namespace redlab::server::engine
