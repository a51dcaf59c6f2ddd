// Transactions: MULTI, EXEC, DISCARD, WATCH, UNWATCH (Redis's multi.c). Queueing itself happens
// in Engine::Execute, which sees every command first.
#include "server/command/command_table.h"
#include "server/engine/core/context.h"
#include "server/engine/core/engine.h"

namespace redlab::server::engine {
namespace {

void DiscardTransaction(Engine& engine, Client& client) {
  client.multi() = Client::MultiState{};
  client.clear_dirty_cas();
  engine.watches().UnwatchAll(&client);
}

void MultiCommand(CommandContext& ctx) {
  if (ctx.client().in_multi()) {
    ctx.ReplyError("MULTI calls can not be nested");
    return;
  }
  ctx.client().multi().active = true;
  ctx.ReplyOk();
}

// A watched key that has expired since WATCH counts as modified (isWatchedKeyExpired).
bool WatchedKeyExpired(CommandContext& ctx) {
  for (const auto& w : ctx.client().watched_keys()) {
    if (w.expired) continue;
    Db& db = ctx.keyspace().db(w.db);
    // LookupQuiet would delete the key; only the logical state is wanted here.
    bool present = false;
    db.ForEachMatching(w.key, [&](const Db::Node* n) { present = db.IsExpired(n); });
    if (present) return true;
  }
  return false;
}

void ExecCommand(CommandContext& ctx) {
  Client& client = ctx.client();
  if (!client.in_multi()) {
    ctx.ReplyError("EXEC without MULTI");
    return;
  }
  if (WatchedKeyExpired(ctx)) client.set_dirty_cas();
  if (client.multi().aborted || client.dirty_cas()) {
    if (client.multi().aborted) {
      ctx.ReplyError("-EXECABORT Transaction discarded because of previous errors.");
    } else {
      ctx.reply().NullArray();
    }
    DiscardTransaction(ctx.engine(), client);
    return;
  }
  ctx.engine().watches().UnwatchAll(&client);  // as Redis: unwatch before running
  ctx.engine().ExecQueued(client, ctx.reply());
  DiscardTransaction(ctx.engine(), client);
  // The queued commands propagated themselves; EXEC adds nothing of its own.
  ctx.PreventPropagation();
}

void DiscardCommand(CommandContext& ctx) {
  if (!ctx.client().in_multi()) {
    ctx.ReplyError("DISCARD without MULTI");
    return;
  }
  DiscardTransaction(ctx.engine(), ctx.client());
  ctx.ReplyOk();
}

void WatchCommand(CommandContext& ctx) {
  if (ctx.client().in_multi()) {
    ctx.ReplyError("WATCH inside MULTI is not allowed");
    return;
  }
  // A client whose watch already broke need not watch more (Redis skips it too).
  if (ctx.client().dirty_cas()) {
    ctx.ReplyOk();
    return;
  }
  Db& db = ctx.db();
  for (size_t i = 1; i < ctx.argc(); ++i) {
    bool expired = false;
    db.ForEachMatching(ctx.arg(i), [&](const Db::Node* n) { expired = db.IsExpired(n); });
    ctx.engine().watches().Watch(&ctx.client(), db.id(), ctx.arg(i), expired);
  }
  ctx.ReplyOk();
}

void UnwatchCommand(CommandContext& ctx) {
  ctx.engine().watches().UnwatchAll(&ctx.client());
  ctx.client().clear_dirty_cas();
  ctx.ReplyOk();
}

}  // namespace

void RegisterTransactionCommands(CommandTable& table) {
  constexpr uint32_t kFlags = kCmdNoscript | kCmdLoading | kCmdStale;
  table.Add({.name = "multi",
             .arity = 1,
             .flags = kFlags | kCmdFast | kCmdAllowBusy | kCmdNotQueued,
             .acl = kAclTransaction,
             .proc = MultiCommand,
             .group = "transactions",
             .since = "1.2.0",
             .summary = "Mark the start of a transaction block",
             .complexity = "O(1)"});
  table.Add({.name = "exec",
             .arity = 1,
             .flags = kFlags | kCmdSkipSlowlog | kCmdNotQueued | kCmdEndsMulti | kCmdRunsQueue,
             .acl = kAclTransaction,
             .proc = ExecCommand,
             .group = "transactions",
             .since = "1.2.0",
             .summary = "Execute all commands issued after MULTI",
             .complexity = "Depends on commands in the transaction"});
  table.Add({.name = "discard",
             .arity = 1,
             .flags = kFlags | kCmdFast | kCmdAllowBusy | kCmdNotQueued | kCmdEndsMulti,
             .acl = kAclTransaction,
             .proc = DiscardCommand,
             .group = "transactions",
             .since = "2.0.0",
             .summary = "Discard all commands issued after MULTI",
             .complexity = "O(N), when N is the number of queued commands"});
  table.Add({.name = "watch",
             .arity = -2,
             .flags = kFlags | kCmdFast | kCmdAllowBusy | kCmdNotQueued,
             .acl = kAclTransaction,
             .keys = {KeyRange(1, -1, 1, kKeyRO)},
             .proc = WatchCommand,
             .group = "transactions",
             .since = "2.2.0",
             .summary = "Watch the given keys to determine execution of the MULTI/EXEC block",
             .complexity = "O(1) for every key."});
  table.Add({.name = "unwatch",
             .arity = 1,
             .flags = kFlags | kCmdFast | kCmdAllowBusy,
             .acl = kAclTransaction,
             .proc = UnwatchCommand,
             .group = "transactions",
             .since = "2.2.0",
             .summary = "Forget about all watched keys",
             .complexity = "O(1)"});
}

}  // namespace redlab::server::engine
