// Set commands: membership, random pops and samples, SMOVE and SSCAN, with Redis 7.0's checks,
// reply shapes (sets are RESP3 sets where Redis sends them so), dirty counts, propagation and
// WATCH signals; and the registration of every set command, the algebra of cmd_set_algebra.cc
// included.
#include <algorithm>
#include <string>
#include <unordered_set>
#include <vector>

#include "server/base/numbers.h"
#include "server/command/command_table.h"
#include "server/engine/commands/cmd_set_algebra.h"
#include "server/engine/commands/lookup.h"
#include "server/engine/commands/remove_members.h"
#include "server/engine/commands/scan.h"
#include "server/engine/core/context.h"
#include "server/engine/core/engine.h"
#include "server/engine/core/errors.h"

namespace redlab::server::engine {

size_t MaxIntsetEntries(CommandContext& ctx) {
  return static_cast<size_t>(ctx.engine().config().set_max_intset_entries);
}

void ReplySet(CommandContext& ctx, const SetValue& set) {
  resp::ReplyWriter& r = ctx.reply();
  r.SetHeader(set.size());
  set.ForEach([&](std::string_view m) { r.Bulk(m); });
}

namespace {

constexpr std::string_view kMustBePositive = "value is out of range, must be positive";

SetValue& SetOf(Db::Node* node) { return node->value.value.set(); }

void SaddCommand(CommandContext& ctx) {
  const std::string& key = ctx.arg(1);
  Db::Node* node = nullptr;
  if (!ctx.LookupWrite(key, ObjectType::kSet, &node)) return;
  if (node == nullptr) node = ctx.db().Add(key, Object::FromSet(SetValue::CreateFor(ctx.arg(2))));
  SetValue& set = SetOf(node);
  size_t max_intset = MaxIntsetEntries(ctx);
  int64_t added = 0;
  for (size_t i = 2; i < ctx.argc(); ++i) {
    if (set.Add(ctx.arg(i), max_intset)) ++added;
  }
  if (added > 0) {
    ctx.SignalModifiedKey(key);
    ctx.NotifyKeyspaceEvent(kNotifySet, "sadd", key);
  }
  ctx.MarkDirty(static_cast<uint64_t>(added));
  ctx.reply().Integer(added);
}

void SremCommand(CommandContext& ctx) {
  Db::Node* node = WriteOrReply(ctx, ctx.arg(1), ObjectType::kSet, IfMissing::kZero);
  if (node == nullptr) return;
  RemoveMembersAndReply(
      ctx, node, SetOf(node),
      [](SetValue& set, std::string_view member) { return set.Remove(member); }, kNotifySet,
      "srem");
}

void SismemberCommand(CommandContext& ctx) {
  Db::Node* node = nullptr;
  if (!ctx.LookupRead(ctx.arg(1), ObjectType::kSet, &node)) return;
  ctx.reply().Integer(node != nullptr && SetOf(node).Contains(ctx.arg(2)) ? 1 : 0);
}

void SmismemberCommand(CommandContext& ctx) {
  Db::Node* node = nullptr;
  if (!ctx.LookupRead(ctx.arg(1), ObjectType::kSet, &node)) return;
  resp::ReplyWriter& r = ctx.reply();
  r.ArrayHeader(ctx.argc() - 2);
  for (size_t i = 2; i < ctx.argc(); ++i) {
    r.Integer(node != nullptr && SetOf(node).Contains(ctx.arg(i)) ? 1 : 0);
  }
}

void ScardCommand(CommandContext& ctx) {
  Db::Node* node = nullptr;
  if (!ctx.LookupRead(ctx.arg(1), ObjectType::kSet, &node)) return;
  ctx.reply().Integer(node ? static_cast<int64_t>(SetOf(node).size()) : 0);
}

// SMEMBERS is SINTER of one key in Redis; with one set the intersection is the set itself.
void SmembersCommand(CommandContext& ctx) {
  Db::Node* node = nullptr;
  if (!ctx.LookupRead(ctx.arg(1), ObjectType::kSet, &node)) return;
  if (node == nullptr) {
    ctx.reply().SetHeader(0);
    return;
  }
  ReplySet(ctx, SetOf(node));
}

// SPOP key count (spopWithCountCommand). Propagated as DEL when the whole set goes, else as one
// SREM per popped member.
void SpopWithCount(CommandContext& ctx) {
  int64_t count = 0;
  if (!ParseInt64(ctx.arg(2), &count) || count < 0) {
    ctx.ReplyError(kMustBePositive);
    return;
  }
  const std::string& key = ctx.arg(1);
  Db::Node* node = nullptr;
  if (!ctx.LookupWrite(key, ObjectType::kSet, &node)) return;
  if (node == nullptr || count == 0) {
    ctx.reply().SetHeader(0);
    return;
  }
  SetValue& set = SetOf(node);
  size_t size = set.size();
  resp::ReplyWriter& r = ctx.reply();
  // The event comes before the reply, whatever is popped.
  ctx.NotifyKeyspaceEvent(kNotifySet, "spop", key);
  if (static_cast<uint64_t>(count) >= size) {
    ReplySet(ctx, set);
    ctx.db().Delete(node);
    ctx.NotifyKeyspaceEvent(kNotifyGeneric, "del", key);
    ctx.PropagateAs({"DEL", key});
    ctx.SignalModifiedKey(key);
    ctx.MarkDirty(size);
    return;
  }
  auto& rng = ctx.keyspace().rng();
  int db = ctx.client().db();
  bool propagating = ctx.engine().propagating();
  auto propagate_srem = [&](std::string_view member) {
    if (propagating) ctx.engine().Propagate(db, {"SREM", key, std::string(member)});
  };
  size_t n = static_cast<size_t>(count);
  size_t remaining = size - n;
  r.SetHeader(n);
  // Redis's two strategies (SPOP_MOVE_STRATEGY_MUL): pop members one by one while few are
  // taken; when most of the set goes, pick the members to keep instead and hand out the rest.
  // The second rebuilds the set, which can turn a hash table of integers back into an intset.
  if (remaining * 5 > n) {
    for (size_t i = 0; i < n; ++i) {
      std::string member = set.Random(rng);
      set.Remove(member);
      r.Bulk(member);
      propagate_srem(member);
    }
  } else {
    std::unique_ptr<SetValue> kept;
    size_t max_intset = MaxIntsetEntries(ctx);
    for (size_t i = 0; i < remaining; ++i) {
      std::string member = set.Random(rng);
      if (!kept) kept = SetValue::CreateFor(member);
      kept->Add(member, max_intset);
      set.Remove(member);
    }
    set.ForEach([&](std::string_view member) {
      r.Bulk(member);
      propagate_srem(member);
    });
    node->value.value = Object::FromSet(std::move(kept));
  }
  ctx.PreventPropagation();
  ctx.SignalModifiedKey(key);
  ctx.MarkDirty(n);
}

// SPOP and SRANDMEMBER: with a count, `with_count` answers; more arguments are a syntax error.
// True when the single-member form goes on.
bool SingleMemberForm(CommandContext& ctx, void (*with_count)(CommandContext& ctx)) {
  if (ctx.argc() == 3) {
    with_count(ctx);
    return false;
  }
  if (ctx.argc() > 3) {
    ctx.ReplySyntaxError();
    return false;
  }
  return true;
}

void SpopCommand(CommandContext& ctx) {
  if (!SingleMemberForm(ctx, SpopWithCount)) return;
  const std::string& key = ctx.arg(1);
  Db::Node* node = WriteOrReply(ctx, key, ObjectType::kSet, IfMissing::kNull);
  if (node == nullptr) return;
  SetValue& set = SetOf(node);
  std::string member = set.Random(ctx.keyspace().rng());
  set.Remove(member);
  ctx.NotifyKeyspaceEvent(kNotifySet, "spop", key);
  ctx.reply().Bulk(member);
  ctx.PropagateAs({"SREM", key, std::move(member)});
  if (set.empty()) {
    ctx.db().Delete(node);
    ctx.NotifyKeyspaceEvent(kNotifyGeneric, "del", key);
  }
  ctx.SignalModifiedKey(key);
  ctx.MarkDirty();
}

// SRANDMEMBER key count (srandmemberWithCountCommand): distinct members for a positive count,
// independent draws (repeats allowed) for a negative one. Always an array, even in RESP3.
void SrandmemberWithCount(CommandContext& ctx) {
  int64_t count = 0;
  if (!ctx.RangeIntArg(2, -INT64_MAX, INT64_MAX, &count)) return;
  Db::Node* node = nullptr;
  if (!ctx.LookupRead(ctx.arg(1), ObjectType::kSet, &node)) return;
  resp::ReplyWriter& r = ctx.reply();
  if (node == nullptr || count == 0) {
    r.EmptyArray();
    return;
  }
  const SetValue& set = SetOf(node);
  auto& rng = ctx.keyspace().rng();
  bool unique = count > 0;
  uint64_t n = static_cast<uint64_t>(unique ? count : -count);
  if (!unique || n == 1) {
    r.ArrayHeader(n);
    for (uint64_t i = 0; i < n; ++i) r.Bulk(set.Random(rng));
    return;
  }
  size_t size = set.size();
  if (n >= size) {
    r.ArrayHeader(size);
    set.ForEach([&](std::string_view m) { r.Bulk(m); });
    return;
  }
  std::vector<std::string> picked;
  picked.reserve(n);
  if (n * 3 > size) {
    // Close to the whole set: take everything and drop random members until n remain.
    set.ForEach([&](std::string_view m) { picked.emplace_back(m); });
    while (picked.size() > n) {
      size_t victim = std::uniform_int_distribution<size_t>(0, picked.size() - 1)(rng);
      std::swap(picked[victim], picked.back());
      picked.pop_back();
    }
  } else {
    std::unordered_set<std::string> seen;
    while (picked.size() < n) {
      std::string m = set.Random(rng);
      if (seen.insert(m).second) picked.push_back(std::move(m));
    }
  }
  r.ArrayHeader(picked.size());
  for (const std::string& m : picked) r.Bulk(m);
}

void SrandmemberCommand(CommandContext& ctx) {
  if (!SingleMemberForm(ctx, SrandmemberWithCount)) return;
  Db::Node* node = nullptr;
  if (!ctx.LookupRead(ctx.arg(1), ObjectType::kSet, &node)) return;
  if (node == nullptr) {
    ctx.reply().Null();
  } else {
    ctx.reply().Bulk(SetOf(node).Random(ctx.keyspace().rng()));
  }
}

void SmoveCommand(CommandContext& ctx) {
  const std::string& source = ctx.arg(1);
  const std::string& destination = ctx.arg(2);
  const std::string& member = ctx.arg(3);
  // Both keys are looked up before either type is checked, and a missing source answers 0
  // whatever the destination holds.
  Db::Node* src = ctx.db().LookupWrite(source);
  Db::Node* dst = ctx.db().LookupWrite(destination);
  if (src == nullptr) {
    ctx.reply().Integer(0);
    return;
  }
  if (!src->value.value.is(ObjectType::kSet) ||
      (dst != nullptr && !dst->value.value.is(ObjectType::kSet))) {
    ctx.ReplyWrongType();
    return;
  }
  if (src == dst) {
    ctx.reply().Integer(SetOf(src).Contains(member) ? 1 : 0);
    return;
  }
  if (!SetOf(src).Remove(member)) {
    ctx.reply().Integer(0);
    return;
  }
  ctx.NotifyKeyspaceEvent(kNotifySet, "srem", source);
  if (SetOf(src).empty()) {
    ctx.db().Delete(src);
    ctx.NotifyKeyspaceEvent(kNotifyGeneric, "del", source);
  }
  if (dst == nullptr) dst = ctx.db().Add(destination, Object::FromSet(SetValue::CreateFor(member)));
  ctx.SignalModifiedKey(source);
  ctx.MarkDirty();
  // The destination counts as changed only when the member was new there.
  if (SetOf(dst).Add(member, MaxIntsetEntries(ctx))) {
    ctx.MarkDirty();
    ctx.SignalModifiedKey(destination);
    ctx.NotifyKeyspaceEvent(kNotifySet, "sadd", destination);
  }
  ctx.reply().Integer(1);
}

void SscanCommand(CommandContext& ctx) {
  uint64_t cursor = 0;
  ScanOptions options;
  Db::Node* node = StartKeyScan(ctx, ObjectType::kSet, &cursor, &options);
  if (node == nullptr) return;
  const SetValue& set = SetOf(node);
  std::vector<std::string> found;
  auto collect = [&](std::string_view m) { found.emplace_back(m); };
  if (set.encoding() == SetValue::Encoding::kIntset) {
    cursor = set.Scan(cursor, collect);
  } else {
    // As Redis's scanGenericCommand: up to 10*COUNT buckets or until COUNT elements, then MATCH
    // filters what was collected.
    int64_t budget = options.count * 10;
    do {
      cursor = set.Scan(cursor, collect);
    } while (cursor != 0 && budget-- > 0 && found.size() < static_cast<uint64_t>(options.count));
  }
  std::vector<std::string_view> elements;
  elements.reserve(found.size());
  for (const std::string& m : found) {
    if (options.Matches(m)) elements.push_back(m);
  }
  ReplyScan(ctx, cursor, elements);
}

}  // namespace

// The commands of specs/set.json (generated by server/command/generate_specs.py).
#include "server/engine/commands/specs/set.inc"

}  // namespace redlab::server::engine
