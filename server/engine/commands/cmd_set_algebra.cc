// SINTER, SUNION, SDIFF, their STORE forms and SINTERCARD, as Redis 7.0's sinterGenericCommand
// and sunionDiffGenericCommand: missing keys are empty sets, results are built as new sets (so an
// all-integer result is an intset and answers sorted), STORE replaces the destination or deletes
// it when the result is empty.
#include "server/engine/commands/cmd_set_algebra.h"

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "server/base/numbers.h"
#include "server/engine/core/engine.h"

namespace redlab::server::engine {
namespace {

SetValue& SetOf(Db::Node* node) { return node->value.value.set(); }

// Looks up `n` source sets starting at argument `first` (missing keys are nullptr). Returns false
// after replying WRONGTYPE for the first key of another type.
bool LookupSets(CommandContext& ctx, size_t first, size_t n, std::vector<const SetValue*>* sets) {
  sets->reserve(n);
  for (size_t i = first; i < first + n; ++i) {
    Db::Node* node = nullptr;
    if (!ctx.LookupRead(ctx.arg(i), ObjectType::kSet, &node)) return false;
    sets->push_back(node ? &SetOf(node) : nullptr);
  }
  return true;
}

// Deletes the destination of an empty *STORE result, with its "del" event.
void DeleteDestination(CommandContext& ctx, const std::string& dst) {
  if (!ctx.db().Delete(dst)) return;
  ctx.MarkDirty();
  ctx.SignalModifiedKey(dst);
  ctx.NotifyKeyspaceEvent(kNotifyGeneric, "del", dst);
}

// Stores a *STORE result in `dst` (replacing any value and TTL) with its `event`, or deletes
// `dst` when the result is empty; replies the result's size (before the event, as Redis).
void StoreResult(CommandContext& ctx, const std::string& dst, std::unique_ptr<SetValue> result,
                 std::string_view event) {
  if (result->empty()) {
    ctx.reply().Integer(0);
    DeleteDestination(ctx, dst);
    return;
  }
  size_t size = result->size();
  ctx.db().LookupWrite(dst);  // setKey: an expired destination is deleted (and propagated) first
  ctx.db().Set(dst, Object::FromSet(std::move(result)));
  ctx.reply().Integer(static_cast<int64_t>(size));
  ctx.SignalModifiedKey(dst);
  ctx.NotifyKeyspaceEvent(kNotifySet, event, dst);
  ctx.MarkDirty();
}

// sinterGenericCommand: the `n` sets from argument `first`, replied, stored in `dst` (when not
// null), or only counted up to `limit` (0: no limit) when `cardinality_only`.
void Intersect(CommandContext& ctx, size_t first, size_t n, const std::string* dst,
               bool cardinality_only, uint64_t limit) {
  std::vector<const SetValue*> sets;
  if (!LookupSets(ctx, first, n, &sets)) return;
  if (std::find(sets.begin(), sets.end(), nullptr) != sets.end()) {
    // A missing key is an empty set, and so is the intersection.
    if (dst != nullptr) {
      // (Here the deletion comes before the reply.)
      DeleteDestination(ctx, *dst);
      ctx.reply().Integer(0);
    } else if (cardinality_only) {
      ctx.reply().Integer(0);
    } else {
      ctx.reply().SetHeader(0);
    }
    return;
  }
  // Smallest set first (stable, as glibc's qsort is for these sizes): its order is the reply's.
  std::stable_sort(sets.begin(), sets.end(),
                   [](const SetValue* a, const SetValue* b) { return a->size() < b->size(); });
  auto in_all = [&](std::string_view m) {
    for (size_t j = 1; j < sets.size(); ++j) {
      if (sets[j] != sets[0] && !sets[j]->Contains(m)) return false;
    }
    return true;
  };
  if (cardinality_only) {
    uint64_t cardinality = 0;
    sets[0]->ForEach([&](std::string_view m) {
      if (limit != 0 && cardinality >= limit) return;  // reached: skip the remaining members
      if (in_all(m)) ++cardinality;
    });
    ctx.reply().Integer(static_cast<int64_t>(cardinality));
  } else if (dst != nullptr) {
    auto result = std::make_unique<SetValue>();
    size_t max_intset = MaxIntsetEntries(ctx);
    sets[0]->ForEach([&](std::string_view m) {
      if (in_all(m)) result->Add(m, max_intset);
    });
    StoreResult(ctx, *dst, std::move(result), "sinterstore");
  } else {
    resp::ReplyWriter& r = ctx.reply();
    size_t header = r.BeginDeferred();
    size_t cardinality = 0;
    sets[0]->ForEach([&](std::string_view m) {
      if (!in_all(m)) return;
      r.Bulk(m);
      ++cardinality;
    });
    r.EndDeferredSet(header, cardinality);
  }
}

enum class SetOp { kUnion, kDiff };

// sunionDiffGenericCommand: the result is built as a new set (an intset while it can be, so an
// all-integer result answers sorted), then replied or stored in `dst`.
void UnionOrDiff(CommandContext& ctx, size_t first, size_t n, const std::string* dst, SetOp op) {
  std::vector<const SetValue*> sets;
  if (!LookupSets(ctx, first, n, &sets)) return;
  size_t max_intset = MaxIntsetEntries(ctx);
  auto result = std::make_unique<SetValue>();
  if (op == SetOp::kUnion) {
    for (const SetValue* set : sets) {
      if (set == nullptr) continue;
      set->ForEach([&](std::string_view m) { result->Add(m, max_intset); });
    }
  } else if (sets[0] != nullptr && std::find(sets.begin() + 1, sets.end(), sets[0]) == sets.end()) {
    // (A set minus itself is empty: Redis checks for the first key repeated up front.)
    // Redis's two algorithms give the same members; pick the cheaper as Redis does.
    uint64_t one_work = 0;
    uint64_t two_work = 0;
    for (const SetValue* set : sets) {
      if (set == nullptr) continue;
      one_work += sets[0]->size();
      two_work += set->size();
    }
    if (one_work / 2 <= two_work) {
      sets[0]->ForEach([&](std::string_view m) {
        for (size_t j = 1; j < sets.size(); ++j) {
          if (sets[j] != nullptr && sets[j]->Contains(m)) return;
        }
        result->Add(m, max_intset);
      });
    } else {
      sets[0]->ForEach([&](std::string_view m) { result->Add(m, max_intset); });
      for (size_t j = 1; j < sets.size() && !result->empty(); ++j) {
        if (sets[j] == nullptr) continue;
        sets[j]->ForEach([&](std::string_view m) { result->Remove(m); });
      }
    }
  }
  if (dst != nullptr) {
    StoreResult(ctx, *dst, std::move(result), op == SetOp::kUnion ? "sunionstore" : "sdiffstore");
  } else {
    ReplySet(ctx, *result);
  }
}

}  // namespace

void SinterCommand(CommandContext& ctx) { Intersect(ctx, 1, ctx.argc() - 1, nullptr, false, 0); }
void SinterstoreCommand(CommandContext& ctx) {
  Intersect(ctx, 2, ctx.argc() - 2, &ctx.arg(1), false, 0);
}
void SunionCommand(CommandContext& ctx) {
  UnionOrDiff(ctx, 1, ctx.argc() - 1, nullptr, SetOp::kUnion);
}
void SunionstoreCommand(CommandContext& ctx) {
  UnionOrDiff(ctx, 2, ctx.argc() - 2, &ctx.arg(1), SetOp::kUnion);
}
void SdiffCommand(CommandContext& ctx) {
  UnionOrDiff(ctx, 1, ctx.argc() - 1, nullptr, SetOp::kDiff);
}
void SdiffstoreCommand(CommandContext& ctx) {
  UnionOrDiff(ctx, 2, ctx.argc() - 2, &ctx.arg(1), SetOp::kDiff);
}

// SINTERCARD numkeys key [key ...] [LIMIT limit]
void SintercardCommand(CommandContext& ctx) {
  constexpr std::string_view kBadNumkeys = "numkeys should be greater than 0";
  int64_t numkeys = 0;
  if (!ParseInt64(ctx.arg(1), &numkeys) || numkeys < 1) {
    ctx.ReplyError(kBadNumkeys);
    return;
  }
  if (static_cast<uint64_t>(numkeys) > ctx.argc() - 2) {
    ctx.ReplyError("Number of keys can't be greater than number of args");
    return;
  }
  int64_t limit = 0;
  for (size_t j = 2 + static_cast<size_t>(numkeys); j < ctx.argc(); ++j) {
    if (ctx.ArgIs(j, "limit") && j + 1 < ctx.argc()) {
      ++j;
      if (!ParseInt64(ctx.arg(j), &limit) || limit < 0) {
        ctx.ReplyError("LIMIT can't be negative");
        return;
      }
    } else {
      ctx.ReplySyntaxError();
      return;
    }
  }
  Intersect(ctx, 2, static_cast<size_t>(numkeys), nullptr, true, static_cast<uint64_t>(limit));
}

}  // namespace redlab::server::engine
