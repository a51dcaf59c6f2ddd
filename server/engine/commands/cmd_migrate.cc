// MIGRATE (cluster.c's migrateCommand): the keys' DUMP payloads sent to another server as
// RESTORE commands over a cached blocking connection, then deleted here (unless COPY) and
// propagated as DEL. Like Redis, the transfer blocks the node for its duration, bounded by the
// timeout. Error texts, NOKEY, the single retry on a stale cached connection and the SELECT
// skipped when the connection already has the database are Redis's.
#include <cstdlib>
#include <string>
#include <vector>

#include "server/base/text.h"
#include "server/command/command_table.h"
#include "server/engine/core/context.h"
#include "server/engine/core/engine.h"
#include "server/engine/core/errors.h"
#include "server/rdb/value.h"
#include "server/resp/writer.h"

namespace redlab::server::engine {
namespace {

void AppendCommand(std::string* out, std::initializer_list<std::string_view> args) {
  resp::ReplyWriter writer(out);
  writer.ArrayHeader(args.size());
  for (std::string_view a : args) writer.Bulk(a);
}

struct MigrateOptions {
  bool copy = false;
  bool replace = false;
  const std::string* username = nullptr;
  const std::string* password = nullptr;
  size_t first_key = 3;
  size_t num_keys = 1;
};

// The options after the timeout; false once an error was replied.
bool ParseOptions(CommandContext& ctx, MigrateOptions* o) {
  for (size_t j = 6; j < ctx.argc(); ++j) {
    size_t more = ctx.argc() - 1 - j;
    if (ctx.ArgIs(j, "copy")) {
      o->copy = true;
    } else if (ctx.ArgIs(j, "replace")) {
      o->replace = true;
    } else if (ctx.ArgIs(j, "auth")) {
      if (more == 0) {
        ctx.ReplySyntaxError();
        return false;
      }
      o->password = &ctx.arg(++j);
      ctx.RedactArg(j);
    } else if (ctx.ArgIs(j, "auth2")) {
      if (more < 2) {
        ctx.ReplySyntaxError();
        return false;
      }
      o->username = &ctx.arg(++j);
      ctx.RedactArg(j);
      o->password = &ctx.arg(++j);
      ctx.RedactArg(j);
    } else if (ctx.ArgIs(j, "keys")) {
      if (!ctx.arg(3).empty()) {
        ctx.ReplyError(
            "When using MIGRATE KEYS option, the key argument must be set to the empty string");
        return false;
      }
      o->first_key = j + 1;
      o->num_keys = ctx.argc() - j - 1;
      break;
    } else {
      ctx.ReplySyntaxError();
      return false;
    }
  }
  return true;
}

void MigrateCommand(CommandContext& ctx) {
  MigrateOptions o;
  if (!ParseOptions(ctx, &o)) return;
  int64_t timeout = 0, dbid = 0;
  if (!ctx.IntArg(5, &timeout) || !ctx.IntArg(4, &dbid)) return;
  if (timeout <= 0) timeout = 1000;

  Db& db = ctx.db();
  std::vector<std::string> keys;
  for (size_t j = 0; j < o.num_keys; ++j) {
    const std::string& key = ctx.arg(o.first_key + j);
    if (db.LookupRead(key) != nullptr) keys.push_back(key);
  }
  if (keys.empty()) {
    ctx.reply().Status("NOKEY");
    return;
  }

  Engine& engine = ctx.engine();
  MigrateSockets& sockets = engine.migrate_sockets();
  const std::string& host = ctx.arg(1);
  // connBlockingConnect takes atoi() of the port.
  int port = std::atoi(std::string(CStringPrefix(ctx.arg(2))).c_str());
  std::string name = host + ":" + ctx.arg(2);
  bool may_retry = true;
  for (;;) {
    int64_t now_s = engine.clock().NowMs() / 1000;
    MigrateSockets::Cached* cs = sockets.Find(name, now_s);
    if (cs == nullptr) {
      std::unique_ptr<SyncLink> link =
          engine.host() == nullptr ? nullptr : engine.host()->ConnectSync(host, port, timeout);
      if (link == nullptr) {
        ctx.ReplyError("-IOERR error or timeout connecting to the client");
        return;
      }
      cs = sockets.Add(name, std::move(link), now_s);
    }

    std::string out;
    if (o.password != nullptr) {
      if (o.username != nullptr) {
        AppendCommand(&out, {"AUTH", *o.username, *o.password});
      } else {
        AppendCommand(&out, {"AUTH", *o.password});
      }
    }
    bool select = cs->last_dbid != dbid;
    if (select) AppendCommand(&out, {"SELECT", std::to_string(dbid)});
    // Keys that expired since the lookup above are left out.
    std::vector<std::string> sent;
    for (const std::string& key : keys) {
      Db::Node* node = db.LookupNoTouch(key);
      if (node == nullptr) continue;
      int64_t ttl = 0;
      if (node->value.expire_ms != kNoExpire) {
        ttl = node->value.expire_ms - engine.clock().NowMs();
        if (ttl < 0) continue;
        if (ttl < 1) ttl = 1;
      }
      std::string payload = rdb::CreateDumpPayload(node->value.value, engine.value_options());
      std::string ttl_text = std::to_string(ttl);
      if (o.replace) {
        AppendCommand(&out, {"RESTORE", key, ttl_text, payload, "REPLACE"});
      } else {
        AppendCommand(&out, {"RESTORE", key, ttl_text, payload});
      }
      sent.push_back(key);
    }

    bool write_error = false;
    bool timed_out = false;
    bool socket_error = false;
    bool error_from_target = false;
    size_t replies_read = 0;
    std::vector<std::string> deleted;
    std::string auth_reply, select_reply, restore_reply;
    SyncLink& link = *cs->link;
    constexpr size_t kLineMax = 1023;  // Redis's char buf[1024]
    auto read = [&](std::string* line) {
      SyncLink::Status status = link.ReadLine(line, kLineMax, timeout);
      if (status == SyncLink::Status::kTimeout) timed_out = true;
      // connSyncReadLine fails on an empty line too (it returns the length).
      return status == SyncLink::Status::kOk && !line->empty();
    };
    // Redis's socket_err on a write or before any RESTORE reply: the cached link is closed, and
    // MIGRATE tries once more unless it timed out; true to retry, else `error` is answered.
    auto close_and_retry = [&](std::string_view error) {
      sockets.Close(name);
      if (!timed_out && may_retry) {
        may_retry = false;
        return true;
      }
      ctx.ReplyError(error);
      return false;
    };
    SyncLink::Status written = link.Write(out, timeout);
    if (written != SyncLink::Status::kOk) {
      write_error = true;
      timed_out = written == SyncLink::Status::kTimeout;
    } else if ((o.password != nullptr && !read(&auth_reply)) ||
               (select && !read(&select_reply))) {
      socket_error = true;
      replies_read = 0;
      // As Redis: this is a socket error before any RESTORE reply (goto socket_err).
      if (close_and_retry("-IOERR error or timeout reading to target instance")) continue;
      return;
    } else {
      for (const std::string& key : sent) {
        if (!read(&restore_reply)) {
          socket_error = true;
          break;
        }
        ++replies_read;
        bool auth_failed = o.password != nullptr && auth_reply[0] == '-';
        bool select_failed = select && select_reply[0] == '-';
        if (auth_failed || select_failed || restore_reply[0] == '-') {
          if (!error_from_target) {
            cs->last_dbid = -1;
            const std::string& error =
                auth_failed ? auth_reply : (select_failed ? select_reply : restore_reply);
            error_from_target = true;
            ctx.ReplyError("Target instance replied with error: " + error.substr(1));
          }
        } else if (!o.copy) {
          db.Delete(key);
          ctx.SignalModifiedKey(key);
          ctx.NotifyKeyspaceEvent(kNotifyGeneric, "del", key);
          ctx.MarkDirty();
          deleted.push_back(key);
        }
      }
    }
    if (write_error) {
      if (close_and_retry("-IOERR error or timeout writing to target instance")) continue;
      return;
    }
    // Retry only when nothing was processed: no reply to the first RESTORE.
    if (!error_from_target && socket_error && replies_read == 0 && may_retry && !timed_out) {
      sockets.Close(name);
      may_retry = false;
      continue;
    }
    if (socket_error) sockets.Close(name);
    if (!deleted.empty()) {
      std::vector<std::string> del = {"DEL"};
      del.insert(del.end(), deleted.begin(), deleted.end());
      ctx.PropagateAs(std::move(del));
    } else {
      ctx.PreventPropagation();
    }
    if (!error_from_target && socket_error) {
      ctx.ReplyError("-IOERR error or timeout reading to target instance");
      return;
    }
    if (!error_from_target) {
      cs->last_dbid = dbid;
      ctx.ReplyOk();
    }
    return;
  }
}

// migrateGetKeys: the key argument, or the keys after KEYS.
std::vector<FoundKey> MigrateKeys(std::span<const std::string> args) {
  size_t first = 3, num = 1;
  for (size_t i = 6; i < args.size(); ++i) {
    std::string_view arg = CStringPrefix(args[i]);
    if (EqualsIgnoreCase(arg, "keys")) {
      if (!args[3].empty()) {
        num = 0;  // a syntax error, which MIGRATE itself reports
      } else {
        first = i + 1;
        num = args.size() - first;
      }
      break;
    }
    if (EqualsIgnoreCase(arg, "auth")) i += 1;
    if (EqualsIgnoreCase(arg, "auth2")) i += 2;
  }
  std::vector<FoundKey> keys;
  for (size_t i = 0; i < num; ++i) keys.push_back({first + i, kKeyRW | kKeyAccess | kKeyDelete});
  return keys;
}

}  // namespace

// The commands of specs/migrate.json (generated by server/command/generate_specs.py).
#include "server/engine/commands/specs/migrate.inc"

}  // namespace redlab::server::engine
