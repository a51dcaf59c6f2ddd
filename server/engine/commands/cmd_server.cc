// Server commands: DBSIZE, FLUSHDB, FLUSHALL, TIME, INFO, CONFIG and SHUTDOWN.
#include "server/base/numbers.h"
#include "server/base/text.h"
#include "server/command/command_table.h"
#include "server/engine/config/config_rewrite.h"
#include "server/engine/core/aof.h"
#include "server/engine/core/context.h"
#include "server/engine/core/engine.h"
#include "server/engine/core/errors.h"
#include "server/engine/core/help.h"
#include "server/engine/core/persistence.h"
#include "server/engine/core/script_runner.h"
#include "server/engine/stats/info.h"

namespace redlab::server::engine {
namespace {

void DbSizeCommand(CommandContext& ctx) {
  ctx.reply().Integer(static_cast<int64_t>(ctx.db().size()));
}

// getFlushCommandFlags: an optional ASYNC or SYNC. redlab frees synchronously either way; the
// effect seen by clients is the same.
bool ParseFlushFlags(CommandContext& ctx) {
  if (ctx.argc() > 2 || (ctx.argc() == 2 && !ctx.ArgIs(1, "sync") && !ctx.ArgIs(1, "async"))) {
    ctx.ReplySyntaxError();
    return false;
  }
  return true;
}

void FlushDbCommand(CommandContext& ctx) {
  if (!ParseFlushFlags(ctx)) return;
  Db& db = ctx.db();
  ctx.engine().signals().Flushed(db.id());
  ctx.MarkDirty(db.size());
  db.Clear();
  // Propagated even when the database was empty (forceCommandPropagation), as FLUSHALL.
  ctx.ForcePropagation();
  ctx.ReplyOk();
}

void FlushAllCommand(CommandContext& ctx) {
  if (!ParseFlushFlags(ctx)) return;
  Keyspace& ks = ctx.keyspace();
  uint64_t removed = 0;
  for (int i = 0; i < ks.num_dbs(); ++i) removed += ks.db(i).size();
  ctx.engine().signals().Flushed(-1);
  ks.FlushAll();
  ctx.MarkDirty(removed);
  // With save points configured, Redis saves the now empty dataset (counting it as saved).
  if (!ctx.engine().config().save.empty()) ctx.engine().persistence().Save();
  // Propagated even when nothing was removed (forceCommandPropagation).
  ctx.ForcePropagation();
  ctx.ReplyOk();
}

void TimeCommand(CommandContext& ctx) {
  int64_t us = ctx.engine().clock().NowUs();
  ctx.reply().ArrayHeader(2);
  ctx.reply().BulkInteger(us / 1000000);
  ctx.reply().BulkInteger(us % 1000000);
}

void InfoCommand(CommandContext& ctx) {
  std::vector<std::string_view> sections;
  for (size_t i = 1; i < ctx.argc(); ++i) sections.push_back(ctx.arg(i));
  ctx.reply().Verbatim(GenerateInfo(ctx.engine(), sections));
}

void ConfigGetCommand(CommandContext& ctx) {
  std::vector<std::string_view> patterns;
  for (size_t i = 2; i < ctx.argc(); ++i) patterns.push_back(ctx.arg(i));
  auto pairs = ctx.engine().config_registry().Get(patterns);
  ctx.reply().MapHeader(pairs.size());
  for (const auto& [name, value] : pairs) {
    ctx.reply().Bulk(name);
    ctx.reply().Bulk(value);
  }
}

// updatePort and applyBind: a changed port, or any bind given, makes the node listen anew. When
// that fails every value of the command is rolled back and the old sockets come back.
std::optional<std::string> ApplyListenAddress(
    CommandContext& ctx, const std::vector<std::pair<std::string_view, std::string_view>>& pairs,
    const ServerConfig& before) {
  Engine& engine = ctx.engine();
  if (engine.host() == nullptr) return std::nullopt;
  std::string_view culprit;
  for (const auto& [name, value] : pairs) {
    if (EqualsIgnoreCase(name, "bind") ||
        (EqualsIgnoreCase(name, "port") && engine.config().port != before.port)) {
      culprit = name;
      break;
    }
  }
  if (culprit.empty()) return std::nullopt;
  if (engine.host()->Rebind(engine.config().bind, static_cast<int>(engine.config().port))) {
    return std::nullopt;
  }
  engine.config_registry().Restore(before);
  engine.host()->Rebind(before.bind, static_cast<int>(before.port));
  bool port = EqualsIgnoreCase(culprit, "port");
  return std::string("CONFIG SET failed (possibly related to argument '") +
         (port ? "port') - Unable to listen on this port. Check server logs."
               : "bind') - Failed to bind to specified addresses.");
}

void ConfigSetCommand(CommandContext& ctx) {
  if (ctx.argc() % 2 != 0) {
    ctx.ReplySyntaxError();
    return;
  }
  std::vector<std::pair<std::string_view, std::string_view>> pairs;
  for (size_t i = 2; i + 1 < ctx.argc(); i += 2) {
    pairs.emplace_back(ctx.arg(i), ctx.arg(i + 1));
    // Secrets are hidden from SLOWLOG and MONITOR even when the command fails.
    if (ConfigRegistry::IsSensitive(ctx.arg(i))) ctx.RedactArg(i + 1);
  }
  const ServerConfig before = ctx.engine().config();
  bool allow_protected = ctx.engine().AllowProtectedConfig(ctx.client());
  if (auto error = ctx.engine().config_registry().Set(pairs, /*startup=*/false, allow_protected)) {
    ctx.ReplyError(*error);
    return;
  }
  if (auto error = ApplyListenAddress(ctx, pairs, before)) {
    ctx.ReplyError(*error);
    return;
  }
  const std::string& requirepass = before.requirepass;
  // A new requirepass becomes the default user's only password (Redis's updateRequirePass,
  // which runs only when the value changes).
  if (ctx.engine().config().requirepass != requirepass) {
    ctx.engine().auth().acl().SetDefaultPassword(ctx.engine().config().requirepass);
  }
  // updateAppendonly: the AOF follows appendonly (turning it on starts a rewrite).
  Aof& aof = ctx.engine().aof();
  if (!ctx.engine().config().appendonly && aof.state() != Aof::State::kOff) {
    aof.Stop();
  } else if (ctx.engine().config().appendonly && aof.state() == Aof::State::kOff &&
             !aof.Start(ctx.client().in_multi())) {
    ctx.engine().config_registry().Restore(before);
    ctx.ReplyError(
        "CONFIG SET failed (possibly related to argument 'appendonly') - Unable to turn on AOF. "
        "Check server logs.");
    return;
  }
  ctx.engine().ConfigChanged();
  for (const auto& [name, value] : pairs) {
    if (EqualsIgnoreCase(name, "maxmemory")) ctx.engine().memory().StartEviction();
  }
  ctx.ReplyOk();
}

void ConfigResetStatCommand(CommandContext& ctx) {
  ctx.engine().ResetStats();
  ctx.ReplyOk();
}

void ConfigRewriteCommand(CommandContext& ctx) {
  if (ctx.engine().config().config_file.empty()) {
    ctx.ReplyError("The server is running without a config file");
    return;
  }
  EngineHost* host = ctx.engine().host();
  if (auto error = RewriteNodeConfigFile(ctx.engine(), /*force_all=*/false)) {
    if (host != nullptr) host->LogWarning("CONFIG REWRITE failed: " + *error);
    ctx.ReplyError("Rewriting config file: " + *error);
    return;
  }
  if (host != nullptr) host->Log(2, "CONFIG REWRITE executed with success.");
  ctx.ReplyOk();
}

void ConfigHelpCommand(CommandContext& ctx) { ReplyHelp(ctx, kConfigHelp); }

void ShutdownCommand(CommandContext& ctx) {
  bool abort = false;
  bool nosave = false;
  bool save = false;
  bool other_flags = false;  // NOW, FORCE
  for (size_t i = 1; i < ctx.argc(); ++i) {
    if (ctx.ArgIs(i, "nosave")) {
      nosave = true;
    } else if (ctx.ArgIs(i, "save")) {
      save = true;
    } else if (ctx.ArgIs(i, "now") || ctx.ArgIs(i, "force")) {
      other_flags = true;
    } else if (ctx.ArgIs(i, "abort")) {
      abort = true;
    } else {
      ctx.ReplySyntaxError();
      return;
    }
  }
  // ABORT goes alone (repeated is fine); SAVE and NOSAVE contradict each other.
  if ((abort && (nosave || save || other_flags)) || (nosave && save)) {
    ctx.ReplySyntaxError();
    return;
  }
  if (abort) {
    // No shutdown is ever in progress here (redlab has nothing to save), as abortShutdown finds.
    ctx.ReplyError("No shutdown in progress.");
    return;
  }
  if (ctx.engine().script_busy()) {
    // Only SHUTDOWN NOSAVE may stop a node busy with a script; the script stops with it.
    if (!nosave) {
      ctx.ReplyError(ctx.engine().scripts().BusyError());
      return;
    }
    ctx.engine().scripts().AbortForShutdown();
  }
  // Like Redis, no reply: the connection closes as the node stops.
  ctx.client().set_close_after_reply();
  ctx.engine().host()->RequestShutdown();
}

}  // namespace

// The commands of specs/server.json (generated by server/command/generate_specs.py).
#include "server/engine/commands/specs/server.inc"

}  // namespace redlab::server::engine
