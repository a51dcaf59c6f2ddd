// DUMP and RESTORE (cluster.c): a value serialised in Redis's RDB encoding, with the RDB version
// and a CRC64 after it, byte for byte what redis-server 7.0 produces for the same value and
// encoding (see server/rdb/value.h for the one place where redlab's layout may differ: lists).
#include "server/command/command_table.h"
#include "server/engine/core/context.h"
#include "server/engine/core/engine.h"
#include "server/engine/core/errors.h"
#include "server/rdb/value.h"

namespace redlab::server::engine {
namespace {

void DumpCommand(CommandContext& ctx) {
  Db::Node* node = ctx.db().LookupRead(ctx.arg(1));
  if (node == nullptr) {
    ctx.reply().Null();
    return;
  }
  ctx.reply().Bulk(rdb::CreateDumpPayload(node->value.value, ctx.engine().value_options()));
}

// RESTORE key ttl serialized-value [REPLACE] [ABSTTL] [IDLETIME seconds] [FREQ frequency]
void RestoreCommand(CommandContext& ctx) {
  bool replace = false, absttl = false;
  int64_t idle = -1, freq = -1;
  for (size_t j = 4; j < ctx.argc(); ++j) {
    bool has_value = j + 1 < ctx.argc();
    if (ctx.ArgIs(j, "replace")) {
      replace = true;
    } else if (ctx.ArgIs(j, "absttl")) {
      absttl = true;
    } else if (ctx.ArgIs(j, "idletime") && has_value && freq == -1) {
      if (!ctx.IntArg(j + 1, &idle)) return;
      if (idle < 0) {
        ctx.ReplyError("Invalid IDLETIME value, must be >= 0");
        return;
      }
      ++j;
    } else if (ctx.ArgIs(j, "freq") && has_value && idle == -1) {
      if (!ctx.IntArg(j + 1, &freq)) return;
      if (freq < 0 || freq > 255) {
        ctx.ReplyError("Invalid FREQ value, must be >= 0 and <= 255");
        return;
      }
      ++j;
    } else {
      ctx.ReplySyntaxError();
      return;
    }
  }
  Db& db = ctx.db();
  const std::string& key = ctx.arg(1);
  if (!replace && db.LookupWrite(key) != nullptr) {
    ctx.ReplyError(err::kBusyKey);
    return;
  }
  int64_t ttl = 0;
  if (!ctx.IntArg(2, &ttl)) return;
  if (ttl < 0) {
    ctx.ReplyError("Invalid TTL value, must be >= 0");
    return;
  }
  const std::string& payload = ctx.arg(3);
  if (!rdb::VerifyDumpPayload(payload, ctx.engine().debug_settings().skip_checksum_validation)) {
    ctx.ReplyError("DUMP payload version or checksum are wrong");
    return;
  }
  std::optional<Object> value = rdb::DecodeDumpPayload(payload, ctx.engine().value_options());
  if (!value) {
    ctx.ReplyError("Bad data format");
    return;
  }
  bool deleted = replace && db.Delete(key);
  if (ttl != 0 && !absttl) ttl += ctx.now_ms();
  // checkAlreadyExpired: a master drops a key restored already expired (a replica keeps it
  // until its master's DEL).
  if (ttl != 0 && ttl <= ctx.now_ms() && !ctx.keyspace().replica()) {
    if (deleted) {
      ctx.PropagateAs({"DEL", key});
      ctx.SignalModifiedKey(key);
      ctx.NotifyKeyspaceEvent(kNotifyGeneric, "del", key);
      ctx.MarkDirty();
    }
    ctx.ReplyOk();
    return;
  }
  Db::Node* node = db.Add(key, std::move(*value));
  if (ttl != 0) {
    db.SetExpire(node, ttl);
    if (!absttl) {
      // Replicas receive the absolute time the key expires at.
      std::vector<std::string> args(ctx.args().begin(), ctx.args().end());
      args[2] = std::to_string(ttl);
      args.push_back("ABSTTL");
      ctx.PropagateAs(std::move(args));
    }
  }
  if (freq >= 0) ctx.keyspace().SetFreq(node->value, static_cast<uint8_t>(freq));
  if (idle >= 0) ctx.keyspace().SetIdle(node->value, idle);
  ctx.SignalModifiedKey(key);
  ctx.NotifyKeyspaceEvent(kNotifyGeneric, "restore", key);
  ctx.MarkDirty();
  ctx.ReplyOk();
}

}  // namespace

void RegisterDumpCommands(CommandTable& table) {
  table.Add({.name = "dump",
             .arity = 2,
             .flags = kCmdReadonly,
             .acl = kAclKeyspace,
             .keys = {KeyAt(1, kKeyRO | kKeyAccess)},
             .proc = DumpCommand,
             .group = "generic",
             .since = "2.6.0",
             .summary = "Return a serialized version of the value stored at the specified key.",
             .complexity = "O(1) to access the key and additional O(N*M) to serialize it, where N "
                           "is the number of Redis objects composing the value and M their "
                           "average size. For small string values the time complexity is thus "
                           "O(1)+O(1*M) where M is small, so simply O(1).",
             .tips = {"nondeterministic_output"}});
  table.Add({
      .name = "restore",
      .arity = -4,
      .flags = kCmdWrite | kCmdDenyOom,
      .acl = kAclKeyspace | kAclDangerous,
      .keys = {KeyAt(1, kKeyOW | kKeyUpdate)},
      .proc = RestoreCommand,
      .group = "generic",
      .since = "2.6.0",
      .summary = "Create a key using the provided serialized value, previously obtained "
                 "using DUMP.",
      .complexity = "O(1) to create the new key and additional O(N*M) to reconstruct the "
                    "serialized value, where N is the number of Redis objects composing "
                    "the value and M their average size. For small string values the time "
                    "complexity is thus O(1)+O(1*M) where M is small, so simply O(1). "
                    "However for sorted set values the complexity is O(N*M*log(N)) "
                    "because inserting values into sorted sets is O(log(N)).",
  });
  // RESTORE under the name a cluster node's MIGRATE sends (RESTORE-ASKING, a SYSCMD).
  table.Add({
      .name = "restore-asking",
      .arity = -4,
      .flags = kCmdWrite | kCmdDenyOom | kCmdAsking,
      .acl = kAclKeyspace | kAclDangerous,
      .keys = {KeyAt(1, kKeyOW | kKeyUpdate)},
      .proc = RestoreCommand,
      .group = "server",
      .since = "3.0.0",
      .summary = "An internal command for migrating keys in a cluster",
      .complexity = "O(1) to create the new key and additional O(N*M) to reconstruct the "
                    "serialized value, where N is the number of Redis objects composing "
                    "the value and M their average size. For small string values the time "
                    "complexity is thus O(1)+O(1*M) where M is small, so simply O(1). "
                    "However for sorted set values the complexity is O(N*M*log(N)) "
                    "because inserting values into sorted sets is O(log(N)).",
  });
}

}  // namespace redlab::server::engine
