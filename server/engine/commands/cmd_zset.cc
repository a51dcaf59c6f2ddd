// Sorted-set commands on members: ZADD, ZINCRBY, ZREM, ZSCORE, ZMSCORE, ZCARD, ZRANK, ZREVRANK,
// ZRANDMEMBER and ZSCAN, as Redis's t_zset.c. The range commands are in cmd_zset_range.cc, the
// pops (blocking or not) in cmd_zset_pop.cc.
#include "server/engine/commands/cmd_zset.h"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <random>
#include <string>
#include <unordered_set>
#include <vector>

#include "server/base/numbers.h"
#include "server/command/command_table.h"
#include "server/engine/commands/lookup.h"
#include "server/engine/commands/scan.h"

namespace redlab::server::engine {
namespace {

// ZADD or ZINCRBY changed `key`: its signal and its event ("zincr" for the INCR forms).
void Changed(CommandContext& ctx, const std::string& key, bool incr) {
  ctx.SignalModifiedKey(key);
  ctx.NotifyKeyspaceEvent(kNotifyZset, incr ? "zincr" : "zadd", key);
}

// zaddGenericCommand, for ZADD and ZINCRBY (which is ZADD with INCR forced).
void ZaddGeneric(CommandContext& ctx, uint32_t flags) {
  bool ch = false;
  size_t score_index = 2;
  for (; score_index < ctx.argc(); ++score_index) {
    if (ctx.ArgIs(score_index, "nx")) {
      flags |= kZaddNx;
    } else if (ctx.ArgIs(score_index, "xx")) {
      flags |= kZaddXx;
    } else if (ctx.ArgIs(score_index, "ch")) {
      ch = true;  // reply with the number of members added or updated
    } else if (ctx.ArgIs(score_index, "incr")) {
      flags |= kZaddIncr;
    } else if (ctx.ArgIs(score_index, "gt")) {
      flags |= kZaddGt;
    } else if (ctx.ArgIs(score_index, "lt")) {
      flags |= kZaddLt;
    } else {
      break;
    }
  }
  const bool incr = flags & kZaddIncr, nx = flags & kZaddNx, xx = flags & kZaddXx;
  const bool gt = flags & kZaddGt, lt = flags & kZaddLt;

  size_t elements = ctx.argc() - score_index;
  if (elements % 2 != 0 || elements == 0) {
    ctx.ReplySyntaxError();
    return;
  }
  elements /= 2;
  if (nx && xx) {
    ctx.ReplyError("XX and NX options at the same time are not compatible");
    return;
  }
  if ((gt && nx) || (lt && nx) || (gt && lt)) {
    ctx.ReplyError("GT, LT, and/or NX options at the same time are not compatible");
    return;
  }
  if (incr && elements > 1) {
    ctx.ReplyError("INCR option supports a single increment-element pair");
    return;
  }
  // Every score is parsed before anything changes: the command runs fully or not at all.
  std::vector<double> scores(elements);
  for (size_t j = 0; j < elements; ++j) {
    if (!ctx.DoubleArg(score_index + j * 2, &scores[j])) return;
  }

  const std::string& key = ctx.arg(1);
  Db::Node* node = nullptr;
  if (!ctx.LookupWrite(key, ObjectType::kZset, &node)) return;
  const ZsetLimits limits = ZsetLimitsOf(ctx);
  int64_t added = 0, updated = 0, processed = 0;
  double score = 0;
  if (node == nullptr && !xx) {
    node = ctx.db().Add(key,
                        Object::NewZset(ZsetValue::EncodingFor(limits, ctx.arg(score_index + 1))));
  }
  if (node != nullptr) {
    ZsetValue& zset = node->value.value.zset();
    for (size_t j = 0; j < elements; ++j) {
      double new_score = 0;
      ZaddResult result =
          zset.Add(scores[j], ctx.arg(score_index + 1 + j * 2), flags, limits, &new_score);
      if (result == ZaddResult::kNaN) {
        ctx.ReplyError("resulting score is not a number (NaN)");
        if (added + updated > 0) Changed(ctx, key, incr);
        return;
      }
      if (result == ZaddResult::kAdded) ++added;
      if (result == ZaddResult::kUpdated) ++updated;
      if (result != ZaddResult::kSkipped) ++processed;
      score = new_score;
    }
    ctx.MarkDirty(static_cast<uint64_t>(added + updated));
  }
  if (incr) {
    if (processed > 0) {
      ctx.reply().Double(score);
    } else {
      ctx.reply().Null();
    }
  } else {
    ctx.reply().Integer(ch ? added + updated : added);
  }
  if (added + updated > 0) Changed(ctx, key, incr);
}

void ZaddCommand(CommandContext& ctx) { ZaddGeneric(ctx, 0); }
void ZincrbyCommand(CommandContext& ctx) { ZaddGeneric(ctx, kZaddIncr); }

void ZremCommand(CommandContext& ctx) {
  const std::string& key = ctx.arg(1);
  Db::Node* node = WriteOrReply(ctx, key, ObjectType::kZset, IfMissing::kZero);
  if (node == nullptr) return;
  ZsetValue& zset = node->value.value.zset();
  int64_t deleted = 0;
  bool key_removed = false;
  for (size_t j = 2; j < ctx.argc(); ++j) {
    if (zset.Remove(ctx.arg(j))) ++deleted;
    if (zset.empty()) {
      ctx.db().Delete(node);
      key_removed = true;
      break;
    }
  }
  if (deleted > 0) {
    ctx.NotifyKeyspaceEvent(kNotifyZset, "zrem", key);
    if (key_removed) ctx.NotifyKeyspaceEvent(kNotifyGeneric, "del", key);
    ctx.SignalModifiedKey(key);
    ctx.MarkDirty(static_cast<uint64_t>(deleted));
  }
  ctx.reply().Integer(deleted);
}

void ZscoreCommand(CommandContext& ctx) {
  Db::Node* node = nullptr;
  if (!ctx.LookupRead(ctx.arg(1), ObjectType::kZset, &node)) return;
  double score = 0;
  if (node != nullptr && node->value.value.zset().Score(ctx.arg(2), &score)) {
    ctx.reply().Double(score);
  } else {
    ctx.reply().Null();
  }
}

void ZmscoreCommand(CommandContext& ctx) {
  Db::Node* node = nullptr;
  if (!ctx.LookupRead(ctx.arg(1), ObjectType::kZset, &node)) return;
  resp::ReplyWriter& r = ctx.reply();
  r.ArrayHeader(ctx.argc() - 2);
  for (size_t j = 2; j < ctx.argc(); ++j) {
    // A missing key answers like an empty set.
    double score = 0;
    if (node != nullptr && node->value.value.zset().Score(ctx.arg(j), &score)) {
      r.Double(score);
    } else {
      r.Null();
    }
  }
}

void ZcardCommand(CommandContext& ctx) {
  Db::Node* node = nullptr;
  if (!ctx.LookupRead(ctx.arg(1), ObjectType::kZset, &node)) return;
  ctx.reply().Integer(node ? static_cast<int64_t>(node->value.value.zset().size()) : 0);
}

void ZrankGeneric(CommandContext& ctx, bool reverse) {
  Db::Node* node = nullptr;
  if (!ctx.LookupRead(ctx.arg(1), ObjectType::kZset, &node)) return;
  int64_t rank = node ? node->value.value.zset().Rank(ctx.arg(2), reverse) : -1;
  if (rank >= 0) {
    ctx.reply().Integer(rank);
  } else {
    ctx.reply().Null();
  }
}

void ZrankCommand(CommandContext& ctx) { ZrankGeneric(ctx, false); }
void ZrevrankCommand(CommandContext& ctx) { ZrankGeneric(ctx, true); }

// zrandmemberWithCountCommand.
void ZrandmemberWithCount(CommandContext& ctx, int64_t l, bool withscores) {
  Db::Node* node = nullptr;
  if (!ctx.LookupRead(ctx.arg(1), ObjectType::kZset, &node)) return;
  resp::ReplyWriter& r = ctx.reply();
  if (node == nullptr || l == 0) {
    r.EmptyArray();
    return;
  }
  const ZsetValue& zset = node->value.value.zset();
  const size_t size = zset.size();
  auto& rng = ctx.keyspace().rng();
  auto reply_at = [&](size_t rank) {
    ZsetValue::Iterator it = zset.AtRank(rank);
    if (withscores && r.protocol() >= 3) r.ArrayHeader(2);
    r.Bulk(it.member());
    if (withscores) r.Double(it.score());
  };
  auto length = [&](size_t n) { return withscores ? ScoredArrayLength(r, n) : n; };

  // A negative count may repeat members, in random order.
  if (l < 0 || l == 1) {
    size_t count = l < 0 ? static_cast<size_t>(-l) : 1;
    r.ArrayHeader(length(count));
    std::uniform_int_distribution<size_t> pick(0, size - 1);
    while (count-- > 0) reply_at(pick(rng));
    return;
  }
  const size_t count = static_cast<size_t>(l);
  r.ArrayHeader(length(std::min(count, size)));
  // Asking for the whole set: Redis walks it from the highest score down.
  if (count >= size) {
    for (size_t rank = size; rank-- > 0;) reply_at(rank);
    return;
  }
  std::vector<size_t> ranks;
  if (count * 3 > size) {
    // Close to the whole set: drop random members until `count` remain.
    ranks.resize(size);
    for (size_t i = 0; i < size; ++i) ranks[i] = i;
    while (ranks.size() > count) {
      size_t drop = std::uniform_int_distribution<size_t>(0, ranks.size() - 1)(rng);
      ranks[drop] = ranks.back();
      ranks.pop_back();
    }
    std::sort(ranks.begin(), ranks.end());
  } else {
    // Few of many: draw until `count` distinct members are found.
    std::unordered_set<size_t> seen;
    std::uniform_int_distribution<size_t> pick(0, size - 1);
    while (ranks.size() < count) {
      size_t rank = pick(rng);
      if (seen.insert(rank).second) ranks.push_back(rank);
    }
    // A listpack yields its sample in listpack order (lpRandomPairsUnique).
    if (zset.encoding() == ZsetValue::Encoding::kListpack) std::sort(ranks.begin(), ranks.end());
  }
  for (size_t rank : ranks) reply_at(rank);
}

void ZrandmemberCommand(CommandContext& ctx) {
  if (ctx.argc() >= 3) {
    int64_t l = 0;
    if (!ctx.RangeIntArg(2, -LLONG_MAX, LLONG_MAX, &l)) return;
    if (ctx.argc() > 4 || (ctx.argc() == 4 && !ctx.ArgIs(3, "withscores"))) {
      ctx.ReplySyntaxError();
      return;
    }
    const bool withscores = ctx.argc() == 4;
    // The reply length (twice the count with scores) must not overflow.
    if (withscores && (l < -LLONG_MAX / 2 || l > LLONG_MAX / 2)) {
      ctx.ReplyError("value is out of range");
      return;
    }
    ZrandmemberWithCount(ctx, l, withscores);
    return;
  }
  Db::Node* node = ReadOrReply(ctx, ctx.arg(1), ObjectType::kZset, IfMissing::kNull);
  if (node == nullptr) return;
  const ZsetValue& zset = node->value.value.zset();
  size_t rank = std::uniform_int_distribution<size_t>(0, zset.size() - 1)(ctx.keyspace().rng());
  ctx.reply().Bulk(zset.AtRank(rank).member());
}

void ZscanCommand(CommandContext& ctx) {
  uint64_t cursor = 0;
  ScanOptions options;
  Db::Node* node = StartKeyScan(ctx, ObjectType::kZset, &cursor, &options);
  if (node == nullptr) return;

  const ZsetValue& zset = node->value.value.zset();
  std::vector<std::pair<std::string_view, double>> batch;
  // Redis counts COUNT against its list of collected strings, two per member.
  const uint64_t wanted = static_cast<uint64_t>(options.count);
  int64_t max_iterations = options.count > INT64_MAX / 10 ? INT64_MAX : options.count * 10;
  do {
    cursor = zset.Scan(
        cursor, [&](std::string_view member, double score) { batch.emplace_back(member, score); });
  } while (cursor != 0 && max_iterations-- != 0 && batch.size() * 2 < wanted);

  resp::ReplyWriter& r = ctx.reply();
  r.ArrayHeader(2);
  r.Bulk(std::to_string(cursor));
  size_t header = r.BeginDeferred();
  size_t returned = 0;
  for (const auto& [member, score] : batch) {
    if (!options.Matches(member)) continue;
    r.Bulk(member);
    r.Bulk(resp::FormatDouble(score));
    returned += 2;
  }
  r.EndDeferredArray(header, returned);
}

}  // namespace

// The commands of specs/zset.json (generated by server/command/generate_specs.py).
#include "server/engine/commands/specs/zset.inc"

}  // namespace redlab::server::engine
