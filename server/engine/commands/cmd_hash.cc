// Hash commands, as Redis 7.0's t_hash.c: HSET, HMSET, HSETNX, HGET, HMGET, HDEL, HEXISTS,
// HINCRBY, HINCRBYFLOAT, HLEN, HSTRLEN, HKEYS, HVALS, HGETALL, HSCAN, HRANDFIELD.
#include <charconv>
#include <cmath>
#include <unordered_set>
#include <vector>

#include "server/base/numbers.h"
#include "server/command/command_table.h"
#include "server/engine/commands/lookup.h"
#include "server/engine/commands/remove_members.h"
#include "server/engine/commands/scan.h"
#include "server/engine/core/context.h"
#include "server/engine/core/engine.h"
#include "server/engine/core/errors.h"

namespace redlab::server::engine {
namespace {

using Pair = std::pair<std::string_view, std::string_view>;

// hashTypeLookupWriteOrCreate: the hash at `key`, created empty when missing; nullptr after
// replying WRONGTYPE. Every caller writes at least one field, so no empty hash is left behind.
HashValue* LookupWriteOrCreate(CommandContext& ctx) {
  Db::Node* node = nullptr;
  if (!ctx.LookupWrite(ctx.arg(1), ObjectType::kHash, &node)) return nullptr;
  if (node == nullptr) node = ctx.db().Add(ctx.arg(1), Object::NewHash());
  return &node->value.value.hash();
}

// The hash at key argument 1 for reading: false after replying WRONGTYPE when the key holds
// another type; *hash is nullptr when there is no such key.
bool ReadHash(CommandContext& ctx, const HashValue** hash) {
  Db::Node* node = nullptr;
  if (!ctx.LookupRead(ctx.arg(1), ObjectType::kHash, &node)) return false;
  *hash = node == nullptr ? nullptr : &node->value.value.hash();
  return true;
}

// A field's value; a missing key is an empty hash, where every field is nil.
std::optional<std::string_view> FieldOf(const HashValue* hash, std::string_view field) {
  if (hash == nullptr) return std::nullopt;
  return hash->Get(field);
}

void ReplyField(CommandContext& ctx, const HashValue* hash, std::string_view field) {
  if (std::optional<std::string_view> value = FieldOf(hash, field)) {
    ctx.reply().Bulk(*value);
  } else {
    ctx.reply().Null();
  }
}

void HSetCommand(CommandContext& ctx) {
  if (ctx.argc() % 2 == 1) {
    ctx.ReplyWrongArity();
    return;
  }
  HashValue* hash = LookupWriteOrCreate(ctx);
  if (hash == nullptr) return;
  ListpackLimits limits = ctx.engine().hash_limits();
  hash->ConvertForWrite(ctx.args().subspan(2), limits);
  int64_t created = 0;
  for (size_t i = 2; i < ctx.argc(); i += 2) {
    if (hash->Set(ctx.arg(i), ctx.arg(i + 1), limits)) ++created;
  }
  // HSET and HMSET share this procedure and differ only in their reply.
  if (ctx.command().name() == "hset") {
    ctx.reply().Integer(created);
  } else {
    ctx.ReplyOk();
  }
  ctx.SignalModifiedKey(ctx.arg(1));
  ctx.NotifyKeyspaceEvent(kNotifyHash, "hset", ctx.arg(1));
  ctx.MarkDirty((ctx.argc() - 2) / 2);
}

void HSetNxCommand(CommandContext& ctx) {
  HashValue* hash = LookupWriteOrCreate(ctx);
  if (hash == nullptr) return;
  if (hash->Contains(ctx.arg(2))) {
    ctx.reply().Integer(0);
    return;
  }
  // Only a hash that is written to is converted.
  ListpackLimits limits = ctx.engine().hash_limits();
  hash->ConvertForWrite(ctx.args().subspan(2, 2), limits);
  hash->Set(ctx.arg(2), ctx.arg(3), limits);
  ctx.reply().Integer(1);
  ctx.SignalModifiedKey(ctx.arg(1));
  ctx.NotifyKeyspaceEvent(kNotifyHash, "hset", ctx.arg(1));
  ctx.MarkDirty();
}

void HGetCommand(CommandContext& ctx) {
  const HashValue* hash = nullptr;
  if (!ReadHash(ctx, &hash)) return;
  ReplyField(ctx, hash, ctx.arg(2));
}

void HMGetCommand(CommandContext& ctx) {
  const HashValue* hash = nullptr;
  if (!ReadHash(ctx, &hash)) return;
  ctx.reply().ArrayHeader(ctx.argc() - 2);
  for (size_t i = 2; i < ctx.argc(); ++i) ReplyField(ctx, hash, ctx.arg(i));
}

void HDelCommand(CommandContext& ctx) {
  Db::Node* node = WriteOrReply(ctx, ctx.arg(1), ObjectType::kHash, IfMissing::kZero);
  if (node == nullptr) return;
  RemoveMembersAndReply(
      ctx, node, node->value.value.hash(),
      [](HashValue& hash, std::string_view field) { return hash.Delete(field); }, kNotifyHash,
      "hdel");
}

void HExistsCommand(CommandContext& ctx) {
  const HashValue* hash = nullptr;
  if (!ReadHash(ctx, &hash)) return;
  ctx.reply().Integer(hash != nullptr && hash->Contains(ctx.arg(2)) ? 1 : 0);
}

void HLenCommand(CommandContext& ctx) {
  const HashValue* hash = nullptr;
  if (!ReadHash(ctx, &hash)) return;
  ctx.reply().Integer(hash == nullptr ? 0 : static_cast<int64_t>(hash->size()));
}

void HStrLenCommand(CommandContext& ctx) {
  const HashValue* hash = nullptr;
  if (!ReadHash(ctx, &hash)) return;
  std::optional<std::string_view> value = FieldOf(hash, ctx.arg(2));
  ctx.reply().Integer(value ? static_cast<int64_t>(value->size()) : 0);
}

void HIncrByCommand(CommandContext& ctx) {
  int64_t increment;
  if (!ctx.IntArg(3, &increment)) return;
  HashValue* hash = LookupWriteOrCreate(ctx);
  if (hash == nullptr) return;
  int64_t value = 0;
  if (std::optional<std::string_view> current = hash->Get(ctx.arg(2))) {
    if (!ParseInt64(*current, &value)) {
      ctx.ReplyError("hash value is not an integer");
      return;
    }
  }
  if (AddOverflows(value, increment)) {
    ctx.ReplyError(err::kOverflow);
    return;
  }
  value += increment;
  char buf[24];
  auto [end, ec] = std::to_chars(buf, buf + sizeof(buf), value);
  hash->Set(ctx.arg(2), std::string_view(buf, static_cast<size_t>(end - buf)),
            ctx.engine().hash_limits());
  ctx.reply().Integer(value);
  ctx.SignalModifiedKey(ctx.arg(1));
  ctx.NotifyKeyspaceEvent(kNotifyHash, "hincrby", ctx.arg(1));
  ctx.MarkDirty();
}

void HIncrByFloatCommand(CommandContext& ctx) {
  long double increment;
  if (!ctx.LongDoubleArg(3, &increment)) return;
  if (std::isnan(increment) || std::isinf(increment)) {
    ctx.ReplyError("value is NaN or Infinity");
    return;
  }
  HashValue* hash = LookupWriteOrCreate(ctx);
  if (hash == nullptr) return;
  long double value = 0;
  if (std::optional<std::string_view> current = hash->Get(ctx.arg(2))) {
    if (!ParseLongDouble(*current, &value)) {
      ctx.ReplyError("hash value is not a float");
      return;
    }
  }
  value += increment;
  if (std::isnan(value) || std::isinf(value)) {
    ctx.ReplyError("increment would produce NaN or Infinity");
    return;
  }
  std::string result = FormatLongDoubleHuman(value);
  hash->Set(ctx.arg(2), result, ctx.engine().hash_limits());
  ctx.reply().Bulk(result);
  ctx.SignalModifiedKey(ctx.arg(1));
  ctx.NotifyKeyspaceEvent(kNotifyHash, "hincrbyfloat", ctx.arg(1));
  ctx.MarkDirty();
  // Replicated as HSET of the final value, so that float formatting on a replica cannot differ.
  ctx.PropagateAs({"HSET", ctx.arg(1), ctx.arg(2), std::move(result)});
}

// HKEYS, HVALS and HGETALL: HGETALL answers a map (an empty map for a missing key), the others
// an array.
void ReplyAll(CommandContext& ctx, bool fields, bool values) {
  const HashValue* hash = nullptr;
  if (!ReadHash(ctx, &hash)) return;
  size_t size = hash == nullptr ? 0 : hash->size();
  if (fields && values) {
    ctx.reply().MapHeader(size);
  } else {
    ctx.reply().ArrayHeader(size);
  }
  if (hash == nullptr) return;
  hash->ForEach([&](std::string_view f, std::string_view v) {
    if (fields) ctx.reply().Bulk(f);
    if (values) ctx.reply().Bulk(v);
  });
}

void HKeysCommand(CommandContext& ctx) { ReplyAll(ctx, true, false); }
void HValsCommand(CommandContext& ctx) { ReplyAll(ctx, false, true); }
void HGetAllCommand(CommandContext& ctx) { ReplyAll(ctx, true, true); }

void HScanCommand(CommandContext& ctx) {
  uint64_t cursor;
  ScanOptions options;
  Db::Node* node = StartKeyScan(ctx, ObjectType::kHash, &cursor, &options);
  if (node == nullptr) return;
  const HashValue* hash = &node->value.value.hash();
  std::vector<std::string_view> elements;
  size_t visited = 0;  // elements seen before MATCH filters them: what COUNT bounds
  auto collect = [&](std::string_view f, std::string_view v) {
    visited += 2;
    if (!options.Matches(f)) return;
    elements.push_back(f);
    elements.push_back(v);
  };
  if (hash->encoding() == HashValue::Encoding::kListpack) {
    cursor = hash->Scan(cursor, collect);
  } else {
    // scanGenericCommand: up to COUNT*10 more buckets, until COUNT elements are gathered. Like
    // Redis's long arithmetic, a huge COUNT wraps and then scans on to the end.
    uint64_t max_iterations = static_cast<uint64_t>(options.count) * 10;
    do {
      cursor = hash->Scan(cursor, collect);
    } while (cursor != 0 && max_iterations-- != 0 &&
             visited < static_cast<uint64_t>(options.count));
  }
  ReplyScan(ctx, cursor, elements);
}

// One HRANDFIELD element: the field, or with values [field, value] (a nested pair in RESP3,
// flat in RESP2).
void ReplyRandomPair(CommandContext& ctx, const Pair& pair, bool with_values) {
  if (with_values && ctx.reply().protocol() > 2) ctx.reply().ArrayHeader(2);
  ctx.reply().Bulk(pair.first);
  if (with_values) ctx.reply().Bulk(pair.second);
}

void HRandFieldWithCount(CommandContext& ctx, int64_t count_arg, bool with_values) {
  const HashValue* hash = nullptr;
  if (!ReadHash(ctx, &hash)) return;
  if (hash == nullptr || count_arg == 0) {
    ctx.reply().EmptyArray();
    return;
  }
  const bool unique = count_arg > 0;
  const uint64_t count =
      unique ? static_cast<uint64_t>(count_arg) : static_cast<uint64_t>(-count_arg);
  const size_t size = hash->size();
  const size_t per_element = with_values && ctx.reply().protocol() == 2 ? 2 : 1;
  auto& rng = ctx.keyspace().rng();

  // A negative count (or 1) samples with repeats, in random order.
  if (!unique || count == 1) {
    ctx.reply().ArrayHeader(count * per_element);
    if (hash->encoding() == HashValue::Encoding::kHashtable) {
      for (uint64_t i = 0; i < count; ++i) ReplyRandomPair(ctx, hash->Random(rng), with_values);
      return;
    }
    std::vector<Pair> pairs;
    pairs.reserve(size);
    hash->ForEach([&](std::string_view f, std::string_view v) { pairs.emplace_back(f, v); });
    std::uniform_int_distribution<size_t> pick(0, size - 1);
    for (uint64_t i = 0; i < count; ++i) ReplyRandomPair(ctx, pairs[pick(rng)], with_values);
    return;
  }

  // Asking for the whole hash or more returns the whole hash, in its order.
  if (count >= size) {
    ctx.reply().ArrayHeader(size * per_element);
    hash->ForEach([&](std::string_view f, std::string_view v) {
      ReplyRandomPair(ctx, Pair(f, v), with_values);
    });
    return;
  }

  ctx.reply().ArrayHeader(count * per_element);
  if (hash->encoding() == HashValue::Encoding::kHashtable && count * 3 <= size) {
    // Few of many: pick until `count` distinct fields are found.
    std::unordered_set<const char*> seen;
    while (seen.size() < count) {
      Pair pair = hash->Random(rng);
      if (seen.insert(pair.first.data()).second) ReplyRandomPair(ctx, pair, with_values);
    }
    return;
  }
  // Otherwise choose `count` of the pairs in one pass (selection sampling), keeping the hash's
  // order as lpRandomPairsUnique does.
  uint64_t needed = count;
  size_t remaining = size;
  hash->ForEach([&](std::string_view f, std::string_view v) {
    if (needed > 0 && std::uniform_int_distribution<size_t>(0, remaining - 1)(rng) < needed) {
      ReplyRandomPair(ctx, Pair(f, v), with_values);
      --needed;
    }
    --remaining;
  });
}

void HRandFieldCommand(CommandContext& ctx) {
  if (ctx.argc() >= 3) {
    int64_t count;
    if (!ctx.RangeIntArg(2, -INT64_MAX, INT64_MAX, &count)) return;
    bool with_values = false;
    if (ctx.argc() > 4 || (ctx.argc() == 4 && !ctx.ArgIs(3, "withvalues"))) {
      ctx.ReplySyntaxError();
      return;
    }
    if (ctx.argc() == 4) {
      with_values = true;
      // Twice the count must fit the reply length.
      if (count < -INT64_MAX / 2 || count > INT64_MAX / 2) {
        ctx.ReplyError("value is out of range");
        return;
      }
    }
    HRandFieldWithCount(ctx, count, with_values);
    return;
  }
  const HashValue* hash = nullptr;
  if (!ReadHash(ctx, &hash)) return;
  if (hash == nullptr) {
    ctx.reply().Null();
    return;
  }
  ctx.reply().Bulk(hash->Random(ctx.keyspace().rng()).first);
}

}  // namespace

// The commands of specs/hash.json (generated by server/command/generate_specs.py).
#include "server/engine/commands/specs/hash.inc"

}  // namespace redlab::server::engine
