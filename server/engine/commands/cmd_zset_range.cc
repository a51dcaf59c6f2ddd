// Sorted-set range commands: ZRANGE (by rank, BYSCORE, BYLEX, REV, LIMIT, WITHSCORES),
// ZRANGESTORE, the older ZREVRANGE / Z[REV]RANGEBYSCORE / Z[REV]RANGEBYLEX forms, ZCOUNT,
// ZLEXCOUNT and ZREMRANGEBY{RANK,SCORE,LEX}, as Redis's zrangeGenericCommand and friends.
#include <cstdint>
#include <string>

#include "server/command/command_table.h"
#include "server/engine/commands/cmd_zset.h"
#include "server/engine/commands/lookup.h"

namespace redlab::server::engine {
namespace {

constexpr std::string_view kNotFloatRange = "min or max is not a float";
constexpr std::string_view kNotLexRange = "min or max not valid string range item";

enum class RangeType { kAuto, kRank, kScore, kLex };
enum class Direction { kAuto, kForward, kReverse };

// Where the members of a range go: to the client (ZRANGE...), or into a new sorted set stored
// under a destination key (ZRANGESTORE), as Redis's zrange_result_handler.
class RangeSink {
 public:
  RangeSink(CommandContext& ctx, const std::string* destination, bool withscores)
      : ctx_(ctx), destination_(destination), withscores_(withscores) {
    if (destination_ != nullptr) {
      stored_ = Object::NewZset(ZsetValue::Encoding::kListpack);
      limits_ = ZsetLimitsOf(ctx);
    }
  }

  // Starts the reply: with the member count when known (rank ranges), else with a deferred
  // length filled in by Finish.
  void Begin(size_t known_count = kUnknown) {
    if (destination_ != nullptr) return;
    resp::ReplyWriter& r = ctx_.reply();
    if (known_count == kUnknown) {
      header_ = r.BeginDeferred();
      deferred_ = true;
    } else {
      r.ArrayHeader(withscores_ ? ScoredArrayLength(r, known_count) : known_count);
    }
  }

  void Emit(std::string_view member, double score) {
    ++count_;
    if (destination_ != nullptr) {
      double unused;
      stored_.zset().Add(score, member, 0, limits_, &unused);
      return;
    }
    resp::ReplyWriter& r = ctx_.reply();
    if (withscores_) {
      ReplyScoredMember(r, member, score);
    } else {
      r.Bulk(member);
    }
  }

  // zrangeResultFinalizeClient / zrangeResultFinalizeStore.
  void Finish() {
    resp::ReplyWriter& r = ctx_.reply();
    if (destination_ == nullptr) {
      if (deferred_)
        r.EndDeferredArray(header_, withscores_ ? ScoredArrayLength(r, count_) : count_);
      return;
    }
    Db& db = ctx_.db();
    if (count_ > 0) {
      db.LookupWrite(*destination_);  // setKey: an expired destination goes first
      db.Set(*destination_, std::move(stored_));
      ctx_.SignalModifiedKey(*destination_);
      ctx_.MarkDirty();
      r.Integer(static_cast<int64_t>(count_));
      ctx_.NotifyKeyspaceEvent(kNotifyZset, "zrangestore", *destination_);
    } else {
      r.Integer(0);
      if (db.Delete(*destination_)) {
        ctx_.SignalModifiedKey(*destination_);
        ctx_.NotifyKeyspaceEvent(kNotifyGeneric, "del", *destination_);
        ctx_.MarkDirty();
      }
    }
  }

 private:
  static constexpr size_t kUnknown = static_cast<size_t>(-1);

