// Generic key commands: DEL, UNLINK, EXISTS, TYPE, TOUCH, KEYS, SCAN, RANDOMKEY, RENAME and
// RENAMENX, as Redis's db.c. The expiry commands (EXPIRE, TTL, PERSIST...) are in cmd_expire.cc.
#include <cstdint>
#include <limits>
#include <string>

#include "server/base/glob.h"
#include "server/base/text.h"
#include "server/command/command_table.h"
#include "server/engine/commands/scan.h"
#include "server/engine/core/context.h"
#include "server/engine/core/engine.h"
#include "server/engine/core/errors.h"

namespace redlab::server::engine {
namespace {

// delGenericCommand. UNLINK frees in the background in Redis; the effect seen by clients is
// the same, so both delete here.
void DelCommand(CommandContext& ctx) {
  Db& db = ctx.db();
  int64_t deleted = 0;
  for (size_t i = 1; i < ctx.argc(); ++i) {
    const std::string& key = ctx.arg(i);
    // expireIfNeeded first: an expired key goes (and its DEL is propagated) on its own. On a
    // replica it is only hidden, and DEL then removes it, as Redis's dbSyncDelete does.
    db.LookupWrite(key);
    if (db.Delete(key)) {
      ctx.SignalModifiedKey(key);
      ctx.NotifyKeyspaceEvent(kNotifyGeneric, "del", key);
      ctx.MarkDirty();
      ++deleted;
    }
  }
  ctx.reply().Integer(deleted);
}

// EXISTS counts every argument that names a live key, repeats included. It leaves the keys'
// access time alone (LOOKUP_NOTOUCH); TOUCH counts the same way and updates it.
void ExistsCommand(CommandContext& ctx) {
  int64_t count = 0;
  for (size_t i = 1; i < ctx.argc(); ++i) {
    if (ctx.db().LookupNoTouch(ctx.arg(i)) != nullptr) ++count;
  }
  ctx.reply().Integer(count);
}

void TouchCommand(CommandContext& ctx) {
  int64_t count = 0;
  for (size_t i = 1; i < ctx.argc(); ++i) {
    if (ctx.db().LookupRead(ctx.arg(i)) != nullptr) ++count;
  }
  ctx.reply().Integer(count);
}

void TypeCommand(CommandContext& ctx) {
  Db::Node* node = ctx.db().LookupNoTouch(ctx.arg(1));
  ctx.reply().Status(node == nullptr ? std::string_view("none")
                                     : TypeName(node->value.value.type()));
}

// KEYS lists the live keys matching the pattern; logically expired ones are skipped but left
// in place (Redis's keyIsExpired, not expireIfNeeded).
void KeysCommand(CommandContext& ctx) {
  Db& db = ctx.db();
  std::string_view pattern = ctx.arg(1);
  bool all = pattern == "*";
  resp::ReplyWriter& r = ctx.reply();
  size_t header = r.BeginDeferred();
  size_t count = 0;
  db.ForEach([&](const Db::Node* node) {
    if (!all && !GlobMatch(pattern, node->key())) return;
    if (db.IsExpired(node)) return;
    r.Bulk(node->key());
    ++count;
  });
  r.EndDeferredArray(header, count);
}

// scanGenericCommand over the keyspace: collect a batch of dictionary buckets, then filter it by
// MATCH, then TYPE, then expiry, in Redis's order.
void ScanCommand(CommandContext& ctx) {
  uint64_t cursor = 0;
  if (!ParseScanCursor(ctx, 1, &cursor)) return;
  ScanOptions options;
  if (!ParseScanOptions(ctx, 2, /*allow_type=*/true, &options)) return;

  Db& db = ctx.db();
  std::vector<Db::Node*> batch;
  const size_t count = static_cast<size_t>(options.count);
  // Redis gives up after count*10 empty buckets so a sparse table cannot stall the server.
  int64_t max_iterations = options.count > std::numeric_limits<int64_t>::max() / 10
                               ? std::numeric_limits<int64_t>::max()
                               : options.count * 10;
  do {
    cursor = db.Scan(cursor, [&](Db::Node* node) { batch.push_back(node); });
  } while (cursor != 0 && max_iterations-- != 0 && batch.size() < count);

  resp::ReplyWriter& r = ctx.reply();
  r.ArrayHeader(2);
  r.Bulk(std::to_string(cursor));
  // Written as they pass the filters: the filters may delete expired keys, so the batch's
  // nodes cannot be held until the end.
  size_t header = r.BeginDeferred();
  size_t returned = 0;
  std::string expired_name;
  for (Db::Node* node : batch) {
    if (!options.Matches(node->key())) continue;
    if (options.type) {
      // Redis looks the key up for its type, which expires it: an expired key then has type
      // "none" and, under TYPE none, is returned although it is gone. Keep its name for that.
      bool expired = db.IsExpired(node);
      if (expired) expired_name = node->key();
      Db::Node* live = db.LookupNoTouch(expired ? std::string_view(expired_name) : node->key());
      std::string_view type = live ? TypeName(live->value.value.type()) : "none";
      if (!EqualsIgnoreCase(*options.type, type)) continue;
      if (expired) {
        // On a master the lookup deleted it and the expiry check then finds nothing to filter;
        // a replica only hid it, and the expiry check filters it.
        if (!ctx.keyspace().replica()) {
          r.Bulk(expired_name);
          ++returned;
        }
        continue;
      }
    }
    // expireIfNeeded: an expired key is deleted on a master, hidden on a replica.
    if (db.IsExpired(node)) {
      db.LookupQuiet(node->key());
      continue;
    }
    r.Bulk(node->key());
    ++returned;
  }
  r.EndDeferredArray(header, returned);
}

void RandomKeyCommand(CommandContext& ctx) {
  Db::Node* node = ctx.db().RandomKey();
  if (node == nullptr) {
    ctx.reply().Null();
  } else {
    ctx.reply().Bulk(node->key());
  }
}

// renameGenericCommand: the value moves with its TTL; renaming a key to itself only checks that
// it exists.
void Rename(CommandContext& ctx, bool nx) {
  Db& db = ctx.db();
  const std::string& from = ctx.arg(1);
  const std::string& to = ctx.arg(2);
  Db::Node* node = db.LookupWrite(from);
  if (node == nullptr) {
    ctx.ReplyError(err::kNoSuchKey);
    return;
  }
  if (from == to) {
    if (nx) {
      ctx.reply().Integer(0);
    } else {
      ctx.ReplyOk();
    }
    return;
  }
  if (Db::Node* existing = db.LookupWrite(to)) {
    if (nx) {
      ctx.reply().Integer(0);
      return;
    }
    db.Delete(existing);
  }
  db.Move(node, db, to);  // (`to` is new: its "new" event, whatever it replaced)
  ctx.SignalModifiedKey(from);
  ctx.SignalModifiedKey(to);
  ctx.NotifyKeyspaceEvent(kNotifyGeneric, "rename_from", from);
  ctx.NotifyKeyspaceEvent(kNotifyGeneric, "rename_to", to);
  ctx.MarkDirty();
  if (nx) {
    ctx.reply().Integer(1);
  } else {
    ctx.ReplyOk();
  }
}

void RenameCommand(CommandContext& ctx) { Rename(ctx, false); }
void RenameNxCommand(CommandContext& ctx) { Rename(ctx, true); }

}  // namespace

// The commands of specs/keys.json (generated by server/command/generate_specs.py).
#include "server/engine/commands/specs/keys.inc"

}  // namespace redlab::server::engine
