// SAVE, BGSAVE, BGREWRITEAOF and LASTSAVE (rdb.c, aof.c). redlab writes real RDB snapshots to
// <dir>/<dbfilename> (see persistence.h) and the append-only file (see aof.h).
#include "server/command/command_table.h"
#include "server/engine/core/aof.h"
#include "server/engine/core/context.h"
#include "server/engine/core/engine.h"
#include "server/engine/core/persistence.h"

namespace redlab::server::engine {
namespace {

void SaveCommand(CommandContext& ctx) {
  Persistence& p = ctx.engine().persistence();
  if (p.bgsave_in_progress()) {
    ctx.ReplyError("Background save already in progress");
    return;
  }
  if (p.Save(/*count=*/true)) {
    ctx.ReplyOk();
  } else {
    ctx.ReplyError("-ERR");
  }
}

void BgsaveCommand(CommandContext& ctx) {
  // SCHEDULE only matters while an AOF rewrite runs, which never lasts past its command in
  // redlab: it is accepted and starts the save at once.
  if (ctx.argc() > 1 && !(ctx.argc() == 2 && ctx.ArgIs(1, "schedule"))) {
    ctx.ReplySyntaxError();
    return;
  }
  Persistence& p = ctx.engine().persistence();
  if (p.bgsave_in_progress()) {
    ctx.ReplyError("Background save already in progress");
  } else if (ctx.client().in_multi()) {
    // In a transaction Redis cannot fork: the save starts after it.
    p.ScheduleBackgroundSave();
    ctx.reply().Status("Background saving scheduled");
  } else if (p.StartBackgroundSave()) {
    ctx.reply().Status("Background saving started");
  } else {
    ctx.ReplyError("-ERR");
  }
}

// bgrewriteaofCommand: the rewrite runs to its end at once (redlab has no fork), so a rewrite
// is never found in progress.
void BgrewriteaofCommand(CommandContext& ctx) {
  switch (ctx.engine().aof().Rewrite(ctx.client().in_multi())) {
    case Aof::RewriteReply::kStarted:
      ctx.reply().Status("Background append only file rewriting started");
      break;
    case Aof::RewriteReply::kScheduled:
      ctx.reply().Status("Background append only file rewriting scheduled");
      break;
    case Aof::RewriteReply::kFailed:
      ctx.ReplyError(
          "Can't execute an AOF background rewriting. Please check the server logs for more "
          "information.");
      break;
  }
}

void LastsaveCommand(CommandContext& ctx) {
  ctx.reply().Integer(ctx.engine().persistence().lastsave_s());
}

}  // namespace

void RegisterPersistenceCommands(CommandTable& table) {
  table.Add({.name = "save",
             .arity = 1,
             .flags = kCmdNoAsyncLoading | kCmdAdmin | kCmdNoscript | kCmdNoMulti,
             .proc = SaveCommand,
             .group = "server",
             .since = "1.0.0",
             .summary = "Synchronously save the dataset to disk",
             .complexity = "O(N) where N is the total number of keys in all databases"});
  table.Add({.name = "bgsave",
             .arity = -1,
             .flags = kCmdNoAsyncLoading | kCmdAdmin | kCmdNoscript,
             .proc = BgsaveCommand,
             .group = "server",
             .since = "1.0.0",
             .summary = "Asynchronously save the dataset to disk",
             .complexity = "O(1)"});
  table.Add({.name = "bgrewriteaof",
             .arity = 1,
             .flags = kCmdNoAsyncLoading | kCmdAdmin | kCmdNoscript,
             .proc = BgrewriteaofCommand,
             .group = "server",
             .since = "1.0.0",
             .summary = "Asynchronously rewrite the append-only file",
             .complexity = "O(1)"});
  table.Add({.name = "lastsave",
             .arity = 1,
             .flags = kCmdLoading | kCmdStale | kCmdFast,
             .acl = kAclAdmin | kAclDangerous,
             .proc = LastsaveCommand,
             .group = "server",
             .since = "1.0.0",
             .summary = "Get the UNIX time stamp of the last successful save to disk",
             .complexity = "O(1)",
             .tips = {"nondeterministic_output"}});
}

}  // namespace redlab::server::engine
