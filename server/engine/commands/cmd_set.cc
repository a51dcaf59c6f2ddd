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
  const std::string& key = ctx.arg(1);
  Db::Node* node = nullptr;
  if (!ctx.LookupWrite(key, ObjectType::kSet, &node)) return;
  int64_t removed = 0;
  bool key_removed = false;
  if (node != nullptr) {
    SetValue& set = SetOf(node);
    for (size_t i = 2; i < ctx.argc(); ++i) {
      if (!set.Remove(ctx.arg(i))) continue;
      ++removed;
      if (set.empty()) {
        ctx.db().Delete(node);
        key_removed = true;
        break;
      }
    }
  }
  if (removed > 0) {
    ctx.SignalModifiedKey(key);
    ctx.NotifyKeyspaceEvent(kNotifySet, "srem", key);
    if (key_removed) ctx.NotifyKeyspaceEvent(kNotifyGeneric, "del", key);
    ctx.MarkDirty(static_cast<uint64_t>(removed));
  }
  ctx.reply().Integer(removed);
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

void SpopCommand(CommandContext& ctx) {
  if (ctx.argc() == 3) {
    SpopWithCount(ctx);
    return;
  }
  if (ctx.argc() > 3) {
    ctx.ReplySyntaxError();
    return;
  }
  const std::string& key = ctx.arg(1);
  Db::Node* node = nullptr;
  if (!ctx.LookupWrite(key, ObjectType::kSet, &node)) return;
  if (node == nullptr) {
    ctx.reply().Null();
    return;
  }
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
  if (ctx.argc() == 3) {
    SrandmemberWithCount(ctx);
    return;
  }
  if (ctx.argc() > 3) {
    ctx.ReplySyntaxError();
    return;
  }
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
  if (!ParseScanCursor(ctx, 2, &cursor)) return;
  Db::Node* node = nullptr;
  if (!ctx.LookupRead(ctx.arg(1), ObjectType::kSet, &node)) return;
  if (node == nullptr) {
    // Redis answers an empty scan before it looks at the options.
    ReplyScan(ctx, 0, {});
    return;
  }
  ScanOptions options;
  if (!ParseScanOptions(ctx, 3, /*allow_type=*/false, &options)) return;
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

void RegisterSetCommands(CommandTable& table) {
  constexpr uint32_t kSourceSets = kKeyRO | kKeyAccess;
  table.Add({.name = "sadd",
             .arity = -3,
             .flags = kCmdWrite | kCmdDenyOom | kCmdFast,
             .acl = kAclSet,
             .keys = {KeyAt(1, kKeyRW | kKeyInsert)},
             .proc = SaddCommand,
             .group = "set",
             .since = "1.0.0",
             .summary = "Add one or more members to a set",
             .complexity = "O(1) for each element added, so O(N) to add N elements when the "
                           "command is called with multiple arguments."});
  table.Add({.name = "srem",
             .arity = -3,
             .flags = kCmdWrite | kCmdFast,
             .acl = kAclSet,
             .keys = {KeyAt(1, kKeyRW | kKeyDelete)},
             .proc = SremCommand,
             .group = "set",
             .since = "1.0.0",
             .summary = "Remove one or more members from a set",
             .complexity = "O(N) where N is the number of members to be removed."});
  table.Add({.name = "smembers",
             .arity = 2,
             .flags = kCmdReadonly,
             .acl = kAclSet,
             .keys = {KeyAt(1, kKeyRO | kKeyAccess)},
             .proc = SmembersCommand,
             .group = "set",
             .since = "1.0.0",
             .summary = "Get all the members in a set",
             .complexity = "O(N) where N is the set cardinality.",
             .tips = {"nondeterministic_output_order"}});
  table.Add({.name = "sismember",
             .arity = 3,
             .flags = kCmdReadonly | kCmdFast,
             .acl = kAclSet,
             .keys = {KeyAt(1, kKeyRO)},
             .proc = SismemberCommand,
             .group = "set",
             .since = "1.0.0",
             .summary = "Determine if a given value is a member of a set",
             .complexity = "O(1)"});
  table.Add({.name = "smismember",
             .arity = -3,
             .flags = kCmdReadonly | kCmdFast,
             .acl = kAclSet,
             .keys = {KeyAt(1, kKeyRO | kKeyAccess)},
             .proc = SmismemberCommand,
             .group = "set",
             .since = "6.2.0",
             .summary = "Returns the membership associated with the given elements for a set",
             .complexity = "O(N) where N is the number of elements being checked for membership"});
  table.Add({.name = "scard",
             .arity = 2,
             .flags = kCmdReadonly | kCmdFast,
             .acl = kAclSet,
             .keys = {KeyAt(1, kKeyRO)},
             .proc = ScardCommand,
             .group = "set",
             .since = "1.0.0",
             .summary = "Get the number of members in a set",
             .complexity = "O(1)"});
  table.Add({.name = "spop",
             .arity = -2,
             .flags = kCmdWrite | kCmdFast,
             .acl = kAclSet,
             .keys = {KeyAt(1, kKeyRW | kKeyAccess | kKeyDelete)},
             .proc = SpopCommand,
             .group = "set",
             .since = "1.0.0",
             .summary = "Remove and return one or multiple random members from a set",
             .complexity = "Without the count argument O(1), otherwise O(N) where N is the value "
                           "of the passed count.",
             .tips = {"nondeterministic_output"}});
  table.Add({.name = "srandmember",
             .arity = -2,
             .flags = kCmdReadonly,
             .acl = kAclSet,
             .keys = {KeyAt(1, kKeyRO | kKeyAccess)},
             .proc = SrandmemberCommand,
             .group = "set",
             .since = "1.0.0",
             .summary = "Get one or multiple random members from a set",
             .complexity = "Without the count argument O(1), otherwise O(N) where N is the "
                           "absolute value of the passed count.",
             .tips = {"nondeterministic_output"}});
  table.Add({.name = "sinter",
             .arity = -2,
             .flags = kCmdReadonly,
             .acl = kAclSet,
             .keys = {KeyRange(1, -1, 1, kSourceSets)},
             .proc = SinterCommand,
             .group = "set",
             .since = "1.0.0",
             .summary = "Intersect multiple sets",
             .complexity = "O(N*M) worst case where N is the cardinality of the smallest set and "
                           "M is the number of sets.",
             .tips = {"nondeterministic_output_order"}});
  KeySpec numkeys;
  numkeys.flags = kSourceSets;
  numkeys.begin_index = 1;
  numkeys.keynum = true;
  numkeys.keynum_index = 0;
  numkeys.first_key = 1;
  numkeys.key_step = 1;
  table.Add({.name = "sintercard",
             .arity = -3,
             .flags = kCmdReadonly,
             .acl = kAclSet,
             .keys = {numkeys},
             .proc = SintercardCommand,
             .group = "set",
             .since = "7.0.0",
             .summary = "Intersect multiple sets and return the cardinality of the result",
             .complexity = "O(N*M) worst case where N is the cardinality of the smallest set and "
                           "M is the number of sets."});
  table.Add({.name = "sinterstore",
             .arity = -3,
             .flags = kCmdWrite | kCmdDenyOom,
             .acl = kAclSet,
             .keys = {KeyAt(1, kKeyRW | kKeyUpdate), KeyRange(2, -1, 1, kSourceSets)},
             .proc = SinterstoreCommand,
             .group = "set",
             .since = "1.0.0",
             .summary = "Intersect multiple sets and store the resulting set in a key",
             .complexity = "O(N*M) worst case where N is the cardinality of the smallest set and "
                           "M is the number of sets."});
  table.Add({.name = "sunion",
             .arity = -2,
             .flags = kCmdReadonly,
             .acl = kAclSet,
             .keys = {KeyRange(1, -1, 1, kSourceSets)},
             .proc = SunionCommand,
             .group = "set",
             .since = "1.0.0",
             .summary = "Add multiple sets",
             .complexity = "O(N) where N is the total number of elements in all given sets.",
             .tips = {"nondeterministic_output_order"}});
  table.Add({.name = "sunionstore",
             .arity = -3,
             .flags = kCmdWrite | kCmdDenyOom,
             .acl = kAclSet,
             .keys = {KeyAt(1, kKeyOW | kKeyUpdate), KeyRange(2, -1, 1, kSourceSets)},
             .proc = SunionstoreCommand,
             .group = "set",
             .since = "1.0.0",
             .summary = "Add multiple sets and store the resulting set in a key",
             .complexity = "O(N) where N is the total number of elements in all given sets."});
  table.Add({.name = "sdiff",
             .arity = -2,
             .flags = kCmdReadonly,
             .acl = kAclSet,
             .keys = {KeyRange(1, -1, 1, kSourceSets)},
             .proc = SdiffCommand,
             .group = "set",
             .since = "1.0.0",
             .summary = "Subtract multiple sets",
             .complexity = "O(N) where N is the total number of elements in all given sets.",
             .tips = {"nondeterministic_output_order"}});
  table.Add({.name = "sdiffstore",
             .arity = -3,
             .flags = kCmdWrite | kCmdDenyOom,
             .acl = kAclSet,
             .keys = {KeyAt(1, kKeyOW | kKeyUpdate), KeyRange(2, -1, 1, kSourceSets)},
             .proc = SdiffstoreCommand,
             .group = "set",
             .since = "1.0.0",
             .summary = "Subtract multiple sets and store the resulting set in a key",
             .complexity = "O(N) where N is the total number of elements in all given sets."});
  table.Add({.name = "smove",
             .arity = 4,
             .flags = kCmdWrite | kCmdFast,
             .acl = kAclSet,
             .keys = {KeyAt(1, kKeyRW | kKeyAccess | kKeyDelete), KeyAt(2, kKeyRW | kKeyInsert)},
             .proc = SmoveCommand,
             .group = "set",
             .since = "1.0.0",
             .summary = "Move a member from one set to another",
             .complexity = "O(1)"});
  table.Add({.name = "sscan",
             .arity = -3,
             .flags = kCmdReadonly,
             .acl = kAclSet,
             .keys = {KeyAt(1, kKeyRO | kKeyAccess)},
             .proc = SscanCommand,
             .group = "set",
             .since = "2.8.0",
             .summary = "Incrementally iterate Set elements",
             .complexity = "O(1) for every call. O(N) for a complete iteration, including enough "
                           "command calls for the cursor to return back to 0. N is the number of "
                           "elements inside the collection..",
             .tips = {"nondeterministic_output"}});
}

}  // namespace redlab::server::engine
