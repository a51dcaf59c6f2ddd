// Sorted-set algebra: ZUNION, ZINTER, ZDIFF, their STORE forms, and ZINTERCARD, as Redis's
// zunionInterDiffGenericCommand (WEIGHTS, AGGREGATE SUM|MIN|MAX, WITHSCORES, LIMIT).
//
// As in Redis, plain sets are inputs too, every member scoring 1; other types are WRONGTYPE.
#include <algorithm>
#include <cmath>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "server/base/numbers.h"
#include "server/command/command_table.h"
#include "server/engine/commands/cmd_zset.h"

namespace redlab::server::engine {
namespace {

enum class SetOp { kUnion, kInter, kDiff };
enum class Aggregate { kSum, kMin, kMax };

// One input: a sorted set, a plain set (scores of 1), or neither for a missing key.
struct Source {
  const ZsetValue* zset = nullptr;
  const SetValue* set = nullptr;
  double weight = 1;

  size_t size() const { return zset ? zset->size() : set ? set->size() : 0; }
  // The same key given twice is the same input (ZDIFF k k is empty).
  const void* identity() const { return zset ? static_cast<const void*>(zset) : set; }
  // Visits the members: a sorted set from the highest score down, as zuiNext walks it; a set in
  // its own order.
  template <typename Fn>
  void ForEach(Fn&& fn) const {
    if (set != nullptr) {
      set->ForEach([&](std::string_view member) { fn(member, 1.0); });
      return;
    }
    if (zset == nullptr || zset->empty()) return;
    for (auto it = zset->AtRank(zset->size() - 1); it.valid(); it.Prev()) {
      fn(it.member(), it.score());
    }
  }
  bool Score(std::string_view member, double* score) const {
    if (set != nullptr) {
      *score = 1.0;
      return set->Contains(member);
    }
    return zset != nullptr && zset->Score(member, score);
  }
};

// zunionInterAggregate. SUM turns +inf + -inf (NaN) into 0.
void Combine(double* target, double value, Aggregate aggregate) {
  switch (aggregate) {
    case Aggregate::kSum:
      *target += value;
      if (std::isnan(*target)) *target = 0;
      break;
    case Aggregate::kMin:
      *target = value < *target ? value : *target;
      break;
    case Aggregate::kMax:
      *target = value > *target ? value : *target;
      break;
  }
}

// A weighted score, NaN (0 * inf) counting as 0.
double Weighted(const Source& s, double score) {
  double v = s.weight * score;
  return std::isnan(v) ? 0 : v;
}

void Insert(ZsetValue& result, double score, std::string_view member) {
  double unused;
  result.Add(score, member, 0, ZsetLimits{}, &unused);
}

// The intersection: members of the smallest input found in every other one. With
// `cardinality_only` nothing is built and *count stops at `limit` (0: no limit).
void Intersect(const std::vector<Source>& sources, Aggregate aggregate, bool cardinality_only,
               int64_t limit, ZsetValue* result, int64_t* count) {
  if (sources[0].size() == 0) return;  // inputs are sorted by size: all are non-empty
  bool done = false;
  sources[0].ForEach([&](std::string_view member, double score) {
    if (done) return;
    double total = Weighted(sources[0], score);
    for (size_t j = 1; j < sources.size(); ++j) {
      double other = 0;
      if (!sources[j].Score(member, &other)) return;
      Combine(&total, other * sources[j].weight, aggregate);
    }
    if (cardinality_only) {
      ++*count;
      if (limit > 0 && *count >= limit) done = true;
    } else {
      Insert(*result, total, member);
    }
  });
}

void Unite(const std::vector<Source>& sources, Aggregate aggregate, ZsetValue* result) {
  // The members are copied: a set of integers (intset) formats each one into a buffer that the
  // next member reuses, so its views do not outlive the visit.
  std::unordered_map<std::string, double> scores;
  for (const Source& s : sources) {
    s.ForEach([&](std::string_view member, double score) {
      double value = Weighted(s, score);
      auto [it, inserted] = scores.try_emplace(std::string(member), value);
      if (!inserted) Combine(&it->second, value, aggregate);
    });
  }
  for (const auto& [member, score] : scores) Insert(*result, score, member);
}

void Subtract(const std::vector<Source>& sources, ZsetValue* result) {
  for (size_t j = 1; j < sources.size(); ++j) {
    if (sources[j].identity() != nullptr && sources[j].identity() == sources[0].identity()) {
      return;  // all go
    }
  }
  sources[0].ForEach([&](std::string_view member, double score) {
    double unused;
    for (size_t j = 1; j < sources.size(); ++j) {
      if (sources[j].Score(member, &unused)) return;
    }
    Insert(*result, score, member);
  });
}

// zunionInterDiffGenericCommand. `numkeys_index` is 2 for the STORE forms (destination in 1).
void SetOpGeneric(CommandContext& ctx, size_t numkeys_index, bool store, SetOp op,
                  bool cardinality_only) {
  int64_t setnum = 0;
  if (!ctx.IntArg(numkeys_index, &setnum)) return;
  if (setnum < 1) {
    ctx.ReplyError("at least 1 input key is needed for '" + ctx.command().full_name + "' command");
    return;
  }
  if (setnum > static_cast<int64_t>(ctx.argc() - (numkeys_index + 1))) {
    ctx.ReplySyntaxError();
    return;
  }
  // The inputs are looked up, and their types checked, before the options are read.
  std::vector<Source> sources(static_cast<size_t>(setnum));
  size_t j = numkeys_index + 1;
  for (Source& s : sources) {
    Db::Node* node = ctx.db().LookupRead(ctx.arg(j++));
    if (node == nullptr) continue;
    Object& value = node->value.value;
    if (value.is(ObjectType::kZset)) {
      s.zset = &value.zset();
    } else if (value.is(ObjectType::kSet)) {
      s.set = &value.set();
    } else {
      ctx.ReplyWrongType();
      return;
    }
  }
  Aggregate aggregate = Aggregate::kSum;
  bool withscores = false;
  int64_t limit = 0;
  while (j < ctx.argc()) {
    size_t remaining = ctx.argc() - j;
    const bool weighted = op != SetOp::kDiff && !cardinality_only;
    if (weighted && remaining >= sources.size() + 1 && ctx.ArgIs(j, "weights")) {
      ++j;
      for (Source& s : sources) {
        if (!ParseDouble(ctx.arg(j++), &s.weight)) {
          ctx.ReplyError("weight value is not a float");
          return;
        }
      }
    } else if (weighted && remaining >= 2 && ctx.ArgIs(j, "aggregate")) {
      if (ctx.ArgIs(j + 1, "sum")) {
        aggregate = Aggregate::kSum;
      } else if (ctx.ArgIs(j + 1, "min")) {
        aggregate = Aggregate::kMin;
      } else if (ctx.ArgIs(j + 1, "max")) {
        aggregate = Aggregate::kMax;
      } else {
        ctx.ReplySyntaxError();
        return;
      }
      j += 2;
    } else if (!store && !cardinality_only && ctx.ArgIs(j, "withscores")) {
      withscores = true;
      ++j;
    } else if (cardinality_only && remaining >= 2 && ctx.ArgIs(j, "limit")) {
      if (!ParseInt64(ctx.arg(j + 1), &limit) || limit < 0) {
        ctx.ReplyError("LIMIT can't be negative");
        return;
      }
      j += 2;
    } else {
      ctx.ReplySyntaxError();
      return;
    }
  }
  // Smallest inputs first (glibc's qsort is a stable merge sort here): the order in which
  // scores are summed follows it.
  if (op != SetOp::kDiff) {
    std::stable_sort(sources.begin(), sources.end(),
                     [](const Source& a, const Source& b) { return a.size() < b.size(); });
  }

  // Built as a skiplist, as Redis builds it: the sign of a -0 score survives in direct replies.
  Object result_object = Object::NewZset(ZsetValue::Encoding::kSkiplist);
  ZsetValue& result = result_object.zset();
  int64_t cardinality = 0;
  switch (op) {
    case SetOp::kInter:
      Intersect(sources, aggregate, cardinality_only, limit, &result, &cardinality);
      break;
    case SetOp::kUnion:
      Unite(sources, aggregate, &result);
      break;
    case SetOp::kDiff:
      Subtract(sources, &result);
      break;
  }

  resp::ReplyWriter& r = ctx.reply();
  if (cardinality_only) {
    r.Integer(cardinality);
    return;
  }
  if (!store) {
    r.ArrayHeader(withscores ? ScoredArrayLength(r, result.size()) : result.size());
    if (result.empty()) return;
    for (auto it = result.AtRank(0); it.valid(); it.Next()) {
      if (withscores) {
        ReplyScoredMember(r, it.member(), it.score());
      } else {
        r.Bulk(it.member());
      }
    }
    return;
  }
  const std::string& destination = ctx.arg(1);
  Db& db = ctx.db();
  if (result.empty()) {
    r.Integer(0);
    if (db.Delete(destination)) {
      ctx.SignalModifiedKey(destination);
      ctx.NotifyKeyspaceEvent(kNotifyGeneric, "del", destination);
      ctx.MarkDirty();
    }
    return;
  }
  result.ConvertToListpackIfFits(ZsetLimitsOf(ctx));
  const int64_t size = static_cast<int64_t>(result.size());
  db.LookupWrite(destination);  // setKey: an expired destination goes first
  db.Set(destination, std::move(result_object));
  ctx.SignalModifiedKey(destination);
  ctx.MarkDirty();
  r.Integer(size);
  ctx.NotifyKeyspaceEvent(kNotifyZset,
                          op == SetOp::kUnion   ? "zunionstore"
                          : op == SetOp::kInter ? "zinterstore"
                                                : "zdiffstore",
                          destination);
}

void ZunionstoreCommand(CommandContext& ctx) { SetOpGeneric(ctx, 2, true, SetOp::kUnion, false); }
void ZinterstoreCommand(CommandContext& ctx) { SetOpGeneric(ctx, 2, true, SetOp::kInter, false); }
void ZdiffstoreCommand(CommandContext& ctx) { SetOpGeneric(ctx, 2, true, SetOp::kDiff, false); }
void ZunionCommand(CommandContext& ctx) { SetOpGeneric(ctx, 1, false, SetOp::kUnion, false); }
void ZinterCommand(CommandContext& ctx) { SetOpGeneric(ctx, 1, false, SetOp::kInter, false); }
void ZdiffCommand(CommandContext& ctx) { SetOpGeneric(ctx, 1, false, SetOp::kDiff, false); }
void ZintercardCommand(CommandContext& ctx) { SetOpGeneric(ctx, 1, false, SetOp::kInter, true); }

}  // namespace

// The commands of specs/zset_setops.json (generated by server/command/generate_specs.py).
#include "server/engine/commands/specs/zset_setops.inc"

}  // namespace redlab::server::engine