  CommandContext& ctx_;
  const std::string* destination_;
  bool withscores_;
  bool deferred_ = false;
  size_t header_ = 0;
  size_t count_ = 0;
  Object stored_;
  ZsetLimits limits_;
};

void RangeByRank(RangeSink& sink, const ZsetValue& zset, int64_t start, int64_t end, bool reverse) {
  const int64_t length = static_cast<int64_t>(zset.size());
  if (start < 0) start += length;
  if (end < 0) end += length;
  if (start < 0) start = 0;
  if (start > end || start >= length) {
    sink.Begin(0);
    sink.Finish();
    return;
  }
  if (end >= length) end = length - 1;
  int64_t n = end - start + 1;
  sink.Begin(static_cast<size_t>(n));
  ZsetValue::Iterator it = zset.AtRank(static_cast<size_t>(reverse ? length - 1 - start : start));
  for (; n-- > 0; reverse ? it.Prev() : it.Next()) sink.Emit(it.member(), it.score());
  sink.Finish();
}

// genericZrangebyscoreCommand / genericZrangebylexCommand: from the first member in range (the
// last when reversed), skip `offset` members, then take up to `limit` (negative: all) while in
// range. A negative offset skips everything.
template <typename Range, typename Key>
void RangeByValue(RangeSink& sink, const ZsetValue& zset, const Range& range, int64_t offset,
                  int64_t limit, bool reverse, Key key) {
  sink.Begin();
  ZsetValue::Iterator it = reverse ? zset.LastInRange(range) : zset.FirstInRange(range);
  auto step = [&] { reverse ? it.Prev() : it.Next(); };
  while (it.valid() && offset-- != 0) step();
  while (it.valid() && limit-- != 0) {
    if (reverse ? !range.GteMin(key(it)) : !range.LteMax(key(it))) break;
    sink.Emit(it.member(), it.score());
    step();
  }
  sink.Finish();
}

double ScoreOf(const ZsetValue::Iterator& it) { return it.score(); }
std::string_view MemberOf(const ZsetValue::Iterator& it) { return it.member(); }

// zrangeGenericCommand. `first` is the index of the source key; `store` for ZRANGESTORE.
void RangeGeneric(CommandContext& ctx, size_t first, bool store, RangeType type,
                  Direction direction) {
  size_t min_index = first + 1, max_index = first + 2;
  bool withscores = false;
  int64_t offset = 0, limit = -1;
  for (size_t j = first + 3; j < ctx.argc(); ++j) {
    size_t left = ctx.argc() - j - 1;
    if (!store && ctx.ArgIs(j, "withscores")) {
      withscores = true;
    } else if (ctx.ArgIs(j, "limit") && left >= 2) {
      if (!ctx.IntArg(j + 1, &offset) || !ctx.IntArg(j + 2, &limit)) return;
      j += 2;
    } else if (direction == Direction::kAuto && ctx.ArgIs(j, "rev")) {
      direction = Direction::kReverse;
    } else if (type == RangeType::kAuto && ctx.ArgIs(j, "bylex")) {
      type = RangeType::kLex;
    } else if (type == RangeType::kAuto && ctx.ArgIs(j, "byscore")) {
      type = RangeType::kScore;
    } else {
      ctx.ReplySyntaxError();
      return;
    }
  }
  if (direction == Direction::kAuto) direction = Direction::kForward;
  if (type == RangeType::kAuto) type = RangeType::kRank;
  // LIMIT 0 -1 is the default, which Redis cannot tell from no LIMIT.
  if (limit != -1 && type == RangeType::kRank) {
    ctx.ReplyError(
        "syntax error, LIMIT is only supported in combination with either BYSCORE or BYLEX");
    return;
  }
  if (withscores && type == RangeType::kLex) {
    ctx.ReplyError("syntax error, WITHSCORES not supported in combination with BYLEX");
    return;
  }
  const bool reverse = direction == Direction::kReverse;
  if (reverse && type != RangeType::kRank) std::swap(min_index, max_index);  // given as max min

  int64_t start = 0, end = 0;
  ScoreRange score_range;
  LexRange lex_range;
  switch (type) {
    case RangeType::kAuto:
    case RangeType::kRank:
      if (!ctx.IntArg(min_index, &start) || !ctx.IntArg(max_index, &end)) return;
      break;
    case RangeType::kScore:
      if (!ParseScoreRange(ctx.arg(min_index), ctx.arg(max_index), &score_range)) {
        ctx.ReplyError(kNotFloatRange);
        return;
      }
      break;
    case RangeType::kLex:
      if (!ParseLexRange(ctx.arg(min_index), ctx.arg(max_index), &lex_range)) {
        ctx.ReplyError(kNotLexRange);
        return;
      }
      break;
  }

  Db::Node* node = ctx.db().LookupRead(ctx.arg(first));
  if (node == nullptr) {
    if (store) {
      RangeSink empty(ctx, &ctx.arg(1), false);
      empty.Begin(0);
      empty.Finish();
    } else {
      ctx.reply().EmptyArray();
    }
    return;
  }
  if (!node->value.value.is(ObjectType::kZset)) {
    ctx.ReplyWrongType();
    return;
  }
  const ZsetValue& zset = node->value.value.zset();
  RangeSink sink(ctx, store ? &ctx.arg(1) : nullptr, withscores);
  switch (type) {
    case RangeType::kAuto:
    case RangeType::kRank:
      RangeByRank(sink, zset, start, end, reverse);
      break;
    case RangeType::kScore:
      // An offset past the end answers at once.
      if (offset > 0 && static_cast<uint64_t>(offset) >= zset.size()) {
        sink.Begin(0);
        sink.Finish();
        return;
      }
      RangeByValue(sink, zset, score_range, offset, limit, reverse, ScoreOf);
      break;
    case RangeType::kLex:
      RangeByValue(sink, zset, lex_range, offset, limit, reverse, MemberOf);
      break;
  }
}

void ZrangeCommand(CommandContext& ctx) {
  RangeGeneric(ctx, 1, false, RangeType::kAuto, Direction::kAuto);
}
void ZrangestoreCommand(CommandContext& ctx) {
  RangeGeneric(ctx, 2, true, RangeType::kAuto, Direction::kAuto);
}
void ZrevrangeCommand(CommandContext& ctx) {
  RangeGeneric(ctx, 1, false, RangeType::kRank, Direction::kReverse);
}
void ZrangebyscoreCommand(CommandContext& ctx) {
  RangeGeneric(ctx, 1, false, RangeType::kScore, Direction::kForward);
}
void ZrevrangebyscoreCommand(CommandContext& ctx) {
  RangeGeneric(ctx, 1, false, RangeType::kScore, Direction::kReverse);
}
void ZrangebylexCommand(CommandContext& ctx) {
  RangeGeneric(ctx, 1, false, RangeType::kLex, Direction::kForward);
}
void ZrevrangebylexCommand(CommandContext& ctx) {
  RangeGeneric(ctx, 1, false, RangeType::kLex, Direction::kReverse);
}

// ZCOUNT and ZLEXCOUNT: the range is checked before the key is looked up.
template <typename Range>
void CountGeneric(CommandContext& ctx,
                  bool (*parse)(const std::string&, const std::string&, Range*),
                  std::string_view error) {
  Range range;
  if (!parse(ctx.arg(2), ctx.arg(3), &range)) {
    ctx.ReplyError(error);
    return;
  }
  Db::Node* node = nullptr;
  if (!ctx.LookupRead(ctx.arg(1), ObjectType::kZset, &node)) return;
  ctx.reply().Integer(node ? static_cast<int64_t>(node->value.value.zset().Count(range)) : 0);
}

bool ParseLex(const std::string& min, const std::string& max, LexRange* out) {
  return ParseLexRange(min, max, out);
}

void ZcountCommand(CommandContext& ctx) { CountGeneric(ctx, ParseScoreRange, kNotFloatRange); }
void ZlexcountCommand(CommandContext& ctx) { CountGeneric(ctx, ParseLex, kNotLexRange); }

// zremrangeGenericCommand.
void RemoveRangeGeneric(CommandContext& ctx, RangeType type) {
  int64_t start = 0, end = 0;
  ScoreRange score_range;
  LexRange lex_range;
  if (type == RangeType::kRank) {
    if (!ctx.IntArg(2, &start) || !ctx.IntArg(3, &end)) return;
  } else if (type == RangeType::kScore) {
    if (!ParseScoreRange(ctx.arg(2), ctx.arg(3), &score_range)) {
      ctx.ReplyError(kNotFloatRange);
      return;
    }
  } else if (!ParseLexRange(ctx.arg(2), ctx.arg(3), &lex_range)) {
    ctx.ReplyError(kNotLexRange);
    return;
  }
  const std::string& key = ctx.arg(1);
  Db::Node* node = WriteOrReply(ctx, key, ObjectType::kZset, IfMissing::kZero);
  if (node == nullptr) return;
  ZsetValue& zset = node->value.value.zset();
  size_t deleted = 0;
  if (type == RangeType::kRank) {
    const int64_t length = static_cast<int64_t>(zset.size());
    if (start < 0) start += length;
    if (end < 0) end += length;
    if (start < 0) start = 0;
    if (start > end || start >= length) {
      ctx.reply().Integer(0);
      return;
    }
    if (end >= length) end = length - 1;
    deleted = zset.RemoveRanks(static_cast<size_t>(start), static_cast<size_t>(end));
  } else if (type == RangeType::kScore) {
    deleted = zset.RemoveRange(score_range);
  } else {
    deleted = zset.RemoveRange(lex_range);
  }
  const bool key_removed = zset.empty();
  if (key_removed) ctx.db().Delete(node);
  if (deleted > 0) {
    std::string_view event = type == RangeType::kRank    ? "zremrangebyrank"
                             : type == RangeType::kScore ? "zremrangebyscore"
                                                         : "zremrangebylex";
    ctx.SignalModifiedKey(key);
    ctx.NotifyKeyspaceEvent(kNotifyZset, event, key);
    if (key_removed) ctx.NotifyKeyspaceEvent(kNotifyGeneric, "del", key);
  }
  ctx.MarkDirty(deleted);
  ctx.reply().Integer(static_cast<int64_t>(deleted));
}

void ZremrangebyrankCommand(CommandContext& ctx) { RemoveRangeGeneric(ctx, RangeType::kRank); }
void ZremrangebyscoreCommand(CommandContext& ctx) { RemoveRangeGeneric(ctx, RangeType::kScore); }
void ZremrangebylexCommand(CommandContext& ctx) { RemoveRangeGeneric(ctx, RangeType::kLex); }

}  // namespace

// The commands of specs/zset_range.json (generated by server/command/generate_specs.py).
#include "server/engine/commands/specs/zset_range.inc"

}  // namespace redlab::server::engine
